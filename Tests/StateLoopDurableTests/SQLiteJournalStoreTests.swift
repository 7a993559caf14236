import CSQLite
import Foundation
import StateLoopDurable
import Testing

/// What only the SQLite store promises: the file, its settings, its errors.
@Suite struct SQLiteJournalStoreTests {
    @Test("D8: each durability level opens in WAL mode with the synchronous level it promises", arguments: [
        (SQLiteJournalStore.Durability.processCrash, "1"), (.powerLoss, "2"),
    ])
    func d8DurabilityLevels(durability: SQLiteJournalStore.Durability, synchronous: String) throws {
        let store = try SQLiteJournalStore(path: TemporaryFolder().file("j.sqlite"), durability: durability)
        #expect(try store.pragma("synchronous") == synchronous)  // NORMAL is 1, FULL is 2
        #expect(try store.pragma("journal_mode") == "wal")
    }

    @Test("D9: the schema version is kept in user_version, and a newer one is refused and left untouched")
    func d9SchemaVersion() throws {
        let path = try TemporaryFolder().file("j.sqlite")
        #expect(try SQLiteJournalStore(path: path).pragma("user_version") == "\(SQLiteJournalStore.schemaVersion)")
        var db: OpaquePointer?
        #expect(sqlite3_open(path, &db) == SQLITE_OK)
        #expect(sqlite3_exec(db, "PRAGMA user_version = 99", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(db)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: JournalError.newerSchema(found: 99, supported: SQLiteJournalStore.schemaVersion)) {
            try SQLiteJournalStore(path: path)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("D10: a database error is thrown with SQLite's code and message")
    func d10DatabaseErrors() throws {
        let folder = try TemporaryFolder()
        #expect(throws: JournalError.database(code: SQLITE_CANTOPEN, message: "unable to open database file")) {
            try SQLiteJournalStore(path: folder.file("missing/j.sqlite"))
        }
        let notADatabase = folder.file("text.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: notADatabase))
        #expect(throws: JournalError.database(code: SQLITE_NOTADB, message: "file is not a database")) {
            try SQLiteJournalStore(path: notADatabase)
        }
    }

    @Test("D13: several stores on one file write in turn, and each sees what the others committed")
    func d13SeveralConnections() async throws {
        let path = try TemporaryFolder().file("j.sqlite")
        let stores = try [SQLiteJournalStore(path: path), SQLiteJournalStore(path: path, durability: .powerLoss)]
        try await withThrowingTaskGroup { group in
            for (index, store) in stores.enumerated() {
                for machine in 0..<3 {
                    group.addTask {
                        for batch in Int64(0)..<20 { try store.append(records(batch * 5 + 1...batch * 5 + 5), to: "s\(index)m\(machine)") }
                    }
                }
            }
            try await group.waitForAll()
        }
        for index in stores.indices {
            for machine in 0..<3 {
                #expect(try stores[1 - index].recover("s\(index)m\(machine)").records == records(1...100))
            }
        }
        #expect(throws: JournalError.sequenceNotAfter(machine: "s0m0", sequence: 100, last: 100)) {
            try stores[1].append(records(100...101), to: "s0m0")
        }
    }

    @Test("D126: a file of the current schema opens at once while another connection holds the write lock")
    func d126OpeningACurrentFileTakesNoWriteLock() throws {
        let path = try TemporaryFolder().file("j.sqlite")
        try SQLiteJournalStore(path: path).append(records(1...2), to: "m")
        let other = WriteLockHolder(path)
        // An open that took the write lock would wait the whole 5 s of D13 and throw SQLITE_BUSY.
        let store = try SQLiteJournalStore(path: path)
        #expect(try store.recover("m").records == records(1...2))
        other.release()
        try store.append(records(3...3), to: "m")
    }

    @Test("D11: everything written is read back after the file is closed and opened again")
    func d11Reopen() throws {
        let path = try TemporaryFolder().file("j.sqlite")
        do {
            let store = try SQLiteJournalStore(path: path, durability: .powerLoss)
            try store.append(records(1...3), to: "a")
            try store.writeSnapshot(JournalSnapshot(sequence: 2, state: [2]), of: "a")
            try store.append(records(1...1), to: "b")
        }
        let store = try SQLiteJournalStore(path: path)
        #expect(try store.recover("a") == JournalRecovery(snapshot: JournalSnapshot(sequence: 2, state: [2]), records: records(3...3)))
        #expect(try store.recover("b") == JournalRecovery(snapshot: nil, records: records(1...1)))
        try store.append(records(4...4), to: "a")
        #expect(try store.lastSequence(of: "a") == 4)
    }
}

/// Another connection to the SQLite file at `path`, holding its write lock (`BEGIN IMMEDIATE`)
/// until `release()`: what makes a store's commit wait for the lock, or fail once its busy
/// timeout runs out.
final class WriteLockHolder {
    private var connection: OpaquePointer?

    init(_ path: String) {
        #expect(sqlite3_open(path, &connection) == SQLITE_OK)
        #expect(sqlite3_exec(connection, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK)
    }

    func release() {
        #expect(sqlite3_exec(connection, "ROLLBACK", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(connection)
        connection = nil
    }

    deinit { if connection != nil { sqlite3_close(connection) } }
}
