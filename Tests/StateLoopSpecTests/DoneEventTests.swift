@testable import StateLoopSpec
import Testing

// The data of a final state (Docs/Statecharts.md, "Final states", S160–S163): a nested final
// state's `doneEvent:` and `output:`, checked here and read as `trigger` by its parent's
// `onDone:` in the semantic core. The compiled side is pinned by W3C tests 294, 527 and 529
// (W3CTests) and by DoneEventGenerationTests.

/// Records, for every guard asked, the guard and the trigger it sees.
private struct TriggerRecorder: MachineHost {
    var seen: [String] = []
    var trigger: MachineSemantics.StepTrigger?

    mutating func holds(_ guardExpression: Located<String>, branch: Int?, active: [Int]) -> Bool {
        let name = switch trigger {
        case .event(let event): event
        case .always: "always"
        case .timer, nil: "-"
        }
        seen.append("\(guardExpression.value): \(name)")
        return guardExpression.value.hasSuffix("true")
    }
    mutating func perform(_ action: Action) {}
    mutating func takeRaised() {}
    mutating func dropRaised() {}
    func delay(ofSent number: Int) -> Duration { .zero }
    mutating func takeSent(_ number: Int) {}
    mutating func elements(of loop: ForeachAction) -> Int { 0 }
    mutating func assign(_ position: Int, of loop: ForeachAction) {}
}

@Suite struct DoneEventTests {
    @Test("S160: doneEvent: and a nested output: are checked at their keys: the event, its fields, their types, the state")
    func doneEventsAreCheckedAtTheirKeys() {
        let yaml = """
            machine: M
            events: {go: {}, finished: {n: Int, s: String}}
            ignore: [finished]
            initial: a
            states:
              a:
                initial: a1
                on: {go: a}
                states:
                  a1: {on: {go: f1}, doneEvent: finished}
                  f1: {type: final, doneEvent: finishd}
                  f2: {type: final, doneEvent: finished, output: {n: {type: Int, value: "1"}}}
                  f3: {type: final, doneEvent: finished, output: {n: {type: Int64, value: "1"}, s: {type: String, value: '""'}}}
                  f4: {type: final, output: {n: {type: Int, value: "1"}}}
              end: {type: final, doneEvent: finished}
            """
        #expect(printedDiagnostics(yaml).filter { $0.contains(": error: ") } == [
            "test.machine.yml:10:37: error: 'doneEvent:' belongs to a final state inside a composite; 'a1' is not a final state (fix: remove 'doneEvent:', or make 'a1' a state with 'type: final' inside a composite)",
            "test.machine.yml:11:36: error: 'doneEvent:' of 'f1' names unknown event 'finishd' (fix: did you mean 'finished'?)",
            "test.machine.yml:12:36: error: event 'finished' has field 's', which the output of final state 'f2' lacks (fix: add 's: {type: T, value: expression}' to the 'output:' of 'f2', or remove it from 'finished')",
            "test.machine.yml:13:65: error: output field 'n' of 'f3' is 'Int64', but field 'n' of event 'finished' is 'Int' (fix: write 'type: Int', the type the event declares)",
            "test.machine.yml:14:25: error: 'output:' of final state 'f4' inside 'a' needs 'doneEvent:': entering it does not finish the machine, its output is the event the 'onDone:' of 'a' reads (S160) (fix: add 'doneEvent: event', naming a declared event whose fields the output gives, or move 'output:' to a final state at the top level of 'states:')",
            "test.machine.yml:15:33: error: 'doneEvent:' belongs to a final state inside a composite; 'end' is a top-level final state, which finishes the machine (fix: remove 'doneEvent:': a top-level final state reports through 'output:' (E22))",
        ])
    }

    @Test("S161: the onDone: sees its final state's doneEvent: as trigger; always: and a parallel state's onDone: see the step's")
    func onDoneReadsTheDoneEventAsTrigger() throws {
        let yaml = """
            machine: M
            events: {go: {}, left: {}, right: {}}
            ignore: [left, right, go]
            initial: p
            states:
              p:
                type: parallel
                onDone: [{guard: "p true", target: end}]
                states:
                  l:
                    initial: l1
                    onDone: [{guard: "l false", target: l}]
                    states:
                      l1: {on: {go: lf}}
                      lf: {type: final, doneEvent: left}
                  r:
                    initial: r1
                    onDone: [{guard: "r false", target: r}]
                    states:
                      r1: {on: {go: rf}}
                      rf: {type: final}
              end: {type: final}
            """
        let result = SpecLoader.load(contents: Array(yaml.utf8), path: "test.machine.yml")
        let spec = try #require(result.spec, "\(result.diagnostics.map(\.description))")
        var host = TriggerRecorder()
        var machine = MachineInterpreter(spec.semantics, host: &host)
        machine.step(.event("go"), host: &host)
        #expect(host.seen == ["l false: left", "r false: go", "p true: go"])
        #expect(machine.isDone)
    }

    @Test("S163: the done event is an ordinary event: every leaf answers it, the nested final state too, and none is warned about")
    func theDoneEventIsAnsweredInEveryLeaf() {
        let yaml = """
            machine: M
            events: {go: {}, finished: {}}
            initial: a
            states:
              a:
                initial: a1
                onDone: end
                on: {go: a}
                states:
                  a1: {on: {go: f}, ignore: [finished]}
                  f: {type: final, doneEvent: finished}
              end: {type: final}
            """
        #expect(printedDiagnostics(yaml).filter { $0.contains(": error: ") }.map { $0.prefix(while: { $0 != "(" }) } == [
            "test.machine.yml:11:7: error: state 'f' does not handle event 'finished' ",
        ])
        let ignored = yaml.replacingOccurrences(of: "initial: a\n", with: "initial: a\nignore: [finished]\n")
        #expect(printedDiagnostics(ignored) == [])
    }
}
