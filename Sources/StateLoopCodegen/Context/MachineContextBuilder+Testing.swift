import StateLoopSpec

// The machine's conformance to the runtime's `StateMachine` (Docs/Testing.md): what the
// `StateLoopTesting` harness and transition coverage read. `Call` names a run of each effect
// with its request; `runs(in:)` and `timers(in:)` read the same request members the feedbacks
// query, so a test sees exactly the runs and timers the running system would start.

extension MachineContextBuilder {
    /// `extension Machine: StateLoop.StateMachine { ... }`, after the machine's enum.
    func conformanceLines() -> [String] {
        let machine = SwiftName.escaped(spec.name.value)
        let p = access.prefix
        var lines = [
            "",
            "/// What tests and tools read: the traced reducer, the runs and timers a state asks for, every branch.",
            "extension \(machine): StateLoop.StateMachine {",
        ]
        if spec.effects.isEmpty {
            lines += ["    /// No effect runs: there is no call.", "    \(p)typealias Call = StateLoop.NoCall", ""]
        } else {
            lines += ["    /// One run of an effect with its request: what a state asks for, what a test answers.", "    \(p)enum Call: Swift.Equatable, Swift.Sendable {"]
            for effect in spec.effects {
                lines.append("        case \(SwiftName.escaped(effect.name.value))" + (requestParameterType(effect).map { "(\($0))" } ?? ""))
            }
            lines += ["    }", ""]
        }
        lines += [
            "    /// The spec this machine was generated from.",
            "    \(p)static var specFile: Swift.String { \(SwiftLiteral.string(Self.fileName(spec.file))) }",
            "",
            "    /// `reduce`, recording the id of every branch it takes in `trace`.",
            "    \(p)static func reduce(_ state: inout State, _ event: Event, trace: inout StateLoop.TransitionTrace) {",
            "        _reduceRecording(&state, event, &trace)",
            "    }",
            "",
            "    /// `reduce` for a running system that calls `onTransition` with every branch it takes: the",
            "    /// opt-in hook of transition coverage outside tests (`system(onTransition:)`).",
            "    \(p)static func tracingReducer(_ onTransition: @escaping @Sendable (StateLoop.TransitionInfo) -> Swift.Void) -> @Sendable (inout State, Event) -> Swift.Void {",
            "        let handOn: @Sendable (Swift.Int) -> Swift.Void = { id in onTransition(transitions[id]) }",
            "        return { state, event in",
            "            var trace = StateLoop.TransitionTrace(handingOn: handOn)",
            "            reduce(&state, event, trace: &trace)",
            "        }",
            "    }",
            "",
            "    /// The reducer `system(...)` runs: plain, or tracing when given `onTransition`.",
            "    fileprivate static func _reducer(_ onTransition: (@Sendable (StateLoop.TransitionInfo) -> Swift.Void)?) -> @Sendable (inout State, Event) -> Swift.Void {",
            "        guard let onTransition else { return { state, event in reduce(&state, event) } }",
            "        return tracingReducer(onTransition)",
            "    }",
            "",
        ]
        lines += [
            "    /// True once `state` is finished: `reduce` changes nothing (T4).",
            "    \(p)static func isDone(_ state: State) -> Swift.Bool { state.isDone }",
            "",
        ]
        lines += runsLines() + resultLines() + timersLines()
        lines += [
            "    /// Copies the fields only the reducer writes from `source`: a test never states them.",
            "    \(p)static func copyBookkeeping(from source: State, to state: inout State) {",
        ]
        lines += bookkeeping.map { "        state.\($0) = source.\($0)" }
        lines += [
            "    }",
            "",
            "    /// Every branch of the spec, by the id the reducer records: its YAML line and what it does.",
            "    \(p)static let transitions: [StateLoop.TransitionInfo] = StateLoop.TransitionInfo.table(\"\"\"",
        ]
        lines += transitions.entries.map { entry in
            "        \(entry.location.line):\(entry.location.column) " + SwiftLiteral.escaped(entry.description)
        }
        return lines + ["        \"\"\")", ""] + pathsLines() + ["}"]
    }

    /// `runs(in:)`: each effect's request, each element of a set, then the one-shot runs queued.
    private func runsLines() -> [String] {
        var body: [String] = []
        for effect in spec.effects where !effect.isOneShot {
            let name = SwiftName.escaped(effect.name.value)
            let member = "state." + GeneratedNames.requestMember(ofEffect: effect.name.value)
            let request = ".init(call: .\(name)\(requestParameterType(effect) == nil ? "" : "(request)"), shape: \(shape(of: effect)))"
            if effect.isSet {
                body.append("        for request in \(member) { runs.append(\(request)) }")
            } else if requestParameterType(effect) == nil {
                body.append("        if \(member) != nil { runs.append(\(request)) }")
            } else {
                body.append("        if let request = \(member) { runs.append(\(request)) }")
            }
        }
        let oneShots = spec.effects.filter(\.isOneShot)
        if !oneShots.isEmpty {
            body.append("        for run in state.runs {")
            body.append("            switch run {")
            for effect in oneShots {
                let name = SwiftName.escaped(effect.name.value)
                let hasRequest = requestParameterType(effect) != nil
                body.append("            case .\(name)\(hasRequest ? "(let request)" : ""): runs.append(.init(call: .\(name)\(hasRequest ? "(request)" : ""), shape: \(shape(of: effect)), isOneShot: true))")
            }
            body += ["            }", "        }"]
        }
        let signature = "    \(access.prefix)static func runs(in state: State) -> [StateLoop.EffectRequest<Call>] {"
        let doc = "    /// Every run `state` asks for, in `effects:` order (a set's elements in the set's order), then the one-shot runs the last step queued."
        guard !body.isEmpty else { return [doc, signature, "        []", "    }", ""] }
        return [doc, signature, "        var runs: [StateLoop.EffectRequest<Call>] = []"] + body + ["        return runs", "    }", ""]
    }

    private func shape(of effect: EffectSpec) -> String {
        if effect.isStream { return ".stream" }
        return effect.emits.isEmpty && effect.child == nil ? ".fireAndForget" : ".answer"
    }

    /// `result(_:of:)`: the events each effect feeds back, its `onError:` event a failure.
    private func resultLines() -> [String] {
        var results: [String] = [], failures: [String] = []
        for effect in spec.effects {
            let call = "." + SwiftName.escaped(effect.name.value)
            for event in effect.results {
                let pair = "(\(call), .\(SwiftName.escaped(event.value)))"
                if event.value == effect.onError?.value { failures.append(pair) } else { results.append(pair) }
            }
        }
        var body: [String] = []
        if !results.isEmpty { body.append("        case \(results.joined(separator: ", ")): .result") }
        if !failures.isEmpty { body.append("        case \(failures.joined(separator: ", ")): .failure") }
        let head = [
            "    /// What `event` is to a run of `call`: one of its results (`emits:`, `onDone:`), its failure (`onError:`), or neither.",
            "    \(access.prefix)static func result(_ event: Event, of call: Call) -> StateLoop.EffectResultKind? {",
        ]
        guard !body.isEmpty else { return head + ["        nil", "    }", ""] }
        return head + ["        switch (call, event) {"] + body + ["        default: nil", "        }", "    }", ""]
    }

    /// `timers(in:)`: each `after:` timer whose request is set, with its delay and the event it sends.
    private func timersLines() -> [String] {
        var body: [String] = []
        for (number, (state, index, timer)) in allTimers().enumerated() {
            let named = timer.milliseconds == nil
            let mode = SwiftName.escaped(state.name.value)
            let delay = named ? "request.delay" : ".milliseconds(\(timer.milliseconds!))"
            let event = timerEvent(mode: mode, index: index, entry: named ? "request.entry" : "request")
            body.append("        if let request = state.\(GeneratedNames.member("timerRequest", number)) {")
            body.append("            timers.append(.init(state: .\(mode), index: \(index), delay: \(delay), event: \(event)))")
            body.append("        }")
        }
        let head = [
            "    /// Every `after:` timer armed in `state`: the state that armed it, its delay, the event it sends.",
            "    \(access.prefix)static func timers(in state: State) -> [StateLoop.ArmedTimer<StateName, Event>] {",
        ]
        guard !body.isEmpty else { return head + ["        []", "    }", ""] }
        return head + ["        var timers: [StateLoop.ArmedTimer<StateName, Event>] = []"] + body + ["        return timers", "    }", ""]
    }
}
