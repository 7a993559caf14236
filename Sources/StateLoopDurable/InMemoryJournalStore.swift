// A journal store that keeps everything in memory, for tests: the promises of `JournalStore`
// (D1–D6, D12) without a file. Nothing survives the process.

/// The in-memory `JournalStore`. An actor: calls from any task are serialized.
public actor InMemoryJournalStore: JournalStore {
    private struct Journal {
        var records: [JournalRecord] = []
        var snapshot: JournalSnapshot?
        var lastSequence: Int64? { [records.last?.sequence, snapshot?.sequence].compactMap { $0 }.max() }
    }

    private var journals: [String: Journal] = [:]

    /// An empty store.
    public init() {}

    /// Appends `records`, or none of them when one is refused (D2, D3).
    public func append(_ records: [JournalRecord], to machine: String) throws(JournalError) {
        var journal = journals[machine, default: Journal()]
        var last = journal.lastSequence
        for record in records {
            try record.checkFollows(last, in: machine)
            journal.records.append(record)
            last = record.sequence
        }
        journals[machine] = journal
    }

    /// Keeps `snapshot` when it is the latest (D5).
    public func writeSnapshot(_ snapshot: JournalSnapshot, of machine: String) {
        var journal = journals[machine, default: Journal()]
        if snapshot.sequence >= journal.snapshot?.sequence ?? .min { journal.snapshot = snapshot }
        journals[machine] = journal
    }

    /// The latest snapshot and the records after it (D5).
    public func recover(_ machine: String) -> JournalRecovery {
        let journal = journals[machine, default: Journal()]
        let after = journal.snapshot?.sequence ?? .min
        return JournalRecovery(snapshot: journal.snapshot, records: journal.records.filter { $0.sequence > after })
    }

    /// The highest sequence number of a record or snapshot of `machine` (D6).
    public func lastSequence(of machine: String) -> Int64? {
        journals[machine]?.lastSequence
    }
}
