import Foundation
import StateLoop
import StateLoopDurable
import StateLoopTestSupport
import Synchronization
import Testing

/// `stateloop journal --spec` on a statechart's journal (Docs/Durability.md D84): the Ledger
/// fixture (nesting, a parallel state, deep history, timers, one-shot runs, a forwarding child,
/// a `Codable` struct, `URL?`, sets, dictionaries, `Float`) journaled by a durable system with a
/// fixed wall clock, read with the fixture's spec: the layout the tool reads with is the one the
/// generated code writes with.
@Suite struct LedgerJournalToolTests {
    /// The `stateloop` of this build.
    static var stateloop: URL { builtExecutable("stateloop") }

    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "StateLoopCodegenTests/Fixtures/Ledger.machine.yml").path

    @Test("D84: a statechart's journal read with its spec: the mode of a parallel state, a history, runs, timers and values of every kind")
    func d84ReadsAStatechartsJournal() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "stateloop-ledger-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "ledger.journal").path
        let events: [Ledger.Event] = [
            .open, .deposit(amount: Money(cents: 1_250, currency: "EUR"), note: "rent"), .tag(name: "q1"), .audit, .pause, .resume,
            // The last `tag`, while auditing, is forwarded to the Courier child: the snapshot holds
            // a Courier event, read with Courier's layout (the spec beside Ledger's).
            .deposit(amount: Money(cents: 5, currency: "EUR"), note: "tip"), .audit, .tag(name: "q2"),
        ]
        #expect(!events.reduce(into: Ledger.State.initial) { Ledger.reduce(&$0, $1) }.forwarded.isEmpty)
        try await Self.journal(events, to: path)
        let (status, text) = try Self.runStateloop(["journal", path, "--spec", Self.fixture, "--last", "3"])
        #expect(status == 0)
        // `Money` (a Codable struct) and `URL?` go through the Codable fallback: shown by size.
        #expect(text == """
            machine ledger
              versions 2
              records 9, sequence 1...9
              snapshots 2
              snapshot 9 at 2026-11-26T00:00:00.000Z
              mode active(working(books: posting, checks: auditing))
              field balance = <25 bytes>
              field entries = ["rent", "tip"]
              field tags = ["q1", "q2"]
              field counts = ["q1": 1, "q2": 1]
              field source = <38 bytes>
              field attempts = 2
              field ratio = 1.5
              runs not finished 3 of 3 queued
              run 0 = notify
              run 1 = save(1)
              run 2 = save(2)
              timer _timer(state: posting, index: 0, entry: 6) armed at 2026-11-26T00:00:00.000Z
              timer _timer(state: auditing, index: 0, entry: 7) armed at 2026-11-26T00:00:00.000Z
              child courier journal ledger/courier@8
              last 3 events
              event 7 at 2026-11-26T00:00:00.000Z: deposit(amount: <24 bytes>, note: "tip")
              event 8 at 2026-11-26T00:00:00.000Z: audit
              event 9 at 2026-11-26T00:00:00.000Z: tag(name: "q2")

            """)
    }

    @Test("D108: a child's journal is listed after its parent's and read with the child's spec; its forwarded events and the parent's children say so")
    func d108ListsAChildWithItsParent() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "stateloop-ledger-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "ledger.journal").path
        // The Courier runs from step 2 (`audit`); `tag` is forwarded to it as `ping`. `notify`
        // (queued by `open`) and the timers never end, so no other record takes a number.
        try await Self.journal(
            [.open, .audit, .tag(name: "q1")], to: path, feedbacks: LedgerChildTests.feedbacks,
            until: { (try? SQLiteJournalFile(path: path).history(of: "ledger/courier@2").records.count) == 1 })
        let (status, text) = try Self.runStateloop(["journal", path, "--spec", Self.fixture, "--last", "1"])
        #expect(status == 0)
        #expect(text == """
            machine ledger
              versions 2
              records 3, sequence 1...3
              snapshots 2
              snapshot 3 at 2026-11-26T00:00:00.000Z
              mode active(working(books: idle, checks: auditing))
              field balance = <24 bytes>
              field entries = []
              field tags = ["q1"]
              field counts = ["q1": 1]
              field source = <38 bytes>
              field attempts = 1
              field ratio = 1.5
              runs not finished 1 of 1 queued
              run 0 = notify
              timer _timer(state: auditing, index: 0, entry: 2) armed at 2026-11-26T00:00:00.000Z
              child courier journal ledger/courier@2
              last 1 events
              event 3 at 2026-11-26T00:00:00.000Z: tag(name: "q1")
            machine ledger/courier@2
              versions 1
              records 1, sequence 1...1
              snapshots 2
              snapshot 1 at 2026-11-26T00:00:00.000Z
              mode waiting
              field pings = 1
              runs not finished 0 of 0 queued
              forwarded up to parent step 3, #0
              last 1 events
              event 1 at 2026-11-26T00:00:00.000Z (forwarded by parent step 3, #0): ping

            """)
    }

    @Test("D84: along a random walk of Ledger's events and timers, every event and the last snapshot read with the spec")
    func d84ReadsEveryEntryOfAWalk() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "stateloop-ledger-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "ledger.journal").path
        for seed: UInt64 in [1, 2, 3] {
            try await Self.journal(Self.walk(seed: seed), to: path, id: "walk-\(seed)")
            let (status, text) = try Self.runStateloop(["journal", path, "--spec", Self.fixture, "--machine", "walk-\(seed)", "--last", "300"])
            #expect(status == 0, "seed \(seed)")
            #expect(text.components(separatedBy: "\n  event ").count == 301, "seed \(seed)")
            #expect(text.contains("\n  mode "), "seed \(seed)")
        }
    }

    @Test("D81: a statechart's journal (Ledger, random walks) replays through its generated reducer to every snapshot")
    func d81LedgerJournalReplays() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "stateloop-ledger-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "ledger.journal").path
        for seed: UInt64 in [4, 5] {
            try await Self.journal(Self.walk(seed: seed), to: path, id: "walk-\(seed)", snapshotEvery: 25)
            // Snapshots 0, 25, ..., 300: the one at the stop is 300's.
            #expect(try Ledger.replayJournal(SQLiteJournalFile(path: path), id: "walk-\(seed)") == JournalReplayReport(records: 300, snapshots: 13, mismatch: nil))
        }
    }

    /// 300 events of Ledger drawn with `seed` from its events and the timers each state arms.
    static func walk(seed: UInt64) -> [Ledger.Event] {
        var generator = SeededGenerator(seed: seed)
        var state = Ledger.State.initial
        var events: [Ledger.Event] = []
        for _ in 0..<300 {
            let candidates = JournalRoundTripTests.ledgerEvents + Ledger.timers(in: state).map(\.event)
            events.append(candidates[Int(generator.next() % UInt64(candidates.count))])
            Ledger.reduce(&state, events[events.count - 1])
        }
        return events
    }

    /// Journals `events` to machine `id` of the SQLite file at `path`, with the fixed wall clock,
    /// run by `feedbacks`, and stops (the last snapshot) once each event's state is shown and
    /// `until` holds.
    static func journal(
        _ events: [Ledger.Event], to path: String, id: String = "ledger", snapshotEvery: Int = 1_000,
        feedbacks: [Feedback<Ledger.State, Ledger.Event>] = [], until: () -> Bool = { true }
    ) async throws {
        let steps = Mutex(0)
        let stopped = Mutex(false)
        let ledger = Ledger.durable(
            id: id, store: try SQLiteJournalStore(path: path), initial: .initial, feedbacks: feedbacks,
            options: DurableOptions(snapshotEvery: snapshotEvery, wallClock: WallClock { 1_795_651_200_000_000_000 }),
            onState: { _ in steps.withLock { $0 += 1 } }, onStop: { _ in stopped.withLock { $0 = true } })
        try await ledger.recovered()
        for event in events { ledger.send(event) }
        try await Self.wait { steps.withLock { $0 } == events.count + 1 && until() }
        ledger.stop()
        try await Self.wait { stopped.withLock { $0 } }
    }

    /// Runs `stateloop ARGUMENTS`: its exit status and standard output.
    static func runStateloop(_ arguments: [String]) throws -> (Int32, String) {
        try runToEnd(Self.stateloop, arguments)
    }

    static func wait(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}
