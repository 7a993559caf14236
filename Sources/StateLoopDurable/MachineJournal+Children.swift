// MachineJournal+Children: the journals of a durable machine's child machines (Docs/Durability.md
// D100-D107): each child journals in its parent's store, under an id that the parent's own journal
// determines, so that a restarted parent resumes exactly the children its restored state runs.
//
// Invariants:
// - A child's id is `"<parent id>/<effect>@<since>"`, `since` the parent's step since which the
//   effect's request is what it is (the bookkeeping's, replayed like everything else): a new
//   request is a new id, so a stopped or ended child's journal is never opened again, whatever
//   moment a crash chose.
// - Opening runs on the parent's draining thread, as its appends do: the child is restored before
//   the parent reduces its next event (E49).
// - A child whose journal fails stops its parent with the error (D107).

import Foundation
import StateLoop

extension MachineJournal: ChildJournals {
    /// The sequence number of the last event record: the step whose state the loops are shown.
    @inlinable
    var step: Int64 {
        lock.withLock { steps.book.step }
    }

    @inlinable
    func openChild<Child: DurableMachine>(_ machine: Child.Type, effect: String, initial: Child.State) -> OpenedChild<Child>? {
        let child = lock.withLock { steps.book.children.first { $0.effect == effect } }
        guard let child else {
            fail(DurableError.undeclaredChild(machine: id, effect: effect))
            return nil
        }
        if child.reported { return nil }
        let childID = "\(id)/\(effect)@\(child.since)"
        let now = options.wallClock.now()
        do {
            let restored = try RestoredMachine<Child>(childID, from: store, initial: initial, now: now)
            let journal = try MachineJournal<Child>(childID, store: store, restored: restored, options: options, now: now)
            journal.onFailure = { [weak self, weak journal] in
                if let error = journal?.failure { self?.fail(error) }
            }
            return OpenedChild(
                state: restored.state,
                journal: SystemJournal(
                    record: journal.record, runReturnedNothing: journal.runReturnedNothing,
                    resume: journal.resumption(at: now)),
                forwarded: restored.book.forwarded,
                onStop: { [weak self] in
                    if let error = journal.close() { self?.fail(error) }
                })
        } catch {
            fail(error)
            return nil
        }
    }

    /// A child's journal failed: nothing more is written here, and the system stops with `error`
    /// (D107), from a task, since the thread may be one that the parent's stop would wait for.
    @usableFromInline
    func fail(_ error: any Error) {
        let first = lock.withLock { () -> Bool in
            guard failed == nil else { return false }
            failed = error
            return true
        }
        guard first, let onFailure else { return }
        Task.detached { onFailure() }
    }
}
