import StateLoopSpec

// The two entry points of the machine's state: `State.initial` (the `initial:` configuration,
// every field at its `default:`, then the entries below the machine and the settle loop) and
// `reduce` (returns at once when finished, clears what a step reports, calls `_reduce` on the
// old state, settles, forwards to children).

extension MachineContextBuilder {
    /// The body of `State.initial`, given what it passes for each field.
    func initialLines(_ initialArguments: [String]) -> [String] {
        // Typed apart: with a field of a type swiftc cannot find, `.init(mode: .idle, ...)` would
        // also report "cannot infer contextual base" here; and `Mode.idle` in an expression would
        // find a context field named `Mode` (a type annotation looks up types only).
        let initialMode = modeValue(in: nil, toward: semantics.initialTargets(of: nil), recorded: false)
        let works = layout.entryBelow(nil) || layout.settles
        var out = memberPrinter()
        out.line("let _mode: \(GeneratedNames.mode) = \(initialMode)")
        out.block(works ? "var _next = Self.init(" : "return .init(", closing: ")") { out in
            for argument in Self.commaSeparated(["mode: _mode"] + initialArguments) { out.line(argument) }
        }
        guard works else { return out.finished() }
        if layout.entryBelow(nil) { out.line("State.\(below("enter", nil))(_next.mode, &_next\(defaultsArgument(semantics.initialEntry)))") }
        if layout.settles {
            out.line("var _trace = StateLoop._NoTrace()")
            out.line("_next._settle(&_trace)")
        }
        if layout.raises {
            // S121: what the initial entries raised is taken before `initial` returns.
            out.line("_next._takeRaised(&_trace)")
            if readsTrigger { out.line("_next.trigger = nil") }
        }
        out.line("return _next")
        return out.finished()
    }

    /// The body of `_reduceRecording`, which `reduce` calls; `stateFields` are the stored
    /// properties of `State`.
    mutating func reduceLines(stateFields: [JournalLayout.Field]) -> [String] {
        var out = SwiftPrinter(placement: placement, level: 2)
        if layout.hasTopLevelFinal { out.line("guard !state.isDone else { return }") }
        if layout.sends { deliveryLines(into: &out) }
        if layout.hasRuns { out.line("state.runs = []") }
        if hasForwarding { out.line("state.forwarded = []") }
        if layout.sendsToParent { out.line("state.toParent = []") }
        // S111, S112: the step's event, for every expression the step evaluates; none at rest.
        if readsTrigger { out.line("state.trigger = event") }
        out.line(makeOldMember(stateFields: stateFields) ? "let old = state._old" : "let old = state")
        out.line(layout.settles ? "if old._reduce(event, &state, &trace) { state._settle(&trace) }" : "old._reduce(event, &state, &trace)")
        if layout.raises { out.line("if !state._raised.isEmpty { state._takeRaised(&trace) }") }
        if readsTrigger { out.line("state.trigger = nil") }
        // S135: a finished machine delivers nothing more.
        if layout.sends && layout.hasTopLevelFinal { out.line("if state.isDone { state.pendingSends = [] }") }
        if hasForwarding {
            makeForwardingMember()
            out.line("state._forward(event, after: old)")
        }
        return out.finished()
    }

    /// `_old`, the state the step reads, without the raised queue (empty between steps, S121) and
    /// the pending sends unless an expression names them: a copy of `State` would retain both
    /// arrays on every event, 4x Flat's time (issue 23, `reduce.flat_sends_over_flat.ratio` in
    /// Benchmarks/README.md). False, and no member, when the copy would leave nothing out.
    private mutating func makeOldMember(stateFields: [JournalLayout.Field]) -> Bool {
        let readsSends = spec.expressions(tree: layout.tree).contains { Self.mentions("pendingSends", in: $0.value) }
        let left = (layout.raises ? ["_raised"] : []) + (layout.sends && !readsSends ? ["pendingSends"] : [])
        guard !left.isEmpty else { return false }
        let context = Set(spec.context.map(\.name.value))
        var body = memberPrinter()
        body.line("var _old = State(")
        let arguments = ["mode: mode"] + spec.context.map { "\(Self.argumentLabel($0.name.value)): self.\(SwiftName.escaped($0.name.value))" }
        for argument in Self.commaSeparated(arguments) { body.line("    \(argument)") }
        body.line(")")
        for field in stateFields where field.name != "mode" && !context.contains(field.name) && !left.contains(field.name) {
            body.line("_old.\(field.name) = \(field.name)")
        }
        body.line("return _old")
        addMember(
            doc: "The state as a step reads it: every field but \(left.map { "`\($0)`" }.joined(separator: " and ")), which no expression reads, so that `reduce` copies no array.",
            declaration: "fileprivate var _old: State",
            body: body)
        return true
    }

    /// True when an expression of the spec names `trigger` (S111): only then has `State` the
    /// field, so a machine that never reads it stays as it was (S112).
    var readsTrigger: Bool {
        spec.expressions(tree: layout.tree).contains { Self.mentions(GeneratedNames.triggerField, in: $0.value) }
    }
}
