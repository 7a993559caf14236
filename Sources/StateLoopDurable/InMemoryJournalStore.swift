// A journal store that keeps everything in memory, for tests: the promises of `JournalStore`
// (D1–D6) without a file. Nothing survives the process.

/// The in-memory `JournalStore`. An actor: calls from any task are serialized.
public actor InMemoryJournalStore: JournalStore {
    private struct Journal {
        var records: [JournalRecord] = []
        var snapshot: JournalSnapshot?
        var lastSequence: Int64? { [records.last?.sequence, snapshot?.sequence].compactMap { $0 }.max() }
    }

    private var journals: [String: Journal] = [:]

    public init() {}

    public func append(_ records: [JournalRecord], to machine: String) throws {
        var journal = journals[machine, default: Journal()]
        var last = journal.lastSequence
        for record in records {
            try record.checkFollows(last, in: machine)
            journal.records.append(record)
            last = record.sequence
        }
        journals[machine] = journal
    }

    public func writeSnapshot(_ snapshot: JournalSnapshot, of machine: String) {
        var journal = journals[machine, default: Journal()]
        if snapshot.sequence >= journal.snapshot?.sequence ?? .min { journal.snapshot = snapshot }
        journals[machine] = journal
    }

    public func recover(_ machine: String) -> JournalRecovery {
        let journal = journals[machine, default: Journal()]
        let after = journal.snapshot?.sequence ?? .min
        return JournalRecovery(snapshot: journal.snapshot, records: journal.records.filter { $0.sequence > after })
    }

    public func lastSequence(of machine: String) -> Int64? {
        journals[machine]?.lastSequence
    }
}
