import Testing
@testable import StateLoopSpec

@Suite struct SpecDecoderTests {
    private let header = """
        machine: M
        events: {go: {}}
        initial: a
        states:
          a:

        """

    // MARK: The model

    @Test func handlerFormsDecodeToBranches() throws {
        let spec = try loadedSpec("""
            machine: M
            context:
              n: {type: Int, default: "0"}
            events: {go: {}, stop: {}, reset: {}}
            initial: a
            states:
              a:
                on:
                  go: b
                  stop: ignore
                  reset:
                    - guard: "n > 0"
                      target: b
                      set: {n: n - 1}
                    - ignore
              b:
                on: {go: a, stop: {set: {n: "0"}}, reset: a}
            """)
        let a = spec.states[0]
        #expect(a.on.map(\.event.value) == ["go", "stop", "reset"])
        guard case .transition(let shorthand) = a.on[0].branches[0] else { Issue.record("expected a transition"); return }
        #expect(shorthand.target?.value == "b")
        #expect(shorthand.guardExpression == nil)
        guard case .ignore(let ignoreLocation) = a.on[1].branches[0] else { Issue.record("expected ignore"); return }
        #expect(ignoreLocation == specLocation(10, 13))
        #expect(a.on[2].branches.count == 2)
        guard case .transition(let guarded) = a.on[2].branches[0] else { Issue.record("expected a transition"); return }
        #expect(guarded.guardExpression == Located("n > 0", at: specLocation(12, 19)))
        #expect(guarded.assignments.map(\.field.value) == ["n"])
        #expect(guarded.assignments[0].expression == Located("n - 1", at: specLocation(14, 20)))
        guard case .transition(let internalTransition) = spec.states[1].on[1].branches[0] else { Issue.record("expected a transition"); return }
        #expect(internalTransition.target == nil)
        #expect(internalTransition.assignments[0].expression.value == "0")
    }

    @Test func contextDefaultsAndOptionalTypesDecode() throws {
        let spec = try loadedSpec("""
            machine: M
            context:
              search: {type: String, default: '""'}
              url: {type: URL?}
            events: {go: {search: String}}
            initial: a
            states:
              a:
                on: {go: {set: {search: event.search}}}
            """)
        #expect(spec.context.map(\.name.value) == ["search", "url"])
        #expect(spec.context[0].defaultValue == Located("\"\"", at: specLocation(3, 36)))
        #expect(spec.context[1].defaultValue == nil)
        #expect(spec.events[0].payload.map(\.type.value) == ["String"])
    }

    @Test func eventsFromEffectsAndTimersDecode() throws {
        let spec = try loadedSpec("""
            machine: M
            imports: [Foundation]
            context:
              id: {type: Int?, default: nil}
            events:
              go: {}
              loaded: {from: effects, value: Int}
            initial: a
            states:
              a:
                on: {go: a, loaded: a}
                after: {250ms: a, 1.5s: {target: a}}
            effects:
              load: {in: [a], request: {type: Int, value: id}, emits: [loaded]}
            """)
        #expect(spec.imports.map(\.value) == ["Foundation"])
        #expect(spec.events[1].source == .effects)
        #expect(spec.events[1].payload.map(\.name.value) == ["value"])
        #expect(spec.states[0].after.map(\.milliseconds) == [250, 1_500])
        #expect(spec.effects[0].request?.value?.value == "id")
        #expect(spec.effects[0].runningStates.map(\.value) == ["a"])
    }

    // MARK: Diagnostics

    @Test func emptySpecFailsWithAStartingPoint() {
        #expect(printedDiagnostics("") == [
            "test.machine.yml:1:1: error: the spec is empty (fix: start with 'machine: Name', then 'events:', 'initial:' and 'states:')",
        ])
    }

    @Test func scalarDocumentFailsAsNotAMapping() {
        #expect(printedDiagnostics("hello\n") == [
            "test.machine.yml:1:1: error: expected a mapping with 'machine:', 'events:', 'initial:', 'states:' at the top level, found 'hello' (fix: start the file with 'machine: Name' on its own line)",
        ])
    }

    @Test func missingRequiredKeysFailAtTheTop() {
        #expect(printedDiagnostics("events: {}\n") == [
            "test.machine.yml:1:1: error: the spec has no 'machine:' name (fix: add 'machine: MyMachine' at the top level; it names the generated Swift namespace)",
            "test.machine.yml:1:1: error: the spec has no 'initial:' state (fix: add 'initial: <state>' naming the state the machine starts in)",
            "test.machine.yml:1:1: error: the spec has no 'states:' (fix: add 'states:' with one entry per state, each with its 'on:' and 'ignore:')",
        ])
    }

    @Test func unknownKeySuggestsTheClosestKey() {
        #expect(printedDiagnostics(header + "    on:\n      go: {tagret: a}\n") == [
            "test.machine.yml:7:12: error: unknown key 'tagret' in a transition (fix: did you mean 'target'?)",
        ])
    }

    @Test func unknownKeyWithoutCloseMatchListsTheKeys() {
        #expect(printedDiagnostics("colour: red\n" + header + "    on: {go: a}\n") == [
            "test.machine.yml:1:1: error: unknown key 'colour' at the top level of a spec (fix: use one of machine, imports, persist, input, context, events, groups, on, ignore, delays, initial, states, effects, invariants)",
        ])
    }

    @Test("S9: XState spellings we do not use get a 'did you mean'")
    func xstateSpellingsGetADidYouMean() {
        #expect(printedDiagnostics(header + "    on: {go: {target: a, cond: ok, actions: []}}\n    final: true\n    parallel: true\n") == [
            "test.machine.yml:6:26: error: unknown key 'cond' in a transition (fix: did you mean 'guard:'?)",
            "test.machine.yml:6:36: error: unknown key 'actions' in a transition (fix: did you mean 'do:'? a transition's actions are a list under 'do:')",
            "test.machine.yml:7:5: error: unknown key 'final' in a state (fix: did you mean 'type: final'?)",
            "test.machine.yml:8:5: error: unknown key 'parallel' in a state (fix: did you mean 'type: parallel'?)",
        ])
    }

    @Test func listOfStatesFailsWithAdvice() {
        #expect(printedDiagnostics("machine: M\nevents: {}\ninitial: a\nstates: [a, b]\n") == [
            "test.machine.yml:4:9: error: expected a mapping of states, found a list (fix: write each state as a key ('idle:') followed by its 'on:' and 'ignore:')",
        ])
    }

    @Test func badDurationFailsWithTheAcceptedForms() {
        #expect(printedDiagnostics(header + "    on: {go: a}\n    after: {5 sec: a}\n") == [
            "test.machine.yml:7:13: error: '5 sec' is not a duration (fix: write a number followed by ms, s, m or h, such as 250ms, 5s, 1.5s or 2m, or the name of a delay under 'delays:')",
        ])
    }

    @Test func nonOptionalContextFieldWithoutDefaultFails() {
        let yaml = "machine: M\ncontext:\n  search: {type: String}\n  page: {default: \"1\"}\nevents: {}\ninitial: a\nstates: {a: {}}\n"
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:3:3: error: context field 'search' of non-optional type 'String' needs a 'default:' (fix: add 'default: <Swift expression>', or make the type optional ('String?') to start as nil)",
            "test.machine.yml:4:3: error: context field 'page' has no 'type:' (fix: write 'page: {type: Type, default: value}')",
        ])
    }

    @Test func fromWithAnotherValueThanEffectsFails() {
        #expect(printedDiagnostics("machine: M\nevents: {go: {from: users}}\ninitial: a\nstates: {a: {on: {go: a}}}\n") == [
            "test.machine.yml:2:21: error: 'from' in an event says who may send it and takes only 'effects', found 'users' (fix: write 'from: effects' for an event only effects send; 'from' cannot be a payload field, so rename that field)",
        ])
    }

    @Test func unquotedBracketTypeFailsWithQuotingAdvice() {
        #expect(printedDiagnostics("machine: M\nevents: {loaded: {items: [Repository]}}\ninitial: a\nstates: {a: {on: {loaded: a}}}\n") == [
            "test.machine.yml:2:26: error: expected a Swift type, found a list (fix: write the type as text; quote types with brackets or braces: \"[Repository]\")",
        ])
    }

    @Test func emptyBranchListAndEmptyHandlerFail() {
        #expect(printedDiagnostics(header + "    on:\n      go: []\n    after:\n      1s:\n") == [
            "test.machine.yml:7:11: error: the list of branches for 'go' is empty (fix: write 'ignore' to do nothing, or add '- {target: state}')",
            "test.machine.yml:9:10: error: the timer '1s' has no transition (fix: write a target state, '{target: state, set: {...}}', or 'ignore')",
        ])
    }

    @Test func effectInStatesNeedsARequestWithAValue() {
        let yaml = header + "    on: {go: a}\neffects:\n  load: {in: [a], emits: [go]}\n  save: {in: [a], request: {type: Int}}\n"
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:8:3: error: effect 'load' has no 'request:' (fix: add 'request: {type: T, value: expression}'; the effect runs while the value is not nil)",
            "test.machine.yml:9:3: error: effect 'save' runs in states, so its request needs a 'value:' (fix: add 'value: expression' to 'request:' (the effect runs while it is not nil), or remove 'in:' to start the effect with 'run:' actions)",
        ])
    }

    @Test("S42, S43: an effect without in: is one-shot, with or without a request")
    func effectWithoutInIsOneShot() throws {
        let spec = try loadedSpec(header + "    on: {go: a}\n    entry: [{run: beep}, {run: save, request: \"1\"}]\neffects:\n  beep: {}\n  save: {request: {type: Int}, emits: []}\n")
        #expect(spec.effects.map(\.isOneShot) == [true, true])
        #expect(spec.effects[0].request == nil)
        #expect(spec.effects[1].request?.type.value == "Int")
        #expect(spec.effects[1].request?.value == nil)
    }

    @Test func everyDecodingProblemOfTheFileIsReported() {
        let yaml = """
            machine: M
            events: {go: {}}
            initial: a
            states:
              a:
                on: {go: {gaurd: x}}
                ignroe: [go]
                after: {5 sec: a}
            effects: [load]
            """
        #expect(printedDiagnostics(yaml).count == 4)
    }
}

@Suite struct DurationParserTests {
    @Test func acceptedFormsParseToMilliseconds() {
        #expect(DurationParser.milliseconds("250ms") == 250)
        #expect(DurationParser.milliseconds("5s") == 5_000)
        #expect(DurationParser.milliseconds("1.5s") == 1_500)
        #expect(DurationParser.milliseconds("2m") == 120_000)
        #expect(DurationParser.milliseconds("1h") == 3_600_000)
        #expect(DurationParser.milliseconds("0.25s") == 250)
        #expect(DurationParser.milliseconds("0ms") == 0)
    }

    @Test func otherFormsAreRejected() {
        for text in ["", "5", "s", "ms", "1.5ms", "-1s", "1e3s", "5 s", ".5s", "5.s", "5sec", "1,5s", "99999999999999s", "400d", "9000h", "0.0001s"] {
            #expect(DurationParser.milliseconds(text) == nil, "\(text)")
        }
    }
}

@Suite struct SpellingSuggestionTests {
    @Test func closeNamesAreSuggested() {
        #expect(SpellingSuggestion.closest(to: "redy", among: ["idle", "ready"]) == "ready")
        #expect(SpellingSuggestion.closest(to: "og", among: ["go", "stop"]) == "go")
        #expect(SpellingSuggestion.closest(to: "Target", among: ["guard", "target"]) == "target")
        #expect(SpellingSuggestion.closest(to: "searchChangd", among: ["searchChanged", "loaded"]) == "searchChanged")
    }

    @Test func distantNamesAreNotSuggested() {
        #expect(SpellingSuggestion.closest(to: "zzz", among: ["go", "stop"]) == nil)
        #expect(SpellingSuggestion.closest(to: "colour", among: SpecDecoder.Keys.machine) == nil)
        #expect(SpellingSuggestion.closest(to: "x", among: [String]()) == nil)
    }

    @Test func editDistanceCountsTranspositionsAsOneEdit() {
        #expect(SpellingSuggestion.editDistance("stop", "sotp") == 1)
        #expect(SpellingSuggestion.editDistance("", "abc") == 3)
        #expect(SpellingSuggestion.editDistance("kitten", "sitting") == 3)
    }
}
