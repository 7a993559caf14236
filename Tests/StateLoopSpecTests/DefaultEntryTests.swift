@testable import StateLoopSpec
import Testing

// Actions of a default entry (Docs/Statecharts.md, "Actions of a default entry", S144–S148): a
// composite's `initial: {target:, do:}` and a history's `default: {target:, do:}`, decoded,
// checked, and run by the semantic core in SCXML's order. The compiled side is pinned by W3C
// tests 412 and 579 (W3CTests).

/// Records the events the actions raise, in the order the interpreter performs them.
private struct RaiseRecorder: MachineHost {
    var raised: [String] = []
    var trigger: MachineSemantics.StepTrigger?

    mutating func holds(_ guardExpression: Located<String>, branch: Int?, active: [Int]) -> Bool { true }
    mutating func perform(_ action: Action) {
        if case .raise(let event, _, _) = action { raised.append(event.value) }
    }
    mutating func takeRaised() {}
    mutating func dropRaised() {}
    func delay(ofSent number: Int) -> Duration { .zero }
    mutating func takeSent(_ number: Int) {}
    mutating func elements(of loop: ForeachAction) -> Int { 0 }
    mutating func assign(_ position: Int, of loop: ForeachAction) {}
}

/// The events raised by the start (`nil`) or by each of `events`, one list per step.
private func raises(_ yaml: String, start: Bool = false, steps events: [String]) throws -> [[String]] {
    let result = SpecLoader.load(contents: Array(yaml.utf8), path: "D.machine.yml")
    let spec = try #require(result.spec, "\(result.diagnostics.map(\.description))")
    var host = RaiseRecorder()
    var machine = MachineInterpreter(spec.semantics, host: &host)
    var lists = start ? [host.raised] : []
    for event in events {
        host.raised = []
        machine.step(.event(event), host: &host)
        lists.append(host.raised)
    }
    return lists
}

@Suite struct DefaultEntryTests {
    @Test("S144: initial: and default: with actions are decoded strictly, each error at its key with the fix")
    func defaultEntriesAreDecodedStrictly() {
        let yaml = """
            machine: M
            events: {go: {}}
            ignore: [go]
            initial: {target: a, do: []}
            states:
              a:
                initial: {do: [{raise: go}]}
                states:
                  a1: {}
                  h1: {type: history, target: a1, default: {target: a1}}
              b:
                initial: {target: b1, actions: [{raise: go}]}
                default: {target: b1}
                states:
                  b1: {}
            """
        #expect(printedDiagnostics(yaml).filter { $0.contains("error") } == [
            "test.machine.yml:4:10: error: the machine's 'initial:' takes no actions (fix: write 'initial: idle', and put the actions in the 'entry:' of the initial state)",
            "test.machine.yml:7:14: error: 'initial:' with actions needs a 'target:' (fix: write 'initial: {target: childState, do: [actions]}')",
            "test.machine.yml:10:39: error: a history state takes 'target:' or 'default:', not both (fix: move 'target:' into 'default: {target: stateName, do: [actions]}')",
            "test.machine.yml:12:27: error: unknown key 'actions' in 'initial:' (fix: did you mean 'do:'? a transition's actions are a list under 'do:')",
            "test.machine.yml:13:5: error: 'default:' belongs to a history state (fix: add 'type: history', or remove 'default:')",
        ])
    }

    @Test("S145: initial: actions run after the composite's entry: and before its children's, only when its initial: is read")
    func initialActionsRunAfterTheEntryBeforeTheChildren() throws {
        let yaml = """
            machine: M
            events: {go: {}, deep: {}, eA: {}, eI: {}, eC: {}, eX: {}}
            ignore: [eA, eI, eC, eX]
            initial: idle
            states:
              idle:
                on: {go: a, deep: c2}
              a:
                entry: [{raise: eA}]
                initial: {target: c1, do: [{raise: eI}]}
                on: {go: idle, deep: idle}
                states:
                  c1:
                    entry: [{raise: eC}]
                  c2:
                    entry: [{raise: eX}]
            """
        #expect(try raises(yaml, steps: ["go", "go", "deep"]) == [["eA", "eI", "eC"], [], ["eA", "eX"]])
        // Started in `a`, the machine reads its `initial:` too.
        let started = yaml.replacingOccurrences(of: "initial: idle", with: "initial: a")
        #expect(try raises(started, start: true, steps: []) == [["eA", "eI", "eC"]])
    }

    @Test("S146: a history's default: actions run after its parent's entry: and initial: actions, only while nothing is recorded")
    func historyDefaultActionsRunOnlyWithoutARecord() throws {
        let yaml = """
            machine: M
            events: {go: {}, back: {}, next: {}, eP: {}, eI: {}, eH: {}, eB: {}}
            ignore: [eP, eI, eH, eB]
            initial: idle
            states:
              idle:
                on: {go: p, back: h}
                ignore: [next]
              p:
                entry: [{raise: eP}]
                initial: {target: h, do: [{raise: eI}]}
                on: {go: idle, back: idle}
                states:
                  h:
                    type: history
                    default: {target: b, do: [{raise: eH}]}
                  a:
                    on: {next: b, back: h}
                  b:
                    entry: [{raise: eB}]
                    on: {next: a}
            """
        // Entered by default: entry, initial:, history default, then b. From inside p to its own
        // history with nothing recorded: the default's actions first, then b's entry. Re-entered
        // with a record of a: entry and initial: only.
        #expect(try raises(yaml, steps: ["go", "next", "back", "next", "go", "go"]) == [
            ["eP", "eI", "eH", "eB"], [], ["eH", "eB"], [], [], ["eP", "eI"],
        ])
        // Without `target:`, the history enters p's `initial:` states as its own default: p's
        // `initial:` actions do not run.
        let untargeted = yaml
            .replacingOccurrences(of: "initial: {target: h, do: [{raise: eI}]}", with: "initial: {target: b, do: [{raise: eI}]}")
            .replacingOccurrences(of: "default: {target: b, do: [{raise: eH}]}", with: "default: {do: [{raise: eH}]}")
        #expect(try raises(untargeted, steps: ["back"]) == [["eP", "eH", "eB"]])
    }

    @Test("S147: default entries' actions are checked like entry: actions, at their YAML lines, and read in entry order")
    func defaultActionsAreCheckedLikeEntryActions() throws {
        let yaml = """
            machine: M
            context: {n: {type: Int, default: "0"}}
            events: {go: {}}
            ignore: [go]
            initial: a
            states:
              a:
                initial: {target: a1, do: [{raise: ghost}, {set: {m: "1"}}]}
                states:
                  a1: {}
                  h: {type: history, default: {target: a1, do: [{run: nothing}]}}
            """
        let errors = printedDiagnostics(yaml).filter { $0.contains("error") }
        #expect(errors.contains { $0.hasPrefix("test.machine.yml:8:40: error:") && $0.contains("ghost") })
        #expect(errors.contains { $0.hasPrefix("test.machine.yml:8:55: error:") && $0.contains("'m'") })
        #expect(errors.contains { $0.hasPrefix("test.machine.yml:11:59: error:") && $0.contains("nothing") })
        #expect(errors.count == 3)
        // The core lists them after the entry: of the state they are anchored at.
        let valid = yaml.replacingOccurrences(of: "{raise: ghost}, {set: {m: \"1\"}}", with: "{set: {n: \"1\"}}")
            .replacingOccurrences(of: "[{run: nothing}]", with: "[{set: {n: \"2\"}}]")
        let spec = try #require(SpecLoader.load(contents: Array(valid.utf8), path: "D.machine.yml").spec)
        let lists = spec.semantics.actionLists(entering: spec.semantics.initialEntry)
        #expect(lists.map { $0.flatMap(\.expressions).map(\.value) } == [[], ["1"], []])
        // `stateloop paths` follows what they raise: `c` is reached only through the raise of
        // `a`'s `initial:`.
        let raising = """
            machine: M
            events: {go: {}, found: {}}
            initial: idle
            states:
              idle:
                on: {go: a}
                ignore: [found]
              a:
                initial: {target: a1, do: [{raise: found}]}
                states:
                  a1:
                    on: {found: c}
                    ignore: [go]
              c: {ignore: [go, found]}
            """
        let paths = MachinePaths(try loadedSpec(raising))
        let toC = try #require(paths.states.first { $0.name == "c" }?.steps)
        #expect(toC.map(paths.text(of:)) == ["go", "↺ found"])
        #expect(toC.map(\.isRaised) == [false, true])
        // Without the action, a test has to send `found` itself.
        let silent = MachinePaths(try loadedSpec(raising.replacingOccurrences(of: "{target: a1, do: [{raise: found}]}", with: "a1")))
        let sent = try #require(silent.states.first { $0.name == "c" }?.steps)
        #expect(sent.map(silent.text(of:)) == ["go", "found"])
    }

    @Test("S148: a default entry with actions below a history state's parent is an error at its first action")
    func defaultActionsBelowAHistoryAreRefused() {
        let yaml = """
            machine: M
            events: {go: {}}
            ignore: [go]
            initial: s0
            states:
              s0:
                initial: s01
                states:
                  hist: {type: history}
                  s01:
                    initial: {target: s011, do: [{raise: go}]}
                    states:
                      s011: {}
                      inner: {type: history, default: {target: s011, do: [{raise: go}]}}
            """
        #expect(printedDiagnostics(yaml).filter { $0.contains("error") } == [
            "test.machine.yml:11:38: error: the 'initial:' of 's01' cannot take actions: it lies in 's0', whose history state restores what is below it (fix: move the actions to the 'entry:' of the state the default enters, or to a default of 's0')",
            "test.machine.yml:14:63: error: the 'default:' of history state 'inner' cannot take actions: it lies in 's0', whose history state restores what is below it (fix: move the actions to the 'entry:' of the state the default enters, or to a default of 's0')",
        ])
    }
}
