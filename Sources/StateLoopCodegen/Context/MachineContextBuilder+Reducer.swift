import StateLoopSpec

// The reducer: a function per state with a `switch` over every event (no `default:`), and in each
// case the branches of its handler as an `if` / `else if` chain. The spec's expressions are not
// written into the switch: bare field names must mean the old state and each expression must
// stand in a `#sourceLocation` block, so a branch with a `guard:` or `set:` gets one member of
// `State` that evaluates its guard and all its `set:` values against the old state
// (`_branch0(_:) -> (_T0, _T2)?`, `nil` when the guard fails; `_guard0(_:) -> Swift.Bool` for a
// guard alone). The assignments, the new mode and the entry count stay inline. One member per
// branch, not per expression: swiftc's time grows with the number of functions.

extension MachineContextBuilder {
    mutating func makeReducerMode(_ state: StateSpec) -> MachineContext.ReducerMode {
        var cases: [MachineContext.ReducerCase] = []
        let handlers = Dictionary(state.on.map { ($0.event.value, $0) }, uniquingKeysWith: { first, _ in first })
        let ignored = Set((state.ignore + spec.ignore).map(\.value))
        for event in spec.events {
            guard let handler = handlers[event.name.value] else {
                // Not handled here: ignored out loud, or an effects-only event no emitting effect
                // sends in this state. Either way the reducer needs the case, as a no-op.
                let saidIgnored = ignored.contains(event.name.value)
                let reason = event.source == .effects && !saidIgnored ? "no effect that sends it runs here" : "ignored"
                cases.append(.init(pattern: "case .\(SwiftName.escaped(event.name.value)):", body: ["break // \(reason)"]))
                continue
            }
            let chain = branchChain(handler.branches, context: "\(state.name.value), on \(event.name.value)", payload: event)
            if chain.usesPayload {
                cases.append(.init(
                    pattern: "case \(bindingPattern(event)):",
                    body: ["let payload = \(payloadType(event))(\(labeledArguments(event)))"] + chain.lines
                ))
            } else {
                cases.append(.init(pattern: "case .\(SwiftName.escaped(event.name.value)):", body: chain.lines))
            }
        }
        if hasTimers {
            let mode = SwiftName.escaped(state.name.value)
            for (index, timer) in state.after.enumerated() {
                cases.append(.init(
                    pattern: "case .\(GeneratedNames.timerCase)(let timer) where timer == \(Self.timer(mode: mode, index: index, entry: "state._entries")):",
                    body: branchChain(timer.branches, context: "\(state.name.value), after \(timer.delay.value)", payload: nil).lines
                ))
            }
            cases.append(.init(
                pattern: "case .\(GeneratedNames.timerCase):",
                body: [state.after.isEmpty ? "break // no timer runs here" : "break // a timer of another state or of an earlier entry"]
            ))
        }
        return .init(
            mode: SwiftName.escaped(state.name.value),
            function: GeneratedNames.reducerFunction(ofState: state.name.value),
            cases: cases
        )
    }

    /// `Event.Timer(mode: .failed, index: 0, entry: entry)`: which timer fired, as the timer
    /// feedback makes it and as the reducer matches it.
    static func timer(mode: String, index: Int, entry: String) -> String {
        "\(GeneratedNames.event).\(GeneratedNames.timer)(mode: .\(mode), index: \(index), entry: \(entry))"
    }

    /// `if <branch 1> { ... } else if <branch 2> { ... } else { ... }`: the first branch whose
    /// guard holds wins; a bare `ignore` (or no branch left) does nothing. `usesPayload` is true
    /// when some branch calls a member, which takes the payload (an unused binding is a warning).
    private mutating func branchChain(
        _ branches: [Branch], context: String, payload event: EventSpec?
    ) -> (lines: [String], usesPayload: Bool) {
        let payload = event.flatMap { $0.payload.isEmpty ? nil : $0 }
        var lines: [String] = []
        var open = false
        var usesPayload = false
        for (index, branch) in branches.enumerated() {
            guard case .transition(let transition) = branch else { break }
            let step = makeBranch(transition, context: "\(context), branch \(index + 1)", payload: payload)
            usesPayload = usesPayload || step.callsMember
            let actions = step.actions.map { "    " + $0 }
            if let condition = step.condition {
                lines.append("\(open ? "} else if" : "if") \(condition) {")
                lines += actions
                open = true
                continue
            }
            // An unconditional branch ends the chain: the checks flag branches after it.
            if open {
                lines.append("} else {")
                lines += actions
            } else {
                lines += step.actions
            }
            break
        }
        if open { lines.append("}") }
        return lines.isEmpty ? (["break // ignored"], false) : (lines, usesPayload && payload != nil)
    }

    /// One branch: its condition (`nil` when it always applies) and the statements it runs.
    private mutating func makeBranch(
        _ transition: Transition, context: String, payload: EventSpec?
    ) -> (condition: String?, actions: [String], callsMember: Bool) {
        let parameter = payload.map { "_ event: \(payloadType($0))" } ?? ""
        let argument = payload == nil ? "" : "payload"
        var actions: [String] = []
        let fields = transition.assignments.map { fieldIndex[$0.field.value]! }
        let values = fields.indices.map { "_n\($0)" }
        for (value, field) in zip(values, fields) {
            actions.append("state.\(SwiftName.escaped(spec.context[field].name.value)) = \(value)")
        }
        var summary = "stays"
        if let target = transition.target {
            actions.append("state.mode = .\(SwiftName.escaped(target.value))")
            if hasTimers { actions.append("state._entries &+= 1") }
            summary = "enters \(target.value)"
        }
        let doc = "\(SwiftLiteral.comment(context)): \(summary) (\(position(transition.location)))."
        switch (transition.guardExpression, transition.assignments.isEmpty) {
        case (nil, true):
            return (nil, actions, false)
        case (let condition?, true):
            let name = nextMember("guard")
            addMember(
                doc: doc + " Its `guard:`.",
                declaration: "fileprivate func \(name)(\(parameter)) -> Swift.Bool",
                body: placement.lines(condition, indent: "") + [SourcePlacement.end]
            )
            return ("state.\(name)(\(argument))", actions, true)
        case (let condition, false):
            let name = nextMember("branch")
            let types = fields.map { fieldTypes[$0] }
            let tuple = types.count == 1 ? types[0] : "(\(types.joined(separator: ", ")))"
            var body: [String] = []
            if let condition {
                body += placement.lines(condition, after: "guard ", indent: "            ")
                body.append("            else { return nil }")
            }
            for (index, assignment) in transition.assignments.enumerated() {
                body += placement.lines(assignment.expression, after: "let _\(index): \(types[index]) = ", indent: "            ")
            }
            body.append(SourcePlacement.end)
            let results = transition.assignments.indices.map { "_\($0)" }
            body.append("            return " + (results.count == 1 ? results[0] : "(\(results.joined(separator: ", ")))"))
            addMember(
                doc: doc + (condition == nil ? " Its `set:` values," : " Its `guard:` (`nil` when false) and `set:` values,")
                    + " all computed from the old state.",
                declaration: "fileprivate func \(name)(\(parameter)) -> \(tuple)\(condition == nil ? "" : "?")",
                body: body
            )
            let bound = values.count == 1 ? values[0] : "(\(values.joined(separator: ", ")))"
            let call = "state.\(name)(\(argument))"
            if condition == nil {
                return (nil, ["let \(bound) = \(call)"] + actions, true)
            }
            let binding = values.count == 1 ? "let \(bound) = \(call)" : "case let \(bound)? = \(call)"
            return (binding, actions, true)
        }
    }
}
