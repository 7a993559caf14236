// One live writer per machine across processes (Docs/Postgres.md G8, G40-G46), on a real server:
// a host's claim is a lease whose expiry is the server's and whose token every commit checks. Two
// stores in this process stand for two processes (each its own connections and owner); a holder on
// "another node" is a lease row whose node the test rewrites, so that only its expiry can free it,
// and an expiry that passed is one the test set in the server's past. Timed, so a tier of its own
// (Scripts/test.sh), G14's host with them (its lease renewed as it runs): in the parallel tier a
// step may wait seconds for a thread, and a renewal was seen to miss its deadline there.

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
struct PostgresLeaseTests {
    @Test("G8, G45: a lease is refused to another owner until its holder gives it back or, on another node, until its expiry passes by the server's clock; each grant raises the token")
    func g8ALeaseIsHeldUntilReleasedOrExpired() async throws {
        let schema = PostgresTestDatabase.freshSchema()
        let (first, second) = (try PostgresTestDatabase.store(schema: schema), try PostgresTestDatabase.store(schema: schema))
        let (a, b) = (JournalOwner.next(), JournalOwner.next())
        #expect(try await first.claimHost("Tab", for: a) == nil)
        #expect(try await Self.token(schema) == 1)
        #expect(try await second.claimHost("Tab", for: b) == a)
        try first.releaseHost("Tab", by: a)
        #expect(try await second.claimHost("Tab", for: b) == nil, "given back, it is taken at once")
        #expect(try await Self.token(schema) == 2)

        // Held by an owner on another node: its pid says nothing here, only its expiry frees it.
        #expect(try await first.claimHost("Other", for: a) == nil)
        let start = ContinuousClock.now
        try await PostgresStoreTests.execute("UPDATE \(schema).host_lease SET node = 'elsewhere', expires = clock_timestamp() + interval '1 second' WHERE host = 'Other'")
        while try await second.claimHost("Other", for: b) != nil {
            #expect(ContinuousClock.now - start < .seconds(5), "the lease never expired")
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(ContinuousClock.now - start >= .milliseconds(900), "taken before its expiry")
    }

    @Test("G43, G41: a commit of a store whose lease expired keeps nothing of its batch, every part answering fenced, whether or not another took it; the new holder's commits go on, and a lease renewed before anyone took it commits again")
    func g43ACommitAfterATakeoverIsFenced() async throws {
        let schema = PostgresTestDatabase.freshSchema()
        let old = try PostgresTestDatabase.store(schema: schema)
        let new = try PostgresTestDatabase.store(schema: schema)
        let (a, b) = (JournalOwner.next(), JournalOwner.next())
        #expect(try await old.claimHost("Tab", for: a) == nil)
        #expect(old.commit(HostBatch(parts: [HostBatchPart(machine: "t1", records: records(1...1))])) == [:])
        // Its expiry passed on the server (as if its process stopped renewing on another node).
        try await PostgresStoreTests.execute("UPDATE \(schema).host_lease SET node = 'elsewhere', expires = clock_timestamp() - interval '1 second'")
        #expect(try await new.claimHost("Tab", for: b) == nil)

        let failed = old.commit(HostBatch(parts: [
            HostBatchPart(machine: "t1", records: records(2...2)),
            HostBatchPart(machine: "t2", records: records(1...1), armedTimers: [HostTimer(event: [1], deadline: 5, armed: 1)]),
        ]))
        #expect(failed == ["t1": .fenced(host: "Tab"), "t2": .fenced(host: "Tab")])
        #expect(try new.lastSequence(of: "t1") == 1)
        #expect(try new.lastSequence(of: "t2") == nil)
        #expect(try await new.dueTimers(through: .max, after: nil, limit: 10) == [])
        #expect(new.commit(HostBatch(parts: [HostBatchPart(machine: "t1", records: records(2...2))])) == [:])

        // Expired and not yet taken: fenced too, whatever this process's clock says.
        let lapsed = try PostgresTestDatabase.store(schema: schema)
        #expect(try await lapsed.claimHost("Lapsed", for: a) == nil)
        try await PostgresStoreTests.execute("UPDATE \(schema).host_lease SET expires = clock_timestamp() - interval '1 second' WHERE host = 'Lapsed'")
        #expect(lapsed.commit(HostBatch(parts: [HostBatchPart(machine: "t3", records: records(1...1))])) == ["t3": .fenced(host: "Lapsed")])
        #expect(try lapsed.renewHost("Lapsed", by: a), "renewed before anyone took it")
        #expect(lapsed.commit(HostBatch(parts: [HostBatchPart(machine: "t3", records: records(1...1))])) == [:])
    }

    @Test("G44: an instance's claim held by an owner whose lease has not expired is refused, wherever its process runs, and taken once that lease expired")
    func g44AnInstanceClaimFollowsItsHoldersLease() async throws {
        let schema = PostgresTestDatabase.freshSchema()
        let holderStore = try PostgresTestDatabase.store(schema: schema)
        let store = try PostgresTestDatabase.store(schema: schema)
        // An owner no process of this node is: only its lease can keep its claims.
        let elsewhere = JournalOwner(pid: 999_999, started: 1, system: 77)
        #expect(try await holderStore.claimHost("Tab", for: elsewhere) == nil)
        #expect(try holderStore.claim("tab-1", for: elsewhere) == nil)
        try await PostgresStoreTests.execute("UPDATE \(schema).host_lease SET node = 'elsewhere'")
        let other = JournalOwner.next()
        #expect(try store.claim("tab-1", for: other) == elsewhere)
        try await PostgresStoreTests.execute("UPDATE \(schema).host_lease SET expires = clock_timestamp() - interval '1 second'")
        #expect(try store.claim("tab-1", for: other) == nil)
        // A holder with no lease is judged by its process (D117): this one is gone.
        #expect(try store.claim("tab-2", for: elsewhere) == nil)
        #expect(try holderStore.claim("tab-2", for: other) == nil)
    }

    @Test("G14: a MachineHost on PostgreSQL answers events sent to many instances once durable, and a new host on the same schema, after the first stopped, recovers every instance in the state those events made")
    func g14AHostRunsOnPostgres() async throws {
        let schema = PostgresTestDatabase.freshSchema()
        let ids = (0..<100).map { "tab-\($0)" }
        do {
            let host = MachineHost<Tab>(store: try PostgresTestDatabase.store(schema: schema), initial: { _ in .initial })
            let running = Task { try await host.run() }
            try await withThrowingTaskGroup { group in
                for id in ids {
                    group.addTask { for n in 1...5 { _ = try await host.send(.order(n: n, amount: n * 10), to: id) } }
                }
                try await group.waitForAll()
            }
            host.shutdown()
            try await running.value
        }
        let store = try PostgresTestDatabase.store(schema: schema)
        let again = MachineHost<Tab>(store: store, initial: { _ in nil })
        let running = Task { try await again.run() }
        for id in ids {
            let state = try #require(try await again.state(of: id), "\(id)")
            #expect(state.posted == 5 && state.total == 150, "\(id)")
        }
        #expect(try store.lastSequence(of: "tab-7") ?? 0 >= 5)
        again.shutdown()
        try await running.value
    }

    @Test("G40, G45: a second host on the schema stands by without failing, its sends waiting, and takes the machine when the first shuts down, recovering what the first made durable")
    func g40AStandbyTakesOverAtAShutdown() async throws {
        let schema = PostgresTestDatabase.freshSchema()
        let first = MachineHost<Tab>(store: try PostgresTestDatabase.store(schema: schema, leaseDuration: .seconds(1)), initial: { _ in .initial })
        let firstRun = Task { try await first.run() }
        for n in 1...3 { _ = try await first.send(.order(n: n, amount: 10), to: "tab-1") }

        let second = MachineHost<Tab>(store: try PostgresTestDatabase.store(schema: schema, leaseDuration: .seconds(1)), initial: { _ in .initial })
        let secondRun = Task { try await second.run() }
        let waiting = Task { try await second.send(.order(n: 5, amount: 10), to: "tab-1") }
        try await Task.sleep(for: .milliseconds(700))
        #expect(second.statistics.instancesInMemory == 0, "a standby loads nothing")
        _ = try await first.send(.order(n: 4, amount: 5), to: "tab-1")
        first.shutdown()
        try await firstRun.value
        let receipt = try await waiting.value
        #expect(receipt.state.posted == 5 && receipt.state.total == 45, "\(receipt.state)")
        #expect(receipt.sequence > 4, "after the first host's records")
        second.shutdown()
        try await secondRun.value
    }

    @Test("G42, G43: a host whose lease another process took stops at once: run() throws leaseLost, its sends fail, and nothing of it commits after the takeover")
    func g42AHostThatLostItsLeaseStops() async throws {
        let schema = PostgresTestDatabase.freshSchema()
        let host = MachineHost<Tab>(store: try PostgresTestDatabase.store(schema: schema, leaseDuration: .seconds(3)), initial: { _ in .initial })
        let running = Task { try await host.run() }
        _ = try await host.send(.order(n: 1, amount: 10), to: "tab-1")
        // Another process takes the machine, its lease as if expired on another node: its claim
        // waits for a commit in flight (G43), and then nothing more of this host's commits.
        try await PostgresStoreTests.execute("UPDATE \(schema).host_lease SET node = 'elsewhere', expires = clock_timestamp() - interval '1 second'")
        let store = try PostgresTestDatabase.store(schema: schema)
        #expect(try await store.claimHost("Tab", for: .next()) == nil)
        let before = try store.lastSequence(of: "tab-1")
        let start = ContinuousClock.now
        await #expect(throws: HostError.self) { try await running.value }
        #expect(ContinuousClock.now - start < .seconds(2), "stopped within a third of the lease")
        do {
            _ = try await host.send(.order(n: 2, amount: 10), to: "tab-1")
            Issue.record("a send after the lease was lost was answered")
        } catch let error as HostError {
            guard case .leaseLost("Tab", _) = error else { Issue.record("\(error)"); return }
        }
        // Its settling timer may have committed before the takeover; nothing did after it.
        try await Task.sleep(for: .milliseconds(200))
        #expect(try store.lastSequence(of: "tab-1") == before)
    }

    @Test("G42: a host that cannot renew its lease (the lease table locked by another session) stops within two thirds of the lease since its last renewal, before the lease could pass to another")
    func g42AHostThatCannotRenewStops() async throws {
        let schema = PostgresTestDatabase.freshSchema()
        let host = MachineHost<Tab>(store: try PostgresTestDatabase.store(schema: schema, leaseDuration: .milliseconds(1_500)), initial: { _ in .initial })
        let running = Task { try await host.run() }
        _ = try await host.send(.order(n: 1, amount: 10), to: "tab-1")
        let holder = try await PostgresConnection.connect(
            configuration: PostgresJournalStore.configuration(url: PostgresTestDatabase.requireURL()), id: 1, logger: PostgresStoreTests.logger)
        try await holder.query("BEGIN", logger: PostgresStoreTests.logger)
        try await holder.query(PostgresQuery(unsafeSQL: "LOCK TABLE \(schema).host_lease IN ACCESS EXCLUSIVE MODE"), logger: PostgresStoreTests.logger)
        let start = ContinuousClock.now
        do {
            try await running.value
            Issue.record("run() returned")
        } catch let error as HostError {
            guard case .leaseLost("Tab", let reason) = error else { Issue.record("\(error)"); return }
            #expect(reason.contains("could not be renewed"), "\(reason)")
        }
        #expect(ContinuousClock.now - start < .milliseconds(1_500), "stopped after the lease could have passed")
        try await holder.query("ROLLBACK", logger: PostgresStoreTests.logger)
        try await holder.close()
    }

    @Test("G46: a schema of version 1 is upgraded to 2 when a store opens it: its host_owner rows become released leases, their indexing kept")
    func g46Version1IsUpgraded() async throws {
        let schema = PostgresTestDatabase.freshSchema()
        let store = try PostgresTestDatabase.store(schema: schema)
        try store.append(records(1...2), to: "m")
        // Version 1's table, as it was.
        for statement in [
            "DROP TABLE \(schema).host_lease",
            "CREATE TABLE \(schema).host_owner (host text COLLATE \"C\" NOT NULL PRIMARY KEY, pid integer NOT NULL, started bigint NOT NULL, system bigint NOT NULL, indexed boolean NOT NULL DEFAULT false)",
            "INSERT INTO \(schema).host_owner VALUES ('Tab', 4242, 1, 1, true)",
            "UPDATE \(schema).stateloop_schema SET version = 1",
        ] {
            try await PostgresStoreTests.execute(statement)
        }
        let upgraded = try PostgresTestDatabase.store(schema: schema)
        #expect(try await PostgresStoreTests.integers("SELECT version FROM \(schema).stateloop_schema") == [2])
        #expect(try await PostgresStoreTests.strings("SELECT table_name::text FROM information_schema.tables WHERE table_schema = '\(schema)' AND table_name LIKE 'host_%' ORDER BY 1")
            == ["host_instance", "host_lease", "host_timer"])
        #expect(try await upgraded.isIndexed("Tab"))
        #expect(try await upgraded.claimHost("Tab", for: .next()) == nil, "version 1's claim was given back")
        #expect(try upgraded.recover("m").records == records(1...2))
    }

    static func token(_ schema: String) async throws -> Int64? {
        try await PostgresStoreTests.integers("SELECT token FROM \(schema).host_lease WHERE host = 'Tab'").first
    }
}
#endif
