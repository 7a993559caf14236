import Testing

/// Expects `lines`, in a row, among the lines of `source`, each compared without its indentation
/// and with the `#sourceLocation` directives left out: what the generated code does, not how it
/// is laid out (indentation and placement are `SnippetTests`' and `SourceLocationTests`' business).
func expectLines(_ source: String, _ lines: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let code = source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.hasPrefix("#sourceLocation") }
    let expected = lines.map { $0.trimmingCharacters(in: .whitespaces) }
    let found = code.indices.contains { start in code[start...].starts(with: expected) }
    #expect(found, "lines not found in a row:\n\(expected.joined(separator: "\n"))\n--- in ---\n\(code.joined(separator: "\n"))", sourceLocation: sourceLocation)
}

/// The exit and entry code of a statechart's transitions, on tiny specs: the lines that carry the
/// order of Docs/Statecharts.md sections 4, 5, 8 and 10, whatever the printer's indentation.
extension SnippetTests {
    /// `p` has a shallow history `h`, an `exit:`, and a child `a` with an `exit:` of its own.
    static let history = """
        machine: M
        context:
          log: {type: "[String]", default: "[]"}
        events: {go: {}, out: {}, back: {}}
        initial: p
        states:
          p:
            initial: a
            exit: [{set: {log: "log + [\\"p exit\\"]"}}]
            on: {out: q}
            ignore: [back]
            states:
              a:
                exit: [{set: {log: "log + [\\"a exit\\"]"}}]
                on: {go: b}
              b:
                ignore: [go]
              h: {type: history}
          q:
            on: {back: h}
            ignore: [go, out]
        """

    @Test("S29, S32: exiting a composite exits its active child first, records the child for its history, then runs its own exit:")
    func compositeExitRecordsHistoryBetweenInnerAndOwnExits() {
        let source = generate(Self.history)
        expectLines(source, [
            "fileprivate mutating func _action0() {",
            #"self.log = log + [ "p exit" ]"#,
        ])
        expectLines(source, [
            "case .p(let _inner):",
            "State._exitBelow_p(_inner, &_next)",
            "_next._history_h = _inner",
            "_next._action0()",
        ])
        // Below `p`: `a`'s exit action; `b` has nothing to do.
        expectLines(source, [
            "switch _content {",
            "case .a:",
            "_next._action1()",
            "case .b:",
            "break",
        ])
    }

    @Test("S22, S61, S62, S63: a move inside the parent exits below it and records nothing; its history target enters the record, else the parent's initial:")
    func historyIsRecordedOnlyWhenItsParentIsExited() {
        let source = generate(Self.history)
        // `go` in `a`: the domain is `p`, which is not exited, so no record is written.
        expectLines(source, [
            "case .go:",
            "_trace.take(2)",
            "if case .p(let _c) = _next.mode {",
            "State._exitBelow_p(_c, &_next)",
            "}",
            "_next.mode = .p(.b)",
        ])
        // `back` in `q`: the recorded child of `p`, or `a` before any record.
        expectLines(source, [
            "State._exitBelow(_next.mode, &_next)",
            "_next.mode = .p((_next._history_h.map(State._shallow_h) ?? .a))",
        ])
    }

    @Test("S31, S66: entering a parallel state runs its entry:, then each region's, outermost first and in document order")
    func parallelEntryRunsOuterThenEveryRegionInOrder() {
        let source = generate("""
            machine: M
            context:
              log: {type: "[String]", default: "[]"}
            events: {go: {}}
            initial: idle
            states:
              idle:
                on: {go: par}
              par:
                type: parallel
                entry: [{set: {log: "log + [\\"par\\"]"}}]
                ignore: [go]
                states:
                  x:
                    initial: x1
                    entry: [{set: {log: "log + [\\"x\\"]"}}]
                    states:
                      x1: {entry: [{set: {log: "log + [\\"x1\\"]"}}]}
                  y:
                    initial: y1
                    states:
                      y1: {entry: [{set: {log: "log + [\\"y1\\"]"}}]}
            """)
        // The target is every region's initial:, written into `mode` before the entries run.
        expectLines(source, [
            "let _c: Mode = .par(Mode.Par(x: .x1, y: .y1))",
            "_next.mode = _c",
            "State._enterBelow(_c, &_next)",
        ])
        expectLines(source, ["fileprivate mutating func _action0() {", #"self.log = log + [ "par" ]"#])
        expectLines(source, ["fileprivate mutating func _action1() {", #"self.log = log + [ "x" ]"#])
        expectLines(source, ["fileprivate mutating func _action2() {", #"self.log = log + [ "x1" ]"#])
        expectLines(source, ["fileprivate mutating func _action3() {", #"self.log = log + [ "y1" ]"#])
        expectLines(source, [
            "case .par(let _inner):",
            "_next._action0()",
            "State._enterBelow_par(_inner, &_next)",
        ])
        expectLines(source, [
            "fileprivate static func _enterBelow_par(_ _content: Mode.Par, _ _next: inout State) {",
            "_next._action1()",
            "State._enterBelow_x(_content.x, &_next)",
            "State._enterBelow_y(_content.y, &_next)",
            "}",
        ])
    }

    @Test("S45, S48, S51: a step that took a branch, and the initial state, settle through always: microsteps, at most 1,000; an ignored event does not")
    func alwaysSettlesAfterAStepThatTookABranch() {
        let source = generate("""
            machine: M
            context:
              n: {type: Int, default: "0"}
            events: {go: {}}
            initial: a
            states:
              a:
                on: {go: {set: {n: n + 1}}}
                always: {guard: "n > 2", target: b}
              b:
                ignore: [go]
            """)
        expectLines(source, ["var _trace = StateLoop._NoTrace()", "_next._settle(&_trace)", "return _next"])
        expectLines(source, ["let old = state", "if old._reduce(event, &state, &trace) { state._settle(&trace) }"])
        // The step in `a` took a branch; the ignore in `b` did not.
        expectLines(source, ["case .go:", "_trace.take(0)", "_next.n = n + 1", "return true"])
        expectLines(source, ["case .go:", "_trace.take(2) // ignored", "return false"])
        expectLines(source, [
            "for _ in 0..<1_000 {",
            "let _s = self",
            "if !_s._always(&self, &_trace) {",
            "isSettled = true",
            "return",
            "}",
            "}",
            "isSettled = false",
        ])
        // One microstep: the guard on the state as it is, then the move.
        expectLines(source, ["if (n > 2", ") {", "_trace.take(1)", "_next.mode = .b", "return true", "}", "return false"])
    }

    @Test("S44, E14, E19: without emits: a method returns nothing; without onError: it cannot throw")
    func anEffectsKeysFixItsMethodsSignature() {
        let source = generate("""
            machine: M
            context:
              q: {type: Int, default: "0"}
            events:
              go: {}
              got: {from: effects}
              failed: {from: effects, error: String}
            initial: a
            on:
              got: {}
              failed: {}
            states:
              a:
                on: {go: {target: b, do: [{run: note, request: q}]}}
              b:
                ignore: [go]
            effects:
              load: {in: [a], request: {type: Int, value: q}, emits: [got]}
              fetch: {in: [a], request: {type: Int, value: q}, emits: [got], onError: failed}
              note: {request: {type: Int}, emits: []}
            """)
        expectLines(source, ["func load(_ request: LoadRequest) async -> LoadResult"])
        expectLines(source, ["func fetch(_ request: FetchRequest) async throws -> FetchResult"])
        expectLines(source, ["func note(_ request: NoteRequest) async"])
    }

    @Test("E37, E38: a literal delay is a constant; a named one is stored, evaluated on entry after the state's entry:")
    func aLiteralDelayIsAConstantAndANamedOneIsStored() {
        let source = generate("""
            machine: M
            context:
              wait: {type: Int, default: "1"}
              entries: {type: Int, default: "0"}
            events: {go: {}}
            delays:
              backoff: ".seconds(wait)"
            initial: a
            states:
              a:
                ignore: [go]
                after:
                  5s: b
              b:
                ignore: [go]
                entry: [{set: {entries: entries + 1}}]
                after:
                  backoff: a
            """)
        expectLines(source, ["delay: { _ in .milliseconds(5000) },", "event: { entry in ._timer(.init(state: .a, index: 0, entry: entry)) }"])
        #expect(!source.contains("_delay_a_"))
        expectLines(source, ["public internal(set) var _delay_b_0: Swift.Duration = .zero"])
        expectLines(source, [
            "case .b:",
            "_next._action0()",
            "_next._delay_b_0 = _next._delay0()",
        ])
    }
}
