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
        var out = SwiftPrinter(placement: placement, level: 0)
        out.line("")
        out.line("/// What tests and tools read: the traced reducer, the runs and timers a state asks for, every branch.")
        out.block("extension \(machine): StateLoop.StateMachine {") { out in
            if spec.effects.isEmpty {
                out.line("/// No effect runs: there is no call.")
                out.line("\(p)typealias Call = StateLoop.NoCall")
            } else {
                out.line("/// One run of an effect with its request: what a state asks for, what a test answers.")
                out.block("\(p)enum Call: Swift.Equatable, Swift.Sendable {") { out in
                    for effect in spec.effects {
                        out.line("case \(SwiftName.escaped(effect.name.value))" + (requestParameterType(effect).map { "(\($0))" } ?? ""))
                    }
                    // Written out, as `Event`'s: a request type swiftc cannot find is one error, at its YAML line.
                    out.append(lines: enumEquality("Call", cases: spec.effects.map { (SwiftName.escaped($0.name.value), requestParameterType($0) == nil ? 0 : 1) }, level: 2))
                }
            }
            out.line("")
            out.line("/// The spec this machine was generated from.")
            out.line("\(p)static var specFile: Swift.String { \(SwiftLiteral.string(Self.fileName(spec.file))) }")
            let redacted = spec.context.filter(\.redact).map { SwiftLiteral.string($0.name.value) }
            if !redacted.isEmpty {
                out.line("")
                out.line("/// The `context:` fields marked `redact: true`: the inspector's dumps print `<redacted>` for them.")
                out.line("\(p)static var redactedFields: Swift.Set<Swift.String> { [\(redacted.joined(separator: ", "))] }")
            }
            out.line("")
            out.line("/// `reduce`, recording the id of every branch it takes in `trace`.")
            out.block("\(p)static func reduce(_ state: inout State, _ event: Event, trace: inout StateLoop.TransitionTrace) {") { out in
                if eventless { return out.line(Self.eventlessBody) }
                out.line("_reduceRecording(&state, event, &trace)")
            }
            out.line("")
            out.line("/// `reduce` for a running system that calls `onTransition` with every branch it takes: the")
            out.line("/// opt-in hook of transition coverage outside tests (`system(onTransition:)`).")
            out.block("\(p)static func tracingReducer(_ onTransition: @escaping @Sendable (StateLoop.TransitionInfo) -> Swift.Void) -> @Sendable (inout State, Event) -> Swift.Void {") { out in
                if eventless { return out.line("{ _, _ in }") }
                out.line("let handOn: @Sendable (Swift.Int) -> Swift.Void = { id in onTransition(transitions[id]) }")
                out.block("return { state, event in") { out in
                    out.line("var trace = StateLoop.TransitionTrace(handingOn: handOn)")
                    out.line("reduce(&state, event, trace: &trace)")
                }
            }
            out.line("")
            out.line("/// The reducer `system(...)` runs: plain, or tracing when given `onTransition`.")
            out.block("fileprivate static func _reducer(_ onTransition: (@Sendable (StateLoop.TransitionInfo) -> Swift.Void)?) -> @Sendable (inout State, Event) -> Swift.Void {") { out in
                if eventless { return out.line("{ _, _ in }") }
                out.line("guard let onTransition else { return { state, event in reduce(&state, event) } }")
                out.line("return tracingReducer(onTransition)")
            }
            out.line("")
            out.line("/// True once `state` is finished: `reduce` changes nothing (T4).")
            out.line("\(p)static func isDone(_ state: State) -> Swift.Bool { state.isDone }")
            out.line("")
            if flags.settles {
                out.line("/// False when the last step did not settle: `always:` still enabled after 1,000 microsteps (S51).")
                out.line("\(p)static func isSettled(_ state: State) -> Swift.Bool { state.isSettled }")
                out.line("")
            }
            printRuns(into: &out)
            printResults(into: &out)
            printTimers(into: &out)
            printSends(into: &out)
            printInvariants(into: &out)
            out.line("/// Copies the fields only the reducer writes from `source`: a test never states them.")
            out.block("\(p)static func copyBookkeeping(from source: State, to state: inout State) {") { out in
                for field in bookkeeping { out.line("state.\(field) = source.\(field)") }
            }
            out.line("")
            out.line("/// Every branch of the spec, by the id the reducer records: its YAML line and what it does.")
            out.block("\(p)static let transitions: [StateLoop.TransitionInfo] = StateLoop.TransitionInfo.table(\"\"\"", closing: nil) { out in
                for entry in transitions.entries {
                    out.line("\(entry.location.line):\(entry.location.column) " + SwiftLiteral.escaped(entry.description))
                }
                out.line("\"\"\")")
            }
            out.line("")
            printPaths(into: &out)
        }
        return out.finished()
    }

    /// `runs(in:)`: each effect's request, each element of a set, then the one-shot runs queued.
    private func printRuns(into out: inout SwiftPrinter) {
        out.line("/// Every run `state` asks for, in `effects:` order (a set's elements in the set's order), then the one-shot runs the last step queued.")
        out.block("\(access.prefix)static func runs(in state: State) -> [StateLoop.EffectRequest<Call>] {") { out in
            let oneShots = spec.effects.filter(\.isOneShot)
            guard spec.effects.contains(where: { !$0.isOneShot }) || !oneShots.isEmpty else { return out.line("[]") }
            out.line("var runs: [StateLoop.EffectRequest<Call>] = []")
            for effect in spec.effects where !effect.isOneShot {
                let name = SwiftName.escaped(effect.name.value)
                let member = "state." + GeneratedNames.requestMember(ofEffect: effect.name.value)
                let request = ".init(call: .\(name)\(requestParameterType(effect) == nil ? "" : "(request)"), shape: \(shape(of: effect)))"
                if effect.isSet {
                    out.line("for request in \(member) { runs.append(\(request)) }")
                } else if requestParameterType(effect) == nil {
                    out.line("if \(member) != nil { runs.append(\(request)) }")
                } else {
                    out.line("if let request = \(member) { runs.append(\(request)) }")
                }
            }
            if !oneShots.isEmpty {
                out.block("for run in state.runs {") { out in
                    out.switchBlock("run") { out in
                        for effect in oneShots {
                            let name = SwiftName.escaped(effect.name.value)
                            let hasRequest = requestParameterType(effect) != nil
                            out.line("case .\(name)\(hasRequest ? "(let request)" : ""): runs.append(.init(call: .\(name)\(hasRequest ? "(request)" : ""), shape: \(shape(of: effect)), isOneShot: true))")
                        }
                    }
                }
            }
            out.line("return runs")
        }
        out.line("")
    }

    private func shape(of effect: EffectSpec) -> String {
        if effect.isStream { return ".stream" }
        return effect.emits.isEmpty && effect.child == nil ? ".fireAndForget" : ".answer"
    }

    /// `result(_:of:)`: the events each effect feeds back, its `onError:` event a failure.
    private func printResults(into out: inout SwiftPrinter) {
        var results: [String] = [], failures: [String] = [], messages: [String] = []
        for effect in spec.effects {
            let call = "." + SwiftName.escaped(effect.name.value)
            // E76: an event only `events:` maps comes while the child goes on.
            let ending = Set(effect.emits.map(\.value) + (effect.child?.onDone.map(\.to.value) ?? []))
            for event in effect.results {
                let pair = "(\(call), .\(SwiftName.escaped(event.value)))"
                if event.value == effect.onError?.value {
                    failures.append(pair)
                } else if ending.contains(event.value) {
                    results.append(pair)
                } else {
                    messages.append(pair)
                }
            }
        }
        out.line("/// What `event` is to a run of `call`: one of its results (`emits:`, `onDone:`), its failure (`onError:`), " + (messages.isEmpty ? "or neither." : "an event its child sends (`events:`), or neither."))
        out.block("\(access.prefix)static func result(_ event: Event, of call: Call) -> StateLoop.EffectResultKind? {") { out in
            if eventless { return out.line(Self.eventlessBody) }
            guard !results.isEmpty || !failures.isEmpty || !messages.isEmpty else { return out.line("nil") }
            out.switchBlock("(call, event)") { out in
                if !results.isEmpty { out.line("case \(results.joined(separator: ", ")): .result") }
                if !failures.isEmpty { out.line("case \(failures.joined(separator: ", ")): .failure") }
                if !messages.isEmpty { out.line("case \(messages.joined(separator: ", ")): .message") }
                // Not when the cases cover every pair: swiftc warns that it will never be executed (S93).
                let events = spec.events.count + (hasTimers ? 1 : 0) + (flags.sends ? 1 : 0)
                if Set(results + failures + messages).count < spec.effects.count * events { out.line("default: nil") }
            }
        }
        out.line("")
    }

    /// The body of a function that takes an `Event` of a machine that has none: a comment, since
    /// Swift warns that any statement there will never be executed (S93).
    static let eventlessBody = "// `Event` has no case: nothing can call this."

    /// `timers(in:)`: each `after:` timer whose request is set, with its delay and the event it sends.
    private func printTimers(into out: inout SwiftPrinter) {
        let timers = allTimers()
        out.line("/// Every `after:` timer armed in `state`: the state that armed it, its delay, the event it sends.")
        out.block("\(access.prefix)static func timers(in state: State) -> [StateLoop.ArmedTimer<StateName, Event>] {") { out in
            guard !timers.isEmpty else { return out.line("[]") }
            out.line("var timers: [StateLoop.ArmedTimer<StateName, Event>] = []")
            for (number, (state, index, timer)) in timers.enumerated() {
                let named = timer.milliseconds == nil
                let mode = SwiftName.escaped(state.name.value)
                let delay = named ? "request.delay" : ".milliseconds(\(timer.milliseconds!))"
                let event = timerEvent(mode: mode, index: index, entry: named ? "request.entry" : "request")
                out.block("if let request = state.\(GeneratedNames.member("timerRequest", number)) {") { out in
                    out.line("timers.append(.init(state: .\(mode), index: \(index), delay: \(delay), event: \(event)))")
                }
            }
            out.line("return timers")
        }
        out.line("")
    }
}
