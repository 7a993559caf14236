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
        let works = flags.entryBelow(nil) || flags.settles
        var out = memberPrinter()
        out.line("let _mode: \(GeneratedNames.mode) = \(initialMode)")
        out.block(works ? "var _next = Self.init(" : "return .init(", closing: ")") { out in
            for argument in Self.commaSeparated(["mode: _mode"] + initialArguments) { out.line(argument) }
        }
        guard works else { return out.finished() }
        if flags.entryBelow(nil) { out.line("State.\(below("enter", nil))(_next.mode, &_next\(defaultsArgument(semantics.initialEntry)))") }
        if flags.settles {
            out.line("var _trace = StateLoop._NoTrace()")
            out.line("_next._settle(&_trace)")
        }
        if flags.raises {
            // S121: what the initial entries raised is taken before `initial` returns.
            out.line("_next._takeRaised(&_trace)")
            if readsTrigger { out.line("_next.trigger = nil") }
        }
        // S135: an initial entry that finishes the machine keeps no send either.
        if flags.sends && flags.hasTopLevelFinal { out.line("if _next.isDone { _next.pendingSends = [] }") }
        out.line("return _next")
        return out.finished()
    }

    /// The body of `_reduceRecording`, which `reduce` calls; `stateFields` are the stored
    /// properties of `State`. What one call reports (`runs`, `forwarded`, `toParent`) is cleared
    /// once, before its first step: a delivery that takes the steps of earlier sends first (S134)
    /// reports what all of them did (S39, E70).
    mutating func reduceLines(stateFields: [JournalLayout.Field]) -> [String] {
        var out = SwiftPrinter(placement: placement, level: 2)
        if flags.hasTopLevelFinal { out.line("guard !state.isDone else { return }") }
        // S133: the delivery of a send no longer pending changes nothing, what the last step reported included.
        if flags.sends { out.line("if case .\(GeneratedNames.sendCase)(let _number) = event, !state.pendingSends.contains(number: _number) { return }") }
        if flags.hasRuns { out.line("state.runs = []") }
        if hasForwarding { out.line("state.forwarded = []") }
        if flags.sendsToParent { out.line("state.toParent = []") }
        guard flags.sends else {
            stepLines(on: "state", stateFields: stateFields, into: &out)
            return out.finished()
        }
        var step = memberPrinter()
        stepLines(on: "self", stateFields: stateFields, into: &step)
        addMember(
            doc: "One step of `reduce`: `event`'s branches with their microsteps and raised events (S45, S121).",
            declaration: "fileprivate mutating func _step<_R: StateLoop._TransitionRecorder>(_ event: Event, _ trace: inout _R)",
            body: step)
        deliveryLines(into: &out)
        return out.finished()
    }

    /// The statements of one step of `event` on `subject`: `state` inline in `reduce`, `self` in
    /// `_step`, the member a machine that sends has, so that a delivery can take several steps.
    private mutating func stepLines(on subject: String, stateFields: [JournalLayout.Field], into out: inout SwiftPrinter) {
        let on = subject == "self" ? "" : subject + "."
        // S111, S112: the step's event, for every expression the step evaluates; none at rest.
        if readsTrigger { out.line("\(on)trigger = event") }
        out.line(makeOldMember(stateFields: stateFields) ? "let old = \(on)_old" : "let old = \(subject)")
        out.line(flags.settles ? "if old._reduce(event, &\(subject), &trace) { \(on)_settle(&trace) }" : "old._reduce(event, &\(subject), &trace)")
        if flags.raises { out.line("if !\(on)_raised.isEmpty { \(on)_takeRaised(&trace) }") }
        if readsTrigger { out.line("\(on)trigger = nil") }
        // S135: a finished machine delivers nothing more.
        if flags.sends && flags.hasTopLevelFinal { out.line("if \(on)isDone { \(on)pendingSends = [] }") }
        if hasForwarding {
            makeForwardingMember()
            out.line("\(on)_forward(event, after: old)")
        }
    }

    /// `_old`, the state the step reads, without the raised queue, which is empty between steps
    /// (S121): a copy of `State` would retain that array on every event (issue 23). Every field an
    /// expression can read stays, `pendingSends` too, whether the spec's text names it or a helper
    /// of the user's reads it (S36). False, and no member, when the copy would leave nothing out.
    private mutating func makeOldMember(stateFields: [JournalLayout.Field]) -> Bool {
        guard flags.raises else { return false }
        let context = Set(spec.context.map(\.name.value))
        var body = memberPrinter()
        body.line("var _old = State(")
        let arguments = ["mode: mode"] + spec.context.map { "\(Self.argumentLabel($0.name.value)): self.\(SwiftName.escaped($0.name.value))" }
        for argument in Self.commaSeparated(arguments) { body.line("    \(argument)") }
        body.line(")")
        for field in stateFields where field.name != "mode" && !context.contains(field.name) && field.name != "_raised" {
            body.line("_old.\(field.name) = \(field.name)")
        }
        body.line("return _old")
        addMember(
            doc: "The state as a step reads it: every field but `_raised`, empty between steps, so that `reduce` retains no array of it.",
            declaration: "fileprivate var _old: State",
            body: body)
        return true
    }

    /// True when an expression of the spec names `trigger` (S111): only then has `State` the
    /// field, so a machine that never reads it stays as it was (S112).
    var readsTrigger: Bool {
        spec.expressions(tree: semantics.tree).contains { Self.mentions(GeneratedNames.triggerField, in: $0.value) }
    }
}
