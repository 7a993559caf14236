import Testing
@testable import StateLoopSpec

/// One test per check: the exact printed diagnostic, at the exact line and column.
@Suite struct SpecCheckerTests {
    // MARK: Coverage

    @Test func unhandledEventFailsAtStateLine() {
        let yaml = """
            machine: M
            events: {go: {}, stop: {}}
            initial: a
            states:
              a:
                on: {go: b}
              b:
                on: {stop: a}
                ignore: [go]
            """
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:5:3: error: state 'a' does not handle event 'stop' (fix: add `ignore: [stop]` to state 'a' or handle it under `on:`)",
        ])
    }

    @Test func unhandledEventsOfOneStateAreListedInOneDiagnostic() {
        let yaml = """
            machine: M
            events: {go: {}, stop: {}, reset: {}}
            initial: a
            states:
              a:
                on: {go: b, stop: a, reset: a}
              b:
                on: {go: a}
            """
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:7:3: error: state 'b' does not handle events 'stop', 'reset' (fix: add `ignore: [stop, reset]` to state 'b' or handle them under `on:`)",
        ])
    }

    @Test func machineWideIgnoreCoversEveryStateThatDoesNotHandleTheEvent() {
        let yaml = """
            machine: M
            events: {go: {}, tick: {}}
            ignore: [tick]
            initial: a
            states:
              a:
                on: {go: b}
              b:
                on: {go: a, tick: a}
            """
        #expect(printedDiagnostics(yaml) == [])
    }

    private let effectSpec = """
        machine: M
        context:
          id: {type: Int?, default: nil}
        events:
          go: {}
          loaded: {from: effects}
        initial: a
        states:
          a:
            on: {go: b}
          b:
            on: {go: a}
        effects:
          load:
            in: [b]
            request: {type: Int, value: id}
            emits: [loaded]
        """

    @Test func effectResultUnhandledWhereTheEffectRunsFailsWithANoteAtTheEffect() {
        #expect(printedDiagnostics(effectSpec) == [
            "test.machine.yml:6:3: warning: no state handles event 'loaded', so it never changes anything (fix: handle it under 'on:' in some state, or remove the event)",
            "test.machine.yml:11:3: error: state 'b' does not handle event 'loaded' (fix: add `ignore: [loaded]` to state 'b' or handle it under `on:`)\n"
                + "test.machine.yml:15:10: note: 'loaded' is a result of effect 'load', which can run in state 'b'",
        ])
    }

    @Test func effectsOnlyEventNeedsNoAnswerWhereNoEmittingEffectRuns() {
        let yaml = effectSpec.replacingOccurrences(of: "on: {go: a}", with: "on: {go: a, loaded: a}")
        #expect(printedDiagnostics(yaml) == [])
    }

    @Test func effectResultMayBeIgnoredExplicitly() {
        let yaml = effectSpec.replacingOccurrences(of: "on: {go: a}", with: "on: {go: a}\n    ignore: [loaded]")
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:6:3: warning: no state handles event 'loaded', so it never changes anything (fix: handle it under 'on:' in some state, or remove the event)",
        ])
    }

    @Test func anyoneEventEmittedByAnEffectGetsTheEffectNote() {
        let yaml = effectSpec.replacingOccurrences(of: "loaded: {from: effects}", with: "loaded: {}")
            .replacingOccurrences(of: "on: {go: b}", with: "on: {go: b, loaded: a}")
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:11:3: error: state 'b' does not handle event 'loaded' (fix: add `ignore: [loaded]` to state 'b' or handle it under `on:`)\n"
                + "test.machine.yml:15:10: note: 'loaded' is a result of effect 'load', which can run in state 'b'",
        ])
    }

    @Test func handlerOfAnEffectsOnlyEventWhereNoEmittingEffectRunsWarns() {
        let yaml = effectSpec.replacingOccurrences(of: "on: {go: b}", with: "on: {go: b, loaded: a}")
            .replacingOccurrences(of: "on: {go: a}", with: "on: {go: a, loaded: a}")
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:10:17: warning: state 'a' handles 'loaded', but no effect that emits it runs in 'a', so the handler never fires (fix: add 'a' to the 'in:' of an effect that emits 'loaded', or remove the handler)",
        ])
    }

    @Test func effectsOnlyEventThatNoEffectEmitsFails() {
        let yaml = """
            machine: M
            events:
              go: {}
              loaded: {from: effects}
            initial: a
            states:
              a:
                on: {go: a}
            """
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:4:3: error: event 'loaded' is 'from: effects' but no effect emits it, so nothing can send it (fix: add 'loaded' to the 'emits:' of an effect, or remove 'from: effects')",
        ])
    }

    @Test func eventBothHandledAndIgnoredFailsAtTheIgnoreEntry() {
        let yaml = """
            machine: M
            events: {go: {}}
            initial: a
            states:
              a:
                on: {go: a}
                ignore: [go]
            """
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:7:14: error: event 'go' is both handled and ignored in state 'a' (fix: remove 'go' from 'ignore:', or its handler from 'on:')\n"
                + "test.machine.yml:6:10: note: 'go' is handled here",
        ])
    }

    @Test func eventListedTwiceInIgnoreFails() {
        let yaml = """
            machine: M
            events: {go: {}, stop: {}}
            initial: a
            states:
              a:
                on: {go: a}
                ignore: [stop, stop]
            """
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:2:18: warning: no state handles event 'stop', so it never changes anything (fix: handle it under 'on:' in some state, or remove the event)",
            "test.machine.yml:7:20: error: event 'stop' is listed twice in 'ignore:' of state 'a' (fix: remove one of them)\n"
                + "test.machine.yml:7:14: note: 'stop' is first listed here",
        ])
    }

    @Test func eventNeverHandledAnywhereWarns() {
        let yaml = """
            machine: M
            events: {go: {}, tick: {}}
            initial: a
            states:
              a:
                on: {go: a}
                ignore: [tick]
            """
        let result = SpecLoader.load(contents: Array(yaml.utf8), path: "test.machine.yml")
        #expect(result.diagnostics.map(\.description) == [
            "test.machine.yml:2:18: warning: no state handles event 'tick', so it never changes anything (fix: handle it under 'on:' in some state, or remove the event)",
        ])
        #expect(result.spec != nil)
    }

    // MARK: Branches

    private let branchSpec = """
        machine: M
        context:
          n: {type: Int, default: "0"}
        events: {go: {}}
        initial: a
        states:
          a:
            on:
              go:
        """

    @Test func branchAfterAnUnconditionalBranchIsUnreachable() {
        let yaml = branchSpec + "\n      - {target: a}\n      - {guard: \"n > 0\", target: a}\n"
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:11:9: error: this branch is unreachable: an earlier branch without 'guard:' always applies (fix: remove it, or add a 'guard:' to the earlier branch)\n"
                + "test.machine.yml:10:9: note: this branch has no 'guard:', so it always applies",
        ])
    }

    @Test func secondIgnoreInABranchListIsUnreachable() {
        let yaml = branchSpec + "\n      - {guard: \"n > 0\", target: a}\n      - ignore\n      - ignore\n"
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:12:9: error: this 'ignore' is unreachable: an earlier 'ignore' already applies (fix: remove it)\n"
                + "test.machine.yml:11:9: note: this 'ignore' always applies",
        ])
    }

    @Test func branchAfterIgnoreIsUnreachable() {
        let yaml = branchSpec + "\n      - ignore\n      - {guard: \"n > 0\", target: a}\n"
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:11:9: error: this branch is unreachable: an earlier 'ignore' always applies (fix: move the 'ignore' to the end of the list)\n"
                + "test.machine.yml:10:9: note: this 'ignore' always applies",
        ])
    }

    @Test func timerBranchesAreCheckedInOrderToo() {
        let yaml = """
            machine: M
            events: {go: {}}
            initial: a
            states:
              a:
                on: {go: a}
                after:
                  5s: [a, ignore]
            """
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:8:15: error: this branch is unreachable: an earlier branch without 'guard:' always applies (fix: remove it, or add a 'guard:' to the earlier branch)\n"
                + "test.machine.yml:8:12: note: this branch has no 'guard:', so it always applies",
        ])
    }

    // MARK: References

    @Test func unknownTargetFailsWithDidYouMean() {
        let yaml = """
            machine: M
            events: {go: {}}
            initial: idle
            states:
              idle:
                on: {go: redy}
              ready:
                on: {go: idle}
            """
        #expect(printedDiagnostics(yaml) == [
            // 'ready' is not also reported unreachable: the typo leads where it was meant to.
            "test.machine.yml:6:14: error: target 'redy' is not a state (fix: did you mean 'ready'?)",
        ])
    }

    @Test func misspeltHandlerIsReportedOnceNotAlsoAsAnUnhandledEvent() {
        let yaml = """
            machine: M
            events: {searchChanged: {}, stop: {}}
            initial: a
            states:
              a:
                on: {serchChanged: a}
                ignore: [stpo]
            """
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:2:29: warning: no state handles event 'stop', so it never changes anything (fix: handle it under 'on:' in some state, or remove the event)",
            "test.machine.yml:6:10: error: state 'a' handles 'serchChanged', which is not an event (fix: did you mean 'searchChanged'?)",
            "test.machine.yml:7:14: error: state 'a' ignores 'stpo', which is not an event (fix: did you mean 'stop'?)",
        ])
    }

    @Test func unknownTimerTargetFails() {
        let yaml = """
            machine: M
            events: {go: {}}
            initial: idle
            states:
              idle:
                on: {go: idle}
                after: {250ms: {target: gone}}
            """
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:7:29: error: target 'gone' is not a state (fix: use one of idle, or declare 'gone' under 'states:')",
        ])
    }

    @Test func unknownInitialStateFailsWithDidYouMean() {
        let yaml = """
            machine: M
            events: {go: {}}
            initial: idel
            states:
              idle:
                on: {go: idle}
            """
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:3:10: error: initial state 'idel' is not a state (fix: did you mean 'idle'?)",
        ])
    }

    @Test func unknownEventsInHandlersAndIgnoreListsFail() {
        let yaml = """
            machine: M
            events: {go: {}, stop: {}}
            ignore: [stpo]
            initial: a
            states:
              a:
                on: {go: a, stop: a, og: a, zzz: a}
                ignore: [sotp]
            """
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:3:10: error: the machine ignores 'stpo', which is not an event (fix: did you mean 'stop'?)",
            "test.machine.yml:7:26: error: state 'a' handles 'og', which is not an event (fix: did you mean 'go'?)",
            "test.machine.yml:7:33: error: state 'a' handles 'zzz', which is not an event (fix: use one of go, stop, or declare 'zzz' under 'events:')",
            "test.machine.yml:8:14: error: state 'a' ignores 'sotp', which is not an event (fix: did you mean 'stop'?)",
        ])
    }

    @Test func unknownFieldInSetFailsWithDidYouMean() {
        let yaml = """
            machine: M
            context:
              count: {type: Int, default: "0"}
            events: {go: {}}
            initial: a
            states:
              a:
                on: {go: {target: a, set: {cuont: count + 1}}}
            """
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:8:32: error: 'set:' assigns 'cuont', which is not a context field (fix: did you mean 'count'?)",
        ])
    }

    @Test func unknownStatesAndEventsOfAnEffectFail() {
        let yaml = """
            machine: M
            context:
              id: {type: Int?, default: nil}
            events:
              go: {}
              loaded: {from: effects}
            initial: idle
            states:
              idle:
                on: {go: idle, loaded: idle}
            effects:
              load:
                in: [idle, lodaing, idle]
                request: {type: Int, value: id}
                emits: [loaded, lodaed]
            """
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:13:16: error: effect 'load' runs in 'lodaing', which is not a state (fix: use one of idle, or declare 'lodaing' under 'states:')",
            "test.machine.yml:13:25: error: state 'idle' is listed twice in 'in:' of effect 'load' (fix: remove one of them)\n"
                + "test.machine.yml:13:10: note: 'idle' is first listed here",
            "test.machine.yml:15:21: error: effect 'load' emits 'lodaed', which is not an event (fix: did you mean 'loaded'?)",
        ])
    }

    // MARK: Reachability

    @Test func stateUnreachableFromTheInitialStateWarns() {
        let yaml = """
            machine: M
            events: {go: {}}
            initial: a
            states:
              a:
                on: {go: b}
              b:
                after: {1s: a}
                ignore: [go]
              c:
                on: {go: a}
            """
        let result = SpecLoader.load(contents: Array(yaml.utf8), path: "test.machine.yml")
        #expect(result.diagnostics.map(\.description) == [
            "test.machine.yml:10:3: warning: state 'c' is unreachable: no transition from the initial state 'a' leads to it (fix: add a transition with 'target: c', or remove the state)",
        ])
        #expect(result.spec != nil)
    }

    // MARK: Names

    @Test func invalidIdentifiersFailWithARenameSuggestion() {
        let yaml = """
            machine: my machine
            context:
              2fa: {type: Bool, default: "false"}
            events: {go-on: {}}
            initial: my-state
            states:
              my-state:
                on: {go-on: my-state}
            """
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:1:10: error: 'my machine' is not a valid machine name; names are ASCII letters, digits and '_' and do not start with a digit (fix: rename it, e.g. 'MyMachine')",
            "test.machine.yml:3:3: error: '2fa' is not a valid context field name; names are ASCII letters, digits and '_' and do not start with a digit (fix: rename it, e.g. 'field2fa')",
            "test.machine.yml:4:10: error: 'go-on' is not a valid event name; names are ASCII letters, digits and '_' and do not start with a digit (fix: rename it, e.g. 'goOn')",
            "test.machine.yml:7:3: error: 'my-state' is not a valid state name; names are ASCII letters, digits and '_' and do not start with a digit (fix: rename it, e.g. 'myState')",
        ])
    }

    @Test func namesSwiftCannotTakeFail() {
        let yaml = """
            machine: M
            events: {init: {self: Int}}
            initial: Type
            states:
              Type:
                on: {init: Type}
            """
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:2:10: error: 'init' cannot be an event name: Swift does not accept it there, even in backticks (fix: rename it, e.g. 'initEvent')",
            "test.machine.yml:2:17: error: 'self' cannot be a payload field name: Swift does not accept it there, even in backticks (fix: rename it, e.g. 'selfField')",
            "test.machine.yml:5:3: error: 'Type' cannot be a state name: Swift does not accept it there, even in backticks (fix: rename it, e.g. 'TypeState')",
        ])
    }

    @Test func namesStartingWithUnderscoreAreReservedForGeneratedCode() {
        let yaml = """
            machine: M
            context:
              _cache: {type: Int, default: "0"}
            events: {go: {}}
            initial: a
            states:
              a:
                on: {go: a}
            """
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:3:3: error: '_cache' starts with '_', which is reserved for generated code (fix: rename it, e.g. 'cache')",
        ])
    }

    @Test func contextFieldNamedModeClashesWithTheGeneratedMode() {
        let yaml = """
            machine: M
            context:
              mode: {type: Int, default: "0"}
            events: {go: {}}
            initial: a
            states:
              a:
                on: {go: a}
            """
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:3:3: error: context field 'mode' would clash with the generated 'State.mode', which holds the current state (fix: rename the field, e.g. 'modeValue')",
        ])
    }

    @Test("E64: an effect or an event named description fails at its name: Call and Event print through 'description'")
    func effectOrEventNamedDescriptionFails() {
        let yaml = """
            machine: M
            events: {go: {}, description: {}}
            initial: a
            states:
              a:
                on: {go: a, description: a}
            effects:
              description: {in: [a], request: {type: Int, value: "0"}}
            """
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:2:18: error: event 'description' would redeclare 'description', through which 'Event' prints an event (E64) (fix: rename the event, e.g. 'describe')",
            "test.machine.yml:8:3: error: effect 'description' would redeclare 'description', through which 'Call' prints a call (E64) (fix: rename the effect, e.g. 'describe')",
        ])
    }

    @Test func contextFieldNamedEventClashesWithThePayloadName() {
        let yaml = """
            machine: M
            context:
              event: {type: Int, default: "0"}
            events: {go: {}}
            initial: a
            states:
              a:
                on: {go: a}
            """
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:3:3: error: context field 'event' would clash with the name expressions use for the event's payload ('event.x') (fix: rename the field, e.g. 'eventValue')",
        ])
    }

    @Test func contextFieldNamedAfterAKeywordWarnsThatExpressionsNeedBackticks() {
        let yaml = """
            machine: M
            context:
              throws: {type: Int, default: "0"}
            events: {go: {}}
            initial: a
            states:
              a:
                on: {go: {set: {throws: "`throws` + 1"}}}
            """
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:3:3: warning: context field 'throws' is a Swift keyword, so expressions must write it as `throws` (fix: rename the field, e.g. 'throwsCount', or write `throws` in guard:, set: and request expressions)",
        ])
    }

    @Test(arguments: ["Mode", "State", "Event", "Effects"])
    func machineNamedAfterAGeneratedNestedTypeFails(_ name: String) {
        let yaml = """
            machine: \(name)
            events: {go: {}}
            initial: a
            states:
              a:
                on: {go: a}
            """
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:1:10: error: machine '\(name)' would clash with the type '\(name)' generated inside it (fix: rename the machine, e.g. '\(name)Machine')",
        ])
    }

    @Test("S83: a machine named like a type the spec's Swift names fails at its name, with a note at the use")
    func machineNamedLikeATypeItsSwiftUsesFails() {
        let yaml = """
            machine: Int
            context:
              count: {type: Int, default: "0"}
            events: {go: {}}
            initial: a
            states:
              a:
                on: {go: a}
            """
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:1:10: error: machine 'Int' would hide the type 'Int' that the spec's Swift names: inside the generated code, 'Int' is the machine (fix: rename the machine, e.g. 'IntMachine')\n"
                + "test.machine.yml:3:17: note: 'Int' is named here",
        ])
        let expression = yaml.replacingOccurrences(of: "machine: Int", with: "machine: String")
            .replacingOccurrences(of: "default: \"0\"", with: "default: \"String(0).count\"")
        #expect(printedDiagnostics(expression) == [
            "test.machine.yml:1:10: error: machine 'String' would hide the type 'String' that the spec's Swift names: inside the generated code, 'String' is the machine (fix: rename the machine, e.g. 'StringMachine')\n"
                + "test.machine.yml:3:32: note: 'String' is named here",
        ])
    }

    @Test("S83: the machine's own name before a member, in a string or after a dot is no clash")
    func machineNameUsedAsItsNamespaceIsAccepted() throws {
        _ = try loadedSpec("""
            machine: M
            context:
              last: {type: "M.Mode?", default: nil}
              label: {type: String, default: '"M"'}
              size: {type: Int, default: "Foo.M"}
            events: {go: {}}
            initial: a
            states:
              a:
                on: {go: a}
            """)
    }

    @Test func effectsWhoseResultTypesCollideFail() {
        let yaml = """
            machine: M
            context:
              id: {type: Int?, default: nil}
            events: {go: {}}
            initial: a
            states:
              a:
                on: {go: a}
            effects:
              load: {in: [a], request: {type: Int, value: id}}
              Load: {in: [a], request: {type: Int, value: id}}
            """
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:11:3: error: effect 'Load' generates the Swift name 'LoadResult', which effect 'load' already uses (fix: rename one of them)\n"
                + "test.machine.yml:10:3: note: effect 'load' is declared here",
        ])
    }

    @Test func importsMustBeModuleNames() {
        let yaml = """
            machine: M
            imports: [Foundation, MyPackage.Models, "Foundation; exit(1)"]
            events: {go: {}}
            initial: a
            states:
              a:
                on: {go: a}
            """
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:2:42: error: 'Foundation; exit(1)' is not a module name (fix: write module names as Swift identifiers, such as Foundation or MyPackage.Module)",
        ])
    }

    @Test func machineNamedLikeAnImportedModuleFails() {
        let yaml = """
            machine: Foundation
            imports: [Foundation]
            events: {go: {}}
            initial: a
            states:
              a:
                on: {go: a}
            """
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:1:10: error: machine 'Foundation' would shadow the module 'Foundation' that the generated code imports (fix: rename the machine, e.g. 'FoundationMachine')",
        ])
        #expect(printedDiagnostics(yaml.replacingOccurrences(of: "Foundation", with: "StateLoop")).count == 1)
    }

    @Test func duplicateStateNamesFailAtTheSecondDeclaration() {
        let yaml = """
            machine: M
            events: {go: {}}
            initial: a
            states:
              a:
                on: {go: a}
              a:
                on: {go: a}
            """
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:7:3: error: duplicate key 'a'; a key may appear only once in a mapping (fix: merge the two entries, or rename one of them)\n"
                + "test.machine.yml:5:3: note: 'a' first appears here",
        ])
    }

    @Test func tooManyStateEventPairsFailAtTheMachineName() {
        let spec = SpecLoader.load(contents: Array("machine: M\nevents: {go: {}, stop: {}}\ninitial: a\nstates: {a: {on: {go: b, stop: b}}, b: {on: {go: a, stop: a}}}\n".utf8), path: "test.machine.yml").spec?.spec
        let diagnostics = spec.map { SpecChecker(maximumStateEventPairs: 3).check($0).map(\.description) }
        #expect(diagnostics == [
            "test.machine.yml:1:10: error: the machine has 2 states and 2 events, more than the 3 state-event pairs a generated reducer can hold (fix: split the machine into smaller machines)",
        ])
    }

    // MARK: Whole files

    @Test func allCheckDiagnosticsOfAFileAreReportedSortedByPosition() {
        let yaml = """
            machine: M
            events: {go: {}, stop: {}}
            initial: a
            states:
              a:
                on: {go: x}
              b:
                on: {go: a}
            """
        #expect(printedDiagnostics(yaml).map { String($0.prefix(while: { $0 != " " })) } == [
            "test.machine.yml:2:18:", "test.machine.yml:5:3:", "test.machine.yml:6:14:", "test.machine.yml:7:3:", "test.machine.yml:7:3:",
        ])
    }
}
