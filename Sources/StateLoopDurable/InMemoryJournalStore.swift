// A journal store that keeps everything in memory, for tests: the promises of `JournalStore`
// (D1–D6, D12) and of `HostJournalStore` (H22, H63) without a file. Nothing survives the process.

import Foundation

/// The in-memory `JournalStore`. Calls from any thread or task are served one at a time, under a
/// lock (`@unchecked Sendable`: `journals` is touched only under it).
public final class InMemoryJournalStore: HostJournalStore, @unchecked Sendable {
    private struct Journal {
        var records: [JournalRecord] = []
        var snapshot: JournalSnapshot?
        var lastSequence: Int64? { [records.last?.sequence, snapshot?.sequence].compactMap { $0 }.max() }
    }

    private let lock = NSLock()
    private var journals: [String: Journal] = [:]
    private var owners: [String: JournalOwner] = [:]
    /// Each instance's timer rows, by their events (H26).
    private var timers: [String: [[UInt8]: HostTimer]] = [:]
    private var instances: [String: HostedInstanceRow] = [:]
    private var hostOwners: [String: JournalOwner] = [:]
    private var indexedHosts: Set<String> = []

    /// An empty store.
    public init() {}

    /// Appends `records`, or none of them when one is refused (D2, D3). Checked first, then
    /// appended in place: a copy of the journal per append would make each append cost its length.
    public func append(_ records: [JournalRecord], to machine: String) throws(JournalError) {
        lock.lock()
        defer { lock.unlock() }
        try checkFollow(records, in: machine)
        journals[machine, default: Journal()].records.append(contentsOf: records)
    }

    /// Keeps `snapshot` when it is the latest (D5).
    public func writeSnapshot(_ snapshot: JournalSnapshot, of machine: String) {
        lock.lock()
        defer { lock.unlock() }
        keepLocked(snapshot, of: machine)
    }

    /// Applies the parts of each instance in `batch` together, or refuses them all when their
    /// records do not follow its journal (H22); checked before anything of them is kept. Memory
    /// never fails a batch.
    public func commit(_ batch: HostBatch) -> [String: JournalError] {
        lock.lock()
        defer { lock.unlock() }
        var refused: [String: JournalError] = [:]
        for indices in batch.byInstance {
            let machine = batch.parts[indices[0]].machine
            do throws(JournalError) {
                try checkFollow(indices.flatMap { batch.parts[$0].records }, in: machine)
            } catch {
                refused[machine] = error
                continue
            }
            for index in indices { applyLocked(batch.parts[index]) }
        }
        return refused
    }

    /// Applies `part`, whose records follow, under the lock.
    private func applyLocked(_ part: HostBatchPart) {
        if !part.records.isEmpty { journals[part.machine, default: Journal()].records.append(contentsOf: part.records) }
        if let snapshot = part.snapshot { keepLocked(snapshot, of: part.machine) }
        if part.replacesTimers { timers[part.machine] = nil }
        for event in part.deletedTimers { timers[part.machine]?[event] = nil }
        for timer in part.armedTimers { timers[part.machine, default: [:]][timer.event] = timer }
        if timers[part.machine]?.isEmpty == true { timers[part.machine] = nil }
        if let instance = part.instance { instances[part.machine] = instance }
        if let owner = part.releasedBy, owners[part.machine] == owner { owners[part.machine] = nil }
    }

    /// The due rows after `cursor`, in the order of their keys; memory keeps every row intact.
    public func dueTimers(through deadline: Int64, after cursor: TimerRow.Key?, limit: Int) -> [CheckedRow<TimerRow>] {
        lock.lock()
        defer { lock.unlock() }
        let due = timers.flatMap { machine, timers in
            timers.values.lazy.filter { $0.deadline <= deadline }.map { TimerRow(machine: machine, timer: $0) }
        }
        return due.filter { row in cursor.map { row.key > $0 } ?? true }.sorted { $0.key < $1.key }.prefix(limit)
            .map { CheckedRow(row: $0, checksumMatches: true) }
    }

    /// The instance row of `machine`.
    public func hostedInstance(_ machine: String) -> CheckedRow<HostedInstanceRow>? {
        lock.lock()
        defer { lock.unlock() }
        return instances[machine].map { CheckedRow(row: $0, checksumMatches: true) }
    }

    /// What `recover(_:)` gives: memory has no commit to wait for.
    public func load(_ machine: String) -> JournalRecovery {
        recover(machine)
    }

    /// The ids of `kind` after `machine`, by their bytes.
    public func instances(_ kind: HostedInstanceKind, after machine: String?, limit: Int) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        let ids = switch kind {
        case .awake(let host): instances.filter { $0.value.host == host && $0.value.awake }.map(\.key)
        case .unhosted: journals.keys.filter { instances[$0] == nil && !$0.contains("/") }
        }
        return ids.filter { id in machine.map { $0.utf8.lexicographicallyPrecedes(id.utf8) } ?? true }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.prefix(limit).map { $0 }
    }

    /// Takes `host` for `owner` unless another owner holds it (H54).
    public func claimHost(_ host: String, for owner: JournalOwner) -> JournalOwner? {
        lock.lock()
        defer { lock.unlock() }
        return Self.take(host, for: owner, in: &hostOwners)
    }

    /// Gives `host` back when `owner` holds it.
    public func releaseHost(_ host: String, by owner: JournalOwner) {
        lock.lock()
        defer { lock.unlock() }
        if hostOwners[host] == owner { hostOwners[host] = nil }
    }

    /// Whether the store was indexed for the host of `host` (H67).
    public func isIndexed(_ host: String) -> Bool {
        lock.withLock { indexedHosts.contains(host) }
    }

    /// Marks the store as indexed for `host`, when `owner` holds it (H67).
    public func markIndexed(_ host: String, by owner: JournalOwner) {
        lock.withLock { if hostOwners[host] == owner { _ = indexedHosts.insert(host) } }
    }

    /// The host of instance `machine`, from its row (H66).
    public func host(of machine: String) -> String? {
        lock.withLock { instances[machine]?.host }
    }

    /// Gives `key` to `owner` in `owners`, unless an owner whose process runs holds it (D117).
    private static func take(_ key: String, for owner: JournalOwner, in owners: inout [String: JournalOwner]) -> JournalOwner? {
        if let holder = owners[key], holder != owner, holder.isRunning { return holder }
        owners[key] = owner
        return nil
    }

    /// Checks that `records` may be appended to the journal of `machine` (D3), under the lock.
    private func checkFollow(_ records: [JournalRecord], in machine: String) throws(JournalError) {
        var last = journals[machine]?.lastSequence
        for record in records {
            try record.checkFollows(last, in: machine)
            last = record.sequence
        }
    }

    /// Keeps `snapshot` when it is the latest (D5), under the lock.
    private func keepLocked(_ snapshot: JournalSnapshot, of machine: String) {
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
        return Self.take(machine, for: owner, in: &owners)
    }

    /// Gives `machine` back when `owner` holds it (D117).
    public func release(_ machine: String, by owner: JournalOwner) {
        lock.lock()
        defer { lock.unlock() }
        if owners[machine] == owner { owners[machine] = nil }
    }
}
