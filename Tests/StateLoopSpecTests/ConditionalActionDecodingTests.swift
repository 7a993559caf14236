@testable import StateLoopSpec
import Testing

// Conditional actions as written (Docs/Statecharts.md S109): each mistake at its key.

@Suite struct ConditionalActionDecodingTests {
    @Test("S109: then: or else: without if:, if: without then:, and set: or run: beside if: fail at their place")
    func conditionalActionsAreDecodedStrictly() {
        let yaml = """
            machine: T
            context: {n: {type: Int, default: "0"}}
            events: {go: {}}
            initial: a
            states:
              a:
                entry:
                  - {then: [{set: {n: "1"}}]}
                  - {if: "n > 0"}
                  - {if: "n > 0", then: [], set: {n: "2"}}
                  - {if: "n > 0", then: [{else: []}]}
                ignore: [go]
            """
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:8:10: error: 'then:' belongs to a conditional action (fix: write '{if: condition, then: [actions], else: [actions]}')",
            "test.machine.yml:9:9: error: the conditional action has no 'then:' (fix: write '{if: condition, then: [actions], else: [actions]}')",
            "test.machine.yml:10:33: error: a conditional action has no 'set:' of its own (fix: move it into 'then:' or 'else:': {if: condition, then: [{set: ...}]})",
            "test.machine.yml:11:31: error: 'else:' belongs to a conditional action (fix: write '{if: condition, then: [actions], else: [actions]}')",
        ])
    }
}
