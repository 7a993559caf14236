import Foundation
import StateLoopDurable
import StateLoopTestSupport
import Testing

/// Real SIGKILLs of processes that append to a real SQLite file (`journal-crash-helper`).
@Suite struct CrashTests {
    static let batch: Int64 = 100

    /// One running `journal-crash-helper`, appending batches to the journal of `machine`.
    final class Helper {
        static var executable: URL { builtExecutable("journal-crash-helper") }

        let process = Process()
        let output = Pipe()
        let errors = Pipe()
        var text = ""

        init(_ path: String, machine: String) throws {
            process.executableURL = Self.executable
            process.arguments = [path, "\(CrashTests.batch)", machine]
            process.standardOutput = output
            process.standardError = errors
            try process.run()
        }

        /// Reads its output until it has reported `commits` batches (or ended).
        func waitFor(commits: Int) {
            while text.components(separatedBy: "committed ").count <= commits {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
            }
        }

        /// Kills it with SIGKILL and returns the last sequence number it reported committed.
        func kill() -> Int64 {
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            text += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            text += String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL, "\(text)")
            let reported = text.split(separator: "\n").filter { $0.hasPrefix("committed ") }.compactMap { Int64($0.dropFirst(10)) }
            return reported.last ?? 0
        }
    }

    /// Checks that the journal of `machine` holds whole batches from 1 on, at least up to
    /// `reported`, each record as the helper writes it; returns its last sequence number.
    static func checkJournal(_ path: String, _ machine: String, reported: Int64) throws -> Int64 {
        let recovery = try SQLiteJournalStore(path: path).recover(machine)
        let last = try #require(recovery.records.last?.sequence)
        #expect(last >= reported, "a reported batch was lost")
        #expect(last % batch == 0, "part of a batch was kept")
        #expect(recovery.records.map(\.sequence) == Array(1...last))
        #expect(recovery.records.allSatisfy { $0.event == withUnsafeBytes(of: $0.sequence.littleEndian, Array.init) && $0.stateAfter == $0.event.reversed() })
        return last
    }

    @Test("D7: a batch whose append returned survives a SIGKILL, and no part of an unfinished batch is read")
    func d7SurvivesKill() throws {
        let path = try TemporaryFolder().file("crash.sqlite")
        var reported: Int64 = 0
        for _ in 0..<6 {
            let helper = try Helper(path, machine: "crash")
            helper.waitFor(commits: 5)
            usleep(UInt32.random(in: 0..<3_000))
            let acknowledged = helper.kill()
            #expect(acknowledged > reported)
            reported = try Self.checkJournal(path, "crash", reported: acknowledged)
        }
    }

    @Test("D13: two processes appending to one file at once, both killed, leave both journals whole")
    func d13TwoProcesses() throws {
        let path = try TemporaryFolder().file("shared.sqlite")
        let helpers = try ["a", "b"].map { try Helper(path, machine: $0) }
        helpers.forEach { $0.waitFor(commits: 5) }
        usleep(UInt32.random(in: 0..<3_000))
        let reported = helpers.map { $0.kill() }
        for (machine, acknowledged) in zip(["a", "b"], reported) {
            #expect(acknowledged >= 5 * Self.batch)
            _ = try Self.checkJournal(path, machine, reported: acknowledged)
        }
    }
}
