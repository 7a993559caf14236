import Foundation
import StateLoop
@_spi(Internals) import StateLoopTesting
import StateLoopTestSupport
import Testing

/// Exploration (Docs/Testing.md V13-V15, V17) on the generated Quota fixture, whose planted bugs
/// break both of its invariants: three `use`s break `withinQuota`, an early `close`
/// `closedWhenUsedUp`.
@Suite(.timeLimit(.minutes(1)))
struct ExplorationTests {
    static var sending: [Gen<Quota.Event>] { [.just(.use), .just(.close), .just(.reopen)] }

    @Test("V13, V15: exploration finds both planted bugs and shrinks each to its shortest run, as Docs/Testing.md and the README print it")
    func v15BothPlantedBugsShrunk() throws {
        var exploration: Exploration<Quota>?
        let line = #line + 1
        let recorded = withRecordedFailures { exploration = MachineTest.explore(Quota.self, state: .initial, sending: Self.sending, seed: 8) }
        #expect(recorded.map(\.line) == [UInt(line), UInt(line)])
        let counterexamples = exploration?.counterexamples ?? []
        #expect(counterexamples.map(\.invariant?.name) == ["closedWhenUsedUp", "withinQuota"])
        #expect(counterexamples.map(\.steps) == [1, 3])
        #expect(counterexamples.last?.test == Self.threeUses)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let testing = try String(contentsOf: root.appending(path: "Docs/Testing.md"), encoding: .utf8)
        let message = try #require(counterexamples.last?.message)
        #expect(testing.contains(message), "Docs/Testing.md shows the message:\n\(message)")
        let readme = try String(contentsOf: root.appending(path: "README.md"), encoding: .utf8)
        #expect(readme.contains(message), "the README's testing section shows it too")
    }

    static let threeUses = quotaThreeUses

    @Test("V14: the printed run, pasted into a test, fails the same way at its last step")
    func v14ThePastedRunFailsTheSameWay() {
        let line = #line + 6
        let pasted = withRecordedFailures {
            let test = MachineTest(Quota.self, state: .initial)
            test.checksState = false
            test.send(.use)
            test.send(.use)
            test.send(.use)
            test.finish()
        }
        #expect(pasted.map(\.line) == [UInt(line)])
        #expect(pasted.first?.message.hasPrefix("send(.use): invariant 'withinQuota' (Quota.machine.yml:9:3): used <= limit is broken") == true)
        let source = (try? String(contentsOfFile: #filePath, encoding: .utf8)) ?? ""
        let indented = Self.threeUses.split(separator: "\n").map { "            " + $0 }.joined(separator: "\n")
        #expect(source.contains("let pasted = withRecordedFailures {\n" + indented + "\n        }"), "the test above is the printed run")
    }

    @Test("V17: breadth first, the shortest run to each planted bug")
    func v17ExploreAllQuota() {
        var exploration: Exploration<Quota>?
        _ = withRecordedFailures { exploration = MachineTest.exploreAll(Quota.self, state: .initial, sending: Self.sending, depth: 5) }
        #expect(exploration?.counterexamples.map(\.invariant?.name) == ["closedWhenUsedUp", "withinQuota"])
        #expect(exploration?.counterexamples.last?.test == Self.threeUses)
    }

    @Test("V18: a step that does not settle fails the harness, and exploration finds and shrinks it")
    func v18AStepThatDoesNotSettleFails() {
        #expect(Loop.isSettled(.initial) && Quota.isSettled(.initial))
        var exploration: Exploration<Loop>?
        _ = withRecordedFailures {
            exploration = MachineTest.explore(Loop.self, state: .initial, sending: [.just(.halt), .just(.again), .just(.spin)], walks: 20, seed: 18)
        }
        #expect(exploration?.counterexamples.map(\.failure) == [.unsettled])
        #expect(exploration?.counterexamples.first?.test == """
            let test = MachineTest(Loop.self, state: .initial)
            test.checksState = false
            test.send(.spin)
            test.finish()
            """)
        let line = #line + 4
        let pasted = withRecordedFailures {
            let test = MachineTest(Loop.self, state: .initial)
            test.checksState = false
            test.send(.spin)
            test.finish()
        }
        #expect(pasted.map(\.line) == [UInt(line)])
        #expect(pasted.first?.message.hasPrefix("send(.spin): the machine did not settle: `always:` transitions were still enabled after 1,000 microsteps (S51)") == true)
    }
}
