@testable import StateLoopSpec
import Testing

// MachineSemantics on small specs, rule by rule (Docs/Statecharts.md, "One semantic core").

private func semantics(_ yaml: String) throws -> MachineSemantics {
    let result = SpecLoader.load(contents: Array(yaml.utf8), path: "T.machine.yml")
    let spec = try #require(result.spec, "\(result.diagnostics.map(\.description))")
    return spec.semantics
}

private func positions(_ names: [String], in semantics: MachineSemantics) -> [Int] {
    names.map { semantics.tree.index[$0]! }
}

private let nested = """
    machine: T
    events: {go: {}, stop: {}, tick: {}}
    initial: a
    on:
      stop: {target: a}
    states:
      a:
        initial: a1
        on:
          go: [{guard: "true", target: b}]
        ignore: [tick]
        states:
          a1:
            on:
              go: [{guard: "false", target: a2}]
          a2:
            on:
              go: {target: b}
          h: {type: history, history: deep}
      b:
        type: parallel
        on:
          go: {target: b}
          tick: {target: a}
        states:
          r1:
            initial: x
            states:
              x: {on: {tick: {target: y}}}
              y: {type: final}
          r2:
            initial: p
            states:
              p: {on: {tick: {target: h2}}}
              q: {type: final}
              h2: {type: history, target: q}
        onDone: {target: a}
    """

struct SemanticsTests {
    @Test("S96: a chain is the leaf's branches, then its ancestors' and the machine's, up to the first without a guard")
    func s96ChainsFallThroughGuardedBranchesAndStopAtTheFirstUnguarded() throws {
        let machine = try semantics(nested)
        let entries = machine.transitions.entries
        func describe(_ leaf: String, _ trigger: MachineSemantics.StepTrigger) -> [String] {
            machine.chain(leaf: machine.tree.index[leaf]!, trigger).map { entries[$0].description }
        }
        #expect(describe("a1", .event("go")) == ["a1 --go [false]--> a2", "a --go [true]--> b"])
        #expect(describe("a2", .event("go")) == ["a2 --go--> b"])
        #expect(describe("a1", .event("tick")) == ["a --tick--> (ignored)"])
        #expect(describe("a1", .event("stop")) == ["(any) --stop--> a"])
        #expect(machine.candidates(leaf: machine.tree.index["a2"]!, .event("go")).count == 2)
    }

    @Test("S97: entries go outermost first in document order, exits innermost first with later regions first")
    func s97EntriesInDocumentOrderExitsInReverse() throws {
        let machine = try semantics(nested)
        let b = machine.tree.index["b"]!
        #expect(machine.entered(below: nil, toward: b) == positions(["b", "r1", "x", "r2", "p"], in: machine))
        let active = positions(["b", "r1", "x", "r2", "p"], in: machine)
        #expect(machine.exited(below: nil, active: active) == positions(["p", "r2", "x", "r1", "b"], in: machine))
        #expect(machine.exited(below: b, active: active) == positions(["p", "r2", "x", "r1"], in: machine))
        // A history without a record enters its default; with one, what it recorded.
        let h2 = machine.tree.index["h2"]!
        #expect(machine.entered(below: machine.tree.index["r2"]!, toward: h2) == positions(["q"], in: machine))
        let h = machine.tree.index["h"]!
        #expect(machine.entered(below: nil, toward: h) == positions(["a", "a1"], in: machine))
        #expect(machine.entered(below: nil, toward: h) { $0 == h ? positions(["a2"], in: machine) : nil } == positions(["a", "a2"], in: machine))
    }

    @Test("S98: of two overlapping branches the inner source replaces the outer, else the later yields")
    func s98ConflictsAreDecidedPerPair() throws {
        let machine = try semantics(nested)
        let entries = machine.transitions.entries
        let inner = entries.first { $0.description == "x --tick--> y" }!.id
        let other = entries.first { $0.description == "p --tick--> h2" }!.id
        let outer = entries.first { $0.description == "b --tick--> a" }!.id
        #expect(machine.conflict(inner, with: other) == .none)
        #expect(machine.conflict(inner, with: outer) == .replaces)
        #expect(machine.conflict(outer, with: inner) == .yields)
        #expect(machine.withoutConflicts([outer, inner, other, inner]) == [inner, other])
    }

    @Test("S99: a final state makes its parent's onDone due, and a parallel grandparent's once, at the end")
    func s99FinalStatesQueueOnDone() throws {
        let machine = try semantics(nested)
        let (b, y, q) = (machine.tree.index["b"]!, machine.tree.index["y"]!, machine.tree.index["q"]!)
        #expect(machine.doneTargets[y] == [b])
        var queue: [Int] = []
        machine.queueDone(entering: y, into: &queue)
        machine.queueDone(entering: q, into: &queue)
        #expect(queue == [b])
        #expect(machine.isDue(b) { [y, q].contains($0) })
        #expect(!machine.isDue(b) { $0 == y })
    }
}
