// The durable demo, killed: `stateloop-demo durable --journal FILE --events N` SIGKILLed at random
// moments and started again with the same arguments (README "Surviving a crash", D70–D72).
import Foundation
import StateLoopTestSupport
import Testing

@Suite struct DurableDemoTests {
    /// The demo executable of this build.
    static var demo: URL { builtExecutable("stateloop-demo") }

    /// The status and standard error of a run of the demo with `arguments` (for arguments it
    /// refuses at once).
    static func refusal(_ arguments: [String]) throws -> (status: Int32, text: String) {
        let process = Process()
        process.executableURL = demo
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// One run of the demo: its lines so far, and how it ended.
    struct Outcome {
        var lines: [String]
        var killed: Bool

        /// The `acked K` numbers, in order.
        var acked: [Int] { lines.compactMap { $0.hasPrefix("acked ") ? Int($0.dropFirst(6)) : nil } }
        /// The number the run resumed after (`resumed K`).
        var resumed: Int? { lines.first { $0.hasPrefix("resumed ") }.flatMap { Int($0.dropFirst(8)) } }
        /// The digest of `final <digest>`.
        var final: String? { lines.first { $0.hasPrefix("final ") }.map { String($0.dropFirst(6)) } }
    }

    /// When a run is killed: at a moment after its start (while it may still be opening and
    /// recovering its journal), or at a moment after it acknowledged its first event (while it
    /// journals).
    enum Kill {
        case afterStart(Duration)
        case afterAcking(Duration)

        /// A quarter of the kills land in the first 30 ms of a run, the others in the first
        /// 10 ms after its first acknowledgement: however slow the machine, most kills land while
        /// it journals.
        static func random() -> Kill {
            Int.random(in: 0..<4) == 0
                ? .afterStart(.microseconds(Int.random(in: 0...30_000)))
                : .afterAcking(.microseconds(Int.random(in: 0...10_000)))
        }
    }

    /// Runs the demo with `arguments`, and kills it with SIGKILL at `kill` (unless it ends first).
    static func run(_ arguments: [String], kill: Kill? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = demo
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var data = Data()
        switch kill {
        case .afterStart(let delay)?:
            try killAt(delay, or: process)
        case .afterAcking(let delay)?:
            while !String(decoding: data, as: UTF8.self).contains("acked ") {
                let more = output.fileHandleForReading.availableData
                if more.isEmpty { break }
                data += more
            }
            try killAt(delay, or: process)
        case nil:
            break
        }
        data += output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let killed = process.terminationReason == .uncaughtSignal
        if killed { #expect(process.terminationStatus == SIGKILL) } else { #expect(process.terminationStatus == 0, "exit \(process.terminationStatus)") }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        return Outcome(lines: lines, killed: killed)
    }

    /// Waits `delay` (or until `process` ends), then kills `process` with SIGKILL.
    static func killAt(_ delay: Duration, or process: Process) throws {
        let deadline = ContinuousClock.now + delay
        while process.isRunning, ContinuousClock.now < deadline { usleep(100) }
        // It may end by itself in the meantime: then the signal finds nothing to kill.
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    }

    /// Kills the demo `kills` times at random moments (``Kill/random()``), then lets it finish;
    /// checks every promise of the README's section.
    static func killRepeatedly(kills: Int, events: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "stateloop-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = folder.appending(path: "till.sqlite").path
        let arguments = ["durable", "--journal", journal, "--events", "\(events)"]
        var acknowledged = 0
        var finished: Outcome?
        var killedMidway = 0
        for _ in 0..<kills {
            let outcome = try run(arguments, kill: .random())
            try check(outcome, after: &acknowledged)
            if !outcome.killed { finished = outcome }
            if outcome.killed, !outcome.acked.isEmpty, outcome.final == nil { killedMidway += 1 }
        }
        // Most kills must land while events are being journaled, or the test proves little
        // (three quarters wait for an acknowledgement; a few runs may end first).
        #expect(killedMidway >= kills / 2, "only \(killedMidway) of \(kills) kills landed while the demo was acknowledging events")
        #expect(finished == nil || acknowledged == events)
        let last = try run(arguments)
        try check(last, after: &acknowledged)
        #expect(acknowledged == events || (finished != nil && last.acked.isEmpty))
        let expected = try run(["durable", "--journal", journal, "--events", "\(events)", "--expected"])
        let final = try #require(last.final, "\(last.lines.suffix(5))")
        // D71: the final state is the pure reduction of all N events: none lost, none twice.
        #expect(expected.lines == ["expected \(final)"], "the resumed runs ended in another state")
        // D72: every batch's one-shot `archive` ran at least once, with its key.
        let runs = try String(contentsOfFile: journal + ".runs", encoding: .utf8)
        let keys = Set(runs.split(separator: "\n").map(String.init))
        for batch in 1...(events / 10) { #expect(keys.contains("archive \(batch) key \(batch - 1)"), "batch \(batch) was never archived") }
    }

    /// D70: what a run acknowledged is there when the next one starts (it resumes at or after
    /// it), and each run acknowledges its events in order, from where it resumed.
    static func check(_ outcome: Outcome, after acknowledged: inout Int) throws {
        guard let resumed = outcome.resumed else {
            // Killed before it had even opened its journal.
            #expect(outcome.killed && outcome.acked.isEmpty, "\(outcome.lines.prefix(5))")
            return
        }
        #expect(resumed >= acknowledged, "acknowledged event \(acknowledged) was lost: resumed at \(resumed)")
        let acked = outcome.acked
        #expect(acked == Array((resumed + 1)..<(resumed + 1 + acked.count)), "acks out of order: \(acked.prefix(5)) after \(resumed)")
        acknowledged = max(acknowledged, acked.last ?? resumed)
    }

    @Test("D70, D71, D72: SIGKILLed 200 times at random moments and restarted, the demo loses no acknowledged event, reduces none twice, ends in the pure reduction and archives every batch")
    func d70KilledTwoHundredTimes() throws {
        try Self.killRepeatedly(kills: 200, events: 50_000)
    }
}
