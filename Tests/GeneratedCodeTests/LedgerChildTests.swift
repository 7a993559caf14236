import Foundation
import StateLoop
@testable import StateLoopDurable
import StateLoopTestSupport
import Synchronization
import Testing

/// The generated Ledger's Courier child, durable with its parent (Docs/Durability.md D109), on a
/// SQLite file: the timers wait on a manual clock that never moves, so Ledger stays in `auditing`,
/// and `notify` never returns, so its record never takes a sequence number before `audit`'s.
@Suite struct LedgerChildTests {
    @Test("D109: a persisted spec's generated code lists its running children and journals them: a durable Ledger restarted in auditing resumes its Courier with the pings it had counted")
    func d109LedgerResumesItsCourier() async throws {
        // `childRequests(in:)`: the courier while auditing (its request `true`), nothing elsewhere.
        var state = Ledger.State.initial
        for event: Ledger.Event in [.open, .audit] { Ledger.reduce(&state, event) }
        #expect(Ledger.childRequests(in: state).map(\.effect) == ["courier"])
        #expect(Ledger.childRequests(in: state).map { $0.request as? Bool } == [true])
        #expect(Ledger.childRequests(in: .initial).isEmpty)

        let folder = FileManager.default.temporaryDirectory.appending(path: "stateloop-ledger-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "ledger.journal").path
        try await Self.run(path: path, [.open, .audit, .tag(name: "a"), .tag(name: "b")]) {
            try await Self.wait { (try? Self.courier(path))?.pings == 2 }
        }
        #expect(try SQLiteJournalFile(path: path).machineIDs() == ["ledger", "ledger/courier@2"])
        try await Self.run(path: path, [.tag(name: "c")]) {
            try await Self.wait { (try? Self.courier(path))?.pings == 3 }
        }
        #expect(try Courier.replayJournal(SQLiteJournalFile(path: path), id: "ledger/courier@2").mismatch == nil)
    }

    /// The Courier of `ledger` as a restart would restore it.
    static func courier(_ path: String) throws -> Courier.State {
        try RestoredMachine<Courier>("ledger/courier@2", from: SQLiteJournalStore(path: path), initial: .initial, now: 0).state
    }

    /// One life of the durable Ledger `ledger` of `path` with its real feedbacks: sends `events`,
    /// waits for `check`, stops.
    static func run(path: String, _ events: [Ledger.Event], check: () async throws -> Void) async throws {
        let stopped = Mutex(false)
        let ledger = Ledger.durable(
            id: "ledger", store: try SQLiteJournalStore(path: path), initial: .initial,
            feedbacks: feedbacks,
            onStop: { _ in stopped.withLock { $0 = true } })
        try await ledger.recovered()
        for event in events { ledger.send(event) }
        try await check()
        ledger.stop()
        try await wait { stopped.withLock { $0 } }
    }

    /// Ledger's feedbacks: `notify` waits until it is cancelled, the timers on a clock that never moves.
    static var feedbacks: [Feedback<Ledger.State, Ledger.Event>] {
        Ledger.feedbacks(Ledger.RecordingEffects(notify: { try? await Task.sleep(for: .seconds(3_600)) }), clock: ManualClock())
    }

    static func wait(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}
