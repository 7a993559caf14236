import Foundation
import StateLoopDurable
import Testing

/// Real SIGKILLs of a process that appends to a real SQLite file (`journal-crash-helper`).
@Suite struct CrashTests {
    /// The helper built next to this test binary (or next to a parent folder of it, in a bundle).
    static var helper: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appending(path: "journal-crash-helper").path), directory.path != "/" {
            directory.deleteLastPathComponent()
        }
        return directory.appending(path: "journal-crash-helper")
    }

    static let batch: Int64 = 100

    /// Starts the helper on `path`, waits until it has reported `commits` more batches, lets it
    /// run a random moment longer, kills it with SIGKILL, and returns the last sequence number it
    /// reported committed.
    static func runAndKill(_ path: String, commits: Int) throws -> Int64 {
        let process = Process()
        process.executableURL = helper
        process.arguments = [path, "\(batch)"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var text = ""
        while text.components(separatedBy: "committed ").count <= commits {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        usleep(UInt32.random(in: 0..<3_000))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        text += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL, "\(text)")
        let reported = text.split(separator: "\n").filter { $0.hasPrefix("committed ") }.compactMap { Int64($0.dropFirst(10)) }
        return reported.last ?? 0
    }

    @Test("D7: a batch whose append returned survives a SIGKILL, and no part of an unfinished batch is read")
    func d7SurvivesKill() throws {
        let path = try TemporaryFolder().file("crash.sqlite")
        var reported: Int64 = 0
        for _ in 0..<6 {
            let acknowledged = try Self.runAndKill(path, commits: 5)
            #expect(acknowledged > reported)
            reported = acknowledged
            let store = try SQLiteJournalStore(path: path)
            let recovery = try store.recover("crash")
            let last = try #require(recovery.records.last?.sequence)
            #expect(last >= reported, "a reported batch was lost")
            #expect(last % Self.batch == 0, "part of a batch was kept")
            #expect(recovery.records.map(\.sequence) == Array(1...last))
            #expect(recovery.records.allSatisfy { $0.event == withUnsafeBytes(of: $0.sequence.littleEndian, Array.init) && $0.stateAfter == $0.event.reversed() })
            reported = last
        }
    }
}
