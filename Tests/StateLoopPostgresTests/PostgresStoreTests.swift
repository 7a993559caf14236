// The PostgreSQL store's own rules (Docs/Postgres.md G2-G22) on a real server, the one
// Scripts/postgres.sh starts (STATELOOP_POSTGRES_URL). The store conformance tests it shares with
// SQLite run in StateLoopDurableTests over StoreKind.allCases (G5); these are the rules that only a
// server has: its schema in a database, its errors, its connections, and a host on it.

#if Postgres
import Foundation
import PostgresNIO
import StateLoop
import StateLoopDurable
import StateLoopExamples
import StateLoopPostgres
import StateLoopTestSupport
import Testing

@Suite(.enabled(if: PostgresTestDatabase.enabled, Comment(rawValue: PostgresTestDatabase.reason)))
struct PostgresStoreTests {
    @Test("G2: a store creates its schema's tables at version 2 when they are missing, and of several stores opening a new schema at once, every one opens it")
    func g2TheStoreCreatesItsSchema() async throws {
        let schema = PostgresTestDatabase.freshSchema()
        try await withThrowingTaskGroup { group in
            for _ in 0..<4 { group.addTask { _ = try PostgresTestDatabase.store(schema: schema) } }
            try await group.waitForAll()
        }
        #expect(try await Self.integers("SELECT version FROM \(schema).stateloop_schema") == [2])
        let tables = try await Self.strings("SELECT table_name::text FROM information_schema.tables WHERE table_schema = '\(schema)' ORDER BY 1")
        #expect(tables == ["host_instance", "host_lease", "host_timer", "journal", "owner", "snapshot", "stateloop_schema"])
        // Opened again, the current schema is left as it is.
        let store = try PostgresTestDatabase.store(schema: schema)
        try store.append(records(1...2), to: "m")
        #expect(try PostgresTestDatabase.store(schema: schema).recover("m").records == records(1...2))
    }

    @Test("G3: a schema of a newer version is refused with newerSchema and left untouched")
    func g3ANewerSchemaIsRefused() async throws {
        let schema = PostgresTestDatabase.freshSchema()
        try PostgresTestDatabase.store(schema: schema).append(records(1...1), to: "m")
        try await Self.execute("UPDATE \(schema).stateloop_schema SET version = 3")
        #expect(throws: JournalError.newerSchema(found: 3, supported: PostgresJournalStore.schemaVersion)) {
            try PostgresTestDatabase.store(schema: schema)
        }
        #expect(try await Self.integers("SELECT version FROM \(schema).stateloop_schema") == [3])
        #expect(try await Self.integers("SELECT seq FROM \(schema).journal") == [1])
    }

    @Test("G12, G20: a part the server refuses (an id PostgreSQL cannot store) is rolled back alone, answered with the server's SQLSTATE, and the other parts commit")
    func g12AServerErrorRefusesOnePart() async throws {
        let store = try PostgresTestDatabase.store()
        let failed = store.commit(HostBatch(parts: [
            HostBatchPart(machine: "a", records: records(1...2)),
            HostBatchPart(machine: "nul\u{0}", records: records(1...1)),
            HostBatchPart(machine: "b", records: records(1...1), armedTimers: [HostTimer(event: [1], deadline: 5, armed: 1)]),
        ]))
        #expect(failed.keys.sorted() == ["nul\u{0}"])
        guard case .server(let state, _) = failed["nul\u{0}"] else { Issue.record("not a server error: \(failed)"); return }
        #expect(state == "22021")
        #expect(try store.lastSequence(of: "a") == 2)
        #expect(try await store.dueTimers(through: .max, after: nil, limit: 10).map(\.row.machine) == ["b"])
    }

    @Test("H24, G13, G22: a transaction whose connection the server ends fails every part in it, keeps nothing of any, and the next commit connects again and commits")
    func g13AFailedTransactionFailsEveryPart() async throws {
        let schema = PostgresTestDatabase.freshSchema()
        let store = try PostgresTestDatabase.store(schema: schema)
        try store.append(records(1...1), to: "a")
        // Another session holds the journal locked: the store's commit waits on it, and is ended there.
        let url = try PostgresTestDatabase.requireURL()
        let holder = try await PostgresConnection.connect(configuration: PostgresJournalStore.configuration(url: url), id: 1, logger: Self.logger)
        try await holder.query("BEGIN", logger: Self.logger)
        try await holder.query(PostgresQuery(unsafeSQL: "LOCK TABLE \(schema).journal IN ACCESS EXCLUSIVE MODE"), logger: Self.logger)
        let batch = HostBatch(parts: [
            HostBatchPart(machine: "a", records: records(2...2), armedTimers: [HostTimer(event: [1], deadline: 5, armed: 1)]),
            HostBatchPart(machine: "b", records: records(1...3)),
        ])
        let commit = Self.onThread { store.commit(batch) }
        var ended: [Int64] = []
        for _ in 0..<200 where ended.isEmpty {
            try await Task.sleep(for: .milliseconds(20))
            ended = try await Self.integers("""
                SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                WHERE wait_event_type = 'Lock' AND query LIKE '%\(schema)%' HAVING count(*) > 0
                """)
        }
        let failed = await commit()
        try await holder.query("ROLLBACK", logger: Self.logger)
        try await holder.close()
        #expect(failed.keys.sorted() == ["a", "b"])
        guard case .server(let state, _) = failed["a"] else { Issue.record("not a server error: \(failed)"); return }
        #expect(["57P01", "08006"].contains(state))
        #expect(failed["a"] == failed["b"])
        #expect(try store.lastSequence(of: "a") == 1)
        #expect(try store.lastSequence(of: "b") == nil)
        #expect(try await store.dueTimers(through: .max, after: nil, limit: 10) == [])
        #expect(store.commit(batch) == [:])
        #expect(try store.lastSequence(of: "b") == 3)
    }

    @Test("G11, H11: a load reads on a connection of its own, so it answers while the writer's commit waits for a lock another session holds")
    func g11ALoadDoesNotWaitForTheWriter() async throws {
        let schema = PostgresTestDatabase.freshSchema()
        let store = try PostgresTestDatabase.store(schema: schema)
        try store.append(records(1...3), to: "m")
        // EXCLUSIVE mode: inserts wait, reads do not.
        let holder = try await PostgresConnection.connect(
            configuration: PostgresJournalStore.configuration(url: PostgresTestDatabase.requireURL()), id: 1, logger: Self.logger)
        try await holder.query("BEGIN", logger: Self.logger)
        try await holder.query(PostgresQuery(unsafeSQL: "LOCK TABLE \(schema).journal IN EXCLUSIVE MODE"), logger: Self.logger)
        let commit = Self.onThread { store.commit(HostBatch(parts: [HostBatchPart(machine: "m", records: records(4...4))])) }
        try await Task.sleep(for: .milliseconds(300))
        let start = ContinuousClock.now
        #expect(try await store.load("m").records == records(1...3))
        #expect(ContinuousClock.now - start < .seconds(5))
        try await holder.query("ROLLBACK", logger: Self.logger)
        #expect(await commit() == [:])
        #expect(try await store.load("m").records == records(1...4))
        try await holder.close()
    }

    @Test("H37, G15: a record, snapshot, timer row or instance row whose bytes were changed on the server is read back and named as damaged, never dropped")
    func g15ADamagedRowIsFound() async throws {
        let schema = PostgresTestDatabase.freshSchema()
        let store = try PostgresTestDatabase.store(schema: schema)
        let instance = HostedInstanceRow(host: "Order", awake: true, finished: false)
        #expect(store.commit(HostBatch(parts: ["a", "b", "c"].map { id in
            HostBatchPart(machine: id, records: records(1...2), snapshot: JournalSnapshot(sequence: 1, state: [1]),
                          armedTimers: [HostTimer(event: Array(id.utf8), deadline: 10, armed: 1)], instance: instance)
        })) == [:])
        for statement in [
            "UPDATE \(schema).host_timer SET deadline = 11 WHERE machine = 'a'",
            "UPDATE \(schema).host_timer SET event = 'x'::bytea WHERE machine = 'c'",
            "UPDATE \(schema).host_instance SET awake = false WHERE machine = 'b'",
            "UPDATE \(schema).journal SET event = 'z'::bytea WHERE machine = 'a' AND seq = 2",
            "UPDATE \(schema).snapshot SET state = 'z'::bytea WHERE machine = 'b'",
        ] {
            try await Self.execute(statement)
        }
        let due = try await store.dueTimers(through: .max, after: nil, limit: 10)
        #expect(due.map(\.row.machine) == ["b", "c", "a"])
        #expect(due.map(\.checksumMatches) == [true, false, false])
        #expect(try await store.hostedInstance("b") == CheckedRow(row: HostedInstanceRow(host: "Order", awake: false, finished: false), checksumMatches: false))
        #expect(try await store.hostedInstance("a")?.checksumMatches == true)
        #expect(try await store.load("a").damaged == [.record(2)])
        #expect(try store.recover("b").damaged == [.snapshot(1)])
        #expect(try store.recover("c").damaged == [])
    }

    @Test("G20, G21: a store that cannot open throws a JournalError with the SQLSTATE and a sentence to act on: a port nobody listens on (08001), a wrong password (28P01), a missing database (3D000)")
    func g21AStoreThatCannotOpenSaysWhy() throws {
        let url = try #require(URLComponents(string: PostgresTestDatabase.requireURL()))
        func opening(_ change: (inout URLComponents) -> Void) -> JournalError? {
            var changed = url
            change(&changed)
            do {
                _ = try PostgresJournalStore(url: changed.string!, schema: PostgresTestDatabase.freshSchema())
                return nil
            } catch {
                return error
            }
        }
        // A port taken from the kernel and given back: nobody listens on it.
        let refused = opening { $0.port = Self.closedPort() }
        guard case .server("08001", _) = refused else { Issue.record("\(String(describing: refused))"); return }
        #expect(refused?.description.contains("could not reach the PostgreSQL server: start it, or correct the host and port") == true)
        let password = opening { $0.password = "wrong" }
        guard case .server("28P01", _) = password else { Issue.record("\(String(describing: password))"); return }
        #expect(password?.description.contains("correct them in the store's configuration") == true)
        let database = opening { $0.path = "/no_such_database" }
        guard case .server("3D000", let message) = database else { Issue.record("\(String(describing: database))"); return }
        #expect(message.contains("no_such_database"))
        #expect(database?.description.contains("create it (`createdb NAME`)") == true)
    }

    // MARK: - The server, beside the store

    /// Runs `body` on a thread of its own at once, and returns how to await its result: a commit
    /// that blocks while a test holds a lock must not hold one of the cooperative pool's few
    /// threads, or two such tests at once would leave none to release their locks (G10).
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> @Sendable () async -> T {
        let result = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Thread {
            result.value = body()  // written before `done` is signalled, read after it is waited for
            done.signal()
        }.start()
        return {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    done.wait()
                    done.signal()
                    continuation.resume(returning: result.value!)
                }
            }
        }
    }

    static let logger = Logger(label: "StateLoopPostgresTests")

    /// Runs `sql` on a connection of its own.
    static func execute(_ sql: String) async throws {
        _ = try await rows(sql)
    }

    static func integers(_ sql: String) async throws -> [Int64] {
        try await rows(sql).map { row in
            let cell = try #require(row.first)
            return cell.dataType == .int4 ? Int64(try cell.decode(Int32.self)) : try cell.decode(Int64.self)
        }
    }

    static func strings(_ sql: String) async throws -> [String] {
        try await rows(sql).map { try $0.decode(String.self) }
    }

    static func rows(_ sql: String) async throws -> [PostgresRow] {
        let configuration = try PostgresJournalStore.configuration(url: PostgresTestDatabase.requireURL())
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        do {
            var rows: [PostgresRow] = []
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) { rows.append(row) }
            try await connection.close()
            return rows
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// A port of 127.0.0.1 that nothing listens on.
    static func closedPort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A result handed from one thread to another across a semaphore.
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}

/// Records `range`, event and state made of the sequence number, so a mix-up shows.
func records(_ range: ClosedRange<Int64>) -> [JournalRecord] {
    range.map { JournalRecord(sequence: $0, event: Array("e\($0)".utf8), stateAfter: Array("s\($0)".utf8)) }
}
#else
import Testing

@Suite struct PostgresStoreTests {
    @Test("G1: without the Postgres trait the suite has nothing to run: build with --traits Postgres (Docs/Postgres.md)", .disabled("built without the Postgres trait"))
    func withoutTheTrait() {}
}
#endif
