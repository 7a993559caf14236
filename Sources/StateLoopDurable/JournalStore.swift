// The journal store of durable machines (Docs/Durability.md): what a store promises, whatever
// keeps the bytes. No SQLite type appears here, so a PostgreSQL store can conform later.

/// One reduced event of one machine: its sequence number, the event and the state after it, as
/// bytes (their encoding belongs to the caller).
public struct JournalRecord: Sendable, Equatable {
    /// The record's place in its machine's journal; each is above the one before (D3).
    public var sequence: Int64
    /// The reduced event (a `DurableSystem` writes its record envelope here: Docs/Durability.md).
    public var event: [UInt8]
    /// The state after the event was reduced, for a writer that keeps it; a `DurableSystem`
    /// leaves it empty, since recovery replays the events (D32).
    public var stateAfter: [UInt8]

    /// A record of the event numbered `sequence` and the state after it.
    public init(sequence: Int64, event: [UInt8], stateAfter: [UInt8]) {
        self.sequence = sequence
        self.event = event
        self.stateAfter = stateAfter
    }
}

/// A machine's state as of the record numbered `sequence` (D5).
public struct JournalSnapshot: Sendable, Equatable {
    /// The sequence number of the last record the state includes.
    public var sequence: Int64
    /// The state.
    public var state: [UInt8]

    /// The snapshot of `state` as of the record numbered `sequence`.
    public init(sequence: Int64, state: [UInt8]) {
        self.sequence = sequence
        self.state = state
    }
}

/// What recovery reads of one machine: its latest snapshot, if any, and every record after it,
/// in sequence order (D5), with what the store found wrong with them (D111, D114).
public struct JournalRecovery: Sendable, Equatable {
    /// The latest snapshot, or `nil` when none was written.
    public var snapshot: JournalSnapshot?
    /// The records after the snapshot (all of them without one), in sequence order.
    public var records: [JournalRecord]
    /// The machine's last sequence number (D6), read in the same transaction as the entries, so
    /// that records that a damaged file fails to return show as missing (D114).
    public var lastSequence: Int64?
    /// The entries whose stored bytes do not match the checksum stored beside them (D111).
    public var damaged: [JournalEntry]

    /// What a machine recovers: `snapshot`, then `records`; `lastSequence` defaults to the last
    /// of them.
    public init(snapshot: JournalSnapshot?, records: [JournalRecord], lastSequence: Int64? = nil, damaged: [JournalEntry] = []) {
        self.snapshot = snapshot
        self.records = records
        self.lastSequence = lastSequence ?? [records.last?.sequence, snapshot?.sequence].compactMap { $0 }.max()
        self.damaged = damaged
    }
}

/// One entry of a machine's journal, as messages name it: `record 7`, `snapshot 4`.
public enum JournalEntry: Hashable, Sendable, CustomStringConvertible {
    /// The record of this sequence number.
    case record(Int64)
    /// The snapshot of this sequence number.
    case snapshot(Int64)

    /// `record N` or `snapshot N`.
    public var description: String {
        switch self {
        case .record(let sequence): "record \(sequence)"
        case .snapshot(let sequence): "snapshot \(sequence)"
        }
    }
}

/// Why a store refused or failed an operation. A store throws; it never stops the process.
public enum JournalError: Error, Equatable, CustomStringConvertible {
    /// A record's sequence number is not above the one before it (in the batch, or the last
    /// durable one): the whole batch is refused (D2, D3).
    case sequenceNotAfter(machine: String, sequence: Int64, last: Int64)
    /// The database was written by a newer version of this store (its schema version is above
    /// the one this store knows); it is left as it is (D9).
    case newerSchema(found: Int32, supported: Int32)
    /// The database said no: its result code and its message (D10).
    case database(code: Int32, message: String)
    /// The file could be opened only to be read (D119): no permission to write it or its folder,
    /// or a read-only file system.
    case readOnly(path: String)
    /// A host's writer had stopped (its host stopped) when the write came: nothing was written.
    case writerStopped
    /// A database server (PostgreSQL, Docs/Postgres.md G20) said no, or could not be reached: its
    /// SQLSTATE (the server's own, or the one a client library gives for a connection that failed:
    /// 08001 could not connect, 08006 lost) and its message; the description adds what to do.
    case server(sqlState: String, message: String)
    /// The host of machine `host` no longer holds its lease on the store (it expired, or another
    /// process took it): nothing of the transaction was kept (Docs/Postgres.md G43).
    case fenced(host: String)

    /// What went wrong and what to do about it.
    public var description: String {
        switch self {
        case let .sequenceNotAfter(machine, sequence, last):
            "journal of '\(machine)': sequence number \(sequence) is not after \(last); number each record above the one before it and above `lastSequence(of:)`; nothing of the batch was written"
        case let .newerSchema(found, supported):
            "journal schema version \(found) is newer than this store's \(supported): open the file with the newer StateLoop that wrote it; it was left untouched"
        case let .database(code, message) where code & 0xFF == 11 || code & 0xFF == 26:  // SQLITE_CORRUPT, SQLITE_NOTADB
            "journal database error \(code): \(message): the file is damaged; restore it from a backup (`stateloop journal backup`), or start a new file"
        case let .database(code, message):
            "journal database error \(code): \(message)"
        case let .readOnly(path):
            "journal file \(path) can only be read: give this process the right to write it and its folder (SQLite writes \(path)-wal and \(path)-shm beside it), or read it with SQLiteJournalFile or `stateloop journal`; nothing was written and nothing was run"
        case .writerStopped:
            "the host's journal writer has stopped (the host was stopped): nothing was written; send to a running host"
        case let .server(sqlState, message):
            "PostgreSQL error \(sqlState): \(message): \(Self.advice(sqlState: sqlState))"
        case let .fenced(host):
            "the host of '\(host)' no longer holds its lease on this store (it expired, or another process took the machine): nothing of the transaction was kept; the host stops, and the process that holds the lease runs the machine"
        }
    }

    /// What to do about a server's error, by its SQLSTATE, then by its class (its first two characters).
    static func advice(sqlState: String) -> String {
        switch sqlState {
        case "08001":
            return "could not reach the PostgreSQL server: start it, or correct the host and port (or socket) the store was given; nothing was written"
        case "28P01", "28000":
            return "the server refused the user or its password: correct them in the store's configuration, or allow the user in the server's pg_hba.conf; nothing was written"
        case "3D000":
            return "the database does not exist: create it (`createdb NAME`) or name one that does; nothing was written"
        case "3F000":
            return "the schema does not exist and could not be created: create it, or let the store's user create it; nothing was written"
        case "42501":
            return "the store's user may not do this: grant it CREATE and USAGE on the store's schema (and CREATE on the database for a new schema); nothing of the transaction was kept"
        case "40001", "40P01":
            return "the transaction conflicted with another one and was rolled back: nothing of it was kept; retry it"
        case "53100":
            return "the server's disk is full: free space on it; nothing of the transaction was kept"
        case "53200":
            return "the server is out of memory: nothing of the transaction was kept; retry it once the server has memory"
        case "53300":
            return "the server has no connection left: raise its max_connections, or give the stores fewer read connections"
        case "25006":
            return "the server accepts reads only (a standby, or default_transaction_read_only): point the store at the primary"
        case "55P03":
            return "a lock was not granted in time (lock_timeout): another session holds it; nothing of the transaction was kept; retry it"
        case "57014":
            return "the statement was cancelled (statement_timeout or a cancel request): nothing of the transaction was kept; retry it"
        case "57P01", "57P02", "57P03", "08006", "08003", "08000":
            return "the connection to the server was lost or the server is shutting down: the store connects again at its next call; a transaction whose COMMIT was sent may or may not have been kept, and what was kept is what the journal recovers"
        default:
            switch sqlState.prefix(2) {
            case "08": return "the connection to the server failed: check that the server runs and is reachable; the store connects again at its next call"
            case "23": return "a row broke a constraint of the store's tables: another writer wrote the same rows; nothing of the transaction was kept"
            case "42": return "the server refused the store's SQL: the store's tables were changed by hand, or the server is older than PostgreSQL 13"
            case "53": return "the server ran out of a resource: nothing of the transaction was kept; retry it once the server has it"
            case "58", "XX": return "the server failed internally: read its log; nothing of the transaction was kept"
            default: return "nothing of the transaction was kept"
            }
        }
    }
}

/// Where the records and snapshots of durable machines are kept. Several machines, each named by
/// an id, share one store (D4). Every conforming store keeps the same promises, D1–D6.
///
/// The requirements are synchronous: a durable system appends on the thread that reduces its
/// events, before anyone sees the state (D30), and that thread must not wait for a task (it may be
/// one of Swift Concurrency's few threads). Each call blocks its thread until the store has
/// answered. SQLite's API is synchronous; a networked store (PostgreSQL through libpq, also
/// synchronous) conforms the same way, one connection per store, any number of processes and
/// machine ids per database.
public protocol JournalStore: Sendable {
    /// Appends `records` to the journal of `machine` atomically: all of them are durable, or none
    /// (D2). Their sequence numbers rise strictly, from above `lastSequence(of:)` (D3).
    func append(_ records: [JournalRecord], to machine: String) throws

    /// Saves `snapshot` as the state of `machine` as of its sequence number (D5).
    func writeSnapshot(_ snapshot: JournalSnapshot, of machine: String) throws

    /// The latest snapshot of `machine` and the records after it, in order (D1, D5).
    func recover(_ machine: String) throws -> JournalRecovery

    /// The highest sequence number durable for `machine`, in a record or a snapshot; `nil` when
    /// nothing is (D6).
    func lastSequence(of machine: String) throws -> Int64?

    /// Takes `machine` for `owner`, unless another owner whose process is still running holds it:
    /// then returns that owner and takes nothing. An owner whose process ended holds nothing (D117).
    func claim(_ machine: String, for owner: JournalOwner) throws -> JournalOwner?

    /// Gives `machine` back, when `owner` holds it (D117).
    func release(_ machine: String, by owner: JournalOwner) throws

    /// The machine whose `MachineHost` runs instance `machine`, when a host does (its instance
    /// row, Docs/Hosting.md H66); `nil` for a store that keeps no host's rows.
    func host(of machine: String) throws -> String?
}

extension JournalStore {
    /// A store without a host's tables hosts nothing.
    public func host(of machine: String) throws -> String? { nil }
}

extension JournalRecord {
    /// Checks that this record may follow `last` in a journal (D3); the one ordering check every
    /// store makes, record by record, before the record is kept.
    package func checkFollows(_ last: Int64?, in machine: String) throws(JournalError) {
        if let last, sequence <= last { throw .sequenceNotAfter(machine: machine, sequence: sequence, last: last) }
    }
}
