@testable import StateLoopSpec
import Testing

// `initial:` as a list of states, one per region of a parallel state (Docs/Statecharts.md,
// "Several initial states", S140–S143): its checks, and the configuration the semantic core
// enters with it. The compiled side is pinned by W3C tests 364, 413 and 576 (W3CTests) and by
// the differential test's random statecharts, which write such lists.

private let keyboard = """
    machine: K
    events: {go: {}, back: {}}
    initial: [numOn, capsOn]
    on:
      back: {target: off}
      go: {target: locks}
    states:
      off:
        on: {go: connected}
      connected:
        initial: [numOn, capsOff]
        states:
          locks:
            type: parallel
            states:
              num:
                initial: numOff
                states: {numOff: {}, numOn: {}}
              caps:
                initial: capsOff
                states: {capsOff: {}, capsOn: {}}
              scroll:
                initial: scrollOff
                states: {scrollOff: {}, scrollOn: {}}
    """

private func semantics(_ yaml: String) throws -> MachineSemantics {
    let result = SpecLoader.load(contents: Array(yaml.utf8), path: "K.machine.yml")
    let spec = try #require(result.spec, "\(result.diagnostics.map(\.description))")
    return spec.semantics
}

private func names(_ positions: [Int], in semantics: MachineSemantics) -> [String] {
    positions.map { semantics.tree[$0].name }
}

@Suite struct InitialListTests {
    @Test("S140: every state of a list initial: is checked at its name, with the fix")
    func initialListsAreChecked() {
        let yaml = """
            machine: M
            events: {go: {}}
            ignore: [go]
            initial: [a1, ghost]
            states:
              top:
                initial: [b1, a2, outside, h, b1, p, a1]
                states:
                  p:
                    type: parallel
                    states:
                      ra:
                        initial: a1
                        states: {a1: {on: {go: outside}}, a2: {}}
                      rb:
                        initial: b1
                        states: {b1: {}, b2: {on: {go: h}}}
                  h: {type: history, target: p}
              outside:
                initial: o1
                states: {o1: {}}
            """
        #expect(printedDiagnostics(yaml).filter { $0.contains("error") } == [
            "test.machine.yml:4:15: error: 'ghost' in the machine's 'initial:' is not a state (fix: use one of top, p, ra, a1, a2, rb, b1, b2, ..., or declare 'ghost' under 'states:')",
            "test.machine.yml:7:23: error: 'outside' in the 'initial:' of 'top' is not inside 'top' (fix: name states below 'top', one per region of a parallel state)",
            "test.machine.yml:7:32: error: 'h' in the 'initial:' of 'top' is a history state (fix: name the states to enter; a list of 'initial:' enters states, not a history's record)",
            "test.machine.yml:7:35: error: 'b1' is listed twice in the 'initial:' of 'top' (fix: drop one of the two)\ntest.machine.yml:7:15: note: 'b1' is first listed here",
            "test.machine.yml:7:39: error: 'p' in the 'initial:' of 'top' cannot be entered with 'b1': 'b1' lies inside 'p' (fix: name one state per region of a parallel state, and drop one of the two)\ntest.machine.yml:7:15: note: 'b1' is listed here",
            "test.machine.yml:7:42: error: 'a1' in the 'initial:' of 'top' cannot be entered with 'a2': both lie in 'ra', which is in one child at a time (fix: name one state per region of a parallel state, and drop one of the two)\ntest.machine.yml:7:19: note: 'a2' is listed here",
        ])
        let empty = yaml.replacingOccurrences(of: "initial: o1", with: "initial: []")
        #expect(printedDiagnostics(empty) == [
            "test.machine.yml:20:14: error: 'initial:' lists no state (fix: name the state entered first, or one state per region: 'initial: [a1, b1]')",
        ])
        // Two states in different regions are fine, and so is one state deep below.
        #expect(printedDiagnostics(keyboard).filter { $0.contains("error") } == [])
    }

    @Test("S141: a list initial: enters every listed state, the other regions through their own initial:, in entry order")
    func initialListEntersEveryListedState() throws {
        let semantics = try semantics(keyboard)
        // The machine's list: numOn and capsOn, scroll through its own initial:, outermost first,
        // regions in document order (S31); `connected`'s own list is not read.
        #expect(names(semantics.enteredInitially, in: semantics) == ["connected", "locks", "num", "numOn", "caps", "capsOn", "scroll", "scrollOff"])
        // Entering `connected` as a target enters its list.
        let connected = semantics.tree.index["connected"]!
        #expect(names(semantics.entered(below: nil, toward: connected), in: semantics) == ["connected", "locks", "num", "numOn", "caps", "capsOff", "scroll", "scrollOff"])
    }

    @Test("S142: a target below the composite wins over its list; a target naming the parallel state enters the regions' own initial:")
    func aTargetBelowTheCompositeWinsOverItsList() throws {
        let semantics = try semantics(keyboard)
        let tree = semantics.tree
        #expect(names(semantics.entered(below: nil, toward: tree.index["capsOn"]!), in: semantics) == ["connected", "locks", "num", "numOff", "caps", "capsOn", "scroll", "scrollOff"])
        #expect(names(semantics.entered(below: tree.index["connected"]!, toward: tree.index["locks"]!), in: semantics) == ["locks", "num", "numOff", "caps", "capsOff", "scroll", "scrollOff"])
    }
}
