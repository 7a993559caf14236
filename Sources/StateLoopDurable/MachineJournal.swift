// MachineJournal: the write side of one running durable system - numbers each record, appends it
// before the state is shown (D30), keeps the bookkeeping, writes a snapshot every N records and
// at the stop (D34), and opens the journals of its child machines in the same store (D100-D107).
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
    @usableFromInline var state: M.State
    @usableFromInline var book: DurableBookkeeping<M>
    @usableFromInline var sequence: Int64
    @usableFromInline var snapshotSequence: Int64
    @usableFromInline var closed = false
    /// The error that stopped the system, if one did.
    @usableFromInline var failed: (any Error)?
    /// Stops the system after a failure that no reduced event reported (a run's record, a child's
    /// journal); called without the lock.
    @usableFromInline var onFailure: (@Sendable () -> Void)?

    /// The journal of `restored`, the machine `id` read back from `store`; a machine never
    /// written gets its first snapshot (its initial state, sequence 0) now, so that its journal
    /// does not depend on the `initial` of a later start; a restarted one records its runs that
    /// must not run again as finished (D46).
    @inlinable
    init(
        _ id: String, store: any JournalStore, restored: RestoredMachine<M>, options: DurableOptions, now: Int64,
        owner: JournalOwner? = nil
    ) throws {
        self.store = store
        self.id = id
        self.options = options
        self.owner = owner
        state = restored.state
        book = restored.book
        sequence = restored.sequence ?? 0
        snapshotSequence = restored.snapshotSequence ?? 0
        if restored.sequence == nil {
            try store.writeSnapshot(JournalSnapshot(sequence: 0, state: SnapshotEnvelope(state: state, wallTime: now, book: book).bytes), of: id)
        } else {
            try dropRuns(at: now)
        }
    }

    /// What the loops of the restored system resume with at `now` (D37–D39): its runs dropped,
    /// and this journal for its children's.
    @inlinable
    func resumption(at now: Int64) -> Resumption<M.Event> {
        lock.withLock { book.resumption(at: now, children: self) }
    }

    /// The error that stopped the system, if one did.
    @inlinable
    var failure: (any Error)? {
        lock.withLock { failed }
    }

    /// The write-ahead (D30): appends `event`, from `origin`, with the state after it; false when
    /// it is not durable (D33).
    @Sendable
    @inlinable
    func record(_ event: M.Event, origin: EventOrigin, stateAfter: M.State) -> Bool {
        lock.withLock {
            guard !closed, failed == nil else { return false }
            let now = options.wallClock.now()
            do {
                try append(RecordEnvelope(event, wallTime: now, origin: origin))
                book.step(event, origin: origin, to: stateAfter, at: now, sequence: sequence)
                state = stateAfter
                if sequence - snapshotSequence >= Int64(options.snapshotEvery) { try snapshot(at: now) }
                return true
            } catch {
                failed = error
                return false
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
                try append(.runReturnedNothing(run: run, wallTime: options.wallClock.now()))
                book.finished(run)
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
            if failed == nil, sequence > snapshotSequence {
                do { try snapshot(at: options.wallClock.now()) } catch { failed = error }
            }
            if let owner {
                do { try store.release(id, by: owner) } catch { failed = failed ?? error }
            }
            return failed
        }
    }

    // MARK: Under the lock (or before anyone else has the journal)

    /// D46: each run not known finished that the machine does not run again after a restart is
    /// recorded as finished, as a run that returned nothing is, so that no restart runs it.
    @inlinable
    func dropRuns(at now: Int64) throws {
        for (key, run) in book.runs where !M.rerunsAfterRestart(run) {
            try append(.runReturnedNothing(run: key, wallTime: now))
            book.finished(key)
        }
    }

    @inlinable
    func append(_ envelope: RecordEnvelope<M>) throws {
        try store.append([JournalRecord(sequence: sequence + 1, event: envelope.bytes, stateAfter: [])], to: id)
        sequence += 1
    }

    @inlinable
    func snapshot(at now: Int64) throws {
        try store.writeSnapshot(JournalSnapshot(sequence: sequence, state: SnapshotEnvelope(state: state, wallTime: now, book: book).bytes), of: id)
        snapshotSequence = sequence
    }
}
