import Foundation
import StateLoopCodegen
import StateLoopSpec
import Testing

// Conditional actions (Docs/Statecharts.md S106, S107): the generated reducer, compiled and run,
// and `MachineInterpreter`, which decides them in the one semantic core.

@Suite(.enabled(if: Swiftc.isAvailable, "needs swiftc and the StateLoop module in .build/debug/Modules"))
struct ConditionalActionTests {
    static let yaml = """
        machine: Cond
        context:
          n: {type: Int, default: "0"}
          log: {type: String, default: '""'}
        events: {go: {by: Int}, reset: {}}
        initial: a
        states:
          a:
            on:
              go:
                target: b
                do:
                  - {set: {n: event.by}}
                  - if: "n > event.by - 3 && n > 2"
                    then: [{set: {log: log + "big"}}, {if: "log.count > 0", then: [{set: {log: log + "!"}}]}]
                    else: [{set: {log: log + "small"}}]
            ignore: [reset]
          b:
            entry: [{if: "isIn(.b) && n > 2", then: [{set: {n: 0}}]}]
            on: {reset: a}
            ignore: [go]

        """

    @Test("S106: a conditional action runs its then: when the condition holds, else its else:, in do: and entry:")
    func conditionalActionsRunOneSide() throws {
        let generated = GeneratorPipeline().generate(contents: Array(Self.yaml.utf8), path: "Cond.machine.yml")
        let source = try #require(generated.source, "\(generated.diagnostics)")
        let main = """
            var state = Cond.State.initial
            for event: Cond.Event in [.go(by: 5), .reset, .go(by: 1)] {
                Cond.reduce(&state, event)
                print(state.mode, state.n, state.log)
            }
            """
        let run = try Swiftc.run(["Cond.machine.swift": source, "main.swift": main])
        #expect(run.status == 0, "\(run.output)")
        // go(by: 5): `n` is 5 when the condition is read; `log.count > 0` reads "big" (S107); the
        // entry of `b` sees `isIn(.b)` (S33) and resets `n`. go(by: 1): the else side, no reset.
        #expect(run.output.split(separator: "\n").map(String.init) == ["b 0 big!", "a 0 big!", "b 1 big!small"])
    }

    @Test("S107: the interpreter reads a condition on the state the earlier actions of the list left")
    func conditionReadsTheStateAsItIsThen() throws {
        let yaml = """
            machine: Then
            context:
              n: {type: Int, default: "0"}
              s: {type: String, default: '""'}
            events: {e0: {}}
            initial: a
            states:
              a:
                entry: [{set: {n: n + 1}}, {if: "n > 0", then: [{set: {s: s + "+"}}, {if: "s.isEmpty", then: [{set: {n: n + 1}}], else: [{set: {s: s + "="}}]}]}]
                on:
                  e0: {do: [{if: "n < 3", then: [{set: {n: n + 1}}]}, {if: "n < 3", then: [{set: {s: s + "<"}}], else: [{set: {s: s + ">"}}]}]}

            """
        let spec = try #require(SpecLoader.load(contents: Array(yaml.utf8), path: "Then.machine.yml").spec)
        var host = VocabularyHost(positions: spec.semantics.tree.index)
        var machine = MachineInterpreter(spec.semantics, host: &host)
        #expect((host.n, host.s) == (1, "+="))
        machine.step(.event("e0"), host: &host)
        #expect((host.n, host.s) == (2, "+=<"))
        machine.step(.event("e0"), host: &host)
        #expect((host.n, host.s) == (3, "+=<>"))
        #expect(host.unknown.isEmpty)
    }
}
