import Foundation
@testable import StateLoopSpec
import Testing

// `invariants:` as written (Docs/Testing.md V1, V2).

@Suite struct InvariantDecodingTests {
    @Test("V1: invariants: at the top level and on a leaf, a composite, a parallel state and a region, each with its line and column")
    func v1InvariantsAreDecodedWhereverAStateCanBeActive() throws {
        let yaml = """
            machine: T
            context:
              n: {type: Int, default: "0"}
            events: {go: {}}
            invariants:
              small: "n < 10"
              positive: n >= 0
            initial: outer
            states:
              outer:
                invariants: {inOuter: "isIn(.outer)"}
                initial: both
                on: {go: {set: {n: n + 1}}}
                states:
                  both:
                    type: parallel
                    invariants: {regions: "isIn(.left) && isIn(.right)"}
                    states:
                      left:
                        invariants: {leftSide: "!isIn(.right) || true"}
                        initial: l
                        states:
                          l: {invariants: {leaf: "n != 99"}}
                      right:
                        initial: r
                        states: {r: {}}
            """
        #expect(printedDiagnostics(yaml).filter { $0.contains(": error: ") } == [])
        let spec = try #require(SpecLoader.decode(contents: Array(yaml.utf8), path: "test.machine.yml"))
        func described(_ invariants: [InvariantSpec]) -> [String] {
            invariants.map { "\($0.name.value)@\($0.name.location.line):\($0.name.location.column) \($0.expression.value)@\($0.expression.location.line):\($0.expression.location.column)" }
        }
        #expect(described(spec.invariants) == ["small@6:3 n < 10@6:11", "positive@7:3 n >= 0@7:13"])
        let outer = try #require(spec.states.first)
        let both = try #require(outer.states.first)
        let left = try #require(both.states.first)
        #expect(described(outer.invariants) == ["inOuter@11:18 isIn(.outer)@11:28"])
        #expect(described(both.invariants) == ["regions@17:22 isIn(.left) && isIn(.right)@17:32"])
        #expect(described(left.invariants) == ["leftSide@20:26 !isIn(.right) || true@20:37"])
        #expect(described(left.states[0].invariants) == ["leaf@23:32 n != 99@23:39"])
    }

    @Test("V2: a wrong invariants: is an error at its line and column, with a fix")
    func v2WrongInvariantsAreErrorsAtTheirLines() {
        let yaml = """
            machine: T
            context:
              n: {type: Int, default: "0"}
            events: {go: {}}
            invariants:
              small: "n < 10"
              "": "n > 0"
              listed: [n]
            initial: a
            states:
              a:
                invariants: [small]
                on: {go: b}
              b:
                invariants: {mapped: {n: 1}}
                ignore: [go]
            """
        #expect(printedDiagnostics(yaml).filter { $0.contains(": error: ") } == [
            "test.machine.yml:7:3: error: an invariant needs a name (fix: name the invariant: 'withinTotal: \"sent <= total\"'; failures say it)",
            "test.machine.yml:8:11: error: expected a Swift Bool expression for invariant 'listed', found a list (fix: quote the expression so YAML reads it as text: 'listed: \"sent <= total\"')",
            "test.machine.yml:12:17: error: expected a mapping from invariant names to Swift Bool expressions, found a list (fix: write 'invariants: {withinTotal: \"sent <= total\"}', one name and Swift Bool expression an entry)",
            "test.machine.yml:15:26: error: expected a Swift Bool expression for invariant 'mapped', found a mapping (fix: quote the expression so YAML reads it as text: 'mapped: \"sent <= total\"')",
        ])
        // What the checker finds, once the file decodes.
        let checked = """
            machine: T
            context:
              n: {type: Int, default: "0"}
            events: {go: {}}
            invariants:
              small: "n < 10"
            initial: a
            states:
              a:
                on: {go: b}
              b:
                invariants:
                  small: "n < 20"
                  noEvent: "event != nil"
                on: {go: a}
            """
        #expect(printedDiagnostics(checked).filter { $0.contains(": error: ") } == [
            "test.machine.yml:13:7: error: invariant 'small' is declared twice: an invariant's name is the machine's, as a state's is (fix: rename one of them; a failure names the invariant that broke)\ntest.machine.yml:6:3: note: first declared here",
            "test.machine.yml:14:17: error: 'event' is not in scope in invariant 'noEvent', which reads the state after a step (fix: keep what the invariant needs of an event in a context field ('set:' it in the transition), and read the field)",
        ])
        // A history state is never active: the keys it may have leave 'invariants:' out.
        let history = checked.replacingOccurrences(of: "    on: {go: a}", with: "    initial: c\n    states:\n      c: {on: {go: h}}\n      h: {type: history, invariants: {never: \"true\"}}")
        #expect(printedDiagnostics(history).filter { $0.contains("invariants") && $0.contains(": error: ") }.map { String($0.prefix(while: { $0 != "(" })) }.contains("test.machine.yml:18:26: error: a history state has no 'invariants:' "))
    }
}
