// Recovery never resumes what is not the journal (Docs/Durability.md D111–D116): checksums on
// every entry, the check that the records run without a gap, and the upgrade of a file written
// before checksums; on real SQLite files damaged by hand, as a broken disk would.

import CSQLite
import Foundation
import StateLoop
@testable import StateLoopDurable
import Testing

@Suite struct JournalIntegrityTests {
    /// Starts `Tally` `id` again on the file at `path`; returns the error it stopped with and
    /// how many states it showed.
    static func restart(_ path: String, id: String = "tally", store: (any JournalStore)? = nil) async throws -> (error: (any Error)?, shown: Int) {
        let life = Life(Tally.self, id: id, store: try store ?? SQLiteJournalStore(path: path), initial: 0, feedbacks: [])
        let error = try await life.waitForStop()
        return (error, life.states.current.count)
    }

    @Test("D112: the checksum is CRC-32C (Castagnoli), as its published check values say")
    func d112CRC32CCheckValues() {
        func crc(_ bytes: [UInt8]) -> UInt32 {
            var crc = CRC32C()
            crc.update(bytes)
            return crc.value
        }
        #expect(crc(Array("123456789".utf8)) == 0xE306_9283)
        #expect(crc([]) == 0)
        // RFC 3720 (iSCSI), B.4: 32 bytes of zeros, of ones, and 0...31.
        #expect(crc([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
        #expect(crc([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
        #expect(crc(Array(0...31)) == 0x46DD_794E)
        // Fed in pieces, the same.
        var pieces = CRC32C()
        pieces.update(Array("1234".utf8))
        pieces.update(Array("56789".utf8))
        #expect(pieces.value == 0xE306_9283)
    }

    @Test("D111: a record or snapshot whose stored bytes no longer match their checksum stops the start with DurableError naming it, before any state is shown", arguments: [
        DamagedEntry.record, .snapshot, .machineID, .sequence,
    ])
    func d111ChecksumMismatchStopsTheStart(damage: DamagedEntry) async throws {
        let path = try await JournalReplayTests.tallyJournal(10)
        // Snapshots 0, 3, 6, 9 and 10 (the stop): without the last one, record 10 is replayed.
        execute(path, "DELETE FROM snapshot WHERE seq = 10")
        let expected: JournalEntry
        var id = "tally"
        switch damage {
        case .record:
            flipBit(path, table: "journal", column: "event", seq: 10)
            expected = .record(10)
        case .snapshot:
            flipBit(path, table: "snapshot", column: "state", seq: 9)
            expected = .snapshot(9)
        case .machineID:
            // Another id's rows, checksums and all: a checksum names the id it was written for.
            execute(path, "INSERT INTO journal SELECT 'copy', seq, event, state, crc FROM journal WHERE machine = 'tally'")
            execute(path, "INSERT INTO snapshot SELECT 'copy', seq, state, crc FROM snapshot WHERE machine = 'tally'")
            id = "copy"
            expected = .snapshot(9)
        case .sequence:
            execute(path, "UPDATE snapshot SET seq = 10 WHERE seq = 9")
            expected = .snapshot(10)
        }
        let before = try SQLiteJournalFile(path: path).history(of: id)
        let (error, shown) = try await Self.restart(path, id: id)
        #expect(error as? DurableError == .checksumMismatch(machine: id, entry: expected))
        #expect("\(error.map { "\($0)" } ?? "")".contains("\(expected) does not match its checksum: the file is damaged"))
        #expect(shown == 0)
        #expect(try SQLiteJournalFile(path: path).history(of: id) == before, "nothing written")
    }

    @Test("D114: a record missing between the snapshot and the machine's last sequence number stops the start with DurableError naming the first one missing")
    func d114MissingRecordStopsTheStart() async throws {
        let path = try await JournalReplayTests.tallyJournal(10)
        execute(path, "DELETE FROM snapshot WHERE seq >= 9")
        execute(path, "DELETE FROM journal WHERE seq IN (8, 9)")
        let (error, shown) = try await Self.restart(path)
        #expect(error as? DurableError == .missingRecord(machine: "tally", sequence: 8))
        #expect("\(error.map { "\($0)" } ?? "")".contains("record 8 is missing"))
        #expect(shown == 0)
    }

    @Test("D114: records that a damaged file fails to return (a short read) stop the start too, named by the first one the read lacks")
    func d114ShortReadStopsTheStart() async throws {
        let path = try await JournalReplayTests.tallyJournal(10)
        execute(path, "DELETE FROM snapshot WHERE seq >= 6")
        let (error, shown) = try await Self.restart(path, store: ShortReadStore(try SQLiteJournalStore(path: path), keeping: 2))
        #expect(error as? DurableError == .missingRecord(machine: "tally", sequence: 6))
        #expect(shown == 0)
    }

    @Test("D113: a journal of schema 1 is upgraded when a store opens it: its entries get the checksums of their bytes, and read back as they were")
    func d113SchemaOneIsUpgraded() throws {
        let path = try TemporaryFolder().file("old.sqlite")
        try HostJournalStoreTests.writeFile(ofSchema: 1, at: path)
        let old = try SQLiteJournalFile(path: path)
        #expect(old.schemaVersion == 1)
        #expect(try old.history(of: "m").damaged == [], "a schema 1 file has nothing to check")
        let store = try SQLiteJournalStore(path: path)
        #expect(try store.pragma("user_version") == "\(SQLiteJournalStore.schemaVersion)")
        #expect(try store.recover("m") == JournalRecovery(snapshot: JournalSnapshot(sequence: 0, state: [0]), records: records(1...2)))
        flipBit(path, table: "journal", column: "event", seq: 2)
        #expect(try store.recover("m").damaged == [.record(2)])
        #expect(try SQLiteJournalFile(path: path).history(of: "m").damaged == [.record(2)])
    }

    @Test("D116: the replay check reports an entry whose checksum fails and a missing record, with DurableError naming it")
    func d116ReplayReportsDamageAndGaps() async throws {
        let path = try await JournalReplayTests.tallyJournal(10)
        flipBit(path, table: "journal", column: "event", seq: 4)
        #expect(throws: DurableError.checksumMismatch(machine: "tally", entry: .record(4))) {
            try Tally.replayJournal(SQLiteJournalFile(path: path), id: "tally")
        }
        execute(path, "DELETE FROM journal WHERE seq = 4")
        #expect(throws: DurableError.missingRecord(machine: "tally", sequence: 4)) {
            try Tally.replayJournal(SQLiteJournalFile(path: path), id: "tally")
        }
    }
}

/// What D111's test damages: a record's bytes, a snapshot's, the id a record is kept under, or a
/// snapshot's sequence number.
enum DamagedEntry: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case record, snapshot, machineID, sequence
    var testDescription: String { rawValue }
}

/// A SQLite store whose recovery returns only the first `keeping` records after the snapshot, and
/// the last sequence number of them all: what a damaged b-tree whose range scan stops early gives.
final class ShortReadStore: JournalStore, @unchecked Sendable {
    let base: SQLiteJournalStore
    let keeping: Int

    init(_ base: SQLiteJournalStore, keeping: Int) {
        self.base = base
        self.keeping = keeping
    }

    func append(_ records: [JournalRecord], to machine: String) throws { try base.append(records, to: machine) }
    func writeSnapshot(_ snapshot: JournalSnapshot, of machine: String) throws { try base.writeSnapshot(snapshot, of: machine) }
    func lastSequence(of machine: String) throws -> Int64? { try base.lastSequence(of: machine) }
    func claim(_ machine: String, for owner: JournalOwner) throws -> JournalOwner? { try base.claim(machine, for: owner) }
    func release(_ machine: String, by owner: JournalOwner) throws { try base.release(machine, by: owner) }
    func recover(_ machine: String) throws -> JournalRecovery {
        let all = try base.recover(machine)
        return JournalRecovery(snapshot: all.snapshot, records: Array(all.records.prefix(keeping)), lastSequence: all.lastSequence, damaged: all.damaged)
    }
}

/// Runs `sql` on the SQLite file at `path` (created when missing), behind the store's back.
func execute(_ path: String, _ sql: String) {
    var db: OpaquePointer?
    #expect(sqlite3_open(path, &db) == SQLITE_OK)
    defer { sqlite3_close(db) }
    #expect(sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK, "\(String(cString: sqlite3_errmsg(db)))")
}

/// Flips the lowest bit of the first byte of `column` in the row of `table` numbered `seq` (of
/// every machine), leaving its checksum as it was: one bit a broken disk changed.
func flipBit(_ path: String, table: String, column: String, seq: Int64) {
    var db: OpaquePointer?
    #expect(sqlite3_open(path, &db) == SQLITE_OK)
    defer { sqlite3_close(db) }
    var read: OpaquePointer?
    #expect(sqlite3_prepare_v2(db, "SELECT \(column) FROM \(table) WHERE seq = \(seq)", -1, &read, nil) == SQLITE_OK)
    #expect(sqlite3_step(read) == SQLITE_ROW)
    var bytes = [UInt8](UnsafeRawBufferPointer(start: sqlite3_column_blob(read, 0), count: Int(sqlite3_column_bytes(read, 0))))
    sqlite3_finalize(read)
    bytes[0] ^= 1
    var write: OpaquePointer?
    #expect(sqlite3_prepare_v2(db, "UPDATE \(table) SET \(column) = ?1 WHERE seq = \(seq)", -1, &write, nil) == SQLITE_OK)
    sqlite3_bind_blob(write, 1, bytes, Int32(bytes.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
    #expect(sqlite3_step(write) == SQLITE_DONE, "\(String(cString: sqlite3_errmsg(db)))")
    sqlite3_finalize(write)
}
