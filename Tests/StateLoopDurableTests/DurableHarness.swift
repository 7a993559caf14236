// The durable tests' tools: a store that logs, fails, crashes or holds its recovery on request, a
// wall clock moved by hand, and a running durable machine whose states a test waits for.

import Dispatch
import Foundation
import StateLoop
@testable import StateLoopDurable
import StateLoopTestSupport
import Testing

/// A value behind a lock, for closures called from any thread.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func read<T>(_ body: (Value) -> T) -> T { lock.withLock { body(value) } }
    func change<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
    var current: Value { read { $0 } }
}

/// What the scripted store was told to do wrong.
struct InjectedFailure: Error, Equatable {}

/// A store in front of another: logs every append and snapshot into `log`, and fails, crashes or
/// holds its recovery when told to.
final class ScriptedStore: JournalStore, @unchecked Sendable {
    let base: any JournalStore
    /// Shared with the test's observer, so the order of appends and states shows.
    let log: Locked<[String]>
    private let failing = Locked(false)
    private let crashed = Locked(false)
    private let recoveryHeld = Locked<DispatchSemaphore?>(nil)

    init(_ base: any JournalStore, log: Locked<[String]> = Locked([])) {
        self.base = base
        self.log = log
    }

    /// Every later append fails with `InjectedFailure` (a full disk).
    func failAppends() { failing.change { $0 = true } }

    /// The process "dies": every later write is lost (and fails, as nothing can see it anyway).
    func crash() { crashed.change { $0 = true } }

    /// `recover` waits until ``releaseRecovery()``.
    func holdRecovery() { recoveryHeld.change { $0 = DispatchSemaphore(value: 0) } }
    func releaseRecovery() { recoveryHeld.current?.signal() }

    func append(_ records: [JournalRecord], to machine: String) throws {
        if crashed.current || failing.current { throw InjectedFailure() }
        try base.append(records, to: machine)
        log.change { $0 += records.map { "append \($0.sequence)" } }
    }

    func writeSnapshot(_ snapshot: JournalSnapshot, of machine: String) throws {
        if crashed.current { throw InjectedFailure() }
        try base.writeSnapshot(snapshot, of: machine)
        log.change { $0.append("snapshot \(snapshot.sequence)") }
    }

    func recover(_ machine: String) throws -> JournalRecovery {
        recoveryHeld.current?.wait()
        return try base.recover(machine)
    }

    func lastSequence(of machine: String) throws -> Int64? {
        try base.lastSequence(of: machine)
    }

    // A dead process holds nothing (D117): a "crashed" store still gives the id back.
    func claim(_ machine: String, for owner: JournalOwner) throws -> JournalOwner? { try base.claim(machine, for: owner) }
    func release(_ machine: String, by owner: JournalOwner) throws { try base.release(machine, by: owner) }
}

extension StoreKind {
    /// Opens this kind's store for a machine's next life: the same SQLite file opened again, or
    /// the same memory.
    func opener() throws -> @Sendable () throws -> any JournalStore {
        switch self {
        case .sqlite:
            let path = try TemporaryFolder().file("journal.sqlite")
            return { try SQLiteJournalStore(path: path) }
        case .memory:
            let store = InMemoryJournalStore()
            return { store }
        #if Postgres
        case .postgres:
            let schema = PostgresTestDatabase.freshSchema()
            return { try PostgresTestDatabase.store(schema: schema) }
        #endif
        }
    }
}

/// A gate effects wait at until a test opens it; cancelling the waiting task does not open it.
final class Gate: Sendable {
    private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        let waiters = state.change { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isOpen = state.change { state in
                if !state.open { state.waiters.append(continuation) }
                return state.open
            }
            if isOpen { continuation.resume() }
        }
    }
}

/// A wall clock that moves only when a test moves it; it starts at 2026-11-26 00:00 UTC.
final class TestWallClock: Sendable {
    private let nanoseconds = Locked<Int64>(1_795_651_200_000_000_000)

    var clock: WallClock { WallClock { [nanoseconds] in nanoseconds.current } }
    var now: Int64 { nanoseconds.current }

    func advance(by duration: Duration) {
        let (seconds, attoseconds) = duration.components
        nanoseconds.change { $0 += seconds * 1_000_000_000 + attoseconds / 1_000_000_000 }
    }
}

/// One life of a durable machine: its handle, every state it showed, and how it stopped.
final class Life<M: DurableMachine>: Sendable {
    let system: DurableSystem<M>
    let states: Locked<[M.State]>
    let stopped: Locked<(any Error)??>

    /// Starts machine `id` of `store`; `log` gets `state N` for the Nth state shown.
    init(
        _ machine: M.Type, id: String = "m", store: any JournalStore, initial: M.State,
        feedbacks: [Feedback<M.State, M.Event>], options: DurableOptions = DurableOptions(),
        log: Locked<[String]>? = nil
    ) {
        let states = Locked<[M.State]>([])
        let stopped = Locked<(any Error)??>(nil)
        self.states = states
        self.stopped = stopped
        system = M.durable(
            id: id, store: store, initial: initial, feedbacks: feedbacks, options: options,
            onState: { state in
                let count = states.change { $0.append(state); return $0.count }
                log?.change { $0.append("state \(count - 1)") }
            },
            onStop: { error in stopped.change { $0 = .some(error) } })
    }

    var last: M.State? { states.read(\.last) }

    /// Waits (up to 60 s) until `condition` holds for the last state shown.
    func wait(until condition: @escaping (M.State) -> Bool, _ comment: Comment? = nil) async throws {
        try await waitFor(comment) { self.last.map(condition) ?? false }
    }

    /// Waits (up to 60 s) until the system has ended; returns the error it ended with.
    func waitForStop() async throws -> (any Error)? {
        try await waitFor("the system to stop") { self.stopped.current != nil }
        return stopped.current!
    }
}

/// Waits (up to 60 s, checking every millisecond) until `condition` holds: long, since the whole
/// suite may run at once on two cores; only a failing test waits it out.
func waitFor(_ comment: Comment? = nil, _ condition: () -> Bool) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(60)
    while !condition() {
        guard clock.now < deadline else {
            Issue.record("timed out waiting for \(comment?.rawValue ?? "a condition")")
            throw CancellationError()
        }
        try await Task.sleep(for: .milliseconds(1))
    }
}

/// Reduces `events` from `initial` with the machine's pure reducer.
func reduction<M: DurableMachine>(_: M.Type, _ events: [M.Event], from initial: M.State) -> M.State {
    events.reduce(into: initial) { M.reduce(&$0, $1) }
}

/// The envelopes of machine `id`'s records after its latest snapshot, as they were journaled.
func journaled<M: DurableMachine>(_: M.Type, in store: any JournalStore, id: String = "m") throws -> [RecordEnvelope<M>] {
    try store.recover(id).records.compactMap { record in
        var version: Int?
        return try RecordEnvelope<M>.read(from: record.event, version: &version)
    }
}

/// The events of machine `id`'s records after its latest snapshot.
func journaledEvents<M: DurableMachine>(_: M.Type, in store: any JournalStore, id: String = "m") throws -> [M.Event] {
    try journaled(M.self, in: store, id: id).compactMap { $0.event?.event }
}
