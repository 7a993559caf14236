@testable import StateLoopCodegen
import StateLoopSpec
import Testing

/// Small specs in, exact Swift fragments out: the parts of the generator that are easy to get
/// subtly wrong.
@Suite struct SnippetTests {
    /// A machine with one state and one event; `handler` is the YAML of the event's handler.
    func oneState(context: String = "n: {type: Int, default: \"0\"}", events: String = "go: {}", handler: String, extra: String = "") -> String {
        """
        machine: M
        context:
          \(context)
        events:
          \(events)
        initial: a
        states:
          a:
            on:
              go: \(handler)
        \(extra)
        """
    }

    @Test func guardedBranchesBecomeAnIfChainAndIgnoreIsTheElse() {
        let source = generate(oneState(
            events: "go: {by: Int}",
            handler: "[{guard: \"event.by > 1\", set: {n: n + 2}}, {guard: \"event.by > 0\", set: {n: n + 1}}, ignore]"
        ))
        // Each guard is an `if` condition in parentheses at its YAML column, its `) {` on the next
        // line (the condition may end in a comment); each `set:` value is assigned to `_next` from `self`.
        expectContains(source, """
                        case .go(let _0):
                            let event: Event.GoPayload = .init(by: _0)
            #sourceLocation(file: "Test.machine.yml", line: 10)
                            if (event.by > 1
                            ) {
            #sourceLocation()
                                _trace.take(0)
            #sourceLocation(file: "Test.machine.yml", line: 10)
                                              _next.n = n + 2
            #sourceLocation(file: "Test.machine.yml", line: 10)
                                                               } else if (event.by > 0
                            ) {
            #sourceLocation()
                                _trace.take(1)
            #sourceLocation(file: "Test.machine.yml", line: 10)
                                                                                        _next.n = n + 1
            #sourceLocation()
                            } else {
                                _trace.take(2) // ignored
                            }
                        }
            """)
    }

    @Test func aCaseBindsThePayloadOnlyWhenAnExpressionMentionsEvent() {
        let source = generate(oneState(events: "go: {by: Int}", handler: "{set: {n: n + 1}}"))
        expectContains(source, """
                        case .go:
                            _trace.take(0)
            #sourceLocation(file: "Test.machine.yml", line: 10)
            """)
        #expect(!source.contains("let event"))
        // A word `event` counts wherever it stands; `events` and `_event` do not.
        #expect(MachineContextBuilder.mentions("event", in: "\"event\" + x"))
        #expect(MachineContextBuilder.mentions("event", in: "f(event.by)"))
        #expect(!MachineContextBuilder.mentions("event", in: "events.count + _event"))
    }

    @Test func aHandlerThatOnlyIgnoresBindsNoPayload() {
        let source = generate(oneState(events: "go: {by: Int}", handler: "[ignore]"))
        expectContains(source, """
                        case .go:
                            _trace.take(0) // ignored
            """)
    }

    @Test func anUnguardedBranchAfterGuardsIsTheElse() {
        let source = generate(oneState(handler: "[{guard: \"n > 0\", set: {n: n - 1}}, {set: {n: \"9\"}}]"))
        expectContains(source, """
                            ) {
            #sourceLocation()
                                _trace.take(0)
            #sourceLocation(file: "Test.machine.yml", line: 10)
                                       _next.n = n - 1
            #sourceLocation()
                            } else {
                                _trace.take(1)
            #sourceLocation(file: "Test.machine.yml", line: 10)
                                                           _next.n = 9
            #sourceLocation()
                            }
            """)
    }

    @Test func anInternalTransitionKeepsTheModeAndTheTimers() {
        let source = generate(oneState(handler: "{set: {n: n + 1}}", extra: "    after: {1s: {target: a}}"))
        expectContains(source, """
                            _trace.take(0)
            #sourceLocation(file: "Test.machine.yml", line: 10)
                      _next.n = n + 1
            #sourceLocation()
                        case ._timer
            """)
    }

    @Test func aTransitionWithoutExpressionsIsPlainSwift() {
        let source = generate(oneState(handler: "[{guard: \"n > 0\", target: a}, {target: a}]"))
        expectContains(source, """
                            ) {
            #sourceLocation()
                                _trace.take(0)
                                _next.mode = .a
                            } else {
                                _trace.take(1)
                                _next.mode = .a
                            }
            """)
    }

    @Test func anExternalTransitionEntersAndCountsTheEntry() {
        let source = generate(oneState(handler: "{target: a}", extra: "    after: {1s: {target: a}}"))
        expectContains(source, """
                        case .go:
                            _trace.take(0)
                            _next._entries &+= 1
                            _next.mode = .a
            """)
    }

    @Test func everySetValueIsComputedBeforeAnyIsAssigned() {
        let source = generate(oneState(context: "x: {type: Int, default: \"0\"}\n  y: {type: Int, default: \"0\"}", handler: "{set: {x: y, y: x}}"))
        // The values read `self`, the state before the event; the assignments write `_next`.
        expectContains(source, """
            #sourceLocation(file: "Test.machine.yml", line: 11)
                      _next.x = y
            #sourceLocation(file: "Test.machine.yml", line: 11)
                            _next.y = x
            #sourceLocation()
            """)
        expectContains(source, "fileprivate func _reduce<_R: StateLoop._TransitionRecorder>(_ _event: Event, _ _next: inout State, _ _trace: inout _R) {")
        expectContains(source, "        let old = state\n        old._reduce(event, &state, &trace)\n")
    }

    @Test func anExpressionSitsAtItsYAMLLineAndColumn() {
        let source = generate(oneState(handler: "{guard: \"n > 0\"}"), path: "Specs/M.machine.yml")
        // `      go: {guard: "n > 0"}` is line 10; the content starts after the quote, column 20.
        expectContains(source, """
            #sourceLocation(file: "Specs/M.machine.yml", line: 10)
                           if (n > 0
                            ) {
            #sourceLocation()
            """)
    }

    @Test func aMultiLineExpressionKeepsTheColumnsOfEveryLine() {
        let yaml = """
            machine: M
            context:
              n: {type: Int, default: "0"}
            events:
              go: {}
            initial: a
            states:
              a:
                on:
                  go:
                    set:
                      n: |
                        [1, 2]
                          .reduce(n, +)

            """
        let source = generate(yaml)
        expectContains(source, """
            #sourceLocation(file: "Test.machine.yml", line: 13)
              _next.n = [1, 2]
                          .reduce(n, +)

            #sourceLocation()
            """)
    }

    @Test("S85: isIn is one statement per state name, not one expression")
    func s85IsInIsOneStatementPerName() {
        let yaml = """
            machine: M
            events:
              go: {}
            ignore: [go]
            initial: a
            states:
              a:
                initial: b
                states:
                  b: {}
                  c: {}

            """
        expectContains(generate(yaml), """
                    public func isIn(_ name: StateName) -> Swift.Bool {
                        switch name {
                        case .a: if case .a = mode { return true }
                        case .b: if case .a(.b) = mode { return true }
                        case .c: if case .a(.c) = mode { return true }
                        }
                        return false
                    }
            """)
    }

    @Test func timersHaveARequestAFeedbackAndAReducerCase() {
        let source = generate(oneState(handler: "{target: a}", extra: "    after: {250ms: {target: a}}"))
        expectContains(source, """
                    fileprivate var _timerRequest0: Swift.Int? {
                        isIn(.a) ? _entries : nil
                    }
            """)
        expectContains(source, """
                        .timer(
                            request: { state in state._timerRequest0 },
                            clock: clock,
                            delay: { _ in .milliseconds(250) },
                            event: { entry in ._timer(.init(state: .a, index: 0, entry: entry)) }
                        ),
            """)
        expectContains(source, """
                        case ._timer(let _fired) where _fired == .init(state: .a, index: 0, entry: _entries):
                            _trace.take(1)
                            _next._entries &+= 1
                            _next.mode = .a
                        case ._timer:
                            break // a timer of a state not active, or of an earlier entry
            """)
        expectContains(source, "public static func system(initial: State = .initial, clock: some Swift.Clock<Swift.Duration> = Swift.ContinuousClock(), onTransition: (@Sendable (StateLoop.TransitionInfo) -> Swift.Void)? = nil)")
    }

    @Test func effectsGetAProtocolAResultEnumAndARequestQuery() {
        let yaml = """
            machine: M
            context:
              query: {type: String?, default: nil}
            events:
              start: {text: String}
              found: {from: effects, count: Int}
              empty: {from: effects}
            initial: idle
            states:
              idle:
                on:
                  start: {target: busy, set: {query: event.text}}
              busy:
                on:
                  found: {target: idle}
                  empty: {target: idle}
                ignore: [start]
            effects:
              search:
                in: [busy]
                request: {type: String, value: query}
                emits: [found, empty]

            """
        let source = generate(yaml)
        expectContains(source, """
                public protocol Effects: Swift.Sendable {
                    /// `search` (Test.machine.yml:19): runs in `busy` while its request is not `nil`; a new request cancels the run before it.
                    func search(_ request: SearchRequest) async -> SearchResult
                }
            """)
        expectContains(source, """
                        case .found(let _0): .found(count: _0)
                        case .empty: .empty
            """)
        expectContains(source, """
                    fileprivate var _request_search: SearchRequest? {
                        isIn(.busy) ? _value0() : nil
                    }
            """)
        expectContains(source, """
                        case .found:
                            break // no effect that sends it runs here
            """)
    }

    @Test func keywordNamesAreBacktickedWhereTheyAreNamesAndBareWhereTheyAreLabels() {
        let source = generate(oneState(context: "default: {type: Int, default: \"0\"}", events: "go: {in: Int}", handler: "{set: {default: event.in}}"))
        expectContains(source, "public var `default`: Default")
        expectContains(source, "default _default: Default")
        expectContains(source, "self.`default` = _default")
        expectContains(source, "case go(in: GoIn)")
        expectContains(source, "let `in`: GoIn")
        expectContains(source, "let event: Event.GoPayload = .init(in: _0)")
    }

    @Test func hostileTextCannotBreakOutOfCommentsOrLiterals() {
        let path = "we\"ird\\dir/x*/ \u{2028}y\n#\"\"\"name.machine.yml"
        let source = generate(oneState(handler: "{guard: \"n > 0\"}"), path: path)
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        // The file name is the last path component (after the final `/`); its line breaks become spaces.
        #expect(lines.first == "// Generated by stateloop from \u{20} y #\"\"\"name.machine.yml. Do not edit.")
        #expect(lines[1] == "import StateLoop")
        // A line break in the file literal would make swiftc ignore the directive: it becomes a space.
        expectContains(source, #"#sourceLocation(file: "we\"ird/dir/x*/ \u{2028}y #\"\"\"name.machine.yml", line: 10)"#)
        #expect(!source.contains("\u{2028}"))
    }

    @Test func internalAccessDropsThePublicKeywords() {
        let output = GeneratorPipeline(accessLevel: .internal).generate(contents: Array(oneState(handler: "{set: {n: n + 1}}").utf8), path: "M.machine.yml")
        let source = output.source ?? ""
        #expect(!source.contains("public "))
        expectContains(source, "    enum Mode: Swift.Hashable, Swift.Sendable, Swift.CaseIterable {")
        expectContains(source, "        var mode: Mode\n")
    }

    @Test func derivedTypeNamesThatClashAreAnError() {
        let yaml = oneState(events: "go: {}\n  x: {a: Int}\n  X: {a: Int}", handler: "{}", extra: "    ignore: [x, X]")
        let output = GeneratorPipeline().generate(contents: Array(yaml.utf8), path: "M.machine.yml")
        #expect(output.source == nil)
        let errors = output.diagnostics.filter { $0.severity == .error }
        #expect(errors.map(\.message) == ["the payload of event 'X' generates the Swift name 'XPayload', which the payload of event 'x' already uses"])
        #expect(errors.first?.location.line == 7)  // the line of `X:`
    }

    @Test func anEventNamedTimerClashesWithTheTimerEventsType() {
        let yaml = oneState(events: "go: {}\n  Timer: {}", handler: "{}", extra: "    ignore: [Timer]\n    after: {1s: {target: a}}")
        let output = GeneratorPipeline().generate(contents: Array(yaml.utf8), path: "M.machine.yml")
        #expect(output.source == nil)
        let errors = output.diagnostics.filter { $0.severity == .error }
        #expect(errors.map(\.message) == ["the `after:` timers generate the Swift name 'Timer', which event 'Timer' already uses"])
        #expect(errors.first?.notes.first?.location.line == 6)  // the line of `Timer:`
    }

    @Test func specErrorsStopThePipelineWithTheirDiagnostics() {
        let output = GeneratorPipeline().generate(contents: Array("machine: M\ninitial: nowhere\n".utf8), path: "M.machine.yml")
        #expect(output.source == nil)
        #expect(output.diagnostics.containsErrors)
    }
}
