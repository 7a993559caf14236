// The host demo, killed: `stateloop-demo host --journal FILE --instances N --events M` SIGKILLed at
// random moments and started again with the same arguments (Docs/Hosting.md H70-H72), with the
// durable demo's runs and kills (DurableDemoTests).
import Foundation
import StateLoopTestSupport
import Testing

@Suite struct HostDemoTests {
    /// The `acked <id> <k>` lines of a run, in order.
    static func acked(_ outcome: DurableDemoTests.Outcome) -> [(id: String, k: Int)] {
        outcome.lines.compactMap { line in
            let words = line.split(separator: " ")
            guard words.count == 3, words[0] == "acked", let k = Int(words[2]) else { return nil }
            return (String(words[1]), k)
        }
    }

    @Test("H15, H70, H71, H72: SIGKILLed 200 times at random moments (a quarter while it recovers) and restarted, the host demo acknowledges each event once, in each tab's order, after every event an earlier run acknowledged, and ends in the pure reduction: no event lost, none reduced twice, every reminder and timer fired once")
    func h72KilledTwoHundredTimes() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "stateloop-host-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = folder.appending(path: "tabs.sqlite").path
        let shape = ["--instances", "100", "--events", "20000"]
        let arguments = ["host", "--journal", journal] + shape
        /// The last event each tab acknowledged, over every run so far.
        var last: [String: Int] = [:]
        var total = 0
        var killedMidway = 0
        var outcomes: [DurableDemoTests.Outcome] = []
        for _ in 0..<200 {
            outcomes.append(try DurableDemoTests.run(arguments, kill: .random()))
        }
        outcomes.append(try DurableDemoTests.run(arguments))
        for outcome in outcomes {
            for (id, k) in Self.acked(outcome) {
                // H71: each ack is after every ack of its tab before it, this run's and earlier
                // runs' (an event acked twice was sent twice; one acked before another of an
                // earlier run was lost by the journal).
                #expect(k > last[id, default: 0], "\(id): event \(k) acknowledged after event \(last[id, default: 0])")
                last[id] = k
                total += 1
            }
            if outcome.killed, !Self.acked(outcome).isEmpty, outcome.final == nil { killedMidway += 1 }
        }
        #expect(killedMidway >= 100, "only \(killedMidway) of 200 kills landed while the demo was acknowledging events")
        // A kill may land between an event's commit and its line: that event is in the journal,
        // the next run does not send it again, and no run acknowledges it.
        #expect(total <= 20_000 && last.count == 100, "\(total) events acknowledged, by \(last.count) tabs")
        let final = try #require(outcomes.last?.final, "\(outcomes.last?.lines.suffix(5) ?? [])")
        let expected = try DurableDemoTests.run(["host", "--expected"] + shape)
        // H72: the tabs end where the pure reduction does.
        #expect(expected.lines == ["expected \(final)"], "the resumed runs ended in another state")
    }

    @Test("H70: the host demo refuses arguments it cannot run with a usage line and status 64")
    func h70BadArgumentsAreRefused() throws {
        for arguments in [
            ["host"], ["host", "--instances", "0", "--journal", "x"], ["host", "--instances", "2"], ["host", "--instances", "2", "--events", "-1", "--expected"],
            ["host", "--instances", "2", "--journal", "x", "--store", "postgres://u@h/d"], ["host", "--instances", "2", "--store", "postgres://u@h/d", "--lease", "0.1"],
        ] {
            let (status, text) = try DurableDemoTests.refusal(arguments)
            #expect(status == 64, "\(arguments)")
            #expect(
                text.hasPrefix("stateloop-demo host: ")
                    && text.contains("usage: stateloop-demo host (--journal FILE | --store postgres://… [--schema S] [--lease SECONDS]) --instances N --events M [--expected]"),
                "\(text)")
        }
    }
}
