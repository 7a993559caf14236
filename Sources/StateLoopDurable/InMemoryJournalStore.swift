// A journal store that keeps everything in memory, for tests: the promises of `JournalStore`
// (D1–D6, D12) without a file. Nothing survives the process.

import Foundation

/// The in-memory `JournalStore`. Calls from any thread or task are served one at a time, under a
/// lock (`@unchecked Sendable`: `journals` is touched only under it).
public final class InMemoryJournalStore: JournalStore, @unchecked Sendable {
    private struct Journal {
        var records: [JournalRecord] = []
        var snapshot: JournalSnapshot?
        var lastSequence: Int64? { [records.last?.sequence, snapshot?.sequence].compactMap { $0 }.max() }
    }

    private let lock = NSLock()
    private var journals: [String: Journal] = [:]
    private var owners: [String: JournalOwner] = [:]

    /// An empty store.
    public init() {}

    /// Appends `records`, or none of them when one is refused (D2, D3). Checked first, then
    /// appended in place: a copy of the journal per append would make each append cost its length.
    public func append(_ records: [JournalRecord], to machine: String) throws(JournalError) {
        lock.lock()
        defer { lock.unlock() }
        var last = journals[machine]?.lastSequence
        for record in records {
            try record.checkFollows(last, in: machine)
            last = record.sequence
        }
        journals[machine, default: Journal()].records.append(contentsOf: records)
    }

    /// Keeps `snapshot` when it is the latest (D5).
    public func writeSnapshot(_ snapshot: JournalSnapshot, of machine: String) {
        lock.lock()
        defer { lock.unlock() }
        if snapshot.sequence >= journals[machine]?.snapshot?.sequence ?? .min {
            journals[machine, default: Journal()].snapshot = snapshot
        }
    }

    /// The latest snapshot and the records after it (D5).
    public func recover(_ machine: String) -> JournalRecovery {
        lock.lock()
        defer { lock.unlock() }
        let journal = journals[machine, default: Journal()]
        let after = journal.snapshot?.sequence ?? .min
        return JournalRecovery(snapshot: journal.snapshot, records: journal.records.filter { $0.sequence > after })
    }

    /// The highest sequence number of a record or snapshot of `machine` (D6).
    public func lastSequence(of machine: String) -> Int64? {
        lock.lock()
        defer { lock.unlock() }
        return journals[machine]?.lastSequence
    }

    /// Takes `machine` for `owner` unless another owner holds it (D117).
    public func claim(_ machine: String, for owner: JournalOwner) -> JournalOwner? {
        lock.lock()
        defer { lock.unlock() }
        if let holder = owners[machine], holder != owner, holder.isRunning { return holder }
        owners[machine] = owner
        return nil
    }

    /// Gives `machine` back when `owner` holds it (D117).
    public func release(_ machine: String, by owner: JournalOwner) {
        lock.lock()
        defer { lock.unlock() }
        if owners[machine] == owner { owners[machine] = nil }
    }
}
