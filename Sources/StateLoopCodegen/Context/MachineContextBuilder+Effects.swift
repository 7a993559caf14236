import StateLoopSpec

// Effects and `after:` timers, both query-triggered: a member of `State` computes the request
// (`nil`: not running), a feedback loop runs the effect for it. An effect's request is its
// `request.value` in the states of its `in:`; a timer's is the entry count while its state is
// active, so every entry arms it anew.

extension MachineContextBuilder {
    mutating func makeEffect(_ effect: EffectSpec, requestType: String?) -> MachineContext.Effect {
        let emitted = effect.emits.compactMap { name in spec.events.first { $0.name.value == name.value } }
        var requestBody: [String] = []
        if let value = effect.request?.value, let requestType {
            let valueName = nextMember("value")
            addMember(
                doc: "`request.value` of `\(effect.name.value)` (\(position(value.location))).",
                declaration: "fileprivate func \(valueName)() -> \(requestType)?",
                body: placement.lines(value, indent: "") + [SourcePlacement.end]
            )
            let active = Set(effect.runningStates.map(\.value))
            if isV1 {
                let activeCases = spec.states.filter { active.contains($0.name.value) }.map { ".\(SwiftName.escaped($0.name.value))" }
                let otherCases = spec.states.filter { !active.contains($0.name.value) }.map { ".\(SwiftName.escaped($0.name.value))" }
                requestBody = ["switch mode {"]
                if !activeCases.isEmpty { requestBody.append("case \(activeCases.joined(separator: ", ")): \(valueName)()") }
                if !otherCases.isEmpty { requestBody.append("case \(otherCases.joined(separator: ", ")): nil") }
                requestBody.append("}")
            } else {
                let test = effect.runningStates.map { "isIn(.\(SwiftName.escaped($0.value)))" }.joined(separator: " || ")
                requestBody = ["\(test) ? \(valueName)() : nil"]
            }
        }
        let states = effect.runningStates.map { "`\($0.value)`" }.joined(separator: ", ")
        return MachineContext.Effect(
            doc: "`\(effect.name.value)` (\(position(effect.name.location))): runs in \(states) while its request is not `nil`; "
                + "a new request cancels the run before it.",
            name: SwiftName.escaped(effect.name.value),
            requestType: requestType ?? "",
            resultType: GeneratedNames.resultType(ofEffect: effect.name.value),
            results: emitted.map { .init(doc: "Fed back as `Event.\($0.name.value)`.", declaration: caseDeclaration($0)) },
            conversions: emitted.map { event in
                let name = SwiftName.escaped(event.name.value)
                if event.payload.isEmpty { return "case .\(name): .\(name)" }
                return "case \(bindingPattern(event)): .\(name)(\(labeledArguments(event)))"
            },
            requestMember: GeneratedNames.requestMember(ofEffect: effect.name.value),
            requestBody: requestBody,
            isQuery: !effect.isOneShot,
            hasResults: !effect.isOneShot || !effect.emits.isEmpty
        )
    }

    func makeTimers() -> [MachineContext.Timer] {
        let timers = layout.tree.nodes.map(\.spec).flatMap { state in state.after.enumerated().map { (state, $0, $1) } }
        return timers.enumerated().map { number, entry in
            let (state, index, timer) = entry
            let mode = SwiftName.escaped(state.name.value)
            return MachineContext.Timer(
                doc: "`after: \(SwiftLiteral.comment(timer.delay.value))` of `\(state.name.value)` (\(position(timer.delay.location))): "
                    + "armed while the machine is there, armed anew by every entry.",
                mode: mode,
                milliseconds: timer.milliseconds ?? 0,  // named delays: next commit
                requestMember: GeneratedNames.member("timerRequest", number),
                fireEvent: isV1
                    ? ".\(GeneratedNames.timerCase)(\(Self.timer(mode: mode, index: index, entry: "entry")))"
                    : ".\(GeneratedNames.timerCase)(.init(state: .\(mode), index: \(index), entry: entry))",
                request: isV1 ? "mode == .\(mode) ? _entries : nil" : "isIn(.\(mode)) ? _entered_\(state.name.value) : nil"
            )
        }
    }
}
