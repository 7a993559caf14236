import Testing
@testable import StateLoopSpec

/// The checks of nested states (Docs/Statecharts.md, sections 1 and 3): one test per rule, each
/// with the exact printed diagnostic at its line and column.
@Suite struct StatechartCheckTests {
    /// A machine around `states`, with events `go` and `stop` ignored machine-wide unless `ignore` says otherwise.
    private func machine(_ states: String, ignore: String = "[go, stop]", extra: String = "") -> String {
        "machine: M\nevents: {go: {}, stop: {}}\nignore: \(ignore)\ninitial: a\n\(extra)states:\n" + states
    }

    /// The diagnostics of `yaml`, without the warnings about events no state handles (the
    /// machines here ignore them everywhere on purpose).
    private func checked(_ yaml: String) -> [String] {
        printedDiagnostics(yaml).filter { !$0.contains("no state handles event") }
    }

    @Test("S1: a composite without initial: fails at its name")
    func compositeNeedsInitial() {
        #expect(checked(machine("  a:\n    states:\n      b: {}\n")) == [
            "test.machine.yml:6:3: error: composite state 'a' has no 'initial:' (fix: add 'initial: b' naming the child entered first)",
            "test.machine.yml:8:7: warning: state 'b' is unreachable: no transition from the initial state 'a' leads to it (fix: add a transition with 'target: b', or remove the state)",
        ])
    }

    @Test("S92: a state named description fails at its name: Mode prints through 'description'")
    func aStateNamedDescriptionFails() {
        #expect(checked(machine("  a:\n    initial: description\n    states:\n      description: {}\n")) == [
            "test.machine.yml:9:7: error: state 'description' would redeclare 'description', through which 'Mode' prints the active states (S92) (fix: rename the state, e.g. 'describing')",
        ])
    }

    @Test("S1: initial: naming something else fails at the value, with a did-you-mean")
    func initialMustNameAChild() {
        #expect(checked(machine("  a:\n    initial: bb\n    states:\n      b: {}\n")) == [
            "test.machine.yml:7:14: error: 'bb' is not a child of 'a' (fix: did you mean 'b'?)",
            "test.machine.yml:9:7: warning: state 'b' is unreachable: no transition from the initial state 'a' leads to it (fix: add a transition with 'target: b', or remove the state)",
        ])
    }

    @Test("S2: a duplicate state name fails at the second one, with a note at the first")
    func namesAreUniqueInTheWholeMachine() {
        let diagnostics = SpecLoader.load(contents: Array(machine("  a:\n    initial: b\n    states:\n      b: {}\n  b: {}\n").utf8), path: "test.machine.yml").diagnostics
            .filter { $0.severity == .error }
        #expect(diagnostics.map(\.description) == [
            "test.machine.yml:10:3: error: state 'b' is declared twice; state names are unique in the whole machine (fix: rename one of them)\ntest.machine.yml:9:7: note: 'b' is first declared here",
        ])
        #expect(diagnostics.first?.notes.map(\.location) == [specLocation(9, 7)])
    }

    @Test("S3, S60: a final state's forbidden keys fail at each key")
    func finalStatesCarryNoTransitions() {
        let yaml = machine("  a:\n    on: {go: f}\n  f:\n    type: final\n    on: {stop: a}\n    exit: []\n")
        #expect(checked(yaml) == [
            "test.machine.yml:10:5: error: a final state has no 'on:' (fix: remove 'on:', or remove 'type: final' to make 'f' an ordinary state)",
            "test.machine.yml:11:5: error: a top-level final state is never exited, so its 'exit:' would never run (fix: move the actions to 'entry:', which runs when the machine finishes)",
        ])
    }

    @Test("S4: a history state outside a composite fails at its type:")
    func historyBelongsInAComposite() {
        #expect(checked(machine("  a: {}\n  h: {type: history}\n")) == [
            "test.machine.yml:7:3: warning: state 'h' is unreachable: no transition from the initial state 'a' leads to it (fix: add a transition with 'target: h', or remove the state)",
            "test.machine.yml:7:13: error: a history state belongs inside a composite or parallel state (fix: move 'h' under the 'states:' of the state whose last configuration it restores)",
        ])
    }

    @Test("S4: a history default outside its parent fails at the target")
    func historyDefaultStaysInsideItsParent() {
        let yaml = machine("  a:\n    initial: b\n    states:\n      b: {on: {go: h}}\n      h: {type: history, target: c}\n  c: {}\n")
        #expect(checked(yaml).first == "test.machine.yml:10:34: error: the default 'target:' of history state 'h' must be a state inside 'a' (fix: name one of the states below 'a', or remove 'target:' to default to its 'initial:')")
    }

    @Test("S5: a parallel state has no initial:, and each of its children is a region with states:")
    func parallelChildrenAreRegions() {
        let yaml = machine("  a:\n    type: parallel\n    initial: r\n    states:\n      r: {initial: x, states: {x: {}}}\n      leaf: {}\n")
        #expect(checked(yaml) == [
            "test.machine.yml:8:5: error: a parallel state has no 'initial:': all its regions are entered (fix: remove 'initial:'; to start a region elsewhere, set that region's own 'initial:')",
            "test.machine.yml:11:7: error: region 'leaf' of parallel state 'a' has no 'states:' (fix: give 'leaf' its own 'states:' and 'initial:': each child of a parallel state is a region)",
        ])
    }

    @Test("S6: initial: may name a history state only if it has a target:")
    func initialHistoryNeedsADefault() {
        let yaml = machine("  a:\n    initial: h\n    states:\n      b: {}\n      h: {type: history}\n")
        #expect(checked(yaml) == [
            "test.machine.yml:7:14: error: 'initial:' names history state 'h', which has no default 'target:' (fix: add 'target:' to 'h', or name an ordinary child as 'initial:')",
            "test.machine.yml:9:7: warning: state 'b' is unreachable: no transition from the initial state 'a' leads to it (fix: add a transition with 'target: b', or remove the state)",
        ])
    }

    @Test("S7: onDone: on a leaf fails at the key")
    func onDoneBelongsToAComposite() {
        #expect(checked(machine("  a:\n    onDone: a\n")) == [
            "test.machine.yml:7:5: error: 'onDone:' belongs to a composite or parallel state; 'a' has no children to finish (fix: move 'onDone:' to the state that contains the final state)",
        ])
    }

    @Test("S15, S17: a nested leaf that misses an event fails at its name, naming its ancestors")
    func nestedLeafMissingAnEventNamesItsAncestors() {
        let yaml = machine("  a:\n    initial: b\n    states:\n      b: {on: {go: b}}\n", ignore: "[]")
        #expect(checked(yaml) == [
            "test.machine.yml:9:7: error: state 'b' does not handle event 'stop' (fix: add `ignore: [stop]` to state 'b' or to its ancestor 'a', or handle it under `on:`)",
        ])
    }

    @Test("S10, S15: an ancestor's handler or ignore answers for its leaves")
    func ancestorsAnswerForTheirLeaves() throws {
        let yaml = machine("  a:\n    initial: b\n    on: {stop: a}\n    states:\n      b: {on: {go: c}}\n      c:\n        initial: d\n        ignore: [go]\n        states:\n          d: {}\n", ignore: "[]")
        _ = try loadedSpec(yaml)
    }

    @Test("S15: the machine's own on: answers for every leaf")
    func machineWideHandlersCount() throws {
        _ = try loadedSpec(machine("  a:\n    initial: b\n    states:\n      b: {on: {go: b}}\n", ignore: "[]", extra: "on: {stop: a}\n"))
    }

    @Test("S16: history states and top-level final states need no answers")
    func historyAndTopLevelFinalsAreNotChecked() throws {
        _ = try loadedSpec(machine("  a:\n    initial: b\n    on: {stop: f}\n    states:\n      b: {on: {go: h}}\n      h: {type: history}\n  f: {type: final}\n", ignore: "[]"))
    }

    @Test("S20: after: timers need no answer from any leaf: each is answered by its own state")
    func timersNeedNoAnswers() {
        let yaml = machine("  a:\n    initial: b\n    after: {1s: c}\n    states:\n      b: {after: {2s: c}}\n  c: {after: {5s: a}}\n")
        #expect(checked(yaml) == [])
    }

    @Test("S42: run: of an effect with in: fails at the run: value")
    func runStartsOnlyOneShotEffects() {
        let yaml = machine(
            "  a:\n    entry: [{run: load, request: \"1\"}]\n",
            extra: "effects:\n  load: {in: [a], request: {type: Int, value: \"1\"}, emits: []}\n")
        #expect(checked(yaml) == [
            "test.machine.yml:9:19: error: 'run:' starts effect 'load', which runs by itself in the states of its 'in:' (fix: declare a separate effect without 'in:' for the one-shot run)\ntest.machine.yml:6:3: note: 'load' is declared here",
        ])
    }

    @Test("S43: run: gives a request exactly when the effect takes one")
    func runRequestMatchesTheEffect() {
        let yaml = machine(
            "  a:\n    entry: [{run: save}, {run: beep, request: \"1\"}]\n",
            extra: "effects:\n  save: {request: {type: Int}}\n  beep: {}\n")
        #expect(checked(yaml) == [
            "test.machine.yml:10:13: error: 'run: save' needs a 'request:' of type 'Int' (fix: write '{run: save, request: expression}')",
            "test.machine.yml:10:48: error: effect 'beep' takes no request (fix: remove 'request:', or declare 'request: {type: T}' on the effect)",
        ])
    }

    @Test("S49: ignore in always: fails at it")
    func alwaysHasNothingToIgnore() {
        #expect(checked(machine("  a:\n    always: [{guard: \"true\", target: a}, ignore]\n")) == [
            "test.machine.yml:7:42: error: 'ignore' has nothing to ignore in 'always:' or 'onDone:' (fix: remove it: when no branch applies, nothing happens)",
        ])
    }

    @Test("S50: unguarded always: transitions that loop fail at the first state's always:")
    func unguardedAlwaysLoopsFail() {
        #expect(checked(machine("  a:\n    always: b\n  b:\n    always: a\n")) == [
            "test.machine.yml:7:5: error: 'always:' transitions without a guard loop forever: a -> b -> a (fix: add a 'guard:' to one of them)",
        ])
    }

    @Test("S50: an unguarded always: without target loops on its own state")
    func unguardedTargetlessAlwaysFails() {
        #expect(checked(machine("  a:\n    always: {}\n")) == [
            "test.machine.yml:7:5: error: 'always:' transitions without a guard loop forever: a -> a (fix: add a 'guard:' to one of them)",
        ])
    }

    @Test("S80: a shallow history's record enters the recorded child through its initial: chain (W3C test 388)")
    func shallowHistoryRecordMakesTheInitialChainReachable() {
        // s012 is the machine's first state, so s0 and s01 are active without being entered
        // through their initial:. The record of h can be s01, which re-enters s01 through s011.
        let states = "  s0:\n    initial: s02\n    on: {go: s1}\n    states:\n      s01:\n        initial: s011\n        states:\n          s011: {}\n          s012: {}\n          s013: {}\n      s02: {}\n      h: {type: history, target: s02}\n  s1:\n    on: {stop: h}\n"
        let yaml = "machine: M\nevents: {go: {}, stop: {}}\nignore: [go, stop]\ninitial: s012\nstates:\n" + states
        #expect(checked(yaml) == [
            "test.machine.yml:15:11: warning: state 's013' is unreachable: no transition from the initial state 's012' leads to it (fix: add a transition with 'target: s013', or remove the state)",
        ])
    }

    @Test("S80: a deep history's default enters its parent's initial: chain, even where the parent was already active")
    func deepHistoryDefaultMakesTheInitialChainReachable() {
        let states = "  s0:\n    initial: s01\n    on: {go: s1}\n    states:\n      s01:\n        initial: s011\n        states:\n          s011: {}\n          s012: {}\n      h: {type: history, history: deep}\n  s1:\n    on: {stop: h}\n"
        let yaml = "machine: M\nevents: {go: {}, stop: {}}\nignore: [go, stop]\ninitial: s012\nstates:\n" + states
        #expect(checked(yaml) == [])
    }

    @Test("S80: entering a state inside one region of a parallel state enters the other regions' initial: chains (S97)")
    func enteringOneRegionMakesTheOtherRegionsReachable() {
        let states = "  a: {on: {go: y}}\n  p:\n    type: parallel\n    states:\n      r1:\n        initial: x\n        states:\n          x: {}\n          y: {}\n      r2:\n        initial: u\n        states:\n          u: {}\n"
        let yaml = "machine: M\nevents: {go: {}}\nignore: [go]\ninitial: a\nstates:\n" + states
        #expect(checked(yaml) == [
            "test.machine.yml:13:11: warning: state 'x' is unreachable: no transition from the initial state 'a' leads to it (fix: add a transition with 'target: x', or remove the state)",
        ])
    }

    @Test("S81: an unguarded onDone: that re-enters its own composite fails at the onDone: key")
    func unguardedOnDoneReenteringItsCompositeFails() {
        #expect(checked(machine("  a:\n    initial: f\n    onDone: a\n    states:\n      f: {type: final}\n")) == [
            "test.machine.yml:8:5: error: 'onDone:' transitions without a guard loop forever: a -> a (fix: add a 'guard:' to one of them)",
        ])
    }

    @Test("S81: an unguarded onDone: that enters its own final state again fails, and so does a chain of them")
    func unguardedOnDoneChainsFail() {
        #expect(checked(machine("  a:\n    initial: x\n    onDone: f\n    states:\n      x: {on: {go: f}}\n      f: {type: final}\n")) == [
            "test.machine.yml:8:5: error: 'onDone:' transitions without a guard loop forever: a -> a (fix: add a 'guard:' to one of them)",
        ])
        let chain = "  a:\n    initial: f1\n    onDone: b\n    states:\n      f1: {type: final}\n  b:\n    initial: f2\n    onDone: a\n    states:\n      f2: {type: final}\n"
        #expect(checked(machine(chain)) == [
            "test.machine.yml:8:5: error: 'onDone:' transitions without a guard loop forever: a -> b -> a (fix: add a 'guard:' to one of them)",
        ])
    }

    @Test("S84: an onDone: of a composite without a final child, or of a parallel state with a region without one, warns")
    func onDoneThatCannotFireWarns() {
        #expect(checked(machine("  a:\n    initial: x\n    onDone: {set: {}}\n    states:\n      x: {on: {go: x}}\n")).contains(
            "test.machine.yml:8:5: warning: 'onDone:' of 'a' never fires: 'a' has no final child (fix: add a child with 'type: final' to 'a', or remove 'onDone:')"))
        let parallel = "  a:\n    type: parallel\n    onDone: {target: a}\n    states:\n      r1: {initial: f1, states: {f1: {type: final}}}\n      r2: {initial: x, states: {x: {on: {go: x}}}}\n"
        #expect(checked(machine(parallel)) == [
            "test.machine.yml:8:5: warning: 'onDone:' of 'a' never fires: region 'r2' of 'a' has no final child (fix: add a child with 'type: final' to 'r2', or remove 'onDone:')",
        ])
    }

    @Test("S81: a parallel state's unguarded onDone: that re-enters it with every region final fails")
    func unguardedParallelOnDoneFails() {
        let yaml = machine("  a:\n    type: parallel\n    onDone: a\n    states:\n      r1: {initial: f1, states: {f1: {type: final}}}\n      r2: {initial: f2, states: {f2: {type: final}}}\n")
        #expect(checked(yaml) == [
            "test.machine.yml:8:5: error: 'onDone:' transitions without a guard loop forever: a -> a (fix: add a 'guard:' to one of them)",
        ])
    }

    @Test("S81: an onDone: and an always: without guards that loop through each other fail at the first state")
    func unguardedOnDoneAndAlwaysLoopFails() {
        let yaml = machine("  a:\n    initial: f\n    onDone: c\n    states:\n      f: {type: final}\n  c:\n    always: a\n")
        #expect(checked(yaml) == [
            "test.machine.yml:8:5: error: 'always:' and 'onDone:' transitions without a guard loop forever: a -> c -> a (fix: add a 'guard:' to one of them)",
        ])
    }

    @Test("S81: a guarded onDone:, one without a target, and one that leaves for good are not loops")
    func onDoneThatSettlesIsAccepted() throws {
        _ = try loadedSpec(machine("  a:\n    initial: f\n    onDone: {guard: \"false\", target: a}\n    states:\n      f: {type: final}\n"))
        _ = try loadedSpec(machine("  a:\n    initial: f\n    onDone: {}\n    states:\n      f: {type: final}\n"))
        _ = try loadedSpec(machine("  a:\n    initial: f\n    onDone: b\n    states:\n      f: {type: final}\n  b: {on: {go: a}}\n"))
    }

    @Test("S50: a guarded always: is not a loop")
    func guardedAlwaysIsAccepted() throws {
        _ = try loadedSpec(machine("  a:\n    always: {guard: \"false\", target: b}\n  b:\n    always: a\n"))
    }

    @Test("Names: two composites whose Mode types would be spelt alike fail at the second")
    func modeTypeNamesMustNotCollide() {
        let yaml = machine("  a:\n    initial: x\n    states:\n      x: {}\n  A: {}\n")
        #expect(checked(yaml).contains {
            $0.hasPrefix("test.machine.yml:6:3: error: state 'a' generates the Swift name 'A', which state 'A' already uses")
        }, "\(checked(yaml))")
    }

    @Test("S82: a composite whose Mode type would hide Mode, a module the generated code names, or a name Swift keeps fails at its name",
          arguments: [
            ("mode", "Mode", "would hide 'Mode' inside it, where the generated code names every state type 'Mode.<Name>'"),
            ("swift", "Swift", "would hide the module 'Swift' inside 'Mode', where the generated code names 'Swift.Hashable' and 'Swift.Sendable'"),
            ("stateLoop", "StateLoop", "would hide the module 'StateLoop' inside 'Mode', where the generated code may name the runtime's types"),
            ("type", "Type", "is the metatype's name in Swift: a nested type cannot take it"),
            ("protocol", "Protocol", "is the protocol metatype's name in Swift: a nested type cannot take it"),
            ("any", "Any", "is a Swift keyword: a type cannot take it"),
          ])
    func modeTypeNamesTheGeneratedCodeNeedsAreReserved(_ state: String, _ type: String, _ why: String) {
        let yaml = machine("  a:\n    initial: \(state)\n    states:\n      \(state):\n        initial: x\n        states:\n          x: {}\n")
        #expect(checked(yaml) == [
            "test.machine.yml:9:7: error: state '\(state)' generates the Swift type 'Mode.\(type)', which \(why) (fix: rename the state, e.g. '\(state)State')",
        ])
    }

    @Test("S8: a history state that nothing targets gets the unreachable-state warning")
    func untargetedHistoryIsUnreachable() {
        #expect(checked(machine("  a:\n    initial: b\n    states:\n      b: {}\n      h: {type: history}\n")) == [
            "test.machine.yml:10:7: warning: state 'h' is unreachable: no transition from the initial state 'a' leads to it (fix: add a transition with 'target: h', or remove the state)",
        ])
    }

    @Test("S18: every leaf of a region is checked; a region may ignore what is not its business")
    func regionLeavesAreCheckedOneByOne() {
        let regions = "  a:\n    type: parallel\n    states:\n      r1:\n        initial: x\n        ignore: [go]\n        states:\n          x: {on: {stop: x}}\n      r2:\n        initial: y\n        states:\n          y: {on: {go: y}}\n"
        #expect(checked(machine(regions, ignore: "[]")) == [
            "test.machine.yml:17:11: error: state 'y' does not handle event 'stop' (fix: add `ignore: [stop]` to state 'y' or to one of its ancestors 'r2', 'a', or handle it under `on:`)",
        ])
    }

    @Test("S19: results of a one-shot effect must be answered in every leaf; an in: composite covers its leaves")
    func effectResultsAreAnsweredWhereTheyCanArrive() {
        let yaml = "machine: M\nevents: {go: {}, done: {from: effects}, loaded: {from: effects}}\nignore: [go]\ninitial: a\n"
            + "states:\n  a:\n    initial: b\n    entry: [{run: ping}]\n    states:\n      b: {on: {done: b}}\n  c: {}\n"
            + "effects:\n  ping: {emits: [done]}\n  load: {in: [a], request: {type: Int, value: \"1\"}, emits: [loaded]}\n"
        #expect(checked(yaml) == [
            "test.machine.yml:10:7: error: state 'b' does not handle event 'loaded' (fix: add `ignore: [loaded]` to state 'b' or to its ancestor 'a', or handle it under `on:`)\ntest.machine.yml:14:15: note: 'loaded' is a result of effect 'load', which can run in state 'b'",
            "test.machine.yml:11:3: error: state 'c' does not handle event 'done' (fix: add `ignore: [done]` to state 'c' or handle it under `on:`)",
            "test.machine.yml:11:3: warning: state 'c' is unreachable: no transition from the initial state 'a' leads to it (fix: add a transition with 'target: c', or remove the state)",
        ])
    }
}
