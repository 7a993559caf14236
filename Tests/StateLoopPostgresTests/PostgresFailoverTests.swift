// Two host processes on one PostgreSQL schema (Docs/Postgres.md G47): `stateloop-demo host --store`
// run twice at once with the same arguments, one running the tabs and the other standing by
// (G40); one of them is SIGKILLed again and again, mostly the one that runs, and replaced by a new
// standby, and the acknowledged events of all runs are in the final digest exactly once. Both run
// on this machine, so a killed owner's lease is taken at once (G8: its process is gone); the lease's
// expiry, the path between machines, is G8's and G43's.

#if Postgres
import Foundation
import StateLoopTestSupport
import Testing

@Suite(.enabled(if: PostgresTestDatabase.enabled, Comment(rawValue: PostgresTestDatabase.reason)))
struct PostgresFailoverTests {
    /// A demo process and what it printed so far.
    final class Run: @unchecked Sendable {
        let process = Process()
        private let lock = NSLock()
        private var text = ""

        init(_ arguments: [String]) throws {
            process.executableURL = builtExecutable("stateloop-demo")
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            output.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self, !data.isEmpty else { return }
                lock.withLock { text += String(decoding: data, as: UTF8.self) }
            }
            try process.run()
        }

        /// Its whole lines so far.
        var lines: [String] {
            lock.withLock {
                // Whole lines only: a line the pipe has given part of is not read yet.
                let whole = text.lastIndex(of: "\n").map { text[...$0] } ?? ""
                return whole.split(separator: "\n").map(String.init)
            }
        }

        /// The `acked <id> <k>` lines so far.
        var acked: [(id: String, k: Int)] {
            lines.compactMap { line in
                let words = line.split(separator: " ")
                guard words.count == 3, words[0] == "acked", let k = Int(words[2]) else { return nil }
                return (String(words[1]), k)
            }
        }

        var final: String? { lines.first { $0.hasPrefix("final ") }.map { String($0.dropFirst(6)) } }

        func kill() {
            if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }

    @Test("G47: two host processes share a schema; 100 times one is SIGKILLed (three in four the one that runs the tabs, a moment after it acknowledged; the others the standby) and replaced by a new standby; a standby takes over within the lease and two seconds, no event is acknowledged twice, and the final digest is the pure reduction's")
    func g47TwoProcessesSurviveKills() async throws {
        let schema = PostgresTestDatabase.freshSchema()
        let shape = ["--instances", "50", "--events", "6000"]
        let arguments = ["host", "--store", try PostgresTestDatabase.requireURL(), "--schema", schema, "--lease", "1"] + shape
        var runs = [try Run(arguments), try Run(arguments)]
        var finished: Run?
        var allAcks: [(id: String, k: Int)] = []
        var takeovers: [Duration] = []
        var standbysKilled = 0
        for round in 0..<100 {
            // The one acknowledging runs the tabs; kill it a moment after its next acknowledgement.
            let start = ContinuousClock.now
            var active: Run?
            while active == nil, finished == nil, ContinuousClock.now - start < .seconds(30) {
                let counts = runs.map(\.acked.count)
                try await Task.sleep(for: .milliseconds(5))
                active = zip(runs, counts).first { run, count in run.acked.count > count }?.0
                finished = runs.first { $0.final != nil }
            }
            if finished != nil { break }
            let running = try #require(active, "no process acknowledged for 30 s")
            // One kill in four is of the standby; the others of the process that runs the tabs.
            if round % 4 == 3, let standby = runs.first(where: { $0 !== running }) {
                standby.kill()
                allAcks.append(contentsOf: standby.acked)
                runs.removeAll { $0 === standby }
                runs.append(try Run(arguments))
                standbysKilled += 1
                continue
            }
            let killed = running
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...30)))
            killed.kill()
            let killedAt = ContinuousClock.now
            allAcks.append(contentsOf: killed.acked)
            runs.removeAll { $0 === killed }
            runs.append(try Run(arguments))
            let before = runs.map(\.acked.count)
            // A standby takes over (the one that stood by, or the new one, whichever claims first):
            // the first acknowledgement after the kill.
            while zip(runs, before).allSatisfy({ $0.acked.count == $1 && $0.final == nil }), ContinuousClock.now - killedAt < .seconds(10) {
                try await Task.sleep(for: .milliseconds(5))
            }
            takeovers.append(ContinuousClock.now - killedAt)
        }
        // Let them finish.
        let start = ContinuousClock.now
        while runs.allSatisfy({ $0.final == nil }), ContinuousClock.now - start < .seconds(120) {
            try await Task.sleep(for: .milliseconds(20))
        }
        let final = try #require(
            runs.compactMap(\.final).first ?? finished?.final,
            "no run finished: \(runs.map { "\($0.process.isRunning ? "running" : "ended \($0.process.terminationStatus)"), \($0.acked.count) acked, last \($0.lines.last ?? "")" })")
        for run in runs { run.kill() }
        for run in runs { allAcks.append(contentsOf: run.acked) }
        // Each event acknowledged once, over every run.
        var seen = Set<String>()
        for (id, k) in allAcks { #expect(seen.insert("\(id) \(k)").inserted, "\(id) \(k) acknowledged twice") }
        #expect(try Self.expected(shape) == "expected \(final)", "the runs ended in another state")
        #expect(takeovers.allSatisfy { $0 < .seconds(3) }, "takeovers took \(takeovers), over the lease and 2 s")
        #expect(takeovers.count + standbysKilled == 100, "only \(takeovers.count + standbysKilled) kills before a run finished")
        print("takeovers: \(takeovers.map { "\($0)" }.joined(separator: ", "))")
    }

    /// The demo's `expected <digest>` line for `shape`.
    static func expected(_ shape: [String]) throws -> String {
        let process = Process()
        process.executableURL = builtExecutable("stateloop-demo")
        process.arguments = ["host", "--expected"] + shape
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
#endif
