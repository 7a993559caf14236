// The built-in journal store: one SQLite database file in WAL mode, shared by many machines.

import CSQLite
import Foundation

/// A `JournalStore` in a SQLite file, created when missing.
///
/// Thread safety: one connection per store, opened serialized (`SQLITE_OPEN_FULLMUTEX`); every
/// operation holds that connection's own mutex (`sqlite3_db_mutex`) from its first statement to
/// its commit, so calls from any thread or task run one at a time and a transaction is never
/// interleaved with another. Other stores (in this process or others) may open the same file:
/// SQLite's locks order their writes (`BEGIN IMMEDIATE`, waiting up to 5 s for a busy lock).
/// Each call blocks its thread for the time of its transaction (with `.powerLoss`, a sync).
public final class SQLiteJournalStore: JournalStore, @unchecked Sendable {
    /// What a committed batch survives (D8).
    public enum Durability: Sendable {
        /// A kill of the process, not a power loss: `synchronous=NORMAL` in WAL mode, where a
        /// commit writes the WAL without syncing it.
        case processCrash
        /// A power loss or an OS crash too: `synchronous=FULL`, a sync of the WAL at each commit.
        case powerLoss
    }

    /// The schema this store writes and reads, kept in `PRAGMA user_version` (D9): 2 since
    /// entries carry a checksum (D111; a file of schema 1 is upgraded when it is opened, D113), 3
    /// since a host keeps its instances' rows and timer rows beside the journal (H64).
    public static let schemaVersion: Int32 = 3

    let db: OpaquePointer
    private let mutex: OpaquePointer
    private let insertRecord: OpaquePointer
    private let insertSnapshot: OpaquePointer
    private let selectSnapshot: OpaquePointer
    private let selectRecords: OpaquePointer
    private let selectLast: OpaquePointer
    private let selectOwner: OpaquePointer
    private let insertOwner: OpaquePointer
    let deleteOwner: OpaquePointer
    private let begin: OpaquePointer
    private let beginRead: OpaquePointer
    private let commit: OpaquePointer
    private let rollback: OpaquePointer
    // A host's batches and rows (SQLiteJournalStore+Host.swift, H22, H63).
    let savepoint: OpaquePointer
    let releaseSavepoint: OpaquePointer
    let rollbackToSavepoint: OpaquePointer
    let insertTimer: OpaquePointer
    let deleteTimer: OpaquePointer
    let deleteTimers: OpaquePointer
    let selectDueTimers: OpaquePointer
    let selectDueTimersAfter: OpaquePointer
    let insertInstance: OpaquePointer
    let selectInstance: OpaquePointer
    let selectHostOwner: OpaquePointer
    let insertHostOwner: OpaquePointer
    let releaseHostOwner: OpaquePointer
    let markHostIndexed: OpaquePointer
    let selectHostIndexed: OpaquePointer
    /// The file's path.
    let path: String
    /// The read connections ``load(_:)`` reads through (H11): stores of their own on the same
    /// file, opened at the first loads that find none idle.
    let readers: ReadConnections<SQLiteJournalStore>

    /// Opens the database at `path` (creating it and its schema when missing) in WAL mode with
    /// the `synchronous` level of `durability`; ``load(_:)`` reads through at most
    /// `readConnections` connections of its own, opened when first needed (H11).
    public convenience init(path: String, durability: Durability = .processCrash, readConnections: Int = 4) throws(JournalError) {
        try self.init(path: path, durability: durability, readConnections: readConnections, reader: false)
    }

    /// Opens the database at `path`; a `reader` (a read connection of ``load(_:)``, on a file its
    /// store has opened) sets nothing and upgrades nothing, so that it never waits for the
    /// write lock (H11).
    init(path: String, durability: Durability, readConnections: Int, reader: Bool) throws(JournalError) {
        self.path = path
        readers = ReadConnections(limit: readConnections) { () throws(JournalError) in
            try SQLiteJournalStore(path: path, durability: .processCrash, readConnections: 1, reader: true)
        }
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX
        let opened = sqlite3_open_v2(path, &handle, flags, nil)
        guard let handle else { throw .database(code: opened, message: String(cString: sqlite3_errstr(opened))) }
        guard opened == SQLITE_OK else {
            let error = JournalError.database(code: opened, message: String(cString: sqlite3_errmsg(handle)))
            sqlite3_close_v2(handle)
            throw error
        }
        // SQLite opens a file it may not write read-only, without a word: refused here, before any
        // recovery, rather than at the first append after effects started (D119).
        guard sqlite3_db_readonly(handle, "main") != 1 else {
            sqlite3_close_v2(handle)
            throw .readOnly(path: path)
        }
        // NULL when the library was built without threads (SQLITE_THREADSAFE=0): D12 needs them.
        guard let mutex = sqlite3_db_mutex(handle) else {
            sqlite3_close_v2(handle)
            throw .database(code: SQLITE_MISUSE, message: "this SQLite library was built without thread support (SQLITE_THREADSAFE=0)")
        }
        db = handle
        self.mutex = mutex
        var prepared: [OpaquePointer] = []
        do throws(JournalError) {
            sqlite3_extended_result_codes(handle, 1)
            try Self.execute("PRAGMA busy_timeout = 5000", on: handle)
            // Before anything is set, so that a newer file is left as it was (D9).
            let found = try Self.userVersion(handle)
            if found > Self.schemaVersion { throw .newerSchema(found: found, supported: Self.schemaVersion) }
            if !reader {
                try Self.execute("PRAGMA journal_mode = WAL", on: handle)
                try Self.execute("PRAGMA synchronous = \(durability == .powerLoss ? "FULL" : "NORMAL")", on: handle)
                // A file of the current schema is opened without the write lock (D126).
                if found < Self.schemaVersion { try Self.migrate(handle) }
            }
            func prepare(_ sql: String) throws(JournalError) -> OpaquePointer {
                var statement: OpaquePointer?
                let result = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
                guard result == SQLITE_OK, let statement else { throw Self.error(result, handle) }
                prepared.append(statement)
                return statement
            }
            insertRecord = try prepare("INSERT INTO journal (machine, seq, event, state, crc) VALUES (?1, ?2, ?3, ?4, ?5)")
            insertSnapshot = try prepare("INSERT OR REPLACE INTO snapshot (machine, seq, state, crc) VALUES (?1, ?2, ?3, ?4)")
            selectSnapshot = try prepare("SELECT seq, state, crc FROM snapshot WHERE machine = ?1 ORDER BY seq DESC LIMIT 1")
            selectRecords = try prepare("SELECT seq, event, state, crc FROM journal WHERE machine = ?1 AND seq > ?2 ORDER BY seq")
            selectLast = try prepare(Self.lastSequenceSQL)
            selectOwner = try prepare("SELECT pid, started, system FROM owner WHERE machine = ?1")
            insertOwner = try prepare("INSERT OR REPLACE INTO owner (machine, pid, started, system) VALUES (?1, ?2, ?3, ?4)")
            deleteOwner = try prepare("DELETE FROM owner WHERE machine = ?1 AND pid = ?2 AND started = ?3 AND system = ?4")
            begin = try prepare("BEGIN IMMEDIATE")
            beginRead = try prepare("BEGIN DEFERRED")
            commit = try prepare("COMMIT")
            rollback = try prepare("ROLLBACK")
            savepoint = try prepare("SAVEPOINT part")
            releaseSavepoint = try prepare("RELEASE part")
            rollbackToSavepoint = try prepare("ROLLBACK TO part")
            insertTimer = try prepare("INSERT OR REPLACE INTO host_timer (machine, event, deadline, armed, crc) VALUES (?1, ?2, ?3, ?4, ?5)")
            deleteTimer = try prepare("DELETE FROM host_timer WHERE machine = ?1 AND event = ?2")
            deleteTimers = try prepare("DELETE FROM host_timer WHERE machine = ?1")
            // The order of host_timer_due (its table's key, machine and event, ends each entry).
            let due = "SELECT machine, event, deadline, armed, crc FROM host_timer WHERE deadline <= ?1"
            let order = "ORDER BY deadline, machine, armed, event LIMIT ?2"
            selectDueTimers = try prepare("\(due) \(order)")
            selectDueTimersAfter = try prepare("\(due) AND (deadline, machine, armed, event) > (?3, ?4, ?5, ?6) \(order)")
            insertInstance = try prepare("INSERT OR REPLACE INTO host_instance (machine, host, awake, finished, crc) VALUES (?1, ?2, ?3, ?4, ?5)")
            selectInstance = try prepare("SELECT host, awake, finished, crc FROM host_instance WHERE machine = ?1")
            // A released host keeps its row, pid 0, for what it says of the file's indexing (H67).
            selectHostOwner = try prepare("SELECT pid, started, system FROM host_owner WHERE host = ?1 AND pid != 0")
            // A new claim keeps what the file says of its indexing (H67).
            insertHostOwner = try prepare("""
                INSERT INTO host_owner (host, pid, started, system, indexed) VALUES (?1, ?2, ?3, ?4, 0)
                ON CONFLICT (host) DO UPDATE SET pid = ?2, started = ?3, system = ?4
                """)
            releaseHostOwner = try prepare(
                "UPDATE host_owner SET pid = 0, started = 0, system = 0 WHERE host = ?1 AND pid = ?2 AND started = ?3 AND system = ?4")
            markHostIndexed = try prepare("UPDATE host_owner SET indexed = 1 WHERE host = ?1 AND pid = ?2 AND started = ?3 AND system = ?4")
            selectHostIndexed = try prepare("SELECT indexed FROM host_owner WHERE host = ?1")
        } catch {
            prepared.forEach { sqlite3_finalize($0) }
            sqlite3_close_v2(handle)
            throw error
        }
    }

    deinit {
        for statement in [
            insertRecord, insertSnapshot, selectSnapshot, selectRecords, selectLast, selectOwner, insertOwner, deleteOwner,
            begin, beginRead, commit, rollback, savepoint, releaseSavepoint, rollbackToSavepoint, insertTimer, deleteTimer,
            deleteTimers, selectDueTimers, selectDueTimersAfter, insertInstance, selectInstance, selectHostOwner, insertHostOwner, releaseHostOwner,
            markHostIndexed, selectHostIndexed,
        ] {
            sqlite3_finalize(statement)
        }
        sqlite3_close_v2(db)
    }

    /// The value of `PRAGMA name` as text (to see what the store set: `synchronous`, `journal_mode`).
    public func pragma(_ name: String) throws(JournalError) -> String {
        try locked { () throws(JournalError) in
            var statement: OpaquePointer?
            let result = sqlite3_prepare_v2(db, "PRAGMA \(name)", -1, &statement, nil)
            defer { sqlite3_finalize(statement) }
            guard result == SQLITE_OK, let statement else { throw Self.error(result, db) }
            guard try step(statement) else { return "" }
            return String(cString: sqlite3_column_text(statement, 0))
        }
    }

    /// Appends `records` in one `BEGIN IMMEDIATE` transaction, rolled back when any is refused (D2, D3).
    public func append(_ records: [JournalRecord], to machine: String) throws(JournalError) {
        try transaction { () throws(JournalError) in try appendLocked(records, to: machine) }
    }

    /// Saves `snapshot`, replacing one of the same sequence number (D5).
    public func writeSnapshot(_ snapshot: JournalSnapshot, of machine: String) throws(JournalError) {
        try transaction { () throws(JournalError) in try writeSnapshotLocked(snapshot, of: machine) }
    }

    /// Inserts `records` after checking each follows the one before (D3), inside the caller's
    /// transaction or savepoint, which rolls back when one is refused (D2).
    func appendLocked(_ records: [JournalRecord], to machine: String) throws(JournalError) {
        var last = try lastSequenceLocked(machine)
        // Bindings outlive a reset: the machine is bound once per batch.
        try bind(machine, 1, insertRecord)
        for record in records {
            try record.checkFollows(last, in: machine)
            defer { sqlite3_reset(insertRecord) }
            sqlite3_bind_int64(insertRecord, 2, record.sequence)
            sqlite3_bind_int64(insertRecord, 5, Int64(JournalChecksum.of(machine, record.sequence, [record.event, record.stateAfter])))
            let result = record.event.withUnsafeBytes { event in
                record.stateAfter.withUnsafeBytes { state in Self.stepBinding(event, state, from: 3, insertRecord) }
            }
            guard result == SQLITE_DONE else { throw Self.error(result, db) }
            last = record.sequence
        }
    }

    /// Inserts `snapshot` inside the caller's transaction or savepoint.
    func writeSnapshotLocked(_ snapshot: JournalSnapshot, of machine: String) throws(JournalError) {
        defer { sqlite3_reset(insertSnapshot) }
        try bind(machine, 1, insertSnapshot)
        sqlite3_bind_int64(insertSnapshot, 2, snapshot.sequence)
        sqlite3_bind_int64(insertSnapshot, 4, Int64(JournalChecksum.of(machine, snapshot.sequence, [snapshot.state])))
        let result = snapshot.state.withUnsafeBytes { state in Self.stepBinding(state, nil, from: 3, insertSnapshot) }
        guard result == SQLITE_DONE else { throw Self.error(result, db) }
    }

    /// The latest snapshot and the records after it, read in one transaction (D5), with the
    /// machine's last sequence number and the entries whose checksum fails (D111, D114).
    public func recover(_ machine: String) throws(JournalError) -> JournalRecovery {
        // One read transaction, so the snapshot and the records are of the same moment.
        try transaction(writing: false) { () throws(JournalError) in
            var snapshot: JournalSnapshot?
            var damaged: [JournalEntry] = []
            do {
                defer { sqlite3_reset(selectSnapshot) }
                try bind(machine, 1, selectSnapshot)
                if try step(selectSnapshot) {
                    let read = JournalSnapshot(sequence: sqlite3_column_int64(selectSnapshot, 0), state: Self.bytes(selectSnapshot, 1))
                    if !Self.checksumMatches(selectSnapshot, 2, JournalChecksum.of(machine, read.sequence, [read.state])) {
                        damaged.append(.snapshot(read.sequence))
                    }
                    snapshot = read
                }
            }
            defer { sqlite3_reset(selectRecords) }
            try bind(machine, 1, selectRecords)
            sqlite3_bind_int64(selectRecords, 2, snapshot?.sequence ?? .min)
            var records: [JournalRecord] = []
            while try step(selectRecords) {
                let record = JournalRecord(
                    sequence: sqlite3_column_int64(selectRecords, 0),
                    event: Self.bytes(selectRecords, 1),
                    stateAfter: Self.bytes(selectRecords, 2)
                )
                if !Self.checksumMatches(selectRecords, 3, JournalChecksum.of(machine, record.sequence, [record.event, record.stateAfter])) {
                    damaged.append(.record(record.sequence))
                }
                records.append(record)
            }
            return JournalRecovery(snapshot: snapshot, records: records, lastSequence: try lastSequenceLocked(machine), damaged: damaged)
        }
    }

    /// The highest sequence number of a record or snapshot of `machine` (D6).
    public func lastSequence(of machine: String) throws(JournalError) -> Int64? {
        try locked { () throws(JournalError) in try lastSequenceLocked(machine) }
    }

    /// Takes `machine` for `owner` in one `BEGIN IMMEDIATE` transaction, unless the owner row
    /// names another owner whose process still runs, which it returns (D117).
    public func claim(_ machine: String, for owner: JournalOwner) throws(JournalError) -> JournalOwner? {
        try claim(machine, for: owner, select: selectOwner, insert: insertOwner)
    }

    /// Deletes the owner row of `machine` when it names `owner` (D117).
    public func release(_ machine: String, by owner: JournalOwner) throws(JournalError) {
        try transaction { () throws(JournalError) in try stepOwner(deleteOwner, machine, owner) }
    }

    /// Takes `key` for `owner` in one `BEGIN IMMEDIATE` transaction, unless the row `select` reads
    /// names another owner whose process still runs, which it returns; else writes it with
    /// `insert` (D117; a host's machine, H54).
    func claim(_ key: String, for owner: JournalOwner, select: OpaquePointer, insert: OpaquePointer) throws(JournalError) -> JournalOwner? {
        try transaction { () throws(JournalError) in
            do {
                defer { sqlite3_reset(select) }
                try bind(key, 1, select)
                if try step(select) {
                    let holder = JournalOwner(
                        pid: sqlite3_column_int(select, 0), started: sqlite3_column_int64(select, 1), system: sqlite3_column_int64(select, 2))
                    if holder != owner, holder.isRunning { return holder }
                }
            }
            try stepOwner(insert, key, owner)
            return nil
        }
    }

    // MARK: - Statements

    /// Steps `statement` with `machine` and `owner` bound to ?1 … ?4.
    func stepOwner(_ statement: OpaquePointer, _ machine: String, _ owner: JournalOwner) throws(JournalError) {
        defer { sqlite3_reset(statement) }
        try bind(machine, 1, statement)
        sqlite3_bind_int(statement, 2, owner.pid)
        sqlite3_bind_int64(statement, 3, owner.started)
        sqlite3_bind_int64(statement, 4, owner.system)
        _ = try step(statement)
    }

    /// The highest sequence number of machine ?1 in a record or a snapshot (D6); the journal's
    /// readers ask it beside the entries, so that entries a damaged file does not return show (D114).
    static let lastSequenceSQL = """
        SELECT max(seq) FROM (SELECT max(seq) AS seq FROM journal WHERE machine = ?1
        UNION ALL SELECT max(seq) FROM snapshot WHERE machine = ?1)
        """

    /// Whether the checksum in `column` (NULL: none) is `expected` (D111): a row without one, or
    /// with a value that is not a checksum, fails.
    static func checksumMatches(_ statement: OpaquePointer, _ column: Int32, _ expected: UInt32) -> Bool {
        sqlite3_column_type(statement, column) == SQLITE_INTEGER && sqlite3_column_int64(statement, column) == Int64(expected)
    }

    private func lastSequenceLocked(_ machine: String) throws(JournalError) -> Int64? {
        defer { sqlite3_reset(selectLast) }
        try bind(machine, 1, selectLast)
        guard try step(selectLast), sqlite3_column_type(selectLast, 0) != SQLITE_NULL else { return nil }
        return sqlite3_column_int64(selectLast, 0)
    }

    /// Runs `body` holding the connection's mutex.
    private func locked<T>(_ body: () throws(JournalError) -> T) throws(JournalError) -> T {
        sqlite3_mutex_enter(mutex)
        defer { sqlite3_mutex_leave(mutex) }
        return try body()
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws (D2).
    /// A writing one takes the database's write lock at once (`BEGIN IMMEDIATE`), so that what it
    /// reads first (the last sequence number) stays true until it commits.
    func transaction<T>(writing: Bool = true, _ body: () throws(JournalError) -> T) throws(JournalError) -> T {
        try locked { () throws(JournalError) in
            let start = writing ? begin : beginRead
            defer { sqlite3_reset(start); sqlite3_reset(commit); sqlite3_reset(rollback) }
            _ = try step(start)
            do throws(JournalError) {
                let result = try body()
                _ = try step(commit)
                return result
            } catch {
                if sqlite3_get_autocommit(db) == 0 { _ = sqlite3_step(rollback) }
                throw error
            }
        }
    }

    /// Steps `statement`: `true` for a row, `false` when done.
    func step(_ statement: OpaquePointer) throws(JournalError) -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let result: throw Self.error(result, db)
        }
    }

    func bind(_ text: String, _ index: Int32, _ statement: OpaquePointer) throws(JournalError) {
        // SQLITE_TRANSIENT: SQLite copies the text before the call returns.
        let result = sqlite3_bind_text(statement, index, text, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        guard result == SQLITE_OK else { throw Self.error(result, db) }
    }

    /// Binds `first` and `second` to the parameters from `index` on and steps `statement` once,
    /// returning SQLite's result. The bytes are not copied (SQLITE_STATIC): they are valid only
    /// inside the caller's `withUnsafeBytes`, so the step happens here, and the caller resets.
    static func stepBinding(
        _ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer?, from index: Int32, _ statement: OpaquePointer
    ) -> Int32 {
        for (offset, bytes) in [first, second].enumerated() {
            guard let bytes else { continue }
            // An empty buffer may have no address, which SQLite would bind as NULL.
            let result = if let base = bytes.baseAddress, !bytes.isEmpty {
                sqlite3_bind_blob64(statement, index + Int32(offset), base, sqlite3_uint64(bytes.count), nil)
            } else {
                sqlite3_bind_zeroblob(statement, index + Int32(offset), 0)
            }
            guard result == SQLITE_OK else { return result }
        }
        return sqlite3_step(statement)
    }

    static func bytes(_ statement: OpaquePointer, _ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let base = sqlite3_column_blob(statement, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: base, count: count))
    }

    static func error(_ code: Int32, _ db: OpaquePointer) -> JournalError {
        .database(code: code, message: String(cString: sqlite3_errmsg(db)))
    }

    private static func execute(_ sql: String, on db: OpaquePointer) throws(JournalError) {
        let result = sqlite3_exec(db, sql, nil, nil, nil)
        guard result == SQLITE_OK else { throw error(result, db) }
    }

    // MARK: - Schema

    /// Creates the schema of a new file, or upgrades one of schema 1 (D113) or 2 (H64), in one
    /// transaction (so that of several connections opening a file at once, one does it and the
    /// others see it, and an upgrade that fails leaves the file as it was). Only an open that read
    /// an older version calls it: the write lock it takes would make an open of a current file
    /// wait for every other writer (D126).
    private static func migrate(_ db: OpaquePointer) throws(JournalError) {
        try execute("BEGIN IMMEDIATE", on: db)
        do throws(JournalError) {
            let found = try userVersion(db)
            switch found {
            case 0:
                try execute("""
                    CREATE TABLE journal (machine TEXT NOT NULL, seq INTEGER NOT NULL, event BLOB NOT NULL,
                        state BLOB NOT NULL, crc INTEGER NOT NULL, PRIMARY KEY (machine, seq)) WITHOUT ROWID;
                    CREATE TABLE snapshot (machine TEXT NOT NULL, seq INTEGER NOT NULL, state BLOB NOT NULL,
                        crc INTEGER NOT NULL, PRIMARY KEY (machine, seq)) WITHOUT ROWID;
                    \(ownerTable);
                    """, on: db)
            case 1:
                // Schema 1 kept no checksums: the rows get the checksums of their bytes as they are
                // now, so damage done before the upgrade cannot be told (D113).
                try registerChecksumFunction(db)
                try execute("""
                    ALTER TABLE journal ADD COLUMN crc INTEGER;
                    ALTER TABLE snapshot ADD COLUMN crc INTEGER;
                    UPDATE journal SET crc = stateloop_crc32c(machine, seq, event, state);
                    UPDATE snapshot SET crc = stateloop_crc32c(machine, seq, state);
                    \(ownerTable);
                    """, on: db)
            default:
                break
            }
            if found < 3 {
                try execute("\(hostTables); PRAGMA user_version = \(schemaVersion);", on: db)
            }
            try execute("COMMIT", on: db)
        } catch {
            _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    /// Who runs each machine id (D117): the process and the durable system in it.
    private static let ownerTable = """
        CREATE TABLE owner (machine TEXT NOT NULL PRIMARY KEY, pid INTEGER NOT NULL, started INTEGER NOT NULL,
            system INTEGER NOT NULL) WITHOUT ROWID
        """

    /// A host's rows beside the journal (schema 3, Docs/Hosting.md "Schema 3"): each instance it
    /// runs (host: its machine's `journalName`), each armed timer or pending send of an instance
    /// (its event's bytes, its deadline in nanoseconds since the Unix epoch, its order of arming)
    /// with the index the scheduler reads due rows by, and each host's claim of its machine (H54,
    /// H67). Every row of an instance carries a checksum (H37).
    private static let hostTables = """
        CREATE TABLE host_instance (machine TEXT NOT NULL PRIMARY KEY, host TEXT NOT NULL,
            awake INTEGER NOT NULL, finished INTEGER NOT NULL, crc INTEGER NOT NULL) WITHOUT ROWID;
        CREATE INDEX host_instance_awake ON host_instance (host, machine) WHERE awake = 1;
        CREATE TABLE host_timer (machine TEXT NOT NULL, event BLOB NOT NULL, deadline INTEGER NOT NULL,
            armed INTEGER NOT NULL, crc INTEGER NOT NULL, PRIMARY KEY (machine, event)) WITHOUT ROWID;
        CREATE INDEX host_timer_due ON host_timer (deadline, machine, armed);
        CREATE TABLE host_owner (host TEXT NOT NULL PRIMARY KEY, pid INTEGER NOT NULL, started INTEGER NOT NULL,
            system INTEGER NOT NULL, indexed INTEGER NOT NULL) WITHOUT ROWID
        """

    /// `stateloop_crc32c(machine, seq, blob...)`: ``JournalChecksum`` in SQL, for the upgrade of a
    /// schema 1 file (D113).
    private static func registerChecksumFunction(_ db: OpaquePointer) throws(JournalError) {
        let result = sqlite3_create_function_v2(db, "stateloop_crc32c", -1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, count, values in
            guard let values, count >= 2 else { return sqlite3_result_null(context) }
            let machine = sqlite3_value_text(values[0]).map { String(cString: $0) } ?? ""
            let parts = (2..<Int(count)).map { index -> [UInt8] in
                let size = Int(sqlite3_value_bytes(values[index]))
                guard size > 0, let base = sqlite3_value_blob(values[index]) else { return [] }
                return Array(UnsafeRawBufferPointer(start: base, count: size))
            }
            sqlite3_result_int64(context, Int64(JournalChecksum.of(machine, sqlite3_value_int64(values[1]), parts)))
        }, nil, nil, nil)
        guard result == SQLITE_OK else { throw error(result, db) }
    }

    private static func userVersion(_ db: OpaquePointer) throws(JournalError) -> Int32 {
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        guard result == SQLITE_OK, let statement else { throw error(result, db) }
        let stepped = sqlite3_step(statement)
        guard stepped == SQLITE_ROW else { throw error(stepped, db) }
        return sqlite3_column_int(statement, 0)
    }
}
