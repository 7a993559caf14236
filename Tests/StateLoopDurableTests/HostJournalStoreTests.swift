// The store's half of the host (Docs/Hosting.md "The store and its file", H63–H65, and the store's
// parts of H22, H24 and H37; H63's loads, listings and claims serve H11, H48, H54 and H67): batches of many instances, the rows of schema 3, their checksums.

import CSQLite
import Foundation
import StateLoopDurable
import Testing

@Suite struct HostJournalStoreTests {
    @Test("H63: both stores commit a batch of parts of many instances (records, snapshots, timer rows armed and deleted, instance rows), and read the due rows after a cursor", arguments: StoreKind.allCases)
    func h63BothStoresCommitBatches(kind: StoreKind) async throws {
        let store = try kind.make()
        try store.append(records(1...2), to: "a")
        let (a1, a2, b1) = (timer("a1", due: 100, armed: 1), timer("a2", due: 200, armed: 2), timer("b1", due: 100, armed: 1))
        let first = HostBatch(parts: [
            HostBatchPart(machine: "a", records: records(3...4), snapshot: JournalSnapshot(sequence: 4, state: [4]),
                          armedTimers: [a1, a2], instance: HostedInstanceRow(host: "Order", awake: true, finished: false)),
            HostBatchPart(machine: "b", records: records(1...1), snapshot: JournalSnapshot(sequence: 0, state: [0]),
                          armedTimers: [b1], instance: HostedInstanceRow(host: "Order", awake: false, finished: false)),
        ])
        #expect(store.commit(first) == [:])
        #expect(try store.recover("a") == JournalRecovery(snapshot: JournalSnapshot(sequence: 4, state: [4]), records: []))
        #expect(try store.recover("b") == JournalRecovery(snapshot: JournalSnapshot(sequence: 0, state: [0]), records: records(1...1)))
        #expect(try await store.dueTimers(through: 150, after: nil, limit: 10) == intact([row("a", a1), row("b", b1)]))
        #expect(try await store.dueTimers(through: .max, after: row("a", a1).key, limit: 1) == intact([row("b", b1)]))

        let a2Later = timer("a2", due: 300, armed: 3)
        let second = HostBatch(parts: [
            HostBatchPart(machine: "a", records: records(5...5), deletedTimers: [a1.event], armedTimers: [a2Later],
                          instance: HostedInstanceRow(host: "Order", awake: false, finished: true)),
        ])
        #expect(store.commit(second) == [:])
        #expect(try await store.dueTimers(through: .max, after: nil, limit: 10) == intact([row("b", b1), row("a", a2Later)]))
        #expect(try await store.hostedInstance("a") == CheckedRow(row: HostedInstanceRow(host: "Order", awake: false, finished: true), checksumMatches: true))
        #expect(try await store.hostedInstance("c") == nil)
        #expect(try store.lastSequence(of: "a") == 5)
    }

    @Test("H22 (store): a part the store refuses, after some of its records were written, is rolled back with every part of its instance in the batch, before and after it, and the other parts commit", arguments: StoreKind.allCases)
    func h22ARefusedPartRollsBackAlone(kind: StoreKind) async throws {
        let store = try kind.make()
        try store.append(records(1...2), to: "a")
        let batch = HostBatch(parts: [
            HostBatchPart(machine: "b", records: records(1...1), armedTimers: [timer("b", due: 5, armed: 1)]),
            // A part that follows: rolled back with the refused one after it.
            HostBatchPart(machine: "a", records: records(3...3), instance: HostedInstanceRow(host: "Order", awake: false, finished: false)),
            // 4 is written before the second 4 is refused.
            HostBatchPart(machine: "a", records: records(4...4) + records(4...4), snapshot: JournalSnapshot(sequence: 4, state: [4]),
                          armedTimers: [timer("a", due: 5, armed: 1)], instance: HostedInstanceRow(host: "Order", awake: true, finished: false)),
            HostBatchPart(machine: "c", records: records(1...2), instance: HostedInstanceRow(host: "Order", awake: true, finished: false)),
            // After a's refused part: it would follow records 1 and 2, but not the part before it.
            HostBatchPart(machine: "a", records: records(5...5)),
        ])
        #expect(store.commit(batch) == ["a": .sequenceNotAfter(machine: "a", sequence: 4, last: 4)])
        #expect(try store.recover("a") == JournalRecovery(snapshot: nil, records: records(1...2)))
        #expect(try await store.hostedInstance("a") == nil)
        #expect(try store.recover("b").records == records(1...1))
        #expect(try store.recover("c").records == records(1...2))
        #expect(try await store.hostedInstance("c")?.row.awake == true)
        #expect(try await store.dueTimers(through: .max, after: nil, limit: 10) == intact([row("b", timer("b", due: 5, armed: 1))]))
    }

    @Test("D3 in a batch: a part whose first record's number is already taken, by a record or under the latest snapshot's, is refused alone with sequenceNotAfter naming the instance's last number", arguments: StoreKind.allCases)
    func d3ATakenNumberIsRefusedInABatch(kind: StoreKind) async throws {
        let store = try kind.make()
        try store.append(records(1...3), to: "a")
        try store.writeSnapshot(JournalSnapshot(sequence: 5, state: [5]), of: "s")
        let batch = HostBatch(parts: [
            HostBatchPart(machine: "a", records: records(2...2)),
            HostBatchPart(machine: "s", records: records(5...5)),
            HostBatchPart(machine: "b", records: records(1...1)),
        ])
        #expect(store.commit(batch) == [
            "a": .sequenceNotAfter(machine: "a", sequence: 2, last: 3), "s": .sequenceNotAfter(machine: "s", sequence: 5, last: 5),
        ])
        #expect(try store.recover("a").records == records(1...3))
        #expect(try store.recover("b").records == records(1...1))
    }

    @Test("H24 (store): a transaction that cannot commit fails every part in it with the database's error, and keeps nothing of any")
    func h24AFailedCommitFailsEveryPart() async throws {
        let path = try TemporaryFolder().file("journal.sqlite")
        let store = try SQLiteJournalStore(path: path)
        _ = try store.pragma("busy_timeout = 50")
        // Another connection holds the write lock past the store's wait.
        let other = WriteLockHolder(path)
        let batch = HostBatch(parts: [
            HostBatchPart(machine: "a", records: records(1...1), armedTimers: [timer("a", due: 5, armed: 1)]),
            HostBatchPart(machine: "b", records: records(1...3)),
        ])
        let busy = JournalError.database(code: SQLITE_BUSY, message: "database is locked")
        #expect(store.commit(batch) == ["a": busy, "b": busy])
        other.release()
        #expect(try store.lastSequence(of: "a") == nil)
        #expect(try store.lastSequence(of: "b") == nil)
        #expect(try store.dueTimers(through: .max, after: nil, limit: 10) == [])
        #expect(store.commit(batch) == [:])
        #expect(try store.lastSequence(of: "b") == 3)
    }

    @Test("H37 (store): a timer row or an instance row whose bytes no longer match its checksum is read back and named as damaged, never dropped")
    func h37ADamagedRowIsFound() async throws {
        let path = try TemporaryFolder().file("journal.sqlite")
        let store = try SQLiteJournalStore(path: path)
        let instance = HostedInstanceRow(host: "Order", awake: true, finished: false)
        let batch = HostBatch(parts: ["a", "b", "c"].map { id in
            HostBatchPart(machine: id, records: records(1...1), armedTimers: [timer(id, due: 10, armed: 1)], instance: instance)
        })
        #expect(store.commit(batch) == [:])
        execute(path, """
            UPDATE host_timer SET deadline = 11 WHERE machine = 'a';
            UPDATE host_timer SET event = CAST('x' AS BLOB) WHERE machine = 'c';
            UPDATE host_instance SET awake = 0 WHERE machine = 'b';
            """)
        let due = try store.dueTimers(through: .max, after: nil, limit: 10)
        #expect(due.map(\.row.machine) == ["b", "c", "a"])
        #expect(due.map(\.checksumMatches) == [true, false, false])
        #expect(try store.hostedInstance("b") == CheckedRow(row: HostedInstanceRow(host: "Order", awake: false, finished: false), checksumMatches: false))
        #expect(try store.hostedInstance("a")?.checksumMatches == true)
    }

    @Test("H42 (store): a part's releasedBy deletes that owner's claim of its instance in the part's transaction, and leaves another owner's", arguments: StoreKind.allCases)
    func h42APartReleasesItsOwnersClaim(kind: StoreKind) throws {
        let store = try kind.make()
        let (host, other) = (JournalOwner.next(), JournalOwner.next())
        #expect(try store.claim("a", for: host) == nil)
        #expect(try store.claim("b", for: other) == nil)
        #expect(store.commit(HostBatch(parts: [
            HostBatchPart(machine: "a", records: records(1...1), releasedBy: host),
            HostBatchPart(machine: "b", records: records(1...1), releasedBy: host),
        ])) == [:])
        #expect(try store.claim("a", for: other) == nil, "the host's claim of a was released")
        #expect(try store.claim("b", for: host) == other, "another owner's claim was released")
    }

    @Test("H63: a load reads through a read connection of its own, so it does not wait while the store's connection waits to commit")
    func h63ALoadDoesNotWaitForTheWriter() async throws {
        let path = try TemporaryFolder().file("journal.sqlite")
        let store = try SQLiteJournalStore(path: path)
        try store.append(records(1...3), to: "m")
        // Long enough for a loaded machine: the commit waits until the ROLLBACK below, whatever the
        // load, and a load that waited for it would take the whole minute.
        _ = try store.pragma("busy_timeout = 60000")
        let other = WriteLockHolder(path)
        // The store's connection waits for the lock, holding its own mutex.
        let commit = Task.detached { store.commit(HostBatch(parts: [HostBatchPart(machine: "m", records: records(4...4))])) }
        try await Task.sleep(for: .milliseconds(300))
        let started = ContinuousClock.now
        #expect(try store.load("m").records == records(1...3))
        #expect(ContinuousClock.now - started < .seconds(20))
        other.release()
        #expect(await commit.value == [:])
        #expect(try store.load("m").records == records(1...4))
    }

    @Test("H63, G7: the awake instances of a host are listed by id, after a cursor, on every store", arguments: StoreKind.allCases)
    func h63AwakeInstancesAreListed(kind: StoreKind) async throws {
        let store = try kind.make()
        let rows = [("h1", "Order", true), ("h2", "Order", false), ("h3", "Other", true), ("h4", "Order", true)]
        #expect(store.commit(HostBatch(parts: rows.map { id, host, awake in
            HostBatchPart(machine: id, records: records(1...1), instance: HostedInstanceRow(host: host, awake: awake, finished: false))
        })) == [:])
        #expect(try await store.instances(.awake(host: "Order"), after: nil, limit: 10) == ["h1", "h4"])
        #expect(try await store.instances(.awake(host: "Order"), after: "h1", limit: 10) == ["h4"])
        #expect(try await store.instances(.awake(host: "Order"), after: nil, limit: 1) == ["h1"])
    }

    @Test("H63: the ids with a journal and no instance row are listed, child machines aside", arguments: StoreKind.allCases)
    func h63UnhostedInstancesAreListed(kind: StoreKind) async throws {
        let store = try kind.make()
        for id in ["u2", "u1", "u1/child"] { try store.append(records(1...1), to: id) }
        try store.writeSnapshot(JournalSnapshot(sequence: 0, state: [0]), of: "u3")
        #expect(store.commit(HostBatch(parts: [
            HostBatchPart(machine: "h1", records: records(1...1), instance: HostedInstanceRow(host: "Order", awake: false, finished: false)),
        ])) == [:])
        #expect(try await store.instances(.unhosted, after: nil, limit: 10) == ["u1", "u2", "u3"])
        #expect(try await store.instances(.unhosted, after: "u1", limit: 1) == ["u2"])
    }

    @Test("H63: a host's claim of its machine is refused while another owner's process runs, naming it, and taken over once that process is gone", arguments: StoreKind.allCases)
    func h63AHostsClaimIsRefusedWhileItsOwnerRuns(kind: StoreKind) async throws {
        let store = try kind.make()
        let (first, second) = (JournalOwner.next(), JournalOwner.next())
        #expect(try await store.claimHost("Order", for: first) == nil)
        #expect(try await store.claimHost("Order", for: first) == nil, "its own claim again")
        #expect(try await store.claimHost("Order", for: second) == first)
        try await store.releaseHost("Order", by: second)
        #expect(try await store.claimHost("Order", for: second) == first, "only the holder gives it back")
        try await store.releaseHost("Order", by: first)
        #expect(try await store.claimHost("Order", for: second) == nil)
        #expect(try store.claim("Order", for: first) == nil, "a host's claim is not an instance's")
        var gone = JournalOwner.next()
        gone.started += 1  // this pid, another start: a process that ended
        #expect(try await store.claimHost("Tally", for: gone) == nil)
        #expect(try await store.claimHost("Tally", for: second) == nil)
    }

    @Test("H64: a file of schema 1 or 2 is upgraded to 3 when it is opened, in one transaction: its entries read back as they were, and an upgrade that fails leaves it as it was", arguments: [Int32(1), 2])
    func h64OlderSchemasAreUpgradedTo3(from version: Int32) async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("old.sqlite")
        try Self.writeFile(ofSchema: version, at: path)
        let store = try SQLiteJournalStore(path: path)
        #expect(try store.pragma("user_version") == "3")
        #expect(try store.recover("m") == JournalRecovery(snapshot: JournalSnapshot(sequence: 0, state: [0]), records: records(1...2)))
        #expect(store.commit(HostBatch(parts: [HostBatchPart(machine: "m", records: records(3...3), armedTimers: [timer("m", due: 1, armed: 1)])])) == [:])
        #expect(try store.dueTimers(through: .max, after: nil, limit: 10).count == 1)

        // A table of the new schema cannot be made: nothing of the upgrade is left.
        let blocked = folder.file("blocked.sqlite")
        try Self.writeFile(ofSchema: version, at: blocked)
        execute(blocked, "CREATE VIEW host_timer AS SELECT 1")
        let columns = "SELECT count(*) FROM pragma_table_info('journal')"
        let columnsBefore = Self.count(blocked, columns)
        #expect(throws: JournalError.self) { try SQLiteJournalStore(path: blocked) }
        let file = try SQLiteJournalFile(path: blocked)
        #expect(file.schemaVersion == version)
        #expect(Self.count(blocked, columns) == columnsBefore, "schema 1's checksums were not added either")
        #expect(Self.count(blocked, "SELECT count(*) FROM sqlite_master WHERE name LIKE 'host_%' AND type = 'table'") == 0)
        #expect(try file.history(of: "m").records == records(1...2))
    }

    @Test("H64: a file of schema 4 is refused by the store and the file reader, and left untouched")
    func h64Schema4IsRefused() throws {
        let path = try TemporaryFolder().file("newer.sqlite")
        _ = try SQLiteJournalStore(path: path)
        execute(path, "PRAGMA user_version = 4")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: JournalError.newerSchema(found: 4, supported: 3)) { try SQLiteJournalStore(path: path) }
        #expect(throws: JournalFileError.newerSchema(path: path, found: 4, supported: 3)) { try SQLiteJournalFile(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("H65: a DurableSystem on a file of schema 3 writes no row of the host's tables")
    func h65ADurableSystemWritesNoHostRow() async throws {
        let path = try await JournalReplayTests.tallyJournal(10)
        #expect(try SQLiteJournalFile(path: path).schemaVersion == 3)
        #expect(Self.count(path, "SELECT count(*) FROM journal") == 10)
        for table in ["host_instance", "host_timer", "host_owner"] {
            #expect(Self.count(path, "SELECT count(*) FROM \(table)") == 0, "\(table)")
        }
    }

    // MARK: - Files and rows

    /// Writes a journal of `version` with a snapshot 0 and records 1 and 2 of `m`: schema 1 as its
    /// build wrote it (D113), schema 2 as this store writes it without the host's tables.
    static func writeFile(ofSchema version: Int32, at path: String) throws {
        if version == 1 {
            execute(path, """
                CREATE TABLE journal (machine TEXT NOT NULL, seq INTEGER NOT NULL, event BLOB NOT NULL,
                    state BLOB NOT NULL, PRIMARY KEY (machine, seq)) WITHOUT ROWID;
                CREATE TABLE snapshot (machine TEXT NOT NULL, seq INTEGER NOT NULL, state BLOB NOT NULL,
                    PRIMARY KEY (machine, seq)) WITHOUT ROWID;
                INSERT INTO snapshot VALUES ('m', 0, x'00');
                INSERT INTO journal VALUES ('m', 1, CAST('e1' AS BLOB), CAST('s1' AS BLOB)), ('m', 2, CAST('e2' AS BLOB), CAST('s2' AS BLOB));
                PRAGMA user_version = 1;
                """)
            return
        }
        do {
            let store = try SQLiteJournalStore(path: path)
            try store.writeSnapshot(JournalSnapshot(sequence: 0, state: [0]), of: "m")
            try store.append(records(1...2), to: "m")
        }
        execute(path, "DROP TABLE host_instance; DROP TABLE host_timer; DROP TABLE host_owner; PRAGMA user_version = \(version)")
    }

    /// The single integer `sql` selects from the file at `path`.
    static func count(_ path: String, _ sql: String) -> Int64? {
        var db: OpaquePointer?
        defer { sqlite3_close(db) }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_open(path, &db) == SQLITE_OK, sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK,
              sqlite3_step(statement) == SQLITE_ROW
        else { return nil }
        return sqlite3_column_int64(statement, 0)
    }
}

/// The timer of the event named `name`, due at `due`, armed `armed`-th.
private func timer(_ name: String, due: Int64, armed: Int64) -> HostTimer {
    HostTimer(event: Array(name.utf8), deadline: due, armed: armed)
}

private func row(_ machine: String, _ timer: HostTimer) -> TimerRow {
    TimerRow(machine: machine, timer: timer)
}

/// `rows`, each read with a checksum that matched.
private func intact(_ rows: [TimerRow]) -> [CheckedRow<TimerRow>] {
    rows.map { CheckedRow(row: $0, checksumMatches: true) }
}
