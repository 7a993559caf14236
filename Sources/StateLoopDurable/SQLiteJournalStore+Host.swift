// SQLiteJournalStore as a HostJournalStore (Docs/Hosting.md H22, H24, H37, H63): a host's batch
// in one `BEGIN IMMEDIATE` transaction, a savepoint per instance, and the rows of schema 3.
//
//   BEGIN IMMEDIATE   every part: records (append's checks, D2, D3), snapshot, timer rows,
//     ...             instance row
//   COMMIT            ─ when a part is refused: ROLLBACK, then again, instance by instance:
//
//   BEGIN IMMEDIATE
//     SAVEPOINT part  each of the instance's parts
//     RELEASE part    ─ or, when a part is refused: ROLLBACK TO part; RELEASE part (H22)
//     ...             one savepoint per instance
//   COMMIT            ─ when BEGIN or COMMIT fails, every part has failed (H24)
//
// The calls block their thread for the time of the transaction, as every call of this store does.

import CSQLite
import Foundation

extension SQLiteJournalStore: HostJournalStore {
    /// Applies `batch` in one transaction, the parts of each instance under a savepoint of their
    /// own (H22): when one is refused, the instance's parts are rolled back together and answered
    /// with its error, and when the transaction fails
    /// (it could not begin or commit, or SQLite rolled it back) every part is answered with that
    /// error (H24).
    public func commit(_ batch: HostBatch) -> [String: JournalError] {
        // First without savepoints, which cost two statements per instance: when every part is
        // taken, as nearly always, that is the whole commit; when one is refused, the transaction
        // rolls back and the batch is applied again, instance by instance.
        do throws(JournalError) {
            try transaction { () throws(JournalError) in
                for part in batch.parts { try applyLocked(part) }
            }
            return [:]
        } catch {
            return commitByInstance(batch)
        }
    }

    /// `batch` in one transaction, the parts of each instance under a savepoint of their own.
    private func commitByInstance(_ batch: HostBatch) -> [String: JournalError] {
        var refused: [String: JournalError] = [:]
        do throws(JournalError) {
            try transaction { () throws(JournalError) in
                for indices in batch.byInstance {
                    defer { sqlite3_reset(savepoint); sqlite3_reset(releaseSavepoint); sqlite3_reset(rollbackToSavepoint) }
                    _ = try step(savepoint)
                    do throws(JournalError) {
                        for index in indices { try applyLocked(batch.parts[index]) }
                    } catch {
                        // Some errors (a full disk, an I/O error) make SQLite roll back the whole
                        // transaction: then no part of it is left to keep.
                        guard sqlite3_get_autocommit(db) == 0 else { throw error }
                        _ = try step(rollbackToSavepoint)
                        refused[batch.parts[indices[0]].machine] = error
                    }
                    _ = try step(releaseSavepoint)
                }
            }
        } catch {
            return batch.failingEveryPart(with: error)
        }
        return refused
    }

    /// The due rows after `cursor`, read by the deadline index, each checked against its checksum (H37).
    public func dueTimers(through deadline: Int64, after cursor: TimerRow.Key?, limit: Int) throws(JournalError) -> [CheckedRow<TimerRow>] {
        try transaction(writing: false) { () throws(JournalError) in
            let select = cursor == nil ? selectDueTimers : selectDueTimersAfter
            defer { sqlite3_reset(select) }
            sqlite3_bind_int64(select, 1, deadline)
            sqlite3_bind_int64(select, 2, Int64(limit))
            if let cursor {
                sqlite3_bind_int64(select, 3, cursor.deadline)
                try bind(cursor.machine, 4, select)
                sqlite3_bind_int64(select, 5, cursor.armed)
                // SQLITE_TRANSIENT: SQLite copies the bytes, which outlive this closure in the statement.
                let bound = cursor.event.withUnsafeBytes { event in
                    if let base = event.baseAddress, !event.isEmpty {
                        sqlite3_bind_blob64(select, 6, base, sqlite3_uint64(event.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                    } else {
                        sqlite3_bind_zeroblob(select, 6, 0)
                    }
                }
                guard bound == SQLITE_OK else { throw Self.error(bound, db) }
            }
            var rows: [CheckedRow<TimerRow>] = []
            while try step(select) {
                let row = TimerRow(
                    machine: sqlite3_column_text(select, 0).map { String(cString: $0) } ?? "",
                    timer: HostTimer(event: Self.bytes(select, 1), deadline: sqlite3_column_int64(select, 2), armed: sqlite3_column_int64(select, 3)))
                rows.append(CheckedRow(row: row, checksumMatches: Self.checksumMatches(select, 4, row.checksum)))
            }
            return rows
        }
    }

    /// The instance row of `machine`, checked against its checksum (H37), read through one of the
    /// store's read connections, as a load is (H11, H46).
    public func hostedInstance(_ machine: String) throws(JournalError) -> CheckedRow<HostedInstanceRow>? {
        try reading { reader throws(JournalError) in try reader.instanceRow(machine) }
    }

    /// The instance row of `machine`, read on this connection.
    private func instanceRow(_ machine: String) throws(JournalError) -> CheckedRow<HostedInstanceRow>? {
        try transaction(writing: false) { () throws(JournalError) in
            defer { sqlite3_reset(selectInstance) }
            try bind(machine, 1, selectInstance)
            guard try step(selectInstance) else { return nil }
            let row = HostedInstanceRow(
                host: sqlite3_column_text(selectInstance, 0).map { String(cString: $0) } ?? "",
                awake: sqlite3_column_int64(selectInstance, 1) != 0, finished: sqlite3_column_int64(selectInstance, 2) != 0)
            return CheckedRow(row: row, checksumMatches: Self.checksumMatches(selectInstance, 3, row.checksum(of: machine)))
        }
    }

    /// What `recover(_:)` reads, through one of the store's read connections, so that a load never
    /// waits behind this connection's commit (H11): in WAL mode, a reader sees the last commit and
    /// does not wait for the writer. A load waits only for a read connection to be free.
    public func load(_ machine: String) throws(JournalError) -> JournalRecovery {
        try reading { reader throws(JournalError) in try reader.recover(machine) }
    }

    /// `read` on a read connection of the store's, given back once it returned.
    private func reading<T>(_ read: (SQLiteJournalStore) throws(JournalError) -> T) throws(JournalError) -> T {
        try readers.reading(read)
    }

    /// The ids of `kind` after `machine`, by their bytes (BINARY collation).
    public func instances(_ kind: HostedInstanceKind, after machine: String?, limit: Int) throws(JournalError) -> [String] {
        let after = machine == nil ? "" : "AND machine > :after"
        let sql = switch kind {
        case .awake:
            "SELECT machine FROM host_instance WHERE host = :host AND awake = 1 \(after) ORDER BY machine LIMIT :limit"
        case .unhosted:
            """
            SELECT machine FROM (SELECT machine FROM snapshot UNION SELECT machine FROM journal)
            WHERE instr(machine, '/') = 0 AND machine NOT IN (SELECT machine FROM host_instance) \(after)
            ORDER BY machine LIMIT :limit
            """
        }
        return try transaction(writing: false) { () throws(JournalError) in
            var prepared: OpaquePointer?
            let result = sqlite3_prepare_v2(db, sql, -1, &prepared, nil)
            defer { sqlite3_finalize(prepared) }
            guard result == SQLITE_OK, let statement = prepared else { throw Self.error(result, db) }
            if case .awake(let host) = kind { try bind(host, sqlite3_bind_parameter_index(statement, ":host"), statement) }
            if let machine { try bind(machine, sqlite3_bind_parameter_index(statement, ":after"), statement) }
            sqlite3_bind_int64(statement, sqlite3_bind_parameter_index(statement, ":limit"), Int64(limit))
            var ids: [String] = []
            while try step(statement) { ids.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "") }
            return ids
        }
    }

    /// Takes `host` for `owner` in one transaction, as `claim(_:for:)` takes an id (H54).
    public func claimHost(_ host: String, for owner: JournalOwner) throws(JournalError) -> JournalOwner? {
        try claim(host, for: owner, select: selectHostOwner, insert: insertHostOwner)
    }

    /// Gives the claim of `host` back when it names `owner`; its row stays, for its indexing (H67).
    public func releaseHost(_ host: String, by owner: JournalOwner) throws(JournalError) {
        try transaction { () throws(JournalError) in try stepOwner(releaseHostOwner, host, owner) }
    }

    /// Whether the file was indexed for the host of `host`: its unhosted instances adopted (H67).
    public func isIndexed(_ host: String) throws(JournalError) -> Bool {
        try transaction(writing: false) { () throws(JournalError) in
            defer { sqlite3_reset(selectHostIndexed) }
            try bind(host, 1, selectHostIndexed)
            return try step(selectHostIndexed) && sqlite3_column_int(selectHostIndexed, 0) != 0
        }
    }

    /// Marks the file as indexed for `host`, when `owner` holds it (H67).
    public func markIndexed(_ host: String, by owner: JournalOwner) throws(JournalError) {
        try transaction { () throws(JournalError) in try stepOwner(markHostIndexed, host, owner) }
    }

    /// The host of instance `machine`, from its row (H66).
    public func host(of machine: String) throws(JournalError) -> String? {
        try hostedInstance(machine)?.row.host
    }

    /// Writes one part inside the savepoint the caller holds: its records first (so that a due
    /// snapshot of its last record follows them, H25), then its snapshot, its timer rows deleted
    /// (all of them first for a part that replaces them, H38) and armed, and its instance row.
    private func applyLocked(_ part: HostBatchPart) throws(JournalError) {
        if !part.records.isEmpty { try appendLocked(part.records, to: part.machine) }
        if let snapshot = part.snapshot { try writeSnapshotLocked(snapshot, of: part.machine) }
        if part.replacesTimers {
            defer { sqlite3_reset(deleteTimers) }
            try bind(part.machine, 1, deleteTimers)
            _ = try step(deleteTimers)
        }
        for event in part.deletedTimers {
            defer { sqlite3_reset(deleteTimer) }
            try bind(part.machine, 1, deleteTimer)
            let result = event.withUnsafeBytes { event in Self.stepBinding(event, nil, from: 2, deleteTimer) }
            guard result == SQLITE_DONE else { throw Self.error(result, db) }
        }
        for timer in part.armedTimers {
            defer { sqlite3_reset(insertTimer) }
            try bind(part.machine, 1, insertTimer)
            sqlite3_bind_int64(insertTimer, 3, timer.deadline)
            sqlite3_bind_int64(insertTimer, 4, timer.armed)
            sqlite3_bind_int64(insertTimer, 5, Int64(TimerRow(machine: part.machine, timer: timer).checksum))
            let result = timer.event.withUnsafeBytes { event in Self.stepBinding(event, nil, from: 2, insertTimer) }
            guard result == SQLITE_DONE else { throw Self.error(result, db) }
        }
        if let instance = part.instance {
            defer { sqlite3_reset(insertInstance) }
            try bind(part.machine, 1, insertInstance)
            try bind(instance.host, 2, insertInstance)
            sqlite3_bind_int(insertInstance, 3, instance.awake ? 1 : 0)
            sqlite3_bind_int(insertInstance, 4, instance.finished ? 1 : 0)
            sqlite3_bind_int64(insertInstance, 5, Int64(instance.checksum(of: part.machine)))
            _ = try step(insertInstance)
        }
        if let owner = part.releasedBy { try stepOwner(deleteOwner, part.machine, owner) }
    }
}
