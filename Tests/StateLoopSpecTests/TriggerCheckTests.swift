@testable import StateLoopSpec
import Testing

// The name `trigger` (Docs/Statecharts.md S114).

@Suite struct TriggerCheckTests {
    @Test("S114: a context field named trigger fails at its name")
    func aFieldNamedTriggerFails() {
        let yaml = """
            machine: T
            context: {trigger: {type: Int, default: "0"}}
            events: {go: {}}
            initial: a
            states:
              a: {ignore: [go]}
            """
        #expect(printedDiagnostics(yaml).filter { $0.contains(": error: ") } == [
            "test.machine.yml:2:11: error: context field 'trigger' would clash with the generated 'State.trigger', the event of the running step (S114) (fix: rename the field, e.g. 'triggerValue')",
        ])
    }
}
