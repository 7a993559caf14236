import Foundation
import StateLoopTestSupport
import Testing

/// Real SIGKILLs of a process that runs a durable machine on a real SQLite file
/// (`durable-crash-helper`), started again after each.
@Suite struct DurableCrashTests {
    static let events = 2_000

    /// One life of the helper: what it printed, parsed.
    struct Life {
        var restored: Int?
        var acked: [Int] = []
        var runs: [Int] = []
        var final: String?
        var text: String

        init(_ text: String) {
            self.text = text
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard words.count == 2 else { continue }
                switch words[0] {
                case "restored": restored = Int(words[1])
                case "acked": acked.append(Int(words[1]) ?? -1)
                case "run": runs.append(Int(words[1]) ?? -1)
                case "final": final = String(words[1])
                default: break
                }
            }
        }
    }

    /// Runs the helper with `arguments`; kills it with SIGKILL after `killAfter` microseconds,
    /// or lets it end (killed after 60 s if it hangs). Returns its output and whether it was killed.
    static func run(_ arguments: [String], killAfter: UInt32?) throws -> (Life, killed: Bool) {
        let process = Process()
        let output = Pipe()
        process.executableURL = builtExecutable("durable-crash-helper")
        process.arguments = arguments
        process.standardOutput = output
        try process.run()
        let watchdog = DispatchWorkItem { kill(process.processIdentifier, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        if let killAfter {
            usleep(killAfter)
            kill(process.processIdentifier, SIGKILL)
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        watchdog.cancel()
        return (Life(text), process.terminationReason == .uncaughtSignal)
    }

    @Test("D43: killed with SIGKILL at random moments and started again, a durable machine loses no acknowledged event, reduces none twice, runs every one-shot run, and ends in the pure reduction")
    func d43KilledAtRandomMoments() throws {
        let runs = try Self.killAndRestart(mode: [])
        #expect(runs == Set(0..<(Self.events / 5)), "one-shot runs that never ran")
    }

    @Test("D103: a parent and its children killed with SIGKILL at random moments and started again lose no acknowledged event, and no forwarded event or child output is lost or reduced twice: the parent ends in the pure reduction")
    func d103ParentAndChildrenKilledAtRandomMoments() throws {
        _ = try Self.killAndRestart(mode: ["--children"])
    }

    /// Kills the helper (`mode` first in its arguments) five times at random moments, then lets a
    /// last life finish; checks what every life acknowledged and the final digest. Returns the
    /// one-shot runs that started.
    static func killAndRestart(mode: [String]) throws -> Set<Int> {
        let path = try TemporaryFolder().file("durable.sqlite")
        let expected = try #require(try Self.run(mode + ["--expected", "\(Self.events)"], killAfter: nil).0.final)
        var acknowledged = 0
        var runs = Set<Int>()
        var kills = 0
        while true {
            // Five kills at random moments of the run (some before the recovery ends, some while
            // runs are in flight), then a life that ends by itself.
            let killAfter = kills < 5 ? UInt32.random(in: 0..<150_000) : nil
            let (life, killed) = try Self.run(mode + [path, "\(Self.events)"], killAfter: killAfter)
            runs.formUnion(life.runs)
            if let restored = life.restored {
                #expect(restored >= acknowledged, "an acknowledged event was lost: \(life.text)")
                #expect(life.acked == Array((restored + 1)..<(restored + 1 + life.acked.count)), "\(life.text)")
                acknowledged = life.acked.last ?? restored
            }
            if let final = life.final {
                #expect(!killed || kills < 5)
                #expect(final == expected, "\(life.text)")
                #expect(acknowledged == Self.events)
                break
            }
            #expect(killed, "the helper ended without a final state: \(life.text)")
            guard killed else { break }
            kills += 1
        }
        return runs
    }
}
