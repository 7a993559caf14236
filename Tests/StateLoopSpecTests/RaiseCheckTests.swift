@testable import StateLoopSpec
import Testing

// `raise:` at build time (Docs/Statecharts.md S123–S125): the checks at the YAML line, the loop
// that needs no guard, and the paths through raised events.

@Suite struct RaiseCheckTests {
    func errors(_ yaml: String) -> [String] {
        printedDiagnostics(yaml).filter { $0.contains(": error: ") }
    }

    @Test("S123: a loop of raises that needs no guard fails at its first raise; a guard or a conditional ends it")
    func unguardedRaiseLoopsFail() {
        let yaml = """
            machine: M
            context: {n: {type: Int, default: "0"}}
            events: {ping: {}, pong: {}, go: {}}
            initial: a
            states:
              a:
                on:
                  ping: {do: [{raise: pong}]}
                  pong: {do: [{raise: ping}]}
                  go: b
              b:
                on:
                  ping: {do: [{raise: ping}]}
                ignore: [go, pong]
            """
        #expect(errors(yaml) == [
            "test.machine.yml:8:19: error: 'raise:' without a guard loops forever in state 'a': ping -> pong -> ping (fix: add a 'guard:' to one of the handlers, or raise under an 'if:')",
            "test.machine.yml:13:19: error: 'raise:' without a guard loops forever in state 'b': ping -> ping (fix: add a 'guard:' to one of the handlers, or raise under an 'if:')",
        ])
        let guarded = yaml
            .replacingOccurrences(of: "pong: {do: [{raise: ping}]}", with: "pong: {guard: \"n < 3\", do: [{raise: ping}]}")
            .replacingOccurrences(of: "ping: {do: [{raise: ping}]}", with: "ping: {do: [{if: \"n < 3\", then: [{raise: ping}]}]}")
        #expect(errors(guarded) == [])
    }

    @Test("S124: a raised event is declared, anyone's, with exactly its payload; errors at the YAML line")
    func raiseIsCheckedAtItsYAMLLine() {
        let yaml = """
            machine: M
            context: {n: {type: Int, default: "0"}}
            events: {found: {n: Int}, done: {from: effects}, go: {}}
            initial: a
            states:
              a:
                entry:
                  - raise: fond
                  - raise: done
                  - raise: {event: found, m: "1"}
                on: {go: a, found: a, done: a}
            effects:
              work: {in: [a], request: {type: Int, value: n}, emits: [done]}
            """
        #expect(errors(yaml) == [
            "test.machine.yml:8:16: error: 'raise:' names 'fond', which is not an event (fix: did you mean 'found'?)",
            "test.machine.yml:9:16: error: 'raise:' names 'done', which only effects send ('from: effects'), so most states would drop it unanswered (fix: remove 'from: effects' from 'done' so that every state answers it, or raise another event)",
            "test.machine.yml:10:9: error: 'raise: found' does not give 'n' of its payload (fix: write 'raise: {event: found, n: expression}')",
            "test.machine.yml:10:31: error: 'raise: found' gives 'm', which is not a payload field of 'found' (fix: give only 'n')",
        ])
        let decoding = yaml
            .replacingOccurrences(of: "- raise: fond", with: "- {raise: go, set: {n: \"1\"}}")
            .replacingOccurrences(of: "- raise: done", with: "- raise: {n: \"1\"}")
        #expect(errors(decoding) == [
            "test.machine.yml:8:21: error: a 'raise:' action does nothing else; 'set:' belongs to an action of its own (fix: write them as two actions: [{raise: ...}, {set: ...}])",
            "test.machine.yml:9:16: error: 'raise:' names no 'event:' (fix: write 'raise: event', or 'raise: {event: name, field: expression}' for an event with a payload)",
        ])
    }

    @Test("S125: paths follow the raised events, a raised step marked as one that nothing sends")
    func raisedEventsAreFollowedByPaths() throws {
        let spec = try loadedSpec("""
            machine: M
            events: {go: {}, found: {}}
            initial: a
            states:
              a:
                on: {go: {target: b, do: [{raise: found}]}}
                ignore: [found]
              b:
                on: {found: c}
                ignore: [go]
              c: {ignore: [go, found]}
            """)
        let paths = MachinePaths(spec)
        let toC = try #require(paths.states.first { $0.name == "c" }?.steps)
        #expect(toC.map(paths.text(of:)) == ["go", "↺ found"])
        #expect(toC.map(\.isRaised) == [false, true])
    }
}
