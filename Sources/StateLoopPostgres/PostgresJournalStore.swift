// The journal store on a PostgreSQL server (Docs/Postgres.md G1-G29): the tables of SQLite's
// schema 3 in a schema of their own, written by one connection, read by connections of their own.
//
//   the writer      one PostgresConnection; every synchronous call (append, snapshot, recover,
//                   claim, a host's commit) runs on it, one at a time, blocking its thread on
//                   EventLoopFuture.wait() while the event loop runs the queries (G10)
//   the readers     up to `readConnections` connections; the async reads (load, dueTimers,
//                   hostedInstance, instances) run on a dispatch queue of the store's, each on an
//                   idle reader, so that they never wait behind a commit (H11) and never block a
//                   thread of Swift Concurrency's cooperative pool (G11)
//
// Invariants: every error leaves as a JournalError (`.server` with its SQLSTATE, G20); a connection
// that failed is dropped and made again at the next call (G22); nothing here decides what a host
// shows: `commit` only answers which instances' parts it kept (H22, H24).

#if Postgres
import Dispatch
import Foundation
import PostgresNIO
import StateLoopDurable

/// A `HostJournalStore` (and so a `JournalStore`) in a schema of a PostgreSQL database, its tables
/// created or upgraded by the store when it opens (G2).
///
/// Thread safety: the writer runs one call at a time (a lock held from its first statement to its
/// commit, D12); the readers one read each. A synchronous call blocks its thread for its round
/// trips: a host's writer thread, for which it is made (Docs/Hosting.md "commit is synchronous"),
/// or any thread that may block; on a thread of the cooperative pool it holds that thread for as
/// long (G10).
public final class PostgresJournalStore: HostJournalStore, @unchecked Sendable {
    /// The layout this store writes and reads, kept in `<schema>.stateloop_schema` (G2, G3): 2, the
    /// tables of SQLite's schema 3 (Docs/Hosting.md "Schema 3") on PostgreSQL, a host's claim a
    /// lease (G46).
    public static let schemaVersion: Int32 = 2

    /// How long a host's lease lasts without a renewal (G8): a host whose process dies leaves its
    /// machine to a standby this long after its last renewal, at most.
    public let leaseDuration: Duration?

    /// The server and how to log in.
    public let configuration: PostgresConnection.Configuration
    /// The schema (namespace) the store's tables are in; several stores may share a database, each
    /// in a schema of its own.
    public let schema: String
    let logger: Logger
    let eventLoopGroup: any EventLoopGroup
    /// The writer's connection, made at the first call that finds none (G22). Guarded by `writing`.
    private var writer: Session?
    private let writing = NSLock()
    /// The readers, each made again after its connection failed (G22).
    private let readers: ReadConnections<Session>
    /// Where the async reads run, so that their blocking waits are on threads of its own.
    private let queue = DispatchQueue(label: "StateLoopPostgres.reads", attributes: .concurrent)
    /// The leases this store's hosts hold, by machine, with their tokens (G8, G43).
    private let leasing = NSLock()
    private var leases: [String: (owner: JournalOwner, token: Int64)] = [:]  // guarded by `leasing`
    /// The connection renewals run on (G41), made at the first renewal that finds none.
    private let renewing = NSLock()
    private var renewer: Session?  // guarded by `renewing`

    /// Opens the store on the server of `configuration`, its tables in `schema` (created, or
    /// upgraded, in one transaction when they are missing or older, G2; refused when newer, G3);
    /// the async reads use at most `readConnections` connections of their own (H11).
    public init(
        configuration: PostgresConnection.Configuration, schema: String = "stateloop", readConnections: Int = 4,
        leaseDuration: Duration = .seconds(10), eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) throws(JournalError) {
        self.configuration = configuration
        self.schema = schema
        self.leaseDuration = max(.milliseconds(300), leaseDuration)
        self.eventLoopGroup = eventLoopGroup
        var logger = Logger(label: "StateLoopPostgres")
        logger.logLevel = .critical
        self.logger = logger
        readers = ReadConnections(limit: readConnections) { () throws(JournalError) in
            try Self.connect(configuration, on: eventLoopGroup, logger: logger)
        }
        try writingSession { session throws(JournalError) in try Self.migrate(session, schema: schema) }
    }

    /// Opens the store on the server a URL names: `postgres://user:password@host:port/database`
    /// (the port 5432 when none is given; `?sslmode=require` for TLS), its tables in `schema`.
    public convenience init(url: String, schema: String = "stateloop", readConnections: Int = 4, leaseDuration: Duration = .seconds(10)) throws(JournalError) {
        try self.init(configuration: Self.configuration(url: url), schema: schema, readConnections: readConnections, leaseDuration: leaseDuration)
    }

    // Each Session closes its connection when it is released.

    /// The configuration a `postgres://` (or `postgresql://`) URL names (G1).
    public static func configuration(url: String) throws(JournalError) -> PostgresConnection.Configuration {
        guard let parts = URLComponents(string: url), ["postgres", "postgresql"].contains(parts.scheme ?? ""),
              let user = parts.user, !user.isEmpty
        else {
            throw .server(sqlState: "08001", message: "'\(url)' is not a URL of the form postgres://user:password@host:port/database")
        }
        let database = parts.path.split(separator: "/").first.map(String.init)
        let query = Dictionary((parts.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        let tls: PostgresConnection.Configuration.TLS
        switch query["sslmode"] {
        case "require", "verify-ca", "verify-full":
            do { tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration())) } catch {
                throw .server(sqlState: "08001", message: "TLS could not be set up: \(error)")
            }
        default:
            tls = .disable
        }
        return PostgresConnection.Configuration(
            host: parts.host ?? "localhost", port: parts.port ?? 5432, username: user, password: parts.password, database: database, tls: tls)
    }

    // MARK: - JournalStore

    /// Appends `records` in one transaction, rolled back when any is refused (D2, D3).
    public func append(_ records: [JournalRecord], to machine: String) throws(JournalError) {
        try writingSession { session throws(JournalError) in
            try session.transaction { () throws(JournalError) in try appendLocked(records, to: machine, on: session) }
        }
    }

    /// Saves `snapshot`, replacing one of the same sequence number (D5).
    public func writeSnapshot(_ snapshot: JournalSnapshot, of machine: String) throws(JournalError) {
        try writingSession { session throws(JournalError) in
            try session.transaction { () throws(JournalError) in try writeSnapshotLocked(snapshot, of: machine, on: session) }
        }
    }

    /// The latest snapshot and the records after it, read in one transaction (D5), on the writer.
    public func recover(_ machine: String) throws(JournalError) -> JournalRecovery {
        try writingSession { session throws(JournalError) in try recover(machine, on: session) }
    }

    /// The highest sequence number of a record or snapshot of `machine` (D6).
    public func lastSequence(of machine: String) throws(JournalError) -> Int64? {
        try writingSession { session throws(JournalError) in try lastSequence(machine, on: session) }
    }

    /// Takes `machine` for `owner` in one transaction, unless its owner row names another owner
    /// whose process still runs, which it returns (D117).
    public func claim(_ machine: String, for owner: JournalOwner) throws(JournalError) -> JournalOwner? {
        try writingSession { session throws(JournalError) in
            try session.transaction { () throws(JournalError) in
                // A holder that holds a lease is judged by it (G44), one that holds none by its process (D117).
                let rows = try session.rows("""
                    SELECT o.pid, o.started, o.system, l.node, l.expires > clock_timestamp()
                    FROM \(unescaped: table("owner")) o LEFT JOIN \(unescaped: table("host_lease")) l
                    ON l.system = o.system AND l.pid = o.pid AND l.started = o.started
                    WHERE o.machine = \(machine) FOR UPDATE OF o
                    """)
                if let first = rows.first {
                    let (pid, started, system, node, unexpired) = try Self.decode(first, (Int32, Int64, Int64, String?, Bool?).self)
                    let holder = JournalOwner(pid: pid, started: started, system: system)
                    if holder != owner, Self.isRunning(holder, node: node, unexpired: unexpired) { return holder }
                }
                try session.execute("""
                    INSERT INTO \(unescaped: table("owner")) (machine, pid, started, system) VALUES (\(machine), \(owner.pid), \(owner.started), \(owner.system))
                    ON CONFLICT (machine) DO UPDATE SET pid = EXCLUDED.pid, started = EXCLUDED.started, system = EXCLUDED.system
                    """)
                return nil
            }
        }
    }

    /// Deletes the owner row of `machine` when it names `owner` (D117).
    public func release(_ machine: String, by owner: JournalOwner) throws(JournalError) {
        try writingSession { session throws(JournalError) in
            try session.transaction { () throws(JournalError) in try deleteOwner(machine, owner, on: session) }
        }
    }

    // MARK: - HostJournalStore

    /// Applies `batch` in one transaction, the parts of each instance under a savepoint of their
    /// own (H22, G12): a refused part is rolled back with its instance's other parts and answered
    /// with its error; when the transaction fails (it could not begin or commit, or its connection
    /// failed), every part is answered with that error (H24, G13).
    public func commit(_ batch: HostBatch) -> [String: JournalError] {
        var refused: [String: JournalError] = [:]
        do throws(JournalError) {
            try writingSession { session throws(JournalError) in
                try session.transaction { () throws(JournalError) in
                    try fence(on: session)
                    for indices in batch.byInstance {
                        try session.execute("SAVEPOINT part")
                        do throws(JournalError) {
                            for index in indices { try applyLocked(batch.parts[index], on: session) }
                        } catch {
                            // A connection that failed takes the whole transaction with it.
                            guard !session.isClosed else { throw error }
                            try session.execute("ROLLBACK TO SAVEPOINT part")
                            refused[batch.parts[indices[0]].machine] = error
                        }
                        try session.execute("RELEASE SAVEPOINT part")
                    }
                }
            }
        } catch {
            return batch.failingEveryPart(with: error)
        }
        return refused
    }

    /// The due rows after `cursor`, in the order of `host_timer_due`, each checked against its
    /// checksum (H37), read on a reader.
    public func dueTimers(through deadline: Int64, after cursor: TimerRow.Key?, limit: Int) async throws(JournalError) -> [CheckedRow<TimerRow>] {
        try await reading { session throws(JournalError) in
            var query: PostgresQuery = "SELECT machine, event, deadline, armed, crc FROM \(unescaped: self.table("host_timer")) WHERE deadline <= \(deadline)"
            if let cursor {
                query = """
                    SELECT machine, event, deadline, armed, crc FROM \(unescaped: self.table("host_timer")) WHERE deadline <= \(deadline)
                    AND (deadline, machine, armed, event) > (\(cursor.deadline), \(cursor.machine)::text COLLATE "C", \(cursor.armed), \(ByteBuffer(bytes: cursor.event)))
                    """
            }
            query.sql += " ORDER BY deadline, machine, armed, event LIMIT \(max(0, limit))"
            return try session.rows(query).map { row throws(JournalError) in
                let (machine, event, deadline, armed, crc) = try Self.decode(row, (String, ByteBuffer, Int64, Int64, Int64).self)
                let timer = TimerRow(machine: machine, timer: HostTimer(event: Array(event.readableBytesView), deadline: deadline, armed: armed))
                return CheckedRow(row: timer, checksumMatches: crc == Int64(timer.checksum))
            }
        }
    }

    /// The instance row of `machine`, checked against its checksum (H37), read on a reader.
    public func hostedInstance(_ machine: String) async throws(JournalError) -> CheckedRow<HostedInstanceRow>? {
        try await reading { session throws(JournalError) in
            let rows = try session.rows("SELECT host, awake, finished, crc FROM \(unescaped: self.table("host_instance")) WHERE machine = \(machine)")
            guard let first = rows.first else { return nil }
            let (host, awake, finished, crc) = try Self.decode(first, (String, Bool, Bool, Int64).self)
            let row = HostedInstanceRow(host: host, awake: awake, finished: finished)
            return CheckedRow(row: row, checksumMatches: crc == Int64(row.checksum(of: machine)))
        }
    }

    /// What `recover(_:)` reads, on a reader, so that a load never waits behind the writer's
    /// commit (H11).
    public func load(_ machine: String) async throws(JournalError) -> JournalRecovery {
        try await reading { session throws(JournalError) in try self.recover(machine, on: session) }
    }

    /// The ids of `kind` after `machine`, by their bytes (`COLLATE "C"`), on a reader.
    public func instances(_ kind: HostedInstanceKind, after machine: String?, limit: Int) async throws(JournalError) -> [String] {
        try await reading { session throws(JournalError) in
            var query: PostgresQuery
            switch kind {
            case .awake(let host):
                query = "SELECT machine FROM \(unescaped: self.table("host_instance")) WHERE host = \(host) AND awake"
            case .unhosted:
                query = """
                    SELECT machine FROM (SELECT machine FROM \(unescaped: self.table("snapshot")) UNION SELECT machine FROM \(unescaped: self.table("journal"))) AS ids
                    WHERE strpos(machine, '/') = 0 AND machine NOT IN (SELECT machine FROM \(unescaped: self.table("host_instance")))
                    """
            }
            if let machine {
                query.sql += " AND machine > $\(query.binds.count + 1)"
                query.binds.append(machine)
            }
            query.sql += " ORDER BY machine LIMIT \(max(0, limit))"
            return try session.rows(query).map { row throws(JournalError) in try Self.decode(row, String.self) }
        }
    }

    /// Takes the lease of `host` for `owner` (G8), raising its token, unless another owner's lease
    /// has not expired (by the server's clock) and, on this node, its process runs: then returns
    /// that owner. On the writer, from the store's queue; the row locked `FOR UPDATE`, so that a
    /// takeover waits for a commit in flight (G43).
    public func claimHost(_ host: String, for owner: JournalOwner) async throws(JournalError) -> JournalOwner? {
        try await onQueue { () throws(JournalError) in
            try self.writingSession { session throws(JournalError) in
                try session.transaction { () throws(JournalError) in
                    try session.execute("""
                        INSERT INTO \(unescaped: self.table("host_lease")) (host, pid, started, system, node, token, expires)
                        VALUES (\(host), 0, 0, 0, '', 0, '-infinity') ON CONFLICT (host) DO NOTHING
                        """)
                    let rows = try session.rows("""
                        SELECT pid, started, system, node, expires > clock_timestamp() FROM \(unescaped: self.table("host_lease")) WHERE host = \(host) FOR UPDATE
                        """)
                    guard let first = rows.first else { throw .server(sqlState: "XX000", message: "the lease row of '\(host)' vanished while it was claimed") }
                    let (pid, started, system, node, unexpired) = try Self.decode(first, (Int32, Int64, Int64, String, Bool).self)
                    let holder = JournalOwner(pid: pid, started: started, system: system)
                    if system != 0, holder != owner, Self.isRunning(holder, node: node, unexpired: unexpired) { return holder }
                    let granted = try session.rows("""
                        UPDATE \(unescaped: self.table("host_lease")) SET pid = \(owner.pid), started = \(owner.started), system = \(owner.system),
                        node = \(Self.node), token = token + 1, expires = clock_timestamp() + \(self.leaseInterval)::interval
                        WHERE host = \(host) RETURNING token
                        """)
                    guard let row = granted.first else { throw .server(sqlState: "XX000", message: "the lease row of '\(host)' vanished while it was claimed") }
                    let token = try Self.decode(row, Int64.self)
                    self.leasing.withLock { self.leases[host] = (owner, token) }
                    return nil
                }
            }
        }
    }

    /// Gives the lease of `host` back when `owner` holds it with this store's token, its expiry set
    /// in the past, so a standby takes it at its next claim (G45); its indexing stays (H67).
    public func releaseHost(_ host: String, by owner: JournalOwner) throws(JournalError) {
        guard let held = leasing.withLock({ () -> (owner: JournalOwner, token: Int64)? in
            guard let held = leases[host], held.owner == owner else { return nil }
            leases[host] = nil
            return held
        }) else { return }
        try writingSession { session throws(JournalError) in
            _ = try session.execute("""
                UPDATE \(unescaped: table("host_lease")) SET pid = 0, started = 0, system = 0, node = '', expires = '-infinity'
                WHERE host = \(host) AND system = \(owner.system) AND token = \(held.token)
                """)
        }
    }

    /// Extends the lease of `host` to the server's now plus `leaseDuration`, while its row names
    /// `owner` with this store's token (G41): on a connection of its own, so that it never waits
    /// behind the writer or for a reader.
    public func renewHost(_ host: String, by owner: JournalOwner) throws(JournalError) -> Bool {
        guard let held = leasing.withLock({ leases[host] }), held.owner == owner else { return false }
        renewing.lock()
        defer { renewing.unlock() }
        let session = try open(&renewer)
        let renewed = try session.rows("""
            UPDATE \(unescaped: table("host_lease")) SET expires = clock_timestamp() + \(leaseInterval)::interval
            WHERE host = \(host) AND system = \(owner.system) AND pid = \(owner.pid) AND started = \(owner.started) AND token = \(held.token)
            RETURNING token
            """).count == 1
        if !renewed { leasing.withLock { if leases[host]?.token == held.token { leases[host] = nil } } }
        return renewed
    }

    /// Whether the store was indexed for the host of `host` (H67), on a reader.
    public func isIndexed(_ host: String) async throws(JournalError) -> Bool {
        try await reading { session throws(JournalError) in
            let rows = try session.rows("SELECT indexed FROM \(unescaped: self.table("host_lease")) WHERE host = \(host)")
            guard let first = rows.first else { return false }
            return try Self.decode(first, Bool.self)
        }
    }

    /// Marks the store as indexed for `host`, when `owner` holds its lease (H67), on the writer.
    public func markIndexed(_ host: String, by owner: JournalOwner) async throws(JournalError) {
        guard let held = leasing.withLock({ leases[host] }), held.owner == owner else { return }
        try await onQueue { () throws(JournalError) in
            try self.writingSession { session throws(JournalError) in
                _ = try session.execute("""
                    UPDATE \(unescaped: self.table("host_lease")) SET indexed = true WHERE host = \(host) AND system = \(owner.system) AND token = \(held.token)
                    """)
            }
        }
    }

    /// The host of instance `machine`, from its row (H66), on the writer.
    public func host(of machine: String) throws(JournalError) -> String? {
        try writingSession { session throws(JournalError) in
            guard let first = try session.rows("SELECT host FROM \(unescaped: table("host_instance")) WHERE machine = \(machine)").first else { return nil }
            return try Self.decode(first, String.self)
        }
    }

    // MARK: - Statements

    /// `schema.name`, quoted.
    func table(_ name: String) -> String { "\(Self.quoted(schema)).\(name)" }

    static func quoted(_ identifier: String) -> String { "\"\(identifier.replacingOccurrences(of: "\"", with: "\"\""))\"" }

    /// Inserts `records` after checking each follows the one before (D3), in the caller's
    /// transaction or savepoint.
    private func appendLocked(_ records: [JournalRecord], to machine: String, on session: Session) throws(JournalError) {
        var last = try lastSequence(machine, on: session)
        for record in records {
            try record.checkFollows(last, in: machine)
            let crc = Int64(JournalChecksum.of(machine, record.sequence, [record.event, record.stateAfter]))
            try session.execute("""
                INSERT INTO \(unescaped: table("journal")) (machine, seq, event, state, crc)
                VALUES (\(machine), \(record.sequence), \(ByteBuffer(bytes: record.event)), \(ByteBuffer(bytes: record.stateAfter)), \(crc))
                """)
            last = record.sequence
        }
    }

    /// Inserts `snapshot`, replacing one of its sequence number, in the caller's transaction.
    private func writeSnapshotLocked(_ snapshot: JournalSnapshot, of machine: String, on session: Session) throws(JournalError) {
        let crc = Int64(JournalChecksum.of(machine, snapshot.sequence, [snapshot.state]))
        try session.execute("""
            INSERT INTO \(unescaped: table("snapshot")) (machine, seq, state, crc) VALUES (\(machine), \(snapshot.sequence), \(ByteBuffer(bytes: snapshot.state)), \(crc))
            ON CONFLICT (machine, seq) DO UPDATE SET state = EXCLUDED.state, crc = EXCLUDED.crc
            """)
    }

    /// One part inside the savepoint the caller holds, in SQLiteJournalStore's order: records,
    /// snapshot, timer rows deleted (all first for a part that replaces them, H38) and armed, the
    /// instance row, the released claim (H42).
    private func applyLocked(_ part: HostBatchPart, on session: Session) throws(JournalError) {
        let machine = part.machine
        if !part.records.isEmpty { try appendLocked(part.records, to: machine, on: session) }
        if let snapshot = part.snapshot { try writeSnapshotLocked(snapshot, of: machine, on: session) }
        if part.replacesTimers { try session.execute("DELETE FROM \(unescaped: table("host_timer")) WHERE machine = \(machine)") }
        for event in part.deletedTimers {
            try session.execute("DELETE FROM \(unescaped: table("host_timer")) WHERE machine = \(machine) AND event = \(ByteBuffer(bytes: event))")
        }
        for timer in part.armedTimers {
            let crc = Int64(TimerRow(machine: machine, timer: timer).checksum)
            try session.execute("""
                INSERT INTO \(unescaped: table("host_timer")) (machine, event, deadline, armed, crc)
                VALUES (\(machine), \(ByteBuffer(bytes: timer.event)), \(timer.deadline), \(timer.armed), \(crc))
                ON CONFLICT (machine, event) DO UPDATE SET deadline = EXCLUDED.deadline, armed = EXCLUDED.armed, crc = EXCLUDED.crc
                """)
        }
        if let instance = part.instance {
            let crc = Int64(instance.checksum(of: machine))
            try session.execute("""
                INSERT INTO \(unescaped: table("host_instance")) (machine, host, awake, finished, crc)
                VALUES (\(machine), \(instance.host), \(instance.awake), \(instance.finished), \(crc))
                ON CONFLICT (machine) DO UPDATE SET host = EXCLUDED.host, awake = EXCLUDED.awake, finished = EXCLUDED.finished, crc = EXCLUDED.crc
                """)
        }
        if let owner = part.releasedBy { try deleteOwner(machine, owner, on: session) }
    }

    /// The snapshot, the records after it, the last sequence number and the damaged entries of
    /// `machine`, in one REPEATABLE READ transaction, so that all are of one moment (D5, D111, D114).
    private func recover(_ machine: String, on session: Session) throws(JournalError) -> JournalRecovery {
        try session.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { () throws(JournalError) in
            var snapshot: JournalSnapshot?
            var damaged: [JournalEntry] = []
            let snapshots = try session.rows("SELECT seq, state, crc FROM \(unescaped: table("snapshot")) WHERE machine = \(machine) ORDER BY seq DESC LIMIT 1")
            if let first = snapshots.first {
                let (sequence, state, crc) = try Self.decode(first, (Int64, ByteBuffer, Int64).self)
                let read = JournalSnapshot(sequence: sequence, state: Array(state.readableBytesView))
                if crc != Int64(JournalChecksum.of(machine, read.sequence, [read.state])) { damaged.append(.snapshot(read.sequence)) }
                snapshot = read
            }
            let after = snapshot?.sequence ?? .min
            let rows = try session.rows("SELECT seq, event, state, crc FROM \(unescaped: table("journal")) WHERE machine = \(machine) AND seq > \(after) ORDER BY seq")
            var records: [JournalRecord] = []
            records.reserveCapacity(rows.count)
            for row in rows {
                let (sequence, event, state, crc) = try Self.decode(row, (Int64, ByteBuffer, ByteBuffer, Int64).self)
                let record = JournalRecord(sequence: sequence, event: Array(event.readableBytesView), stateAfter: Array(state.readableBytesView))
                if crc != Int64(JournalChecksum.of(machine, record.sequence, [record.event, record.stateAfter])) { damaged.append(.record(record.sequence)) }
                records.append(record)
            }
            return JournalRecovery(snapshot: snapshot, records: records, lastSequence: try lastSequence(machine, on: session), damaged: damaged)
        }
    }

    /// The highest sequence number of `machine` in a record or a snapshot (D6).
    private func lastSequence(_ machine: String, on session: Session) throws(JournalError) -> Int64? {
        let rows = try session.rows("""
            SELECT greatest((SELECT max(seq) FROM \(unescaped: table("journal")) WHERE machine = \(machine)),
                            (SELECT max(seq) FROM \(unescaped: table("snapshot")) WHERE machine = \(machine)))
            """)
        guard let first = rows.first else { return nil }
        return try Self.decode(first, Int64?.self)
    }

    /// Deletes the claim of `machine` when it names `owner` (D117).
    private func deleteOwner(_ machine: String, _ owner: JournalOwner, on session: Session) throws(JournalError) {
        try session.execute("""
            DELETE FROM \(unescaped: table("owner")) WHERE machine = \(machine) AND pid = \(owner.pid) AND started = \(owner.started) AND system = \(owner.system)
            """)
    }

    /// Checks, first in a commit's transaction, that every lease this store's hosts hold still names
    /// its owner with its token and has not expired by the server's clock, locking each row
    /// `FOR KEY SHARE` until the commit ends, so that a takeover (`FOR UPDATE`) waits for it (G43).
    private func fence(on session: Session) throws(JournalError) {
        for (host, held) in leasing.withLock({ leases }) {
            let rows = try session.rows("""
                SELECT token FROM \(unescaped: table("host_lease"))
                WHERE host = \(host) AND system = \(held.owner.system) AND token = \(held.token) AND expires > clock_timestamp() FOR KEY SHARE
                """)
            if rows.count != 1 { throw .fenced(host: host) }
        }
    }

    /// Whether a claim's holder still runs (G8, G44): while its lease has not expired (`unexpired`,
    /// `nil` for a holder with no lease: then its process decides, D117) and, when it runs on this
    /// node, its process does.
    static func isRunning(_ holder: JournalOwner, node: String?, unexpired: Bool?) -> Bool {
        guard let unexpired else { return holder.isRunning }
        return unexpired && (node != Self.node || holder.isRunning)
    }

    /// This machine, as a lease names it (G8): its boot's id, so that a pid and start time are
    /// compared only within the boot they belong to; else its host name.
    static let node: String = {
        if let boot = try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8) {
            return boot.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return ProcessInfo.processInfo.hostName
    }()

    /// `leaseDuration` as a PostgreSQL interval.
    var leaseInterval: String {
        let duration = leaseDuration ?? .seconds(10)
        let milliseconds = duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000
        return "\(milliseconds) milliseconds"
    }

    static func decode<T: PostgresDecodable>(_ row: PostgresRow, _ type: T.Type) throws(JournalError) -> T {
        do { return try row.decode(T.self) } catch { throw .server(sqlState: "XX000", message: "a row of the store's tables could not be read: \(error)") }
    }

    static func decode<each T: PostgresDecodable>(_ row: PostgresRow, _ type: (repeat each T).Type) throws(JournalError) -> (repeat each T) {
        do { return try row.decode((repeat each T).self) } catch {
            throw .server(sqlState: "XX000", message: "a row of the store's tables could not be read: \(error)")
        }
    }

    // MARK: - Connections

    /// Runs `body` on the writer, holding it (D12), connecting first when it has no open connection
    /// (G22).
    private func writingSession<T>(_ body: (Session) throws(JournalError) -> T) throws(JournalError) -> T {
        writing.lock()
        defer { writing.unlock() }
        return try body(try open(&writer))
    }

    /// The open connection in `slot`, or a new one put there when it has none or its connection
    /// failed (G22); the caller holds the lock that guards `slot`.
    private func open(_ slot: inout Session?) throws(JournalError) -> Session {
        if let session = slot, !session.isClosed { return session }
        let session = try Self.connect(configuration, on: eventLoopGroup, logger: logger)
        slot = session
        return session
    }

    /// Runs `read` on an idle reader, on the store's queue, and gives the reader back; a reader
    /// whose connection failed is closed, and a new one is made at the next read (G22).
    private func reading<T: Sendable>(_ read: @escaping @Sendable (Session) throws(JournalError) -> T) async throws(JournalError) -> T {
        try await onQueue { () throws(JournalError) in
            try self.readers.reading(read, broken: { $0.isClosed })
        }
    }

    /// `body` on the store's queue, awaited without holding a thread of the caller's.
    private func onQueue<T: Sendable>(_ body: @escaping @Sendable () throws(JournalError) -> T) async throws(JournalError) -> T {
        let result: Result<T, JournalError> = await withCheckedContinuation { continuation in
            queue.async {
                do throws(JournalError) { continuation.resume(returning: .success(try body())) } catch { continuation.resume(returning: .failure(error)) }
            }
        }
        return try result.get()
    }

    /// A new connection to the server, or the error that says why there is none (G21).
    private static func connect(
        _ configuration: PostgresConnection.Configuration, on eventLoopGroup: any EventLoopGroup, logger: Logger
    ) throws(JournalError) -> Session {
        let connecting = PostgresConnection.connect(
            on: eventLoopGroup.next(), configuration: configuration, id: Int.random(in: 1...Int.max), logger: logger)
        do {
            return Session(connection: try connecting.wait(), logger: logger)
        } catch {
            throw Self.journalError(error)
        }
    }

    /// A JournalError of anything postgres-nio throws (G20): the server's SQLSTATE and message
    /// when it sent them; else the SQLSTATE a client gives for what happened to the connection.
    static func journalError(_ error: any Error) -> JournalError {
        if let journal = error as? JournalError { return journal }
        guard let psql = error as? PSQLError else { return .server(sqlState: "08006", message: "\(error)") }
        if let state = psql.serverInfo?[.sqlState] {
            var message = psql.serverInfo?[.message] ?? ""
            if let detail = psql.serverInfo?[.detail] { message += " (\(detail))" }
            return .server(sqlState: state, message: message)
        }
        let underlying = psql.underlying.map { " (\($0))" } ?? ""
        switch psql.code {
        case .connectionError:
            return .server(sqlState: "08001", message: "could not connect to the server\(underlying)")
        case .authMechanismRequiresPassword, .unsupportedAuthMechanism, .saslError:
            return .server(sqlState: "28000", message: "the server asked for a login this store could not give (\(psql.code))\(underlying)")
        case .sslUnsupported:
            return .server(sqlState: "08001", message: "the server does not accept TLS, which the store's configuration requires")
        case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown:
            return .server(sqlState: "08006", message: "the connection to the server was closed\(underlying)")
        default:
            return .server(sqlState: "08000", message: "\(psql.code)\(underlying)")
        }
    }

    // MARK: - Schema

    /// Creates the tables in `schema`, or upgrades them, in one transaction that holds an advisory
    /// lock on the schema's name, so that of several stores opening at once one does it and the
    /// others see it (G2); a current layout is read without the lock (as D126); a newer one is
    /// refused and left as it is (G3).
    private static func migrate(_ session: Session, schema: String) throws(JournalError) {
        let versionTable = "\(quoted(schema)).stateloop_schema"
        func found() throws(JournalError) -> Int32? {
            // A scan of the catalog, not to_regclass: a name lookup may answer from this session's
            // cache, stale after another store created the tables while this one waited for the lock.
            let exists = try session.rows("SELECT EXISTS (SELECT FROM pg_catalog.pg_tables WHERE schemaname = \(schema) AND tablename = 'stateloop_schema')")
            guard let row = exists.first, try decode(row, Bool.self) else { return nil }
            return try session.rows("SELECT max(version) FROM \(unescaped: versionTable)").first.flatMap { row throws(JournalError) in try decode(row, Int32?.self) }
        }
        let before = try found()
        if let before, before > schemaVersion { throw .newerSchema(found: before, supported: schemaVersion) }
        if before == schemaVersion { return }
        try session.transaction { () throws(JournalError) in
            try session.execute("SELECT pg_advisory_xact_lock(hashtext(\("stateloop:" + schema)))")
            let now = try found()
            if let now, now > schemaVersion { throw .newerSchema(found: now, supported: schemaVersion) }
            if now == schemaVersion { return }
            let s = quoted(schema)
            // Text keys compare by their bytes (COLLATE "C"), as SQLite's BINARY collation does,
            // whatever the database's locale: the order of TimerRow.Key and of `instances`.
            let id = "text COLLATE \"C\" NOT NULL"
            let lease = """
                CREATE TABLE \(s).host_lease (host \(id) PRIMARY KEY, pid integer NOT NULL, started bigint NOT NULL, system bigint NOT NULL,
                node text NOT NULL, token bigint NOT NULL, expires timestamptz NOT NULL, indexed boolean NOT NULL DEFAULT false)
                """
            let statements: [String]
            if now == 1 {
                // Version 1's claims (by pid, H54) are given back; its indexing stays (G46).
                statements = [
                    lease,
                    "INSERT INTO \(s).host_lease (host, pid, started, system, node, token, expires, indexed) SELECT host, 0, 0, 0, '', 0, '-infinity', indexed FROM \(s).host_owner",
                    "DROP TABLE \(s).host_owner",
                    "UPDATE \(s).stateloop_schema SET version = \(schemaVersion)",
                ]
            } else {
                statements = [
                    "CREATE SCHEMA IF NOT EXISTS \(s)",
                    "CREATE TABLE \(s).journal (machine \(id), seq bigint NOT NULL, event bytea NOT NULL, state bytea NOT NULL, crc bigint NOT NULL, PRIMARY KEY (machine, seq))",
                    "CREATE TABLE \(s).snapshot (machine \(id), seq bigint NOT NULL, state bytea NOT NULL, crc bigint NOT NULL, PRIMARY KEY (machine, seq))",
                    "CREATE TABLE \(s).owner (machine \(id) PRIMARY KEY, pid integer NOT NULL, started bigint NOT NULL, system bigint NOT NULL)",
                    "CREATE TABLE \(s).host_instance (machine \(id) PRIMARY KEY, host \(id), awake boolean NOT NULL, finished boolean NOT NULL, crc bigint NOT NULL)",
                    "CREATE INDEX host_instance_awake ON \(s).host_instance (host, machine) WHERE awake",
                    "CREATE TABLE \(s).host_timer (machine \(id), event bytea NOT NULL, deadline bigint NOT NULL, armed bigint NOT NULL, crc bigint NOT NULL, PRIMARY KEY (machine, event))",
                    "CREATE INDEX host_timer_due ON \(s).host_timer (deadline, machine, armed, event)",
                    lease,
                    "CREATE TABLE \(s).stateloop_schema (version integer NOT NULL)",
                    "INSERT INTO \(s).stateloop_schema (version) VALUES (\(schemaVersion))",
                ]
            }
            for statement in statements {
                try session.execute(PostgresQuery(unsafeSQL: statement))
            }
        }
    }
}

/// One connection and the blocking calls the store makes on it.
final class Session: @unchecked Sendable {
    let connection: PostgresConnection
    let logger: Logger

    init(connection: PostgresConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    var isClosed: Bool { connection.isClosed }

    /// Closes the connection, waiting for it unless on its own event loop (postgres-nio requires a
    /// connection be closed before it is released).
    func close() {
        guard !connection.isClosed else { return }
        let closing: EventLoopFuture<Void> = connection.close()
        if !connection.eventLoop.inEventLoop { _ = try? closing.wait() }
    }

    deinit { close() }

    /// The rows of `query`, waited for on this thread.
    func rows(_ query: PostgresQuery) throws(JournalError) -> PostgresQueryResult {
        do {
            return try connection.query(query, logger: logger).wait()
        } catch {
            throw PostgresJournalStore.journalError(error)
        }
    }

    @discardableResult
    func execute(_ query: PostgresQuery) throws(JournalError) -> PostgresQueryMetadata {
        try rows(query).metadata
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws (D2).
    /// A COMMIT that the server answers with ROLLBACK (the transaction had failed) throws (H24).
    func transaction<T>(_ begin: String = "BEGIN", _ body: () throws(JournalError) -> T) throws(JournalError) -> T {
        try execute(PostgresQuery(unsafeSQL: begin))
        do throws(JournalError) {
            let result = try body()
            let committed = try execute("COMMIT")
            guard committed.command == "COMMIT" else {
                throw .server(sqlState: "40000", message: "the server rolled the transaction back at its commit")
            }
            return result
        } catch {
            if !isClosed { _ = try? execute("ROLLBACK") }
            throw error
        }
    }
}
#endif
