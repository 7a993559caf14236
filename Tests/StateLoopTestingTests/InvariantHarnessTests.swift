// The harness's side of invariants (Docs/Testing.md V4-V6) on the hand-written Tally, whose
// invariants nothing guards: each step that breaks one fails at its own line.

@_spi(Internals) import StateLoopTesting
import StateLoop
import Testing

@Suite struct InvariantHarnessTests {
    /// `send(.add(-1))`'s failure for `neverNegative`, with the state after it dumped.
    static let brokenAfterAdd = """
        send(.add(-1)): invariant 'neverNegative' (Tally.machine.yml:3:3): count >= 0 is broken by the state after it:

        Tally.State(
          mode: .counting,
          count: -1
        )
        """

    @Test("V5: a step that breaks an invariant fails at its line, naming the invariant, its YAML line and the state")
    func v5AStepThatBreaksAnInvariantFailsAtItsLine() {
        var sendLine: UInt = 0
        let recorded = withRecordedFailures {
            let test = MachineTest(Tally.self, state: Tally.State())
            test.send(.add(2)) { $0.count = 2 }
            sendLine = #line + 1
            test.send(.add(-3)) { $0.count = -1 }
            test.finish()
        }
        #expect(recorded == [RecordedFailure(message: Self.brokenAfterAdd.replacingOccurrences(of: "add(-1)", with: "add(-3)"), line: sendLine)])
    }

    @Test("V5: the state the harness starts from, receive, a mismatched receive and skipReceivedEvents are checked too, with checksState off")
    func v5EveryStepIsChecked() {
        var lines: [UInt] = []
        let recorded = withRecordedFailures {
            lines.append(#line + 1)
            let test = MachineTest(Tally.self, state: Tally.State(mode: .counting, count: -5))
            test.checksState = false
            test.send(.add(5))                                   // holds again: nothing
            test.send(.ask)
            test.answer(.ask, with: .answered(-2))
            lines.append(#line + 1)
            test.receive(.answered(-2))
            test.send(.add(2))
            test.send(.ask)
            test.answer(.ask, with: .answered(-1))
            lines.append(#line + 1)
            test.receive(.answered(7))                           // the wrong event, reduced anyway
            test.send(.add(1))
            test.send(.ask)
            test.answer(.ask, with: .answered(-4))
            lines.append(#line + 1)
            test.skipReceivedEvents()
            test.finish()
        }
        let invariantFailures = recorded.filter { $0.message.contains("invariant 'neverNegative'") }
        #expect(invariantFailures.map(\.line) == lines)
        #expect(invariantFailures.map { $0.message.components(separatedBy: ": invariant").first ?? "" }
            == ["MachineTest(state:)", "receive(.answered(-2))", "receive(.answered(7))", "skipReceivedEvents(): .answered(-4) (answer of .ask)"])
        // Besides: the mismatched receive's own failure.
        #expect(recorded.count == 5)
    }

    @Test("V5: a state's invariant is checked only while the state is active")
    func v5AStatesInvariantHoldsOnlyWhileActive() {
        var askLine: UInt = 0
        let recorded = withRecordedFailures {
            let test = MachineTest(Tally.self, state: Tally.State())
            test.send(.add(12)) { $0.count = 12 }                // counting: smallWhileAsking is not checked
            askLine = #line + 1
            test.send(.ask) { $0.mode = .asking }
            test.answer(.ask, with: .answered(0))
            test.receive(.answered(0)) {
                $0.mode = .counting
                $0.count = 0
            }
            test.finish()
        }
        #expect(recorded.map(\.line) == [askLine])
        #expect(recorded.first?.message.hasPrefix("send(.ask): invariant 'smallWhileAsking' (Tally.machine.yml:12:18, in asking): count < 10 is broken") == true)
    }

    @Test("V4: a hand-written machine without invariants has none and breaks none")
    func v4TheDefaultsAreNone() {
        #expect(Radio.invariants.isEmpty)
        #expect(Radio.brokenInvariants(Radio.State(mode: .failed, error: "x")).isEmpty)
        #expect(Tally.brokenInvariants(Tally.State(mode: .asking, count: -1)).map(\.name) == ["neverNegative"])
        #expect(Tally.brokenInvariants(Tally.State(mode: .asking, count: 12)).map(\.name) == ["smallWhileAsking"])
    }
}
