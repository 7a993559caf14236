// DurableJournal: a real journal file, written by a durable machine in the test, for the tools that
// read one (`stateloop journal`, `stateloop inspect --journal`).
import Foundation
import StateLoop
import StateLoopDurable
import Synchronization

/// Runs machine `M` durably as `id` on the SQLite file at `path` (new, or resumed from what it
/// holds), its system attached by `attach`, sends it `events`, waits until it reduced them all,
/// and stops it (which writes its last snapshot, D34).
public func writeDurableJournal<M: DurableMachine>(
    _: M.Type, id: String, at path: String, initial: M.State, events: [M.Event], options: DurableOptions,
    attach: @escaping @Sendable (System<M.State, M.Event>) -> System<M.State, M.Event> = { $0 }
) async throws {
    let states = Mutex(0)
    let stopped = Mutex(false)
    let machine = M.durable(
        id: id, store: try SQLiteJournalStore(path: path), initial: initial, feedbacks: [], options: options,
        onState: { _ in states.withLock { $0 += 1 } },
        onStop: { _ in stopped.withLock { $0 = true } }, attach: attach)
    try await machine.recovered()
    for event in events { machine.send(event) }
    // The restored state, then one state per event.
    try await waitUntil { states.withLock { $0 } == events.count + 1 }
    machine.stop()
    try await waitUntil { stopped.withLock { $0 } }
}

/// Waits (up to 10 s) until `condition` holds.
public func waitUntil(_ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while !condition() {
        guard ContinuousClock.now < deadline else { throw CancellationError() }
        try await Task.sleep(for: .milliseconds(1))
    }
}
