import StateLoopSpec

// Effects and `after:` timers, both query-triggered: a member of `State` computes the request
// (`nil` or empty: not running), a feedback loop runs the effect for it (Docs/Effects.md). An
// effect's keys fix its shape, and the shape fixes three things decided here once: the protocol
// method's signature, the feedback that calls it, and the test double's closure. A timer's
// request is the entry count while its state is active, so every entry arms it anew; a named
// delay's timer carries the delay evaluated on that entry as well (E38).

/// What an effect's method looks like, derived from its keys (Docs/Effects.md, "The generated Swift").
struct EffectShape {
    let effect: EffectSpec
    /// The request's alias (`CheckQuotaRequest`), the child's `Input`, or `nil` when the method takes no request.
    let requestType: String?
    /// `LoadImageResult`, or `nil` for a fire-and-forget effect.
    let resultType: String?

    /// `async throws -> LoadImageResult`, `-> Swift.AsyncStream<R>`, `async`: what follows the parameters.
    var methodEffects: String {
        let throwing = effect.onError != nil
        if let child = effect.child { return " -> any \(SwiftName.escaped(child.machine.value)).Effects" }
        if effect.isStream, let resultType {
            return throwing
                ? " -> Swift.AsyncThrowingStream<\(resultType), any Swift.Error>"
                : " -> Swift.AsyncStream<\(resultType)>"
        }
        return " async" + (throwing ? " throws" : "") + (resultType.map { " -> \($0)" } ?? "")
    }

    /// The method's parameter list: `_ request: CheckQuotaRequest`, `_ input: Payment.Input`, or nothing.
    var parameters: String {
        guard let requestType else { return "" }
        return effect.child == nil ? "_ request: \(requestType)" : "_ input: \(requestType)"
    }

    /// The closure type the test double stores for it.
    var closureType: String {
        "@Sendable (\(requestType ?? ""))\(methodEffects)" + (resultType == nil && effect.child == nil ? " -> Swift.Void" : "")
    }
}

extension MachineContextBuilder {
    /// The alias of the request type, or for a child the `Input` it is started with.
    func requestParameterType(_ effect: EffectSpec) -> String? {
        if let child = effect.child {
            let name = SwiftName.escaped(child.machine.value)
            return children[child.machine.value].map { $0.input.isEmpty } == false ? "\(name).Input" : nil
        }
        return requestTypes[effect.name.value]
    }

    /// False for a child machine without effects: there is nothing to give it (E34).
    func hasMethod(_ effect: EffectSpec) -> Bool {
        effect.child.map { children[$0.machine.value].map { !$0.effects.isEmpty } ?? false } ?? true
    }

    func shape(_ effect: EffectSpec) -> EffectShape {
        EffectShape(
            effect: effect, requestType: requestParameterType(effect),
            resultType: effect.emits.isEmpty ? nil : GeneratedNames.resultType(ofEffect: effect.name.value))
    }

    mutating func makeEffect(_ effect: EffectSpec) -> MachineContext.Effect {
        let emitted = effect.emits.compactMap { name in spec.events.first { $0.name.value == name.value } }
        let shape = shape(effect)
        let name = SwiftName.escaped(effect.name.value)
        return MachineContext.Effect(
            name: name,
            resultType: GeneratedNames.resultType(ofEffect: effect.name.value),
            results: emitted.map { .init(doc: "Fed back as `Event.\($0.name.value)`.", declaration: caseDeclaration($0)) },
            conversions: emitted.map { event in
                let name = SwiftName.escaped(event.name.value)
                if event.payload.isEmpty { return "case .\(name): .\(name)" }
                return "case \(bindingPattern(event)): .\(name)(\(labeledArguments(event)))"
            },
            resultEquality: enumEquality(GeneratedNames.resultType(ofEffect: effect.name.value), events: emitted),
            hasResults: shape.resultType != nil,
            method: hasMethod(effect) ? methodLines(shape) : [],
            requestMember: effect.isOneShot ? [] : requestMemberLines(effect),
            feedback: effect.isOneShot ? [] : feedbackLines(shape)
        )
    }

    /// The doc comment and declaration of the effect's method in `Effects`.
    private func methodLines(_ shape: EffectShape) -> [String] {
        let effect = shape.effect
        let place = "`\(effect.name.value)` (\(position(effect.name.location)))"
        let states = effect.runningStates.map { "`\($0.value)`" }.joined(separator: ", ")
        var doc: String
        if let child = effect.child {
            doc = "\(place): the effects of the `\(child.machine.value)` child machine, started while in \(states) (E34)."
        } else if effect.isOneShot {
            doc = "\(place): a one-shot effect, run once per `run:` action; stopping the system cancels it."
        } else {
            doc = effect.isSet
                ? "\(place): one run per element of its set, in \(states); an element that leaves the set cancels its run (E9)."
                : "\(place): runs in \(states) while its request is not `nil`; a new request cancels the run before it."
            if effect.isStream { doc += " Every element the stream yields is fed back (E4)." }
            if shape.resultType == nil { doc += " Sends nothing (E14)." }
        }
        if let onError = effect.onError { doc += " A failure becomes `\(onError.value)` (E15)." }
        var out = SwiftPrinter(placement: placement, level: 2)
        out.line("/// \(doc)")
        out.line("func \(SwiftName.escaped(effect.name.value))(\(shape.parameters))\(shape.methodEffects)")
        return out.finished()
    }

    /// `fileprivate var _request_x: T? { ... }`: the request in the states of `in:`.
    private mutating func requestMemberLines(_ effect: EffectSpec) -> [String] {
        let type: String, call: String, empty: String
        if let child = effect.child {
            let childName = SwiftName.escaped(child.machine.value)
            if let childSpec = children[child.machine.value], !childSpec.input.isEmpty {
                let inputName = nextMember("input")
                // Each value as a statement typed with the child's alias of its field
                // (`SpecTypeNames`): swiftc checks it at its YAML line (E24).
                let fieldTypes = SpecTypeNames(childSpec).input
                var body = memberPrinter()
                var arguments: [String] = []
                for (index, field) in childSpec.input.enumerated() {
                    guard let value = child.input.first(where: { $0.field.value == field.name.value }) else { continue }
                    body.spec(value.expression, after: "let _\(index): \(childName).\(fieldTypes[index]) = ")
                    arguments.append("\(Self.argumentLabel(field.name.value)): _\(index)")
                }
                body.line("return \(childName).Input(\(arguments.joined(separator: ", ")))")
                addMember(
                    doc: "`input:` of `\(effect.name.value)` (\(position(child.inputKey?.location ?? child.machine.location))): what the `\(child.machine.value)` child starts with.",
                    declaration: "fileprivate func \(inputName)() -> \(childName).Input",
                    body: body)
                (type, call, empty) = ("\(childName).Input?", "\(inputName)()", "nil")
            } else {
                (type, call, empty) = ("Swift.Bool?", "true", "nil")
            }
        } else {
            let requestType = requestTypes[effect.name.value]!
            let valueName = nextMember("value")
            type = effect.isSet ? "Swift.Set<\(requestType)>" : "\(requestType)?"
            addMember(
                doc: "`\(effect.isSet ? "requests" : "request").value` of `\(effect.name.value)` (\(position(effect.request!.value!.location))).",
                declaration: "fileprivate func \(valueName)() -> \(type)",
                body: placement.lines(effect.request!.value!, indent: "") + [SourcePlacement.end]
            )
            (call, empty) = ("\(valueName)()", effect.isSet ? "[]" : "nil")
        }
        var out = SwiftPrinter(placement: placement, level: 2)
        out.line("")
        out.line("/// The request of `\(effect.name.value)`: \(effect.isSet ? "its `requests.value` where it runs, empty (not running)" : effect.child != nil ? "the child's input where it runs, `nil` (not running)" : "its `request.value` where it runs, `nil` (not running)") elsewhere.")
        out.block("fileprivate var \(GeneratedNames.requestMember(ofEffect: effect.name.value)): \(type) {") { out in
            out.line(effect.runningStates.map { "isIn(.\(SwiftName.escaped($0.value)))" }.joined(separator: " || ") + " ? \(call) : \(empty)")
        }
        return out.finished()
    }

    /// The feedback that runs a query, set, stream or child effect (E46–E52).
    private mutating func feedbackLines(_ shape: EffectShape) -> [String] {
        let effect = shape.effect
        let name = SwiftName.escaped(effect.name.value)
        let member = GeneratedNames.requestMember(ofEffect: effect.name.value)
        let requestKey = effect.isSet ? "requests" : "request"
        if let child = effect.child { return childFeedbackLines(effect, child: child, shape: shape) }
        let call = "effects.\(name)(request)"
        let simple = shape.resultType != nil && !effect.isStream && effect.onError == nil
        var out = SwiftPrinter(placement: placement, level: 3)
        if simple {
            out.block(".react(", closing: "),") { out in
                out.line("\(requestKey): { state in state.\(member) },")
                // The request's type written: inferred from `request:`, a type swiftc cannot find
                // would be a second error here, besides the one at its YAML line.
                out.line("effect: { (request: \(requestTypes[effect.name.value]!)) in await \(call)._event }")
            }
            return out.finished()
        }
        let tryWord = effect.onError == nil ? "" : "try "
        let run: String
        if effect.isStream {
            run = "for \(tryWord)await result in \(call) { send(result._event) }"
        } else if shape.resultType != nil {
            run = "send(\(tryWord)await \(call)._event)"
        } else {
            run = "\(tryWord)await \(call)"
        }
        let failure = effect.onError == nil ? nil : failureCall(effect)
        out.block(".react(", closing: "),") { out in
            out.line("\(requestKey): { state in state.\(member) },")
            // The request's type written, as in the simple `.react` above.
            let request = "request: \(requestTypes[effect.name.value]!)"
            out.line("run: { (\(request), send) in \(run) }\(failure == nil ? "" : ",")")
            if let failure { out.line("onError: { (\(request), error) in \(failure) }") }
        }
        return out.finished()
    }

    /// The `.runs(...)` feedback that starts each queued one-shot run once (S38, S39).
    mutating func runFeedbackLines(_ oneShots: [EffectSpec]) -> [String] {
        guard !oneShots.isEmpty else { return [] }
        var out = SwiftPrinter(placement: placement, level: 3)
        out.block(".runs(", closing: "),") { out in
            out.line("pending: { state in (state._runsQueued, state.runs) },")
            // `Run` written: with a request type swiftc cannot find, inferring it is a second error.
            out.block("effect: { (run: \(GeneratedNames.run)) in") { out in
                out.switchBlock("run") { out in
                    for effect in oneShots {
                        let name = SwiftName.escaped(effect.name.value)
                        let pattern = effect.request == nil ? "case .\(name):" : "case .\(name)(let request):"
                        let call = "effects.\(name)(\(effect.request == nil ? "" : "request"))" + (effect.emits.isEmpty ? "" : "._event")
                        if effect.onError != nil {
                            out.block(pattern, closing: nil) { out in
                                out.line("do { \(effect.emits.isEmpty ? "try await \(call); return nil" : "return try await \(call)") }")
                                out.line("catch { return Swift.Task.isCancelled ? nil : \(failureCall(effect)) }")
                            }
                        } else {
                            out.line("\(pattern) " + (effect.emits.isEmpty ? "await \(call); return nil" : "return await \(call)"))
                        }
                    }
                }
            }
        }
        return out.finished()
    }

    /// `State._failure0(error, request)`: the event `onError:` makes of a failure, `error` its
    /// description and `request` the request of the run that failed (E16). The member stands at
    /// the `onError:` line, so swiftc reports a field of the wrong type there.
    mutating func failureCall(_ effect: EffectSpec) -> String {
        let onError = effect.onError!
        let event = spec.events.first { $0.name.value == onError.value }!
        let name = SwiftName.escaped(event.name.value)
        let arguments = event.payload.map { field in
            "\(Self.argumentLabel(field.name.value)): " + (field.name.value == "error" ? "Swift.String(describing: error)" : "request")
        }
        let value = event.payload.isEmpty ? ".\(name)" : ".\(name)(\(arguments.joined(separator: ", ")))"
        let member = nextMember("failure")
        let request = requestTypes[effect.name.value]
        addMember(
            doc: "`onError:` of `\(effect.name.value)` (\(position(onError.location))): the event a failure becomes (E16).",
            declaration: "fileprivate static func \(member)(_ error: any Swift.Error\(request.map { ", _ request: \($0)" } ?? "")) -> Event",
            body: placement.lines(Located(value, at: onError.location), indent: "") + [SourcePlacement.end])
        return "State.\(member)(error\(request == nil ? "" : ", request"))"
    }

    /// `.child(...)`: the child system per input, its forwarded events, its output as an event, and
    /// the events it sends that `events:` maps (E71); in a spec that persists, with the effect's
    /// name and the child machine, so that a durable system journals the child too
    /// (Docs/Durability.md D100).
    private mutating func childFeedbackLines(_ effect: EffectSpec, child: ChildMachine, shape: EffectShape) -> [String] {
        let childName = SwiftName.escaped(child.machine.value)
        let childSpec = children[child.machine.value]!
        var arguments = ["initial: " + (childSpec.input.isEmpty ? ".initial" : ".initial(request)")]
        if !childSpec.effects.isEmpty {
            arguments.append("effects: effects.\(SwiftName.escaped(effect.name.value))(\(childSpec.input.isEmpty ? "" : "request"))")
        }
        if Self.needsClock(childSpec) { arguments.append("clock: clock") }
        var out = SwiftPrinter(placement: placement, level: 3)
        let output = child.onDone.isEmpty ? "output: { _ in nil }" : "output: { child in State.\(outcomeMember(effect, child: child, childSpec: childSpec))(child.output) }"
        out.block(".child(", closing: "),") { out in
            if spec.persist != nil { out.line("effect: \(SwiftLiteral.string(effect.name.value)),") }
            // The machine: a durable parent journals its child (D100); a watched parent (the
            // inspector) watches its children too.
            out.line("machine: \(childName).self,")
            out.line("request: { state in state.\(GeneratedNames.requestMember(ofEffect: effect.name.value)) },")
            out.line("start: { request in \(childName).system(\(arguments.joined(separator: ", "))) },")
            out.line(child.forward.isEmpty ? "forwarded: { _ in [] }," : "forwarded: { state in state.forwarded.compactMap(\\.\(forwardedAccessor(effect))) },")
            if child.events.isEmpty {
                out.line(output)
            } else {
                out.line(output + ",")
                out.line("sent: { child in child.toParent.compactMap(State.\(childEventMember(effect, child: child, childSpec: childSpec))) }")
            }
        }
        return out.finished()
    }

    /// `_childEvent0`: the parent event each event the child of `effect` sends becomes, by its
    /// `events:` (E71), at the line of its entry, where swiftc reports a field of the wrong type
    /// (E72); `nil` for an event the parent does not take. Its name.
    private mutating func childEventMember(_ effect: EffectSpec, child: ChildMachine, childSpec: MachineSpec) -> String {
        let childName = SwiftName.escaped(child.machine.value)
        let member = nextMember("childEvent")
        var body = memberPrinter()
        var mapped: Set<String> = []
        body.switchBlock("event") { out in
            for entry in child.events {
                guard let childEvent = childSpec.events.first(where: { $0.name.value == entry.from.value }),
                      let event = spec.events.first(where: { $0.name.value == entry.to.value }),
                      mapped.insert(childEvent.name.value).inserted else { continue }
                let arguments = event.payload.map { field in
                    "\(Self.argumentLabel(field.name.value)): _\(childEvent.payload.firstIndex { $0.name.value == field.name.value }!)"
                }
                let value = event.payload.isEmpty ? ".\(SwiftName.escaped(event.name.value))" : ".\(SwiftName.escaped(event.name.value))(\(arguments.joined(separator: ", ")))"
                // The child's fields the parent event takes are bound, the others skipped.
                let taken = Set(event.payload.map(\.name.value))
                let bindings = childEvent.payload.enumerated().map { taken.contains($1.name.value) ? "let _\($0)" : "_" }
                let pattern = ".\(SwiftName.escaped(childEvent.name.value))" + (bindings.isEmpty ? "" : "(\(bindings.joined(separator: ", ")))")
                out.block("case \(pattern):", closing: nil) { out in
                    out.spec(Located("return " + value, at: entry.to.location))
                }
            }
            // The child's `Event` has a case per declared event, and `_timer`/`_send` cases when it has timers or sends.
            let tree = StateTree(childSpec.states)
            let internalCases = tree.nodes.contains { !$0.spec.after.isEmpty } || childSpec.sends(tree: tree)
            if internalCases || mapped.count < Set(childSpec.events.map(\.name.value)).count { out.line("default: return nil") }
        }
        addMember(
            doc: "`events:` of `\(effect.name.value)` (\(position(child.eventsKey?.location ?? child.machine.location))): the event each event the `\(child.machine.value)` child sends becomes (E71).",
            declaration: "fileprivate static func \(member)(_ event: \(childName).Event) -> Event?",
            body: body)
        return member
    }

    /// `_outcome0`: the event each way the child of `effect` ends becomes; its name.
    private mutating func outcomeMember(_ effect: EffectSpec, child: ChildMachine, childSpec: MachineSpec) -> String {
        let childName = SwiftName.escaped(child.machine.value)
        // Each way the child ends, at the line of its `onDone:` entry, where swiftc reports a
        // field of the wrong type (E31).
        let member = nextMember("outcome")
        var body = memberPrinter()
        let finals = childSpec.states.filter(\.isFinal)
        body.switchBlock("output") { out in
            for final in finals {
                guard let mapping = child.onDone.first(where: { $0.from.value == final.name.value }),
                      let event = spec.events.first(where: { $0.name.value == mapping.to.value }) else { continue }
                let caseName = SwiftName.escaped(final.name.value)
                let pattern = final.output.isEmpty
                    ? ".\(caseName)?"
                    : ".\(caseName)(\(final.output.indices.map { "let _\($0)" }.joined(separator: ", ")))?"
                let arguments = event.payload.map { field in
                    "\(Self.argumentLabel(field.name.value)): _\(final.output.firstIndex { $0.name.value == field.name.value }!)"
                }
                let value = event.payload.isEmpty ? ".\(SwiftName.escaped(event.name.value))" : ".\(SwiftName.escaped(event.name.value))(\(arguments.joined(separator: ", ")))"
                out.block("case \(pattern):", closing: nil) { out in
                    out.spec(Located("return " + value, at: mapping.to.location))
                }
            }
            out.line(finals.count > child.onDone.count ? "default: return nil" : "case nil: return nil")
        }
        addMember(
            doc: "`onDone:` of `\(effect.name.value)` (\(position(child.onDoneKey?.location ?? child.machine.location))): the event each way the `\(child.machine.value)` child ends becomes (E30).",
            declaration: "fileprivate static func \(member)(_ output: \(childName).Output?) -> Event?",
            body: body)
        return member
    }

    /// `_pay`: the member of `Forwarded` that unwraps the events meant for `effect`'s child.
    func forwardedAccessor(_ effect: EffectSpec) -> String {
        "_" + effect.name.value
    }

    /// True when a machine's `system(...)` takes a clock: it has timers or sends (S133), or children that it passes its clock to.
    static func needsClock(_ spec: MachineSpec) -> Bool {
        let tree = StateTree(spec.states)
        return tree.nodes.contains { !$0.spec.after.isEmpty } || spec.effects.contains { $0.child != nil } || spec.sends(tree: tree)
    }

    func makeTimers() -> [MachineContext.Timer] {
        allTimers().enumerated().map { number, entry in
            let (state, index, timer) = entry
            let mode = SwiftName.escaped(state.name.value)
            let named = timer.milliseconds == nil
            let entered = entryCount(semantics.tree.index[state.name.value]!)
            let test = "isIn(.\(mode))"
            return MachineContext.Timer(
                doc: "`after: \(SwiftLiteral.comment(timer.delay.value))` of `\(state.name.value)` (\(position(timer.delay.location))): "
                    + "armed while the machine is there, armed anew by every entry.",
                requestMember: GeneratedNames.member("timerRequest", number),
                requestType: named ? GeneratedNames.delayedEntry : "Swift.Int",
                request: named
                    ? "\(test) ? .init(entry: \(entered), delay: \(delayField(state.name.value, index))) : nil"
                    : "\(test) ? \(entered) : nil",
                delay: named ? "request in request.delay" : "_ in .milliseconds(\(timer.milliseconds!))",
                fireEvent: "\(named ? "request" : "entry") in " + timerEvent(mode: mode, index: index, entry: named ? "request.entry" : "entry")
            )
        }
    }

    /// Every `after:` timer with its state and its index there, in document order: timer `n` of the
    /// list has the request member `_timerRequest<n>`.
    func allTimers() -> [(state: StateSpec, index: Int, timer: TimerSpec)] {
        semantics.tree.nodes.map(\.spec).flatMap { state in state.after.enumerated().map { (state, $0, $1) } }
    }

    /// `._timer(.init(state: .failed, index: 0, entry: entry))`: the event timer `index` of `mode` sends.
    func timerEvent(mode: String, index: Int, entry: String) -> String {
        "." + GeneratedNames.timerCase + "("
            + ".init(state: .\(mode), index: \(index), entry: \(entry))"
            + ")"
    }

    /// `_delay_reconnecting_0`: where the delay of `after:` timer `index` of `state` is kept (E38).
    func delayField(_ state: String, _ index: Int) -> String {
        "_delay_\(state)_\(index)"
    }
}
