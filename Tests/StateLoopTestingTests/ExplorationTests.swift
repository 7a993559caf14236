import StateLoop
@_spi(Internals) @testable import StateLoopTesting
import Testing

/// `MachineTest.explore` and `exploreAll` (Docs/Testing.md V8-V17) on the hand-written Tally,
/// whose `add` and `answered` take any number, and Kettle, which can boil twice.
@Suite(.timeLimit(.minutes(1)))
struct ExplorationTests {
    /// The steps of a Kettle that work: it boils at 100 degrees or its heater fails.
    static var kettleSending: [Gen<Kettle.Event>] { [.just(.switchOn), .just(.switchOff)] }
    static var kettleAnswering: [Gen<Kettle.Event>] { [.just(.heated(100)), .just(.failed)] }

    @Test func v8ExploreWalksTheMachineAndReports() {
        var exploration: Exploration<Tally>?
        let recorded = withRecordedFailures {
            exploration = MachineTest.explore(
                Tally.self, state: .init(), sending: [.just(.ask)], answering: [Gen.int(in: 0...5).map(Tally.Event.answered)],
                walks: 10, steps: 20, seed: 1)
        }
        #expect(recorded.isEmpty)
        #expect(exploration?.walks == 10)
        #expect(exploration?.steps == 200)   // every walk has a step to make: ask, then an answer
        #expect(exploration?.counterexamples.isEmpty == true)
        #expect(exploration?.seed == 1)
    }

    @Test func v9AStepIsASendTheStateAnswersOrAnAnswerOrTheClock() {
        // In `asking`, Tally answers no event of `sending`: the walk answers the run instead.
        var exploration: Exploration<Tally>?
        _ = withRecordedFailures {
            exploration = MachineTest.explore(
                Tally.self, state: .init(), stateSpelling: ".init()", sending: [.just(.ask)], answering: [.just(.answered(-1))], walks: 1, seed: 3)
        }
        #expect(exploration?.counterexamples.map(\.test) == ["""
            let test = MachineTest(Tally.self, state: .init())
            test.checksState = false
            test.send(.ask)
            test.answer(.ask, with: .answered(-1))
            test.receive(.answered(-1))
            test.finish()
            """])
        // Boiled, the kettle's timer comes due: the clock moves and its event is received.
        var kettle: Exploration<Kettle>?
        _ = withRecordedFailures {
            kettle = MachineTest.explore(
                Kettle.self, state: .init(), stateSpelling: ".init()", sending: [.just(.switchOn)], answering: [.just(.heated(100))], walks: 1, seed: 3)
        }
        #expect(kettle?.counterexamples.map(\.test) == [Self.boilsTwice])
    }

    static let boilsTwice = """
        let test = MachineTest(Kettle.self, state: .init())
        test.checksState = false
        test.send(.switchOn)
        test.answer(.heat, with: .heated(100))
        test.receive(.heated(100))
        test.advance(by: .seconds(3))
        test.receive(timer: .boiled, index: 0)
        test.send(.switchOn)
        test.answer(.heat, with: .heated(100))
        test.receive(.heated(100))
        test.advance(by: .seconds(3))
        test.receive(timer: .boiled, index: 0)
        test.finish()
        """

    @Test func v10GeneratorsDrawTheSimplestValueFirst() {
        func values<V>(_ gen: Gen<V>, _ limit: Int = 100) -> [V] {
            var values: [V] = []
            Draws.enumerate(limit: limit) { draws in values.append(gen.make(&draws)) }
            return values
        }
        #expect(values(Gen.int(in: -2...5)) == [0, 1, -1, 2, -2, 3, 4, 5])
        #expect(values(Gen.int(in: 3...5)) == [3, 4, 5])
        #expect(values(Gen.int(in: -5 ... -3)) == [-3, -4, -5])
        #expect(values(Gen.bool) == [false, true])
        #expect(values(Gen<Kettle.Mode>.element(of: [.idle, .boiled])) == [.idle, .boiled])
        #expect(values(Gen<Int?>.optional(.int(in: 0...1))) == [nil, 0, 1, 0, 1, 0, 1])
        #expect(values(Gen.string).prefix(4) == ["", "a", "b", " "])
        #expect(values(Gen.of(Tally.Event.add), 3) == [.add(0), .add(1), .add(-1)])
        #expect(values(Gen.one(of: [.just(Tally.Event.ask), .of(Tally.Event.answered)]), 3) == [.ask, .answered(0), .answered(1)])
        #expect(values(Gen<Level>.cases) == Level.allCases)
        #expect(values(Level?.arbitrary).first == .some(nil))
        // A value is a function of its draws.
        var draws = Draws(replaying: [3])
        #expect(Gen.int(in: -2...5).make(&draws) == 2)
    }

    enum Level: CaseIterable, Arbitrary { case low, high }

    @Test func v11EveryStepIsCheckedAndTheFirstBreakEndsTheWalk() {
        var exploration: Exploration<Tally>?
        _ = withRecordedFailures {
            exploration = MachineTest.explore(Tally.self, state: .init(), sending: [.just(.add(-1))], walks: 5, steps: 10, seed: 2)
        }
        #expect(exploration?.steps == 5)   // each walk ends at its first step
        #expect(exploration?.counterexamples.map(\.invariant?.name) == ["neverNegative"])
        // The state a walk starts in is checked too.
        _ = withRecordedFailures {
            exploration = MachineTest.explore(Tally.self, state: .init(mode: .counting, count: -1), sending: [.just(.ask)], walks: 1, seed: 2)
        }
        #expect(exploration?.counterexamples.map(\.steps) == [0])
        #expect(exploration?.counterexamples.first?.message.contains("is broken after 0 steps") == true)
    }

    @Test("V22, V23, V24: the program stateloop explore compiles reads the options it is passed, and reports what explore found with its exit status")
    func v23TheExplorationToolReports() throws {
        let options = try #require(ExplorationTool.Options(arguments: ["--walks", "20", "--steps", "10", "--seed", "9", "--spec-directory", "Specs"]))
        #expect(options == ExplorationTool.Options(walks: 20, steps: 10, seed: 9, specDirectory: "Specs"))
        #expect(ExplorationTool.Options(arguments: ["--depth", "3"])?.depth == 3)
        for wrong in [["--walks", "0"], ["--seed"], ["--color", "red"], ["--seed", "-1"]] {
            #expect(ExplorationTool.Options(arguments: wrong) == nil, "\(wrong)")
        }
        let sending: [Gen<Tally.Event>] = [.of(Tally.Event.add), .just(.ask)]
        let report = ExplorationTool.report(Tally.self, state: .init(), sending: sending, answering: [.of(Tally.Event.answered)], options: options)
        #expect(report.status == 1)
        var exploration: Exploration<Tally>?
        _ = withRecordedFailures {
            exploration = MachineTest.explore(Tally.self, state: .init(), sending: sending, answering: [.of(Tally.Event.answered)], walks: 20, steps: 10, seed: 9)
        }
        let found = try #require(exploration)
        #expect(report.output.hasPrefix(found.counterexamples.map { $0.message + "\n\n" }.joined()))
        #expect(report.output.hasSuffix("explore(Tally): 20 walks, \(found.steps) steps from seed 9: \(found.counterexamples.count) counterexamples\n\(found.report.summary)\n"))
        #expect(report.warnings == found.coverage.report(Tally.self, specDirectory: "Specs").transitionWarnings)
        #expect(report.warnings.allSatisfy { $0.hasPrefix("Specs/") })
        let holds = ExplorationTool.report(Tally.self, state: .init(), sending: [.just(.ask)], answering: [Gen.int(in: 0...5).map(Tally.Event.answered)], options: .init(walks: 5, seed: 1))
        #expect(holds.status == 0)
        #expect(holds.output.contains(": no invariant broken, every step settled\n"))
    }

    @Test func v12TheSeedReproducesTheExploration() {
        func explore(seed: UInt64) -> [RecordedFailure] {
            withRecordedFailures {
                MachineTest.explore(
                    Tally.self, state: .init(), sending: [.of(Tally.Event.add), .just(.ask)], answering: [.of(Tally.Event.answered)],
                    walks: 20, seed: seed)
            }
        }
        #expect(explore(seed: 9) == explore(seed: 9))
        #expect(explore(seed: 9).allSatisfy { $0.message.contains("of seed 9,") })
        #expect(explore(seed: 9).map(\.message) != explore(seed: 10).map(\.message))
    }

    @Test func v13AFailingWalkIsShrunk() {
        var exploration: Exploration<Tally>?
        _ = withRecordedFailures {
            exploration = MachineTest.explore(
                Tally.self, state: .init(), stateSpelling: ".init()", sending: [.of(Tally.Event.add), .just(.ask)],
                answering: [Gen.int(in: 0...20).map(Tally.Event.answered)], walks: 20, seed: 5)
        }
        let negative = exploration?.counterexamples.first { $0.invariant?.name == "neverNegative" }
        // Whatever the walk was, one step of the simplest negative number is left.
        #expect(negative?.test == """
            let test = MachineTest(Tally.self, state: .init())
            test.checksState = false
            test.send(.add(-1))
            test.finish()
            """)
        #expect(negative?.message.contains("steps before shrinking") == true)
    }

    @Test func v14TheCounterexampleFailsTheTestAsATestToPaste() {
        let line = #line + 2
        let recorded = withRecordedFailures {
            MachineTest.explore(
                Tally.self, state: .init(), stateSpelling: ".init()", sending: [.just(.ask)], answering: [.just(.answered(-1))], walks: 1, seed: 3)
        }
        #expect(recorded.map(\.line) == [UInt(line)])
        #expect(recorded.first?.message.hasPrefix(
            "explore(Tally): invariant 'neverNegative' (Tally.machine.yml:3:3): count >= 0 is broken after 2 steps (walk 1 of seed 3, ") == true)
        // The test it prints, pasted, fails the same way at its last step.
        let pasted = withRecordedFailures {
            let test = MachineTest(Tally.self, state: .init())
            test.checksState = false
            test.send(.ask)
            test.answer(.ask, with: .answered(-1))
            test.receive(.answered(-1))
            test.finish()
        }
        #expect(pasted.count == 1)
        #expect(pasted.first?.message.hasPrefix("receive(.answered(-1)): invariant 'neverNegative' (Tally.machine.yml:3:3)") == true)
        #expect(recorded.first?.message.hasSuffix(Self.source(between: "let pasted = withRecordedFailures {\n", and: "        }\n")) == true)
    }

    /// The lines of this file between two markers, unindented by 12 spaces: the pasted test.
    static func source(between start: String, and end: String, filePath: String = #filePath) -> String {
        let text = (try? String(contentsOfFile: filePath, encoding: .utf8)) ?? ""
        guard let from = text.range(of: start), let to = text.range(of: end, range: from.upperBound..<text.endIndex) else { return "?" }
        return text[from.upperBound..<to.lowerBound].split(separator: "\n").map { $0.dropFirst(12) }.joined(separator: "\n")
    }

    @Test func v15EachInvariantIsReportedOnceInTheOrderFound() {
        var exploration: Exploration<Kettle>?
        let recorded = withRecordedFailures {
            exploration = MachineTest.explore(
                Kettle.self, state: .init(), sending: Self.kettleSending, answering: [.just(.heated(100)), .of(Kettle.Event.heated), .just(.failed)], walks: 200, seed: 4)
        }
        #expect(Set(exploration?.counterexamples.map(\.invariant?.name) ?? []) == ["cooledOnce", "hotWhenBoiled"])
        #expect(recorded.map(\.message) == exploration?.counterexamples.map(\.message))
        let cold = exploration?.counterexamples.first { $0.invariant?.name == "hotWhenBoiled" }
        #expect(cold?.test.contains("test.answer(.heat, with: .heated(0))") == true)
        #expect(cold?.steps == 2)
    }

    @Test func v16TheExplorationSaysWhatItReached() {
        let coverage = TransitionCoverage()
        var exploration: Exploration<Kettle>?
        _ = withRecordedFailures {
            exploration = MachineTest.explore(
                Kettle.self, state: .init(), sending: Self.kettleSending, answering: Self.kettleAnswering, walks: 4, steps: 4, seed: 6, coverage: coverage)
        }
        #expect(exploration?.coverage === coverage)
        // Every branch but the ignore, which no send takes: a send is of an event the state answers (V9).
        #expect(coverage.taken(Kettle.self) == [0, 2, 3, 4, 5, 6])
        #expect(exploration?.report.untaken.map(\.description) == ["idle --switchOff--> (ignored)"])
        // Unguided, the same walks leave branches: a step picks any event the state answers.
        let unguided = TransitionCoverage()
        _ = withRecordedFailures {
            MachineTest.explore(
                Kettle.self, state: .init(), sending: Self.kettleSending, answering: Self.kettleAnswering, walks: 4, steps: 4, seed: 6,
                guided: false, coverage: unguided)
        }
        #expect(unguided.taken(Kettle.self).count < 6)
    }

    @Test func v16GuidedSendsFindADeepBugRandomOnesMiss() {
        let digits: [Gen<CombinationLock.Event>] = (0...9).map { .just(.digit($0)) }
        func explore(guided: Bool) -> Exploration<CombinationLock>? {
            var exploration: Exploration<CombinationLock>?
            _ = withRecordedFailures {
                exploration = MachineTest.explore(CombinationLock.self, state: .init(), stateSpelling: ".init()", sending: digits, seed: 16, guided: guided)
            }
            return exploration
        }
        // Ten digits a step: eight right ones in a row come once in 10^8 random sends.
        #expect(explore(guided: false)?.counterexamples.isEmpty == true)
        let guided = explore(guided: true)
        #expect(guided?.counterexamples.map(\.steps) == [8])
        #expect(guided?.counterexamples.first?.test.contains((1...8).map { "test.send(.digit(\($0)))" }.joined(separator: "\n")) == true)
    }

    @Test func v17ExploreAllFindsTheShortestCounterexample() {
        var exploration: Exploration<Kettle>?
        let recorded = withRecordedFailures {
            exploration = MachineTest.exploreAll(
                Kettle.self, state: .init(), stateSpelling: ".init()", sending: Self.kettleSending, answering: Self.kettleAnswering, depth: 8)
        }
        #expect(exploration?.counterexamples.map(\.test) == [Self.boilsTwice])
        #expect(recorded.count == 1)
        #expect(exploration?.seed == nil)
        // The boiled configurations differ by the entry count their timer carries.
        #expect(exploration?.configurations == 13)
    }
}
