// The tools' side of the store (Docs/Durability.md D80–D82): a journal file opened read-only, and
// the replay check of a saved journal against a reducer, on a real SQLite file written by a
// durable system.

import CSQLite
import Foundation
import StateLoop
@testable import StateLoopDurable
import Testing

/// A running total: the reducer that wrote the journal.
enum Tally: TestMachine {
    typealias Run = NoRun
    typealias State = Int
    typealias Event = Int

    static func reduce(_ state: inout Int, _ event: Int) { state += event }
}

/// The same machine after a change that alters history: each event counts twice from 5 on.
enum ChangedTally: TestMachine {
    typealias Run = NoRun
    typealias State = Int
    typealias Event = Int

    /// The machine it changed, whose journals it reads (D120).
    static var journalName: String { "Tally" }

    static func reduce(_ state: inout Int, _ event: Int) { state += event >= 5 ? 2 * event : event }
}

@Suite struct JournalReplayTests {
    /// A journal of `Tally` in a new SQLite file: events 1...`count`, a snapshot every 3 records
    /// and one at the stop. Returns the file's path.
    static func tallyJournal(_ count: Int) async throws -> String {
        let path = try TemporaryFolder().file("tally.sqlite")
        let life = Life(Tally.self, id: "tally", store: try SQLiteJournalStore(path: path), initial: 0, feedbacks: [],
                        options: DurableOptions(snapshotEvery: 3))
        for event in 1...count { life.system.send(event) }
        try await life.wait(until: { $0 == (1...count).reduce(0, +) })
        life.system.stop()
        #expect(try await life.waitForStop() == nil)
        return path
    }

    @Test("D80: a missing file, a file that is not SQLite, a SQLite file without the journal's tables and a newer schema are refused, and left as they were")
    func d80RefusesWhatIsNotAJournal() throws {
        let folder = try TemporaryFolder()
        let missing = folder.file("missing.sqlite")
        #expect(throws: JournalFileError.missing(path: missing)) { try SQLiteJournalFile(path: missing) }
        #expect(!FileManager.default.fileExists(atPath: missing))

        let text = folder.file("notes.txt")
        try Data(String(repeating: "not a database ", count: 20).utf8).write(to: URL(fileURLWithPath: text))
        #expect(throws: JournalFileError.notAJournal(path: text, reason: "not a SQLite database")) { try SQLiteJournalFile(path: text) }

        let other = folder.file("other.sqlite")
        sqlite(other, "CREATE TABLE people (name TEXT)")
        let before = try Data(contentsOf: URL(fileURLWithPath: other))
        #expect(throws: JournalFileError.notAJournal(path: other, reason: "a SQLite database without the journal's tables")) { try SQLiteJournalFile(path: other) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == before)

        let newer = folder.file("newer.sqlite")
        sqlite(newer, "PRAGMA user_version = 9")
        let error = #expect(throws: JournalFileError.self) { try SQLiteJournalFile(path: newer) }
        #expect(error == .newerSchema(path: newer, found: 9, supported: SQLiteJournalStore.schemaVersion))
        #expect(error?.description.contains("read it with the newer StateLoop that wrote it") == true)
    }

    @Test("D80: a journal file lists its machine ids and gives each one's snapshots and records in order")
    func d80ListsMachinesAndHistory() throws {
        let path = try TemporaryFolder().file("journal.sqlite")
        let store = try SQLiteJournalStore(path: path)
        try store.append(records(1...3), to: "b")
        try store.writeSnapshot(JournalSnapshot(sequence: 2, state: [2]), of: "b")
        try store.writeSnapshot(JournalSnapshot(sequence: 0, state: [0]), of: "b")
        try store.writeSnapshot(JournalSnapshot(sequence: 0, state: [9]), of: "a")
        let file = try SQLiteJournalFile(path: path)
        #expect(try file.machineIDs() == ["a", "b"])
        #expect(try file.history(of: "b") == JournalHistory(
            snapshots: [JournalSnapshot(sequence: 0, state: [0]), JournalSnapshot(sequence: 2, state: [2])], records: records(1...3)))
        #expect(try file.history(of: "none") == JournalHistory(snapshots: [], records: []))
    }

    @Test("D81: replaying a journal through the reducer that wrote it reproduces every snapshot")
    func d81ReplayOfTheSameReducerIsOK() async throws {
        let path = try await Self.tallyJournal(10)
        let report = try Tally.replayJournal(SQLiteJournalFile(path: path), id: "tally")
        // Snapshots 0 (the initial state), 3, 6, 9 and 10 (the stop).
        #expect(report == JournalReplayReport(records: 10, snapshots: 5, mismatch: nil))
        #expect(report.description == "replay ok 10 records, 5 snapshots")
    }

    @Test("D82: a reducer that reduces the saved events differently is reported at the first snapshot it changes, with the two states")
    func d82ChangedReducerIsFound() async throws {
        let path = try await Self.tallyJournal(10)
        let report = try ChangedTally.replayJournal(SQLiteJournalFile(path: path), id: "tally")
        // 1...6 is 21; the changed reducer gives 21 + 5 + 6 = 32 at snapshot 6.
        #expect(report.mismatch == .init(sequence: 6, diff: ["- - 21", "+ - 32"]))  // as `dump` prints an Int
        #expect(report.description == "replay mismatch at snapshot 6: the state differs\n- - 21\n+ - 32")
    }

    @Test("D82: an entry the machine cannot read stops the replay with DurableError naming it")
    func d82UnreadableEntryThrows() throws {
        let history = JournalHistory(snapshots: [JournalSnapshot(sequence: 0, state: [7])], records: [])
        let error = #expect(throws: DurableError.self) { try Tally.replayJournal(history, id: "tally") }
        guard case .damaged(machine: "tally", sequence: 0, _) = error else { Issue.record("\(String(describing: error))"); return }
    }
}

/// Runs `sql` on a new SQLite file at `path`: a file the journal store did not write.
private func sqlite(_ path: String, _ sql: String) {
    var db: OpaquePointer?
    #expect(sqlite3_open(path, &db) == SQLITE_OK)
    #expect(sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK)
    sqlite3_close(db)
}

/// The envelope as the tools read it without the machine's types (`JournalEntryReading`), beside
/// the envelope the durable system writes and reads (`JournalEnvelope`): the two must agree.
@Suite struct JournalEntryReadingTests {
    @Test("D83: a record's and a snapshot's envelope, read without the machine's types, are what the durable system wrote")
    func d83EnvelopeReadWithoutTypesAgrees() throws {
        let event = RecordEnvelope<Payments>.event(.pay(12), wallTime: -5, run: 3)
        let read = try JournalRecordEnvelope(event.bytes)
        #expect(read.kind == .event && read.version == 1 && read.wallTime == -5 && read.run == 3)
        #expect(read.event == bytes(of: Payments.Event.pay(12)))
        let plain = RecordEnvelope<Payments>.event(.note(1), wallTime: 9, run: nil)
        #expect(try JournalRecordEnvelope(plain.bytes).run == nil)
        let nothing = RecordEnvelope<Payments>.runReturnedNothing(run: 0, wallTime: 1_000)
        let finished = try JournalRecordEnvelope(nothing.bytes)
        #expect(finished.kind == .runReturnedNothing && finished.version == 1 && finished.wallTime == 1_000 && finished.run == 0 && finished.event.isEmpty)
        // A child's output and a forwarded event (D104, D105).
        let output = try JournalRecordEnvelope(RecordEnvelope<Payments>.childOutput(.note(2), wallTime: 3, effect: "pay").bytes)
        #expect(output.kind == .event && output.child == "pay" && output.run == nil && output.forwarded == nil && output.event == bytes(of: .note(2)))
        let from = ForwardedFrom(parentStep: 9, index: 1)
        let forwarded = try JournalRecordEnvelope(RecordEnvelope<Payments>.forwarded(.note(3), wallTime: 4, from: from).bytes)
        #expect(forwarded.kind == .event && forwarded.forwarded == from && forwarded.child == nil && forwarded.event == bytes(of: .note(3)))

        var state = Payments.State()
        state.charged = [4, 5]
        let book = DurableBookkeeping<Payments>(
            timers: [.init(event: .pay(7), armedAt: 77, fired: true)], runs: [(key: 2, run: .log(8))], runsQueued: 3, step: 12,
            children: [.init(effect: "pay", request: 3, since: 10, reported: true)], forwarded: ForwardedFrom(parentStep: 5, index: 2))
        var snapshot = try JournalSnapshotEnvelope(SnapshotEnvelope<Payments>(state: state, wallTime: 42, book: book).bytes)
        #expect((snapshot.version, snapshot.wallTime) == (1, 42))
        #expect(try snapshot.reader.read(Payments.State.self) == state)
        let readBook = try snapshot.readBookkeeping(
            run: { reader throws(JournalDecodingError) in try reader.read(Payments.Run.self) },
            event: { reader throws(JournalDecodingError) in try reader.read(Payments.Event.self) })
        #expect(readBook.runsQueued == 3)
        #expect(readBook.runs.map(\.key) == [2] && readBook.runs.map(\.run) == [.log(8)])
        #expect(readBook.timers.map(\.event) == [.pay(7)] && readBook.timers.map(\.armedAt) == [77] && readBook.timers.map(\.fired) == [true])
        #expect(readBook.step == 12 && readBook.forwarded == ForwardedFrom(parentStep: 5, index: 2))
        #expect(readBook.children.map { "\($0.effect) \($0.since) \($0.reported)" } == ["pay 10 true"])
    }

    private func bytes(of event: Payments.Event) -> [UInt8] {
        var writer = JournalWriter()
        writer.write(event)
        return writer.bytes
    }
}
