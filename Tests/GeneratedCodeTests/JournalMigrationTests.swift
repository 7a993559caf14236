import Foundation
import StateLoop
import StateLoopDurable
import Synchronization
import Testing

/// Issue 21's migration test (Docs/Durability.md D92–D95): a real SQLite journal written by version
/// 1 of a spec (the `DrawerV1` golden) is opened by version 2 (the `Drawer` golden, whose lock holds
/// version 1's layout): `books` renamed `ledger` and `closing` inside it `settling`, `memo` and the
/// `note` event dropped, `reopen` renamed `resume`, the `shred` run dropped, `fee` new.
@Suite("Durable: a journal of an older version, migrated when it is opened")
struct JournalMigrationTests {
    /// Version 1's events: a run of each kind is queued at each `close`.
    static let events: [DrawerV1.Event] = [.credit(n: 1, amount: 10), .note(text: "x"), .close(n: 2), .reopen, .close(n: 3)]

    @Test("D93: version 2 opens version 1's last snapshot: the saved state renamed, a dropped field gone, the new one at its default; it resumes and accepts events")
    func d93OpensAnOlderSnapshot() async throws {
        try await Self.inFolder { folder in
            let path = folder + "/drawer.journal"
            try await Self.run(DrawerV1.self, path: path, initial: .initial, events: Self.events)
            let saved = try Self.history(path)
            let states = Mutex<[Drawer.State]>([])
            try await Self.run(Drawer.self, path: path, initial: .initial, events: [.resume, .credit(n: 4, amount: 7)],
                               onState: { state in states.withLock { $0.append(state) } })
            let seen = states.withLock { $0 }
            // Saved in `books.closing`: resumed in `ledger.settling`, `memo` gone, `fee` at its default.
            let first = try #require(seen.first)
            #expect(first.mode == .ledger(.settling))
            #expect(first.posted == 3 && first.balance == 10 && first.fee == 5)
            // The runs of the saved state's last step: the archive kept, the shred (dropped) gone.
            #expect(first.runs == [.archive(3)])
            // `resume` (version 1's `reopen`) leaves `settling`; the credit pays version 2's fee.
            let last = try #require(seen.last)
            #expect(last.mode == .ledger(.open))
            #expect(last.posted == 4 && last.balance == 12)
            // D95: version 1's entries are as they were; the new ones are version 2's.
            let after = try Self.history(path)
            #expect(Array(after.records.prefix(saved.records.count)) == saved.records)
            #expect(Array(after.snapshots.prefix(saved.snapshots.count)) == saved.snapshots)
            #expect(try after.snapshots.map { try JournalSnapshotEnvelope($0.state).version } == [1, 1, 2])
            #expect(try after.records.map { try JournalRecordEnvelope($0.event).version } == [1, 1, 1, 1, 1, 2, 2])
        }
    }

    @Test("D93: every state along random walks of Ledger, written as version 1 (which called `paused` `halted`), reads back with its configuration, parallel regions included, and its fields", arguments: [1, 2, 3] as [UInt64])
    func d93LedgerConfigurationsMigrate(seed: UInt64) throws {
        var state = Ledger.State.initial
        var configurations: Set<Ledger.Mode> = []
        for event in LedgerJournalToolTests.walk(seed: seed) {
            Ledger.reduce(&state, event)
            // Version 1's bytes are version 2's: the layouts differ only in a state's name.
            var writer = JournalWriter()
            writer.write(state)
            var reader = JournalReader(writer.bytes)
            var migrated = try Ledger.readState(from: &reader, version: 1)
            #expect(reader.isAtEnd)
            #expect(migrated.mode == state.mode)
            configurations.insert(migrated.mode)
            // The history and the due `onDone:`s name states by version 1's layout, which differs: they start afresh.
            #expect(migrated._history_back == nil && migrated._done.isEmpty)
            // The rest of the bookkeeping is laid out alike: carried.
            #expect(migrated._entries == state._entries && migrated._entered_posting == state._entered_posting)
            #expect(migrated._entered_auditing == state._entered_auditing && migrated._delay_auditing_0 == state._delay_auditing_0)
            #expect(migrated.runs == state.runs && migrated._runsQueued == state._runsQueued && migrated.isSettled == state.isSettled)
            Ledger.copyBookkeeping(from: state, to: &migrated)
            #expect(migrated == state)
        }
        #expect(configurations.count > 5)
    }

    @Test("D92: the readers dispatch on the version: version 1's bytes migrated, version 2's read as they are, version 3's refused")
    func d92ReadersDispatchOnTheVersion() throws {
        var old = JournalWriter()
        old.write(DrawerV1.Event.reopen)
        var reader = JournalReader(old.bytes)
        #expect(try Drawer.readEvent(from: &reader, version: 1) == .resume)
        var close = JournalWriter()
        close.write(Drawer.Event.close(n: 9))
        reader = JournalReader(close.bytes)
        #expect(try Drawer.readEvent(from: &reader, version: 2) == .close(n: 9))
        var current = JournalWriter()
        current.write(Drawer.State.initial)
        reader = JournalReader(current.bytes)
        #expect(try Drawer.readState(from: &reader, version: 2) == .initial)
        reader = JournalReader(current.bytes)
        #expect(throws: JournalDecodingError.self) { try Drawer.readState(from: &reader, version: 3) }
        #expect(reader.offset == 0)
        var note = JournalWriter()
        note.write(DrawerV1.Event.note(text: "dropped"))
        reader = JournalReader(note.bytes)
        #expect(try Drawer.readEvent(from: &reader, version: 1) == nil)
        #expect(reader.isAtEnd)
    }

    @Test("D94: a dropped run is not run again, a renamed event in a record replays, a dropped one is skipped")
    func d94RunsAndRecordsMigrate() async throws {
        try await Self.inFolder { folder in
            let path = folder + "/drawer.journal"
            try await Self.run(DrawerV1.self, path: path, initial: .initial, events: Self.events)
            // Of the runs the snapshot holds unfinished (archive 0, shred 1, archive 2, shred 3),
            // version 2 reads the archives: the shreds are dropped, never to run.
            let snapshot = try #require(try Self.history(path).snapshots.last)
            var envelope = try JournalSnapshotEnvelope(snapshot.state)
            _ = try Drawer.readState(from: &envelope.reader, version: envelope.version)
            let book = try envelope.readBookkeeping(
                run: { (reader: inout JournalReader) throws(JournalDecodingError) in try Drawer.readRun(from: &reader, version: 1) },
                event: { (reader: inout JournalReader) throws(JournalDecodingError) in try Drawer.readEvent(from: &reader, version: 1) })
            #expect(book.runs.map(\.key) == [0, 1, 2, 3])
            #expect(book.runs.map(\.run) == [.archive(2), nil, .archive(3), nil])

            // A journal killed before its last snapshot: version 1's initial snapshot and its
            // records, replayed by version 2's reducer (`fee` is taken from each credit).
            let v1 = try Self.history(path)
            let killed = folder + "/killed.journal"
            let store = try SQLiteJournalStore(path: killed)
            try store.writeSnapshot(v1.snapshots[0], of: "drawer")
            try store.append(v1.records, to: "drawer")
            let states = Mutex<[Drawer.State]>([])
            try await Self.run(Drawer.self, path: killed, initial: .initial, events: [], onState: { state in states.withLock { $0.append(state) } })
            let restored = try #require(states.withLock { $0.first })
            let replayed = [Drawer.Event.credit(n: 1, amount: 10), .close(n: 2), .resume, .close(n: 3)]
                .reduce(into: Drawer.State.initial) { Drawer.reduce(&$0, $1) }
            #expect(restored == replayed)
            #expect(restored.mode == .ledger(.settling) && restored.balance == 5)
        }
    }

    @Test("D95: a journal of a newer version is refused, and its file is left byte for byte as it was")
    func d95NewerJournalRefusedUntouched() async throws {
        try await Self.inFolder { folder in
            let path = folder + "/drawer.journal"
            try await Self.run(Drawer.self, path: path, initial: .initial, events: [.credit(n: 1, amount: 10)])
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let stopped = Mutex<DurableError?>(nil)
            do {
                let system = DrawerV1.durable(
                    id: "drawer", store: try SQLiteJournalStore(path: path), initial: .initial, feedbacks: [],
                    onStop: { error in stopped.withLock { $0 = error as? DurableError } })
                await #expect(throws: DurableError.otherVersion(machine: "drawer", sequence: 1, found: 2, expected: 1)) { try await system.recovered() }
            }
            try await Self.wait { stopped.withLock { $0 } != nil }
            #expect(stopped.withLock { $0 } == .otherVersion(machine: "drawer", sequence: 1, found: 2, expected: 1))
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        }
    }

    @Test("D84: stateloop journal --spec of version 2 reads version 1's entries with the layout its lock holds")
    func d84ToolReadsAnOlderVersionWithItsLockedLayout() async throws {
        try await Self.inFolder { folder in
            let path = folder + "/drawer.journal"
            try await Self.run(DrawerV1.self, path: path, initial: .initial, events: Self.events)
            let spec = LedgerJournalToolTests.fixture.replacingOccurrences(of: "Ledger.machine.yml", with: "Drawer.machine.yml")
            let (status, text) = try LedgerJournalToolTests.runStateloop(["journal", path, "--spec", spec, "--last", "2"])
            #expect(status == 0, "\(text)")
            // As version 1 saved them, by version 1's names: the tool shows what the file holds.
            #expect(text == """
                machine drawer
                  versions 1
                  records 5, sequence 1...5
                  snapshots 2
                  snapshot 5 at 2026-11-26T00:00:00.000Z
                  mode books(closing)
                  field posted = 3
                  field balance = 10
                  field memo = "x"
                  runs not finished 4 of 4 queued
                  run 0 = archive(2)
                  run 1 = shred
                  run 2 = archive(3)
                  run 3 = shred
                  timer _timer(state: closing, index: 0, entry: 4) armed at 2026-11-26T00:00:00.000Z
                  last 2 events
                  event 4 at 2026-11-26T00:00:00.000Z: reopen
                  event 5 at 2026-11-26T00:00:00.000Z: close(n: 3)

                """)
        }
    }

    // MARK: Support

    /// Runs machine `M` on the journal at `path` (id "drawer", a fixed wall clock, no feedbacks):
    /// recovers (or starts in `initial`), sends `events`, waits until each is shown, and stops
    /// (the last snapshot).
    static func run<M: DurableMachine>(
        _: M.Type, path: String, initial: M.State, events: [M.Event], onState: @escaping @Sendable (M.State) -> Void = { _ in }
    ) async throws {
        let shown = Mutex(0)
        let stopped = Mutex(false)
        let system = M.durable(
            id: "drawer", store: try SQLiteJournalStore(path: path), initial: initial, feedbacks: [],
            options: DurableOptions(wallClock: WallClock { 1_795_651_200_000_000_000 }),
            onState: { state in
                shown.withLock { $0 += 1 }
                onState(state)
            },
            onStop: { _ in stopped.withLock { $0 = true } })
        try await system.recovered()
        for event in events { system.send(event) }
        try await wait { shown.withLock { $0 } == events.count + 1 }
        system.stop()
        try await wait { stopped.withLock { $0 } }
    }

    static func history(_ path: String) throws -> JournalHistory {
        try SQLiteJournalFile(path: path).history(of: "drawer")
    }

    static func inFolder(_ body: (String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "stateloop-drawer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder.path)
    }

    static func wait(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}

extension DrawerV1 {
    /// Version 1 of Drawer, named apart only so that both versions compile in one module: its
    /// journals are Drawer's, which Drawer opens (D120).
    public static var journalName: String { "Drawer" }
}
