// One owner per machine id (Docs/Durability.md D117, D118): a second process, or a second durable
// system of this process, is refused before it recovers anything; a killed owner's id is taken
// over at the next start.

import Foundation
import StateLoop
@testable import StateLoopDurable
import StateLoopTestSupport
import Testing

@Suite struct DurableOwnerTests {
    @Test("D117: a second process on a machine id another process is running is refused before it shows a state, naming that process; once it is killed, the id is taken over")
    func d117SecondProcessIsRefused() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("durable.sqlite")
        // The first process: a million events, so it is still running when the second starts.
        let first = Process()
        first.executableURL = builtExecutable("durable-crash-helper")
        first.arguments = [path, "1000000"]
        let log = folder.file("first.log")
        FileManager.default.createFile(atPath: log, contents: nil)
        first.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try first.run()
        defer { kill(first.processIdentifier, SIGKILL) }
        try await waitFor("the first process to acknowledge an event") {
            (try? String(contentsOfFile: log, encoding: .utf8))?.contains("acked") ?? false
        }
        let (second, _) = try DurableCrashTests.run([path, "1000000"], killAfter: nil)
        #expect(second.text.hasPrefix("stopped: journal of 'tally': another process is running machine 'tally' (pid \(first.processIdentifier)): stop that process first"), "\(second.text)")
        #expect(second.restored == nil && second.acked.isEmpty, "the second process showed a state")

        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        // The third takes the id over: it recovers and shows a state, however long a loaded
        // machine takes to start it (no kill after a fixed time).
        let third = Process()
        third.executableURL = builtExecutable("durable-crash-helper")
        third.arguments = [path, "1000000"]
        let thirdLog = folder.file("third.log")
        FileManager.default.createFile(atPath: thirdLog, contents: nil)
        third.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: thirdLog))
        try third.run()
        defer { kill(third.processIdentifier, SIGKILL) }
        let said = { (try? String(contentsOfFile: thirdLog, encoding: .utf8)) ?? "" }
        try await waitFor("the third process to recover or stop") { said().contains("restored ") || said().contains("stopped") }
        #expect(said().contains("restored ") && !said().contains("another process"), "the killed process's id was not taken over: \(said())")
    }

    @Test("D118: a second durable system of this process on a machine id the first is running is refused before it shows a state; once the first stopped, the id is free", arguments: StoreKind.allCases)
    func d118SecondSystemInProcessIsRefused(kind: StoreKind) async throws {
        let open = try kind.opener()
        let first = Life(Tally.self, store: try open(), initial: 0, feedbacks: [])
        try await first.system.recovered()
        first.system.send(5)
        try await first.wait { $0 == 5 }
        let second = Life(Tally.self, store: try open(), initial: 0, feedbacks: [])
        let error = try await second.waitForStop()
        guard case .machineTaken(machine: "m", by: let holder)? = error as? DurableError else {
            Issue.record("not refused: \(String(describing: error))")
            return
        }
        #expect(holder.pid == ProcessInfo.processInfo.processIdentifier)
        #expect("\(error!)".contains("another durable system of this process is running machine 'm'"))
        #expect(second.states.current.isEmpty)
        // The first runs on, journaling.
        first.system.send(2)
        try await first.wait { $0 == 7 }
        first.system.stop()
        #expect(try await first.waitForStop() == nil)
        let third = Life(Tally.self, store: try open(), initial: 0, feedbacks: [])
        try await third.wait { $0 == 7 }
        third.system.stop()
    }
}
