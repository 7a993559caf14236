// MachineJournal: the write side of one running durable system - appends what each step writes
// (JournalSteps: its record, a due snapshot) before the state is shown (D30), writes a snapshot at
// the stop (D34), and opens the journals of its child machines in the same store (D100-D107).
//
// Invariants:
// - Everything happens under `lock`: the draining thread's records and the one-shot runs' "returned
//   nothing" records (from their tasks) take turns, so sequence numbers rise without gaps.
// - After a failure, or once closed, nothing more is written: every later record is refused, so
//   the system never shows a state that is not durable (D33).

import Foundation
import StateLoop

/// Writes one durable machine's records and snapshots to its store.
@usableFromInline
final class MachineJournal<M: DurableMachine>: @unchecked Sendable {
    @usableFromInline let store: any JournalStore
    @usableFromInline let id: String
    @usableFromInline let options: DurableOptions
    /// Who holds the machine's id in the store (D117), given back at the close; `nil` for a child
    /// machine, whose id its parent's holds.
    @usableFromInline let owner: JournalOwner?
    @usableFromInline let lock = NSLock()
    // Guarded by `lock`.
    /// What the journal holds, and what each step writes (JournalSteps.swift).
    @usableFromInline var steps: JournalSteps<M>
    @usableFromInline var closed = false
    /// The error that stopped the system, if one did.
    @usableFromInline var failed: (any Error)?
    /// Stops the system after a failure that no reduced event reported (a run's record, a child's
    /// journal); called without the lock.
    @usableFromInline var onFailure: (@Sendable () -> Void)?

    /// The journal of `restored`, the machine `id` read back from `store`, with its opening
    /// written (a new machine's first snapshot, a restarted one's dropped runs, D46).
    @inlinable
    init(
        _ id: String, store: any JournalStore, restored: RestoredMachine<M>, options: DurableOptions, now: Int64,
        owner: JournalOwner? = nil
    ) throws {
        self.store = store
        self.id = id
        self.options = options
        self.owner = owner
        steps = JournalSteps(restored, snapshotEvery: options.snapshotEvery, tracksTimerRows: false)
        try write(steps.opening(at: now))
    }

    /// What the loops of the restored system resume with at `now` (D37–D39): its runs dropped,
    /// and this journal for its children's.
    @inlinable
    func resumption(at now: Int64) -> Resumption<M.Event> {
        lock.withLock { steps.book.resumption(at: now, children: self) }
    }

    /// The error that stopped the system, if one did.
    @inlinable
    var failure: (any Error)? {
        lock.withLock { failed }
    }

    /// The write-ahead (D30): appends `event`, from `origin`, with the state after it; `refused`
    /// when it is not durable (D33).
    @Sendable
    @inlinable
    func record(_ event: M.Event, origin: EventOrigin, stateAfter: M.State) -> RecordOutcome {
        lock.withLock {
            guard !closed, failed == nil else { return .refused }
            do {
                try write(steps.step(event, origin: origin, to: stateAfter, at: options.wallClock.now()))
                return .durable
            } catch {
                failed = error
                return .refused
            }
        }
    }

    /// The one-shot run `run` returned without an event: a record says it is finished (D37).
    @Sendable
    @inlinable
    func runReturnedNothing(_ run: Int) {
        let failedNow = lock.withLock { () -> Bool in
            guard !closed, failed == nil else { return false }
            do {
                try write(steps.runReturnedNothing(run, at: options.wallClock.now()))
                return false
            } catch {
                failed = error
                return true
            }
        }
        if failedNow { onFailure?() }
    }

    /// The system ended: a snapshot of its last state, unless it failed or nothing changed since
    /// the last one (D34), and its id given back (D117). Returns the error that stopped the
    /// system, if any.
    @inlinable
    func close() -> (any Error)? {
        lock.withLock {
            guard !closed else { return failed }
            closed = true
            if failed == nil, let snapshot = steps.closingSnapshot(at: options.wallClock.now()) {
                do { try store.writeSnapshot(snapshot, of: id) } catch { failed = error }
            }
            if let owner {
                do { try store.release(id, by: owner) } catch { failed = failed ?? error }
            }
            return failed
        }
    }

    // MARK: Under the lock (or before anyone else has the journal)

    /// Appends a step's records, then its snapshot (D30, D34).
    @inlinable
    func write(_ writes: JournalWrites) throws {
        if !writes.records.isEmpty { try store.append(writes.records, to: id) }
        if let snapshot = writes.snapshot { try store.writeSnapshot(snapshot, of: id) }
    }
}
