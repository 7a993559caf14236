import StateLoopSpec

// The code of a transition (Docs/Statecharts.md, "The generated Swift"): the exits below its
// domain, its `set:` and `do:`, the new configuration, the entries below the domain; and the
// `if` / `else if` chain of the branches a leaf resolved for an event. A branch written on the
// leaf is inline; a branch inherited from a composite (or the machine's `on:`) is one member
// (`_take0`) that every leaf inheriting it calls. Every action block after the first of a
// microstep reads the state as it is then (S36): it is a member that runs on `_next` in place
// (`_next._action0()`), so no block copies the state, nor the arrays a later append would copy.

/// Which part of a transition to write: all of it, or one phase of a parallel microstep (S70).
enum TransitionPhase {
    case all, exits, actions, entries
}

extension MachineContextBuilder {
    /// Prints the statements of a transition: exits below its domain, its `set:` and `do:`, the new
    /// configuration, entries below the domain (S25–S31). `source` is `nil` for the machine's `on:`.
    mutating func transitionLines(
        _ transition: Transition, source: Int?, payload: EventSpec?, phase: TransitionPhase = .all, into out: inout SwiftPrinter
    ) {
        if phase == .all || phase == .actions { out.line(take(at: transition.location)) }
        var dirty = false
        var domain: Int?
        var target: Int?
        if transition.target != nil {
            let id = transitions.id(at: transition.location)!
            target = semantics.targets[id]
            domain = semantics.domains[id]!
            if flags.exitBelow(domain), phase == .all || phase == .exits {
                if let domain {
                    out.block("if " + activeConditions(domain, subject: "_next.mode", bind: "_c").joined(separator: ", ") + " {") { out in
                        out.line("State.\(below("exit", domain))(_c, &_next)")
                    }
                } else {
                    out.line("State.\(below("exit", nil))(_next.mode, &_next)")
                }
                dirty = flags.changesOnExit(below: domain)
            }
        }
        if phase == .exits { return }
        if phase == .entries, target == nil { return }
        if phase != .entries, !transition.assignments.isEmpty {
            block(.set(transition.assignments, at: transition.location), payload: payload, dirty: dirty, into: &out)
            dirty = true
        }
        for action in transition.actions where phase != .entries {
            block(action, payload: payload, dirty: dirty, into: &out)
            if action.changesState { dirty = true }
        }
        if phase == .actions { return }
        guard let target else { return }
        if flags.hasTimers { out.line("_next._entries &+= 1") }
        let entry = semantics.entry(below: domain, toward: target)
        let value = modeValue(in: domain, toward: [target])
        if flags.entryBelow(domain) {
            out.line("let _c: \(contentType(domain)) = \(value)")
            assignContent(of: domain, "_c", into: &out)
            unanchoredDefaultLines(entry, into: &out)
            out.line("State.\(below("enter", domain))(_c, &_next\(defaultsArgument(entry)))")
        } else {
            assignContent(of: domain, value, into: &out)
            unanchoredDefaultLines(entry, into: &out)
        }
    }

    /// One action block: inline when nothing has changed the state yet in this microstep (the
    /// spec's expressions read `self`, the state before it, and write `_next`), else a call of a
    /// member that runs it on `_next` in place, reading the state as it is then (S36).
    mutating func block(_ action: Action, payload: EventSpec?, dirty: Bool, into out: inout SwiftPrinter) {
        guard dirty else {
            actionStatements(action, payload: payload, on: "_next.", into: &out)
            return
        }
        out.line(actionCall(action, payload: payload))
    }

    /// The call of the member that runs `action` on `_next` in place (`_next._action0(event)`).
    mutating func actionCall(_ action: Action, payload: EventSpec?) -> String {
        "_next.\(actionMember(action, payload: payload))(\(payload == nil ? "" : "event"))"
    }

    /// The statements of one action, writing through `on` (`_next.` inline, where the
    /// expressions read the state before the microstep as `self`; empty in a member that runs on
    /// the state in place, where they read it as it is): `field = value` per assignment,
    /// `_queue(.effect(request))`, an `if` of the blocks of a conditional, its condition read as
    /// the state is then (S107), or the `for` of a loop (S170).
    mutating func actionStatements(_ action: Action, payload: EventSpec?, on target: String, into out: inout SwiftPrinter) {
        switch action {
        case .set(let assignments, _):
            let fields = assignments.map { SwiftName.escaped(spec.context[fieldIndex[$0.field.value]!].name.value) }
            guard target.isEmpty, assignments.count > 1 else {
                for (assignment, field) in zip(assignments, fields) { out.spec(assignment.expression, after: "\(target.isEmpty ? "self." : target)\(field) = ") }
                return
            }
            // S35: in place, every value is computed before the first is assigned.
            for (index, assignment) in assignments.enumerated() {
                out.spec(assignment.expression, after: "let _v\(index): \(fieldTypes[fieldIndex[assignment.field.value]!]) = ")
            }
            for (index, field) in fields.enumerated() { out.line("self.\(field) = _v\(index)") }
        case .run(let effect, let request, _):
            let name = SwiftName.escaped(effect.value)
            if let request {
                out.spec(request, after: "\(target)_queue(.\(name)(", then: "))")
            } else {
                out.line("\(target)_queue(.\(name))")
            }
        case .raise(let name, let given, _):
            eventToSelf(name, given, into: &out) { "\(target)_raised.append(\($0))" }
        case .send(let send):
            // S126, S129: the delay as the action sees the state (a named one evaluated now), the id replacing.
            let delay = send.milliseconds.map { ".milliseconds(\($0))" } ?? "self.\(delayMembers[send.delay!.value]!)()"
            let id = send.id.map { SwiftLiteral.string($0.value) } ?? "nil"
            eventToSelf(send.event, send.payload, into: &out) { "\(target)_send(\($0), id: \(id), after: \(delay))" }
        case .sendToParent(let name, let given, _):
            eventToSelf(name, given, into: &out) { "\(target)toParent.append(\($0))" }
        case .cancel(let id, _):
            // S130: every pending send with the id; none is no change.
            out.line("\(target)pendingSends.removeAll { $0.id == \(SwiftLiteral.string(id.value)) }")
        case .conditional(let conditional):
            out.spec(conditional.condition, after: "if (", then: ") {")
            out.indent()
            blocks(conditional.then, payload: payload, on: target, into: &out)
            out.outdent()
            if !conditional.otherwise.isEmpty {
                out.line("} else {")
                out.indent()
                blocks(conditional.otherwise, payload: payload, on: target, into: &out)
                out.outdent()
            }
            out.line("}")
        case .foreach(let loop):
            // S170, S171: the array read once on the state as it is, a copy; per element the item
            // and the index, then each action on the state as it is then.
            let item = SwiftName.escaped(spec.context[fieldIndex[loop.item.value]!].name.value)
            out.block("do {") { out in
                out.spec(loop.array, after: "let _array: [\(spec.context[fieldIndex[loop.item.value]!].type.value)] = ")
                out.block(loop.index == nil ? "for _item in _array {" : "for (_index, _item) in _array.enumerated() {") { out in
                    out.line("\(target.isEmpty ? "self." : target)\(item) = _item")
                    if let index = loop.index {
                        out.line("\(target.isEmpty ? "self." : target)\(SwiftName.escaped(spec.context[fieldIndex[index.value]!].name.value)) = _index")
                    }
                    for action in loop.actions {
                        if target.isEmpty {
                            actionStatements(action, payload: payload, on: target, into: &out)
                        } else {
                            block(action, payload: payload, dirty: true, into: &out)
                        }
                    }
                }
            }
        }
    }

    /// The actions of a list in order: in place, each as it is; inline, each block after one that
    /// changes the state reading the state as it is then (S36).
    private mutating func blocks(_ actions: [Action], payload: EventSpec?, on target: String, into out: inout SwiftPrinter) {
        guard !target.isEmpty else {
            for action in actions { actionStatements(action, payload: payload, on: target, into: &out) }
            return
        }
        var dirty = false
        for action in actions {
            block(action, payload: payload, dirty: dirty, into: &out)
            if action.changesState { dirty = true }
        }
    }

    /// A member of `State` running one action block on `self` in place, reading the state as it
    /// is when it runs.
    mutating func actionMember(_ action: Action, payload: EventSpec?) -> String {
        let key = "\(action.location.line):\(action.location.column):\(payload?.name.value ?? "")"
        if let made = actionMembers[key] { return made }
        let name = nextMember("action")
        actionMembers[key] = name
        var body = memberPrinter()
        actionStatements(action, payload: payload, on: "", into: &body)
        let parameter = payload.map { "_ event: Event.\(GeneratedNames.payloadType(ofEvent: $0.name.value))" } ?? ""
        addMember(
            doc: "An action of \(position(action.location)), run on the state in place, as it is then.",
            declaration: "fileprivate mutating func \(name)(\(parameter))",
            body: body)
        return name
    }

    /// Prints the `if` / `else if` chain of resolved branches. In a machine that settles, each
    /// taken branch returns `true` and the chain ends with `return false`.
    mutating func chainLines(_ chain: [(branch: Branch, source: Int?)], leaf: Int, payload: EventSpec?, into out: inout SwiftPrinter) {
        let start = out.lines.count
        var open = false
        var closed = false
        for (branch, source) in chain {
            guard case .transition(let transition) = branch else {
                // An `ignore` ends the chain: recorded, nothing else.
                if open {
                    out.outdent()
                    out.block("} else {") { $0.line(take(at: branch.location) + " // ignored") }
                } else {
                    out.line(take(at: branch.location) + " // ignored")
                }
                open = false
                closed = true
                break
            }
            let payload = payload != nil && Self.mentionsPayload([branch]) ? payload : nil
            if let condition = transition.guardExpression {
                if open { out.outdent() }
                out.spec(condition, after: open ? "} else if (" : "if (", then: ") {")
                out.indent()
                take(transition, source: source, leaf: leaf, payload: payload, into: &out)
                if flags.settles { out.line("return true") }
                open = true
                continue
            }
            if open {
                out.outdent()
                out.line("} else {")
                out.indent()
            }
            take(transition, source: source, leaf: leaf, payload: payload, into: &out)
            if flags.settles { out.line("return true") }
            closed = true
            break
        }
        if open {
            out.outdent()
            out.line("}")
        }
        if flags.settles, !closed || chain.last.map({ if case .ignore = $0.branch { true } else { false } }) == true {
            out.line("return false")
        }
        if out.lines.count == start { out.line("break // ignored") }
    }

    /// A branch's statements: inline when the leaf itself wrote it, else a call of the member
    /// shared by every leaf that inherits it.
    mutating func take(_ transition: Transition, source: Int?, leaf: Int, payload: EventSpec?, into out: inout SwiftPrinter) {
        guard source != leaf, transition.target != nil || !transition.assignments.isEmpty || !transition.actions.isEmpty else {
            transitionLines(transition, source: source, payload: payload, into: &out)
            return
        }
        let key = "\(transition.location.line):\(transition.location.column)"
        let name: String
        if let shared = sharedTakes[key] {
            name = shared
        } else {
            name = nextMember("take")
            sharedTakes[key] = name
            var member = memberPrinter()
            transitionLines(transition, source: source, payload: payload, into: &member)
            let parameter = payload.map { "_ event: Event.\(GeneratedNames.payloadType(ofEvent: $0.name.value)), " } ?? ""
            addMember(
                doc: "The transition of \(position(transition.location)), shared by the states that inherit it.",
                declaration: "fileprivate func \(name)<_R: StateLoop._TransitionRecorder>(\(parameter)_ _next: inout State, _ _trace: inout _R)",
                body: member)
        }
        out.line("\(name)(\(payload == nil ? "" : "event, ")&_next, &_trace)")
    }

    /// The event a `raise:` or `send:` names with its payload, in the event's declared order,
    /// each value at its YAML line (S120, S126), handed to `statement` as `.found(n: _p0)`.
    func eventToSelf(_ name: Located<String>, _ given: [Assignment], into out: inout SwiftPrinter, _ statement: (String) -> String) {
        let event = spec.events.first { $0.name.value == name.value }!
        let values = event.payload.compactMap { field in given.first { $0.field.value == field.name.value } }
        let value = "." + SwiftName.escaped(name.value)
        guard !values.isEmpty else { return out.line(statement(value)) }
        // A `#sourceLocation` stands between statements: each value is a constant of its type first.
        let types = payloadTypes[name.value] ?? []
        out.block("do {") { out in
            for (index, value) in values.enumerated() {
                out.spec(value.expression, after: "let _p\(index): \(types[index]) = ")
            }
            out.line(statement(value + "(" + values.enumerated().map { "\(Self.argumentLabel($1.field.value)): _p\($0)" }.joined(separator: ", ") + ")"))
        }
    }
}
