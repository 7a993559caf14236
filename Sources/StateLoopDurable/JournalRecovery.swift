// JournalRecovery+Replay: a durable machine read back from its store - the latest snapshot, then
// the records after it through the pure reducer (D35).
//
// Invariants:
// - Replay calls only `M.reduce` and the bookkeeping's `step`: no effect runs, no clock is read
//   but the caller's `now`.
// - Nothing is written while replaying; bytes that cannot be read stop the recovery with the
//   sequence number and the reason, and the journal is left as it was (D42).

import Foundation
import StateLoop

/// A durable machine as of its last journaled step.
@usableFromInline
struct RestoredMachine<M: DurableMachine> {
    @usableFromInline var state: M.State
    @usableFromInline var book: DurableBookkeeping<M>
    /// The sequence number of its last record or snapshot; `nil` for a machine never written.
    @usableFromInline var sequence: Int64?
    /// The sequence number of its latest snapshot.
    @usableFromInline var snapshotSequence: Int64?

    /// Reads machine `id` from `store`: its latest snapshot and the records after it, replayed
    /// through `M.reduce` (D35); `initial` for a machine never written, armed at `now`.
    @inlinable
    init(_ id: String, from store: any JournalStore, initial: M.State, now: Int64) throws {
        try self.init(id, recovery: store.recover(id), initial: initial, now: now)
    }

    /// Machine `id` as `recovery` (what a store read of it) restores it, `initial` for a machine
    /// never written.
    @inlinable
    init(_ id: String, recovery: JournalRecovery, initial: @autoclosure () throws -> M.State, now: Int64) throws {
        // Nothing is read that is not the whole journal (D111, D114).
        if let problem = journalProblems(
            id, damaged: recovery.damaged, records: recovery.records, after: recovery.snapshot?.sequence ?? 0, through: recovery.lastSequence
        ).first { throw problem }
        if let snapshot = recovery.snapshot {
            try checkMachine(snapshot, of: id, is: M.self)
            var version: Int?
            let envelope: SnapshotEnvelope<M>
            do {
                envelope = try SnapshotEnvelope<M>(from: snapshot.state, version: &version)
            } catch {
                throw DurableError.unreadable(id, snapshot.sequence, version: version, of: M.self, error)
            }
            state = envelope.state
            book = envelope.book
            sequence = snapshot.sequence
            snapshotSequence = snapshot.sequence
        } else {
            state = try initial()
            book = DurableBookkeeping(starting: state, at: now)
        }
        for record in recovery.records {
            var version: Int?
            let envelope: RecordEnvelope<M>?
            do {
                envelope = try RecordEnvelope<M>.read(from: record.event, version: &version)
            } catch {
                throw DurableError.unreadable(id, record.sequence, version: version, of: M.self, error)
            }
            // nil: an event a migration drops (D55), skipped.
            if let (event, wallTime, origin) = envelope?.event {
                M.reduce(&state, event)
                book.step(event, origin: origin, to: state, at: wallTime, sequence: record.sequence)
            } else if case let .runReturnedNothing(run, _)? = envelope {
                book.finished(run)
            }
            sequence = record.sequence
        }
    }
}

/// Why a durable system could not start, besides the store's own `JournalError`.
public enum DurableError: Error, Equatable, CustomStringConvertible {
    /// A record or snapshot of `machine` was written by another `journalVersion` of its spec (D42).
    case otherVersion(machine: String, sequence: Int64, found: Int, expected: Int)
    /// A record or snapshot of `machine` cannot be read as the spec's values: damaged, or written by
    /// a spec changed without a new `journalVersion` (D42).
    case damaged(machine: String, sequence: Int64, JournalDecodingError)
    /// `machine` runs a durable child for `effect` that its `childRequests(in:)` does not list, so
    /// the child's journal has no name (D101).
    case undeclaredChild(machine: String, effect: String)
    /// An entry of `machine` whose stored bytes do not match the checksum stored beside them (D111).
    case checksumMismatch(machine: String, entry: JournalEntry)
    /// Another durable system, of another process or of this one, runs `machine` (D117, D118).
    case machineTaken(machine: String, by: JournalOwner)
    /// The snapshot numbered `sequence` of `machine` was written by another machine, `found` (D120).
    case otherMachine(machine: String, sequence: Int64, found: String, expected: String)
    /// The record numbered `sequence` of `machine` is missing: the records after the snapshot do
    /// not run without a gap up to the machine's last sequence number (D114).
    case missingRecord(machine: String, sequence: Int64)
    /// `machine` is an instance of a `MachineHost` of `host` (Docs/Hosting.md H66).
    case hostedMachine(machine: String, host: String)

    /// What went wrong and what to do about it.
    public var description: String {
        switch self {
        case let .otherVersion(machine, sequence, found, expected):
            "journal of '\(machine)': entry \(sequence) was written by version \(found) of the spec, and this is version \(expected): open the journal with the version that wrote it, or, for an older one, with a build whose lock holds that version's layout and migration (Docs/Durability.md D90–D92), or start a new machine id; the journal was left untouched"
        case let .damaged(machine, sequence, error):
            "journal of '\(machine)': entry \(sequence) cannot be read (\(error)): it is damaged, or the spec changed its persisted types without a new `journalVersion`; the journal was left untouched"
        case let .checksumMismatch(machine, entry):
            "journal of '\(machine)': \(entry) does not match its checksum: the file is damaged (a disk error, or a copy taken without its -wal file); restore the file from a backup (`stateloop journal backup`), or start a new machine id; nothing was shown or run, and the journal was left untouched"
        case let .missingRecord(machine, sequence):
            "journal of '\(machine)': record \(sequence) is missing (the records after the snapshot must run without a gap to the last one): the file is damaged or was edited; restore it from a backup (`stateloop journal backup`), or start a new machine id; nothing was shown or run, and the journal was left untouched"
        case let .machineTaken(machine, owner) where owner.pid == ProcessInfo.processInfo.processIdentifier:
            "journal of '\(machine)': another durable system of this process is running machine '\(machine)': stop it (or release its handle) before starting it again, or give this one another id; nothing was shown or run"
        case let .machineTaken(machine, owner):
            "journal of '\(machine)': another process is running machine '\(machine)' (\(owner)): stop that process first, or give this one another id; nothing was shown or run"
        case let .otherMachine(machine, sequence, found, expected):
            "journal of '\(machine)': snapshot \(sequence) was written by machine '\(found)', and this is '\(expected)': a machine id holds the journal of one machine; open it with '\(found)', or give this one another id; nothing was shown or run, and the journal was left untouched"
        case let .hostedMachine(machine, host):
            "instance '\(machine)' is run by a MachineHost of '\(host)'; send it events through the host"
        case let .undeclaredChild(machine, effect):
            "journal of '\(machine)': its state runs the child machine of effect '\(effect)', which `childRequests(in:)` does not list: list the effect and its request there (a generated machine does), so that the child's journal has a name; the system stopped"
        }
    }

    /// The error for an entry that could not be read; `version`, the spec version it
    /// says wrote it, if it got that far.
    @inlinable
    static func unreadable<M: DurableMachine>(
        _ machine: String, _ sequence: Int64, version: Int?, of _: M.Type, _ error: JournalDecodingError
    ) -> DurableError {
        if let version, version != M.journalVersion {
            return .otherVersion(machine: machine, sequence: sequence, found: version, expected: M.journalVersion)
        }
        return .damaged(machine: machine, sequence: sequence, error)
    }
}

/// What makes a journal not whole (D111, D114): each entry of `damaged`, then the first record
/// missing from `records` between `after` (the snapshot's sequence number) and `last` (the
/// machine's). The one check of recovery, the replay check (D116) and `stateloop journal` (D115).
@inlinable
func journalProblems(_ machine: String, damaged: [JournalEntry], records: [JournalRecord], after start: Int64, through last: Int64?) -> [DurableError] {
    damaged.map { .checksumMismatch(machine: machine, entry: $0) }
        + [firstMissingRecord(records, after: start, through: last).map { .missingRecord(machine: machine, sequence: $0) }].compactMap { $0 }
}

extension JournalHistory {
    /// What makes this history of machine `id` not whole (D115, D116): each entry whose checksum
    /// fails, then the first record missing after the first snapshot.
    public func problems(of id: String) -> [DurableError] {
        journalProblems(id, damaged: damaged, records: records, after: snapshots.first?.sequence ?? 0, through: lastSequence)
    }
}

/// The first sequence number of `start + 1 ... last` that `records` (in sequence order; those up
/// to `start` aside) lacks, or `nil` when they run without a gap.
@inlinable
func firstMissingRecord(_ records: [JournalRecord], after start: Int64, through last: Int64?) -> Int64? {
    var expected = start + 1
    for record in records where record.sequence > start {
        guard record.sequence == expected else { return expected }
        expected += 1
    }
    guard let last, expected <= last else { return nil }
    return expected
}

/// Refuses a snapshot of `machine` that names another machine than `M` (D120); one that names
/// none (written before snapshots did) or whose header cannot be read is left to the full read.
@inlinable
func checkMachine<M: DurableMachine>(_ snapshot: JournalSnapshot, of machine: String, is _: M.Type) throws(DurableError) {
    guard let found = (try? JournalSnapshotEnvelope(snapshot.state))?.machine, found != M.journalName else { return }
    throw .otherMachine(machine: machine, sequence: snapshot.sequence, found: found, expected: M.journalName)
}
