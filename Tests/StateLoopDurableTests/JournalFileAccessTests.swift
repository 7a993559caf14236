// The journal as files (Docs/Durability.md D119, D120): a file this process may only read is
// refused at open, and a machine id's journal is opened only by the machine that wrote it.

import Foundation
import StateLoop
@testable import StateLoopDurable
import StateLoopTestSupport
import Testing

/// Tally's layout under another name: a machine that did not write Tally's journals.
enum Ledgerbook: TestMachine {
    typealias Run = NoRun
    typealias State = Int
    typealias Event = Int

    static func reduce(_ state: inout Int, _ event: Int) { state += event }
}

@Suite struct JournalFileAccessTests {
    @Test("D119: a journal file this process may only read is refused when the store opens it, before anything is read or run, and left as it was")
    func d119ReadOnlyFileRefusedAtOpen() throws {
        let path = try TemporaryFolder().file("j.sqlite")
        try SQLiteJournalStore(path: path).append(records(1...2), to: "m")
        #expect(chmod(path, 0o444) == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        // As nobody when the tests run as root, whom a file's mode does not stop.
        let process = Process()
        let errors = Pipe()
        process.executableURL = builtExecutable("journal-crash-helper")
        process.arguments = ["--open-as-nobody", path]
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1, "\(text)")
        #expect(text == "journal file \(path) can only be read: give this process the right to write it and its folder (SQLite writes \(path)-wal and \(path)-shm beside it), or read it with SQLiteJournalFile or `stateloop journal`; nothing was written and nothing was run\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("D120: a journal opened under another machine of the same layout is refused, naming both, before any state is shown")
    func d120OtherMachineRefused() async throws {
        let path = try await JournalReplayTests.tallyJournal(4)
        let life = Life(Ledgerbook.self, id: "tally", store: try SQLiteJournalStore(path: path), initial: 0, feedbacks: [])
        let error = try await life.waitForStop()
        #expect(error as? DurableError == .otherMachine(machine: "tally", sequence: 4, found: "Tally", expected: "Ledgerbook"))
        #expect("\(error!)".contains("snapshot 4 was written by machine 'Tally', and this is 'Ledgerbook'"))
        #expect(life.states.current.isEmpty)
        #expect(throws: DurableError.otherMachine(machine: "tally", sequence: 0, found: "Tally", expected: "Ledgerbook")) {
            try Ledgerbook.replayJournal(SQLiteJournalFile(path: path), id: "tally")
        }
    }
}
