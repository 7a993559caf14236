// The replay check from the demo (Docs/Durability.md D87): the journal the demo writes, replayed
// through Till's reducer by `stateloop-demo durable --journal FILE --replay`.
import Foundation
import StateLoopDurable
import StateLoopTestSupport
import Testing

@Suite struct DurableDemoReplayTests {
    /// Runs the demo with `arguments`; returns its exit status and standard output.
    static func demo(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try runToEnd(DurableDemoTests.demo, ["durable"] + arguments)
    }

    @Test("D87: the demo replays its own journal: every snapshot reproduced")
    func d87DemoReplaysItsJournal() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "stateloop-replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = folder.appending(path: "till.journal").path
        // 1,500 events and 150 records of `archive` runs that returned nothing: snapshots at 0
        // and 1,000 (every 1,000 records), and one at the stop if the demo wrote it before it exited.
        #expect(try Self.demo(["--journal", journal, "--events", "1500"]).status == 0)
        let replay = try Self.demo(["--journal", journal, "--replay"])
        #expect(replay.status == 0)
        #expect(["replay ok 1650 records, 2 snapshots\n", "replay ok 1650 records, 3 snapshots\n"].contains(replay.output), "\(replay.output)")
    }

    @Test("D87: a snapshot the events do not lead to is reported, with exit status 1")
    func d87DemoReportsAMismatch() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "stateloop-replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = folder.appending(path: "till.journal").path
        #expect(try Self.demo(["--journal", journal, "--events", "1100"]).status == 0)
        // Snapshot 1,000's bytes claimed as the state after record 1,050: 50 events too early.
        let saved = try #require(SQLiteJournalFile(path: journal).history(of: "till").snapshots.first { $0.sequence == 1_000 })
        try SQLiteJournalStore(path: journal).writeSnapshot(JournalSnapshot(sequence: 1_050, state: saved.state), of: "till")
        let replay = try Self.demo(["--journal", journal, "--replay"])
        #expect(replay.status == 1)
        #expect(replay.output.hasPrefix("replay mismatch at snapshot 1050: the state differs\n"), "\(replay.output)")
        // The two states, as `dump` prints them: the saved one 50 records behind.
        #expect(replay.output.contains("\n-   - posted: ") && replay.output.contains("\n+   - posted: "), "\(replay.output)")
    }
}
