// SQLiteJournalFile: a journal file opened to be read, never written - by the tools of a journal
// (`stateloop journal`, the replay check; Docs/Durability.md "Tools for a journal", D80–D89).
//
// Invariants:
// - The file is opened read-only: a file that is missing is not created, and a SQLite file that
//   is not a journal is not given the journal's tables (`SQLiteJournalStore` would do both).
// - Every refusal says what the file is and what to do (`JournalFileError`), never a crash.

import CSQLite
import Foundation

/// Everything a store holds of one machine, in sequence order: every snapshot and every record,
/// with what the file found wrong with them (D111, D114).
public struct JournalHistory: Sendable, Equatable {
    /// Every snapshot, by rising sequence number.
    public var snapshots: [JournalSnapshot]
    /// Every record, by rising sequence number.
    public var records: [JournalRecord]
    /// The machine's last sequence number, as the file's index gives it (D6, D114).
    public var lastSequence: Int64?
    /// The entries whose stored bytes do not match the checksum stored beside them (D111).
    public var damaged: [JournalEntry]

    /// The history of a machine: `snapshots` and `records`, each in sequence order;
    /// `lastSequence` defaults to the last of them.
    public init(snapshots: [JournalSnapshot], records: [JournalRecord], lastSequence: Int64? = nil, damaged: [JournalEntry] = []) {
        self.snapshots = snapshots
        self.records = records
        self.lastSequence = lastSequence ?? [records.last?.sequence, snapshots.last?.sequence].compactMap { $0 }.max()
        self.damaged = damaged
    }
}

/// A hosted instance's rows beside its journal, as `SQLiteJournalFile.hosting(of:)` reads them (H69).
public struct JournalHosting: Sendable, Equatable {
    /// Its instance row: the host's machine, and whether it is awake or finished (H48, H46).
    public var instance: CheckedRow<HostedInstanceRow>?
    /// Its armed timers and pending sends, by deadline (H26).
    public var timers: [CheckedRow<HostTimer>]
}

/// Why a file could not be read as a journal.
public enum JournalFileError: Error, Equatable, CustomStringConvertible {
    /// No file at the path.
    case missing(path: String)
    /// The file is not a journal of `SQLiteJournalStore`: not SQLite, or SQLite without its tables.
    case notAJournal(path: String, reason: String)
    /// The file's schema is newer than this build's (D9); it was not read.
    case newerSchema(path: String, found: Int32, supported: Int32)
    /// SQLite failed while reading: its result code and message.
    case database(path: String, code: Int32, message: String)
    /// A backup's output file exists already; it was not touched (D121).
    case outputExists(path: String)

    /// What went wrong and what to do about it.
    public var description: String {
        switch self {
        case let .missing(path):
            "\(path): no such file: give the path of the journal file a durable system writes (SQLiteJournalStore(path:))"
        case let .notAJournal(path, reason):
            "\(path): not a StateLoop journal (\(reason)): give the file a durable system writes with SQLiteJournalStore; it was left untouched"
        case let .newerSchema(path, found, supported):
            "\(path): journal schema version \(found) is newer than this build's \(supported): read it with the newer StateLoop that wrote it; it was left untouched"
        case let .database(path, code, message):
            "\(path): SQLite error \(code) while reading the journal: \(message)"
        case let .outputExists(path):
            "\(path) exists: give a backup a new file, so that no file is half overwritten; it was left untouched"
        }
    }
}

/// A journal file of `SQLiteJournalStore`, opened read-only to inspect or replay it (D80, D81).
///
/// Thread safety: one connection, opened serialized (`SQLITE_OPEN_FULLMUTEX`); each call prepares
/// and finalizes its own statement.
public final class SQLiteJournalFile: @unchecked Sendable {
    /// The path the file was opened at, as given.
    public let path: String
    /// Whether the file looks like it lost its `-wal` file (D122): `FILE-shm` is there and
    /// `FILE-wal` is not, which SQLite never leaves (it deletes both at the last close, and a
    /// crash leaves both). A journal whose two files were both deleted cannot be told.
    public let lostWAL: Bool
    /// The file's schema version (D9): entries of a schema 1 file carry no checksum, and are not
    /// checked until `SQLiteJournalStore` upgrades the file (D113).
    public private(set) var schemaVersion: Int32 = 0
    private let db: OpaquePointer

    /// Opens the journal at `path` read-only; refuses a missing file, one that is not a journal,
    /// and one of a newer schema (D80).
    public init(path: String) throws(JournalFileError) {
        self.path = path
        guard FileManager.default.fileExists(atPath: path) else { throw .missing(path: path) }
        // Before SQLite opens the file, which may create or remove its companions.
        lostWAL = FileManager.default.fileExists(atPath: path + "-shm") && !FileManager.default.fileExists(atPath: path + "-wal")
        var handle: OpaquePointer?
        let opened = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_FULLMUTEX, nil)
        guard let handle else { throw .database(path: path, code: opened, message: String(cString: sqlite3_errstr(opened))) }
        db = handle
        guard opened == SQLITE_OK else { throw .database(path: path, code: opened, message: String(cString: sqlite3_errmsg(handle))) }
        sqlite3_extended_result_codes(handle, 1)
        _ = sqlite3_busy_timeout(handle, 5_000)
        let version: Int32
        do {
            version = try Int32(truncatingIfNeeded: rows("PRAGMA user_version") { Self.integer($0, 0) }.first ?? 0)
        } catch let error where error.isNotADatabase {
            throw .notAJournal(path: path, reason: "not a SQLite database")
        }
        if version > SQLiteJournalStore.schemaVersion {
            throw .newerSchema(path: path, found: version, supported: SQLiteJournalStore.schemaVersion)
        }
        schemaVersion = version
        let tables = try rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('journal', 'snapshot')") { Self.text($0, 0) }
        guard version >= 1, Set(tables) == ["journal", "snapshot"] else {
            throw .notAJournal(path: path, reason: "a SQLite database without the journal's tables")
        }
    }

    deinit {
        sqlite3_close_v2(db)
    }

    /// The id of every machine with a record or a snapshot in the file, sorted (D80).
    public func machineIDs() throws(JournalFileError) -> [String] {
        try rows("SELECT machine FROM journal UNION SELECT machine FROM snapshot ORDER BY machine") { Self.text($0, 0) }
    }

    /// Every snapshot and every record of `machine`, in sequence order, with its last sequence
    /// number and the entries whose checksum fails (none checked in a schema 1 file); empty for an
    /// unknown id.
    public func history(of machine: String) throws(JournalFileError) -> JournalHistory {
        // One read transaction, so that the snapshots and the records are of the same moment.
        try execute("BEGIN DEFERRED")
        defer { _ = sqlite3_exec(db, "COMMIT", nil, nil, nil) }
        let checked = schemaVersion >= 2
        let crc = checked ? "crc" : "NULL"
        var damaged: [JournalEntry] = []
        let snapshots = try rows("SELECT seq, state, \(crc) FROM snapshot WHERE machine = ?1 ORDER BY seq", binding: machine) { row in
            let snapshot = JournalSnapshot(sequence: sqlite3_column_int64(row, 0), state: Self.blob(row, 1))
            if checked, !SQLiteJournalStore.checksumMatches(row, 2, JournalChecksum.of(machine, snapshot.sequence, [snapshot.state])) {
                damaged.append(.snapshot(snapshot.sequence))
            }
            return snapshot
        }
        let records = try rows("SELECT seq, event, state, \(crc) FROM journal WHERE machine = ?1 ORDER BY seq", binding: machine) { row in
            let record = JournalRecord(sequence: sqlite3_column_int64(row, 0), event: Self.blob(row, 1), stateAfter: Self.blob(row, 2))
            if checked, !SQLiteJournalStore.checksumMatches(row, 3, JournalChecksum.of(machine, record.sequence, [record.event, record.stateAfter])) {
                damaged.append(.record(record.sequence))
            }
            return record
        }
        let last = try rows(SQLiteJournalStore.lastSequenceSQL, binding: machine) { row in
            sqlite3_column_type(row, 0) == SQLITE_NULL ? nil : sqlite3_column_int64(row, 0)
        }
        return JournalHistory(snapshots: snapshots, records: records, lastSequence: last.first ?? nil, damaged: damaged)
    }

    /// What a host keeps of instance `machine` beside its journal (Docs/Hosting.md H69): its
    /// instance row and its timer rows (by deadline, then arming), each with whether its checksum
    /// matches (H37); `nil` in a file of schema 2 or older, and for an id no host ran.
    public func hosting(of machine: String) throws(JournalFileError) -> JournalHosting? {
        guard schemaVersion >= 3 else { return nil }
        try execute("BEGIN DEFERRED")
        defer { _ = sqlite3_exec(db, "COMMIT", nil, nil, nil) }
        let instance = try rows("SELECT host, awake, finished, crc FROM host_instance WHERE machine = ?1", binding: machine) { row in
            let read = HostedInstanceRow(host: Self.text(row, 0), awake: sqlite3_column_int(row, 1) != 0, finished: sqlite3_column_int(row, 2) != 0)
            return CheckedRow(row: read, checksumMatches: SQLiteJournalStore.checksumMatches(row, 3, read.checksum(of: machine)))
        }.first
        let timers = try rows("SELECT event, deadline, armed, crc FROM host_timer WHERE machine = ?1 ORDER BY deadline, armed", binding: machine) { row in
            let timer = HostTimer(event: Self.blob(row, 0), deadline: sqlite3_column_int64(row, 1), armed: sqlite3_column_int64(row, 2))
            return CheckedRow(row: timer, checksumMatches: SQLiteJournalStore.checksumMatches(row, 3, TimerRow(machine: machine, timer: timer).checksum))
        }
        if instance == nil, timers.isEmpty { return nil }
        return JournalHosting(instance: instance, timers: timers)
    }

    /// Writes a copy of the whole journal, the commits of its `-wal` file included, to the new
    /// file `output`, in one read transaction (`VACUUM INTO`, D121); refuses an `output` that exists.
    public func backup(to output: String) throws(JournalFileError) {
        guard !FileManager.default.fileExists(atPath: output) else { throw .outputExists(path: output) }
        _ = try rows("VACUUM INTO ?1", binding: output) { _ in () }
    }

    // MARK: - Statements

    private func execute(_ sql: String) throws(JournalFileError) {
        let result = sqlite3_exec(db, sql, nil, nil, nil)
        guard result == SQLITE_OK else { throw error(result) }
    }

    /// The rows of `sql` (with `binding` as its parameter 1, if given), each read by `row`.
    private func rows<T>(_ sql: String, binding: String? = nil, _ row: (OpaquePointer) -> T) throws(JournalFileError) -> [T] {
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        guard prepared == SQLITE_OK, let statement else { throw error(prepared) }
        if let binding {
            // SQLITE_TRANSIENT: SQLite copies the text before the call returns.
            let bound = sqlite3_bind_text(statement, 1, binding, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            guard bound == SQLITE_OK else { throw error(bound) }
        }
        var values: [T] = []
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: values.append(row(statement))
            case SQLITE_DONE: return values
            case let result: throw error(result)
            }
        }
    }

    private func error(_ code: Int32) -> JournalFileError {
        .database(path: path, code: code, message: String(cString: sqlite3_errmsg(db)))
    }

    private static func integer(_ statement: OpaquePointer, _ column: Int32) -> Int64 {
        sqlite3_column_int64(statement, column)
    }

    private static func text(_ statement: OpaquePointer, _ column: Int32) -> String {
        sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
    }

    private static func blob(_ statement: OpaquePointer, _ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let base = sqlite3_column_blob(statement, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: base, count: count))
    }
}

extension JournalFileError {
    /// SQLite's "file is not a database" (SQLITE_NOTADB, with or without an extended code).
    var isNotADatabase: Bool {
        guard case let .database(_, code, _) = self else { return false }
        return code & 0xff == SQLITE_NOTADB
    }
}
