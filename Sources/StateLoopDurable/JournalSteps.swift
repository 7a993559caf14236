// JournalSteps: the pure half of one durable machine's journal (Docs/Hosting.md, "The journal") -
// numbers its records, builds their envelopes, steps the bookkeeping and decides when a snapshot
// is due, and returns what each step writes. `MachineJournal` (a `DurableSystem`) appends the
// writes at once (D30); a host queues them for a group commit (H18). So every rule of what a
// journal holds is decided here once, for both.
//
// Invariants:
// - Nothing here does input or output or reads a clock: the caller gives the wall-clock time.
// - The writes of a step are returned after the step is counted: a caller whose write fails
//   writes nothing more (D33), so a count ahead of the store is never used.
// - A host's steps (`tracksTimerRows`) also say which timer rows change (H26-H28); a durable
//   system's do not, and cost what they cost before.

import StateLoop

/// What one step writes to an instance's journal and, in a host, to its timer rows.
@usableFromInline
struct JournalWrites: Equatable {
    /// The records, in order.
    @usableFromInline var records: [JournalRecord] = []
    /// A snapshot, written after the records: a new machine's first (D34) or a due one (H25).
    @usableFromInline var snapshot: JournalSnapshot?
    /// Whether the instance's timer rows all go before `armedTimers` are written: its opening
    /// writes them again from the restored bookkeeping (H38).
    @usableFromInline var replacesTimers = false
    /// The events (their `JournalCodable` bytes) of the timer rows that go: fired or disarmed.
    @usableFromInline var deletedTimers: [[UInt8]] = []
    /// The timer rows armed, written after the deletions.
    @usableFromInline var armedTimers: [HostTimer] = []

    @inlinable
    init() {}
}

/// One durable machine's journal as of its last step, and the writes of its next ones.
@usableFromInline
struct JournalSteps<M: DurableMachine> {
    @usableFromInline var state: M.State
    @usableFromInline var book: DurableBookkeeping<M>
    /// The sequence number of the last record (0 before any).
    @usableFromInline var sequence: Int64
    /// The sequence number of the latest snapshot.
    @usableFromInline var snapshotSequence: Int64
    /// A snapshot is due once this many records follow the latest (D34).
    @usableFromInline let snapshotEvery: Int
    /// Whether the writes name the timer rows that change (a host's instance, H26).
    @usableFromInline let tracksTimerRows: Bool
    /// How many timers these steps armed: each row's order of arming (H32, S134).
    @usableFromInline var armings: Int64 = 0
    /// Whether the machine was never written: its opening writes its first snapshot.
    @usableFromInline let isNew: Bool

    /// The journal of `restored`.
    @inlinable
    init(_ restored: RestoredMachine<M>, snapshotEvery: Int, tracksTimerRows: Bool) {
        state = restored.state
        book = restored.book
        sequence = restored.sequence ?? 0
        snapshotSequence = restored.snapshotSequence ?? 0
        self.snapshotEvery = snapshotEvery
        self.tracksTimerRows = tracksTimerRows
        isNew = restored.sequence == nil
    }

    /// What the journal writes when it opens at `now`: a machine never written gets its first
    /// snapshot (its initial state, sequence 0), so that its journal does not depend on the
    /// `initial` of a later start; a restored one records its runs that must not run again as
    /// finished (D46). A host's instance also writes the rows of every armed timer in place of
    /// the rows it had (H26, H38).
    @inlinable
    mutating func opening(at now: Int64) -> JournalWrites {
        var writes = JournalWrites()
        if isNew {
            writes.snapshot = snapshot(at: now)
        } else {
            for (key, run) in book.runs where !M.rerunsAfterRestart(run) {
                writes.records.append(record(.runReturnedNothing(run: key, wallTime: now)))
                book.finished(key)
            }
        }
        if tracksTimerRows {
            let rows = allTimerRows()
            writes.replacesTimers = rows.replacesTimers
            writes.armedTimers = rows.armedTimers
        }
        return writes
    }

    /// The rows of every armed timer, in place of the rows the instance has (H38): what its
    /// opening writes, and what replaces a row found damaged while it runs (H37).
    @inlinable
    mutating func allTimerRows() -> JournalWrites {
        var writes = JournalWrites()
        writes.replacesTimers = true
        writes.armedTimers = book.armedTimers(in: state).compactMap { row(of: $0) }
        return writes
    }

    /// When the timer that sends `event` falls due, while it is armed and has not fired in the
    /// last state; `nil` otherwise (a delivery of its row is then dropped, H31).
    @inlinable
    func deadline(ofArmed event: M.Event) -> Int64? {
        guard let timer = book.timers.first(where: { $0.event == event && !$0.fired }),
              let delay = DurableBookkeeping<M>.armed(in: state).first(where: { $0.event == event })?.delay
        else { return nil }
        return Self.deadline(armedAt: timer.armedAt, delay: delay)
    }

    /// The write-ahead of `event`, from `origin`, reduced at `now` to `stateAfter` (D30): its
    /// record, a snapshot when one is due (D34, H25), and the timer rows it changed.
    @inlinable
    mutating func step(_ event: M.Event, origin: EventOrigin, to stateAfter: M.State, at now: Int64) -> JournalWrites {
        var writes = JournalWrites()
        writes.records = [record(RecordEnvelope(event, wallTime: now, origin: origin))]
        var changes = TimerChanges<M.Event>(isTracked: tracksTimerRows)
        book.step(event, origin: origin, to: stateAfter, at: now, sequence: sequence, changes: &changes)
        state = stateAfter
        if sequence - snapshotSequence >= Int64(snapshotEvery) { writes.snapshot = snapshot(at: now) }
        if tracksTimerRows {
            writes.deletedTimers = changes.removedEvents.map(Self.bytes(of:))
            writes.armedTimers = changes.armedTimers.compactMap { row(of: $0) }
        }
        return writes
    }

    /// The one-shot run `run` returned without an event at `now`: a record says it is finished (D37).
    @inlinable
    mutating func runReturnedNothing(_ run: Int, at now: Int64) -> JournalWrites {
        var writes = JournalWrites()
        writes.records = [record(.runReturnedNothing(run: run, wallTime: now))]
        book.finished(run)
        return writes
    }

    /// The snapshot of the last state at a stop at `now`, unless nothing changed since the latest (D34).
    @inlinable
    mutating func closingSnapshot(at now: Int64) -> JournalSnapshot? {
        sequence > snapshotSequence ? snapshot(at: now) : nil
    }

    // MARK: Parts

    @inlinable
    mutating func record(_ envelope: RecordEnvelope<M>) -> JournalRecord {
        sequence += 1
        return JournalRecord(sequence: sequence, event: envelope.bytes, stateAfter: [])
    }

    @inlinable
    mutating func snapshot(at now: Int64) -> JournalSnapshot {
        snapshotSequence = sequence
        return JournalSnapshot(sequence: sequence, state: SnapshotEnvelope(state: state, wallTime: now, book: book).bytes)
    }

    /// The row of a timer armed at `armed.armedAt` with its delay, numbered by its arming; `nil`
    /// for a timer that never fires (H28).
    @inlinable
    mutating func row(of armed: TimerChanges<M.Event>.Armed) -> HostTimer? {
        guard let deadline = Self.deadline(armedAt: armed.armedAt, delay: armed.delay) else { return nil }
        armings += 1
        return HostTimer(event: Self.bytes(of: armed.event), deadline: deadline, armed: armings)
    }

    /// When a timer armed at `armedAt` (ns since the Unix epoch) with `delay` falls due: `nil` for
    /// "never" (2⁶² seconds or more, as the timer feedbacks count it), the latest time a row can
    /// hold (`Int64.max` ns, in the year 2262) for a deadline past it, and `armedAt` for a delay
    /// of zero or less (it fires at once, after the step).
    @inlinable
    static func deadline(armedAt: Int64, delay: Duration) -> Int64? {
        guard delay < TimerDeadline.never else { return nil }
        guard delay > .zero else { return armedAt }
        let (seconds, attoseconds) = delay.components
        let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return .max }
        let (total, pastEnd) = nanoseconds.addingReportingOverflow(attoseconds / 1_000_000_000)
        let (sum, pastMax) = armedAt.addingReportingOverflow(total)
        return pastEnd || pastMax ? .max : sum
    }

    /// A timer row's key within its instance: the event's bytes.
    @inlinable
    static func bytes(of event: M.Event) -> [UInt8] {
        var writer = JournalWriter()
        writer.write(event)
        return writer.bytes
    }
}
