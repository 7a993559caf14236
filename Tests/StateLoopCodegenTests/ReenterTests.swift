import Foundation
import StateLoopCodegen
import StateLoopSpec
import Testing

// `reenter: true` (Docs/Statecharts.md S115, S116, S118): a machine whose entry and exit actions
// log themselves, with `!` when `isIn` reports their own state, generated, compiled and run once;
// and the same steps through `MachineInterpreter`.

@Suite(.enabled(if: Swiftc.isAvailable, "needs swiftc and the StateLoop module in .build/debug/Modules"))
struct ReenterTests {
    static let yaml = """
        machine: Re
        context:
          log: {type: String, default: '""'}
        events: {inner: {}, outer: {}, par: {}}
        ignore: [inner, outer, par]
        initial: p
        states:
          p:
            initial: a
            entry: [{set: {log: log + "+p"}}, {if: "isIn(.p)", then: [{set: {log: log + "!"}}]}]
            exit: [{set: {log: log + "-p"}}, {if: "isIn(.p)", then: [{set: {log: log + "!"}}]}]
            on:
              inner: {target: b, reenter: true}
              outer: {target: b}
              par: q
            states:
              a:
                entry: [{set: {log: log + "+a"}}]
                exit: [{set: {log: log + "-a"}}]
              b:
                entry: [{set: {log: log + "+b"}}]
                exit: [{set: {log: log + "-b"}}]
          q:
            type: parallel
            entry: [{set: {log: log + "+q"}}]
            exit: [{set: {log: log + "-q"}}]
            on:
              par: {target: y, reenter: true}
              outer: y
            states:
              r1:
                initial: x
                states:
                  x: {entry: [{set: {log: log + "+x"}}], exit: [{set: {log: log + "-x"}}]}
                  y: {entry: [{set: {log: log + "+y"}}], exit: [{set: {log: log + "-y"}}]}
              r2:
                initial: u
                states:
                  u: {entry: [{set: {log: log + "+u"}}], exit: [{set: {log: log + "-u"}}]}

        """

    /// The log after each step of `inner, outer, par, outer, par`, from the compiled reducer.
    static let printed: Result<[String], any Error> = Result {
        let generated = GeneratorPipeline().generate(contents: Array(yaml.utf8), path: "Re.machine.yml")
        guard let source = generated.source else { throw Failure(message: "\(generated.diagnostics)") }
        let main = """
            var state = Re.State.initial
            print(state.log)
            for event: Re.Event in [.inner, .outer, .par, .outer, .par] {
                state.log = ""
                Re.reduce(&state, event)
                print(state.log)
            }
            """
        let run = try Swiftc.run(["Re.machine.swift": source, "main.swift": main])
        guard run.status == 0 else { throw Failure(message: run.output) }
        return run.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    @Test("S115: reenter: true exits and re-enters the source when the target lies inside it; without it the source stays")
    func reenterExitsAndReentersTheSource() throws {
        let lines = try Self.printed.get()
        #expect(lines.prefix(3) == ["+p!+a", "-a-p!+p!+b", "-b+b"])
        let spec = try #require(SpecLoader.load(contents: Array(Self.yaml.utf8), path: "Re.machine.yml").spec)
        let semantics = spec.semantics
        let inner = try #require(semantics.transitions.entries.first { $0.description == "p --inner--> b" })
        let outer = try #require(semantics.transitions.entries.first { $0.description == "p --outer--> b" })
        #expect(semantics.domains[inner.id] == .some(nil))
        #expect(semantics.domains[outer.id] == semantics.tree.index["p"])
    }

    @Test("S116: reenter: true from a parallel state to its own descendant exits and re-enters it with every region")
    func reenterFromAParallelStateReentersEveryRegion() throws {
        let lines = try Self.printed.get()
        // par: p to q. outer: q to y, q kept, both regions re-entered (S26). par: q re-entered.
        #expect(Array(lines.dropFirst(3).prefix(3)) == ["-b-p!+q+x+u", "-u-x+y+u", "-u-y-q+q+y+u"])
    }

    @Test("S118: in a re-entering transition the source is active in its exit: and again in its entry:")
    func isInDuringReentrySeesS33() throws {
        let lines = try Self.printed.get()
        #expect(lines[1] == "-a-p!+p!+b")
        // The interpreter answers `isIn` from the same configuration the reducer does.
        let spec = try #require(SpecLoader.load(contents: Array(Self.yaml.utf8), path: "Re.machine.yml").spec)
        var host = ConfigurationProbe(watched: spec.semantics.tree.index["p"]!)
        var machine = MachineInterpreter(spec.semantics, host: &host)
        host.seen = []
        machine.step(.event("inner"), host: &host)
        #expect(host.seen == [true, true])
    }
}

/// Records, for each condition of a conditional action (`isIn(.p)` here), whether `watched` is
/// active in the configuration the interpreter gives it.
private struct ConfigurationProbe: MachineHost {
    let watched: Int
    var seen: [Bool] = []
    var trigger: MachineSemantics.StepTrigger?

    mutating func holds(_ guardExpression: Located<String>, branch: Int?, active: [Int]) -> Bool {
        guard branch == nil else { return false }
        seen.append(active.contains(watched))
        return active.contains(watched)
    }

    mutating func perform(_ action: Action) {}
    mutating func takeRaised() {}
    mutating func dropRaised() {}
    func delay(ofSent number: Int) -> Duration { .zero }
    mutating func takeSent(_ number: Int) {}
    mutating func elements(of loop: ForeachAction) -> Int { 0 }
    mutating func assign(_ position: Int, of loop: ForeachAction) {}
}
