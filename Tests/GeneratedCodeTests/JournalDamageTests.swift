import StateLoop
import StateLoopDurable
import Synchronization
import Testing

/// A record whose bytes decode, checksum and all, to an event the machine cannot have sent is
/// damage too (Docs/Durability.md D125): on Drawer's golden, whose `settling` has one `after:`.
@Suite("Durable: a record of a timer the spec does not have is damage")
struct JournalDamageTests {
    /// Timers no state of Drawer arms: a second `after:` of `settling`, one of `open` (which has
    /// none), one armed before the first entry.
    static let impossible: [Drawer.Event.Timer] = [
        .init(state: .settling, index: 1, entry: 1),
        .init(state: .open, index: 0, entry: 1),
        .init(state: .settling, index: 0, entry: -1),
    ]

    @Test("D125: an event read from a journal that is a timer no state of the spec arms is refused as damaged bytes; one it arms reads back", arguments: 0..<3)
    func d125AnImpossibleTimerDoesNotDecode(_ which: Int) throws {
        var writer = JournalWriter()
        writer.write(Drawer.Event._timer(Self.impossible[which]))
        var reader = JournalReader(writer.bytes)
        #expect(throws: JournalDecodingError.self) { _ = try Drawer.readEvent(from: &reader, version: Drawer.journalVersion) }

        let armed = Drawer.Event._timer(.init(state: .settling, index: 0, entry: 3))
        var good = JournalWriter()
        good.write(armed)
        var back = JournalReader(good.bytes)
        #expect(try Drawer.readEvent(from: &back, version: Drawer.journalVersion) == armed)
    }

    @Test("D125: a journal holding such a record, written with a good checksum, stops the start naming the record before any state is shown, and the replay check says the same")
    func d125RecoveryStopsAtAnImpossibleTimer() async throws {
        try await JournalMigrationTests.inFolder { folder in
            let path = folder + "/drawer.journal"
            // The reducer ignores the timer (no state armed it), but the system journals it as it
            // came; the snapshot written at the stop holds it, so it is taken away, as a process
            // killed before its next snapshot leaves the journal.
            try await JournalMigrationTests.run(Drawer.self, path: path, initial: .initial, events: [
                .close(n: 1), ._timer(Self.impossible[0]), .resume,
            ])
            let history = try JournalMigrationTests.history(path)
            #expect(history.records.count == 3)
            let shown = Mutex(0)
            let system = Drawer.durable(
                id: "drawer", store: try FirstSnapshotOnly(path: path), initial: .initial, feedbacks: [],
                onState: { _ in shown.withLock { $0 += 1 } })
            await #expect {
                try await system.recovered()
            } throws: { error in
                guard case .damaged(let machine, let sequence, _) = error as? DurableError else { return false }
                return machine == "drawer" && sequence == 2
            }
            #expect(shown.withLock { $0 } == 0)
            system.stop()
            #expect(throws: DurableError.self) { _ = try Drawer.replayJournal(history, id: "drawer") }
        }
    }
}

/// A store that recovers from the first snapshot of a machine, not its latest: the records after
/// it are replayed, as after a kill before any later snapshot was written.
final class FirstSnapshotOnly: JournalStore, @unchecked Sendable {
    let base: SQLiteJournalStore
    let path: String

    init(path: String) throws {
        base = try SQLiteJournalStore(path: path)
        self.path = path
    }

    func append(_ records: [JournalRecord], to machine: String) throws { try base.append(records, to: machine) }
    func writeSnapshot(_ snapshot: JournalSnapshot, of machine: String) throws { try base.writeSnapshot(snapshot, of: machine) }
    func lastSequence(of machine: String) throws -> Int64? { try base.lastSequence(of: machine) }
    func claim(_ machine: String, for owner: JournalOwner) throws -> JournalOwner? { try base.claim(machine, for: owner) }
    func release(_ machine: String, by owner: JournalOwner) throws { try base.release(machine, by: owner) }
    func recover(_ machine: String) throws -> JournalRecovery {
        let latest = try base.recover(machine)
        let history = try SQLiteJournalFile(path: path).history(of: machine)
        let first = history.snapshots.first
        let records = history.records.filter { $0.sequence > first?.sequence ?? 0 }
        return JournalRecovery(snapshot: first, records: records, lastSequence: latest.lastSequence)
    }
}
