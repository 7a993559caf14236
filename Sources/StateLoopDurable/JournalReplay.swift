// JournalReplay: the replay check of a journal (Temporal's replayer; Docs/Durability.md D81, D82).
// Replays a machine's every record from its first snapshot through `M.reduce` and compares what
// it gets at each later snapshot with the snapshot's bytes, so that a reducer change that would
// restore a saved journal differently is found in a test, before it ships.
//
// Invariants:
// - Only `M.reduce` and the bookkeeping's `step` run (as in recovery, JournalRecovery.swift):
//   no effect, no clock; nothing is written.
// - The comparison is of bytes: the canonical encoding (D22) makes equal snapshots equal bytes.

import StateLoop

/// What a replay of a journal found (D81, D82).
public struct JournalReplayReport: Sendable, Equatable, CustomStringConvertible {
    /// The first snapshot whose bytes the replay did not reproduce.
    public struct Mismatch: Sendable, Equatable {
        /// The snapshot's sequence number: the replay differs after the record of that number.
        public var sequence: Int64
        /// `- saved` / `+ replayed` lines of the two states where they differ (as `dump` prints
        /// them); empty when the states agree and the one-shot runs, timers or children differ.
        public var diff: [String]

        public init(sequence: Int64, diff: [String]) {
            self.sequence = sequence
            self.diff = diff
        }
    }

    /// How many records were replayed.
    public var records: Int
    /// How many snapshots the journal holds (the first one the replay started from).
    public var snapshots: Int
    /// The first snapshot the replay did not reproduce, or `nil`.
    public var mismatch: Mismatch?

    public init(records: Int, snapshots: Int, mismatch: Mismatch?) {
        self.records = records
        self.snapshots = snapshots
        self.mismatch = mismatch
    }

    /// `replay ok N records, S snapshots`, or the mismatch and its diff, one line each.
    public var description: String {
        guard let mismatch else { return "replay ok \(records) records, \(snapshots) snapshots" }
        let what = mismatch.diff.isEmpty ? "the one-shot runs, timers or children differ" : "the state differs"
        return (["replay mismatch at snapshot \(mismatch.sequence): \(what)"] + mismatch.diff).joined(separator: "\n")
    }
}

extension DurableMachine {
    /// Replays machine `id` of `file` from its first snapshot through `reduce` and compares the
    /// result with every later snapshot, byte for byte (D81, D82).
    ///
    /// Call it from a test on a journal saved by the shipped version: a reducer change that alters
    /// what the journal's events lead to is reported with the first snapshot it changes.
    /// - Throws: `JournalFileError` for a file that cannot be read; `DurableError` for an entry
    ///   this machine cannot read (another `journalVersion`, or damaged), one whose checksum
    ///   fails, or a missing record (D116).
    public static func replayJournal(_ file: SQLiteJournalFile, id: String) throws -> JournalReplayReport {
        try replayJournal(file.history(of: id), id: id)
    }

    /// Replays `history`, machine `id`'s snapshots and records, as ``replayJournal(_:id:)``.
    public static func replayJournal(_ history: JournalHistory, id: String) throws -> JournalReplayReport {
        var report = JournalReplayReport(records: 0, snapshots: history.snapshots.count, mismatch: nil)
        guard let first = history.snapshots.first else { return report }
        // A damaged entry or a missing record is found before anything is replayed (D116).
        if let problem = history.problems(of: id).first { throw problem }
        var replayed = try snapshotEnvelope(first, of: id)
        var records = history.records.drop { $0.sequence <= first.sequence }[...]
        /// Replays the records up to `sequence` (all of them for `nil`).
        func replay(through sequence: Int64?) throws {
            while let record = records.first, record.sequence <= sequence ?? .max {
                records.removeFirst()
                var version: Int?
                let envelope: RecordEnvelope<Self>?
                do {
                    envelope = try RecordEnvelope<Self>.read(from: record.event, version: &version)
                } catch {
                    throw DurableError.unreadable(id, record.sequence, version: version, of: Self.self, error)
                }
                // nil: an event a migration drops (D55), skipped.
                if let (event, wallTime, origin) = envelope?.event {
                    reduce(&replayed.state, event)
                    replayed.book.step(event, origin: origin, to: replayed.state, at: wallTime, sequence: record.sequence)
                } else if case let .runReturnedNothing(run, _)? = envelope {
                    replayed.book.finished(run)
                }
                report.records += 1
            }
        }
        for snapshot in history.snapshots.dropFirst() {
            try replay(through: snapshot.sequence)
            let saved = try snapshotEnvelope(snapshot, of: id)
            // The time a snapshot was taken is not the reduction's: it is the one field taken as saved.
            replayed.wallTime = saved.wallTime
            guard replayed.bytes == snapshot.state else {
                report.mismatch = .init(sequence: snapshot.sequence, diff: Self.diff(saved.state, replayed.state))
                return report
            }
        }
        // The records after the last snapshot: nothing to compare them with, but each must read.
        try replay(through: nil)
        return report
    }

    private static func snapshotEnvelope(_ snapshot: JournalSnapshot, of id: String) throws -> SnapshotEnvelope<Self> {
        try checkMachine(snapshot, of: id, is: Self.self)
        var version: Int?
        do {
            return try SnapshotEnvelope<Self>(from: snapshot.state, version: &version)
        } catch {
            throw DurableError.unreadable(id, snapshot.sequence, version: version, of: Self.self, error)
        }
    }

    /// The lines of `dump` that differ between the saved and the replayed state, position by
    /// position: `- ` the saved one, `+ ` the replayed one.
    private static func diff(_ saved: State, _ replayed: State) -> [String] {
        func lines(_ state: State) -> [String] {
            var text = ""
            dump(state, to: &text)
            return text.split(separator: "\n").map(String.init)
        }
        let (old, new) = (lines(saved), lines(replayed))
        return (0..<max(old.count, new.count)).flatMap { index -> [String] in
            let (a, b) = (index < old.count ? old[index] : nil, index < new.count ? new[index] : nil)
            guard a != b else { return [] }
            return [a.map { "- " + $0 }, b.map { "+ " + $0 }].compactMap { $0 }
        }
    }
}
