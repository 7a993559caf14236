import StateLoopSpec

// The generated Swift of a hierarchical machine: Docs/Statecharts.md, "The generated Swift",
// describes its shape once (a flat v1 spec keeps v1's, MachineContextBuilder+Reducer). This file
// holds what the generator knows about the state tree (`StatechartLayout`) and writes each
// transition's exits, actions and entries.
//
// Every action block after the first of a microstep reads the state as it is then (S36): it is a
// member called on a copy of `_next` (`do { let _s = _next; _s._action0(&_next) }`).

/// What the generator knows about the state tree, computed once per machine.
struct StatechartLayout {
    let tree: StateTree
    /// Per state: it has its own exit work (exit actions, history to record).
    let ownExit: [Bool]
    /// Per state: some state strictly below it has exit work.
    let exitBelow: [Bool]
    let ownEntry: [Bool]
    let entryBelow: [Bool]
    /// Per state: some `exit:` below it (inclusive) sets fields.
    let setsOnExitWithin: [Bool]
    let hasTimers: Bool
    let hasAlways: Bool
    let hasOnDone: Bool
    let hasTopLevelFinal: Bool
    let hasRuns: Bool

    init(_ semantics: MachineSemantics) {
        let tree = semantics.tree
        let spec = semantics.spec
        self.tree = tree
        let count = tree.nodes.count
        hasTimers = tree.nodes.contains { !$0.spec.after.isEmpty }
        var ownExit = Array(repeating: false, count: count)
        var ownEntry = Array(repeating: false, count: count)
        var setsOnExit = Array(repeating: false, count: count)
        for (position, node) in tree.nodes.enumerated() where !node.spec.isHistory {
            let recordsHistory = node.children.contains { tree[$0].spec.isHistory }
            ownExit[position] = !node.spec.exit.isEmpty || recordsHistory
            ownEntry[position] = !node.spec.entry.isEmpty || !node.spec.after.isEmpty || !semantics.doneTargets[position].isEmpty
            setsOnExit[position] = node.spec.exit.contains { if case .set = $0 { true } else { false } }
        }
        var exitBelow = Array(repeating: false, count: count)
        var entryBelow = Array(repeating: false, count: count)
        var setsWithin = setsOnExit
        // Children come after their parent in document order: walk backwards to sum subtrees.
        for position in (0..<count).reversed() {
            guard let parent = tree[position].parent else { continue }
            exitBelow[parent] = exitBelow[parent] || exitBelow[position] || ownExit[position]
            entryBelow[parent] = entryBelow[parent] || entryBelow[position] || ownEntry[position]
            setsWithin[parent] = setsWithin[parent] || setsWithin[position]
        }
        self.ownExit = ownExit
        self.ownEntry = ownEntry
        self.exitBelow = exitBelow
        self.entryBelow = entryBelow
        self.setsOnExitWithin = setsWithin
        hasAlways = tree.nodes.contains { !$0.spec.always.isEmpty }
        hasOnDone = tree.nodes.contains { !$0.spec.onDone.isEmpty }
        hasTopLevelFinal = tree.roots.contains { tree[$0].spec.isFinal }
        hasRuns = spec.effects.contains(where: \.isOneShot)
    }

    /// True when a step can be followed by `onDone:` or `always:` microsteps.
    var settles: Bool { hasAlways || hasOnDone }

    func exitBelow(_ domain: Int?) -> Bool {
        domain.map { exitBelow[$0] } ?? tree.roots.contains { exitBelow[$0] || ownExit[$0] }
    }

    func entryBelow(_ domain: Int?) -> Bool {
        domain.map { entryBelow[$0] } ?? tree.roots.contains { entryBelow[$0] || ownEntry[$0] }
    }

    func setsOnExit(below domain: Int?) -> Bool {
        domain.map { setsOnExitWithin[$0] } ?? tree.roots.contains { setsOnExitWithin[$0] }
    }
}

/// Which part of a transition to write: all of it, or one phase of a parallel microstep (S70).
enum TransitionPhase {
    case all, exits, actions, entries
}

extension MachineContextBuilder {
    // MARK: - Names and values

    /// The escaped case (and `StateName`) name of a state.
    func caseName(_ position: Int) -> String {
        SwiftName.escaped(layout.tree[position].name)
    }

    /// The type of what a state holds in `Mode`: `Mode` for the machine, `Mode.Active` for a composite.
    func contentType(_ container: Int?) -> String {
        guard let container else { return GeneratedNames.mode }
        return GeneratedNames.mode + "." + GeneratedNames.modeType(ofState: layout.tree[container].name)
    }

    /// `_exitBelow_active` (or `_exitBelow` for the machine).
    func below(_ kind: String, _ container: Int?) -> String {
        container.map { "_\(kind)Below_\(layout.tree[$0].name)" } ?? "_\(kind)Below"
    }

    /// The configuration below `container` after entering `path` (outermost first) from it, and
    /// every `initial:` chain (and region) below: a value of `contentType(container)`.
    func modeValue(in container: Int?, path: ArraySlice<Int>, recorded: Bool = true) -> String {
        let tree = layout.tree
        if let container, tree[container].spec.kind == .parallel {
            // A history child of a parallel state restores all its regions at once (S61, S65).
            if let child = path.first, tree[child].spec.isHistory { return historyValue(child, recorded: recorded) }
            let regions = tree.regions(of: container).map { region in
                "\(SwiftName.escaped(tree[region].name)): " + modeValue(in: region, path: path.first == region ? path.dropFirst() : [], recorded: recorded)
            }
            return contentType(container) + "(" + regions.joined(separator: ", ") + ")"
        }
        let child = path.first ?? tree.initialChild(of: container!)!
        if tree[child].spec.isHistory { return historyValue(child, recorded: recorded) }
        guard tree[child].isComposite else { return "." + caseName(child) }
        return "." + caseName(child) + "(" + modeValue(in: child, path: path.dropFirst(), recorded: recorded) + ")"
    }

    /// The configuration a history state restores below its parent (S61–S63, S65).
    func historyValue(_ history: Int, recorded: Bool) -> String {
        let tree = layout.tree
        let parent = tree[history].parent!
        let fallback: String
        if let target = tree[history].spec.historyTarget.flatMap({ tree.index[$0.value] }) {
            fallback = modeValue(in: parent, path: tree.path(from: parent, to: target)[...], recorded: recorded)
        } else {
            fallback = modeValue(in: parent, path: [], recorded: recorded)
        }
        guard recorded, case .history(let deep) = tree[history].spec.kind, tree[parent].spec.kind != .parallel || deep else { return fallback }
        let record = "_next._history_\(tree[history].name)"
        return deep ? "(\(record) ?? \(fallback))" : "(\(record).map(State._shallow_\(tree[history].name)) ?? \(fallback))"
    }

    /// The conditions of an `if` that holds while `position` is active in `subject` (a `Mode`),
    /// binding its content (`contentType(position)`) to `bind` when given.
    func activeConditions(_ position: Int, subject: String, bind: String? = nil) -> [String] {
        let tree = layout.tree
        let hole = "\u{1}"
        var conditions: [String] = []
        var subject = subject
        var pattern = hole
        var container: Int?
        var bound = 0
        let chain = Array(tree.lineage(of: position).reversed())
        for (step, state) in chain.enumerated() {
            let last = step == chain.count - 1
            if let container, tree[container].spec.kind == .parallel {
                subject += "." + SwiftName.escaped(tree[state].name)
                if last, let bind { conditions.append("case let \(bind) = \(subject)") }
            } else if last {
                pattern = pattern.replacingOccurrences(of: hole, with: "." + caseName(state) + (bind.map { "(let \($0))" } ?? ""))
                conditions.append("case \(pattern) = \(subject)")
            } else if tree[state].spec.kind == .parallel, step == chain.count - 2, bind == nil {
                // A region is active exactly while its parallel state is.
                conditions.append("case \(pattern.replacingOccurrences(of: hole, with: "." + caseName(state))) = \(subject)")
                break
            } else if tree[state].spec.kind == .parallel {
                let name = "_p\(bound)"
                bound += 1
                conditions.append("case \(pattern.replacingOccurrences(of: hole, with: "." + caseName(state) + "(let \(name))")) = \(subject)")
                subject = name
                pattern = hole
            } else {
                pattern = pattern.replacingOccurrences(of: hole, with: "." + caseName(state) + "(" + hole + ")")
            }
            container = state
        }
        return conditions
    }

    /// The pattern of a leaf (or top-level final) outside any parallel state: `.active(.playing)`.
    func leafPattern(_ position: Int) -> String {
        var pattern = "." + caseName(position)
        for ancestor in layout.tree.ancestors(of: position) {
            pattern = "." + caseName(ancestor) + "(" + pattern + ")"
        }
        return pattern
    }

    /// Statements that store `value` as the content of `domain` in `_next.mode`, keeping the
    /// regions of every parallel state above it.
    func assignContent(of domain: Int?, _ value: String, indent: String) -> [String] {
        let tree = layout.tree
        guard let domain else { return [indent + "_next.mode = \(value)"] }
        guard let parent = tree[domain].parent else { return [indent + "_next.mode = .\(caseName(domain))(\(value))"] }
        guard tree[parent].spec.kind == .parallel else {
            return assignContent(of: parent, ".\(caseName(domain))(\(value))", indent: indent)
        }
        let depth = tree[parent].depth
        let conditions = activeConditions(parent, subject: "_next.mode", bind: "_r\(depth)")
        return [indent + "if " + conditions.joined(separator: ", ") + " {",
                indent + "    var _w\(depth) = _r\(depth)",
                indent + "    _w\(depth).\(SwiftName.escaped(tree[domain].name)) = \(value)"]
            + assignContent(of: parent, "_w\(depth)", indent: indent + "    ")
            + [indent + "}"]
    }

    // MARK: - Transitions

    /// The statements of a transition: exits below its domain, its `set:` and `do:`, the new
    /// configuration, entries below the domain (S25–S31). `source` is `nil` for the machine's `on:`.
    mutating func transitionLines(
        _ transition: Transition, source: Int?, payload: EventSpec?, indent: String, phase: TransitionPhase = .all, into body: inout CaseBody
    ) {
        let tree = layout.tree
        if phase == .all || phase == .actions { body.generated(indent + take(at: transition.location)) }
        var dirty = false
        var domain: Int?
        var target: Int?
        if transition.target != nil {
            let id = transitions.id(at: transition.location)!
            target = semantics.targets[id]
            domain = semantics.domains[id]!
            if layout.exitBelow(domain), phase == .all || phase == .exits {
                if let domain {
                    body.generated(indent + "if " + activeConditions(domain, subject: "_next.mode", bind: "_c").joined(separator: ", ") + " {")
                    body.generated(indent + "    State.\(below("exit", domain))(_c, &_next)")
                    body.generated(indent + "}")
                } else {
                    body.generated(indent + "State.\(below("exit", nil))(_next.mode, &_next)")
                }
                dirty = layout.setsOnExit(below: domain)
            }
        }
        if phase == .exits { return }
        if phase == .entries, target == nil { return }
        if phase != .entries, !transition.assignments.isEmpty {
            block(.set(transition.assignments, at: transition.location), payload: payload, dirty: dirty, indent: indent, into: &body)
            dirty = true
        }
        for action in transition.actions where phase != .entries {
            block(action, payload: payload, dirty: dirty, indent: indent, into: &body)
            if case .set = action { dirty = true }
        }
        if phase == .actions { return }
        guard let target else { return }
        if layout.hasTimers { body.generated(indent + "_next._entries &+= 1") }
        let value = modeValue(in: domain, path: tree.path(from: domain, to: target)[...])
        if layout.entryBelow(domain) {
            body.generated(indent + "let _c: \(contentType(domain)) = \(value)")
            for line in assignContent(of: domain, "_c", indent: indent) { body.generated(line) }
            body.generated(indent + "State.\(below("enter", domain))(_c, &_next)")
        } else {
            for line in assignContent(of: domain, value, indent: indent) { body.generated(line) }
        }
    }

    /// One action block: inline when nothing has changed the state yet in this microstep (the
    /// spec's expressions read `self`, the state before it), else a member called on a copy of
    /// the current state.
    mutating func block(_ action: Action, payload: EventSpec?, dirty: Bool, indent: String, into body: inout CaseBody) {
        guard dirty else {
            actionStatements(action, indent: indent, into: &body)
            return
        }
        let name = actionMember(action, payload: payload)
        body.generated(indent + "do { let _s = _next; _s.\(name)(\(payload == nil ? "" : "event, ")&_next) }")
    }

    /// `_next.field = value` per assignment, or `_next._queue(.effect(request))`.
    func actionStatements(_ action: Action, indent: String, into body: inout CaseBody) {
        switch action {
        case .set(let assignments, _):
            for assignment in assignments {
                let field = SwiftName.escaped(spec.context[fieldIndex[assignment.field.value]!].name.value)
                body.spec(assignment.expression, after: "_next.\(field) = ", indent: indent)
            }
        case .run(let effect, let request, _):
            let name = SwiftName.escaped(effect.value)
            if let request {
                body.spec(request, after: "_next._queue(.\(name)(", indent: indent, then: indent + "))")
            } else {
                body.generated(indent + "_next._queue(.\(name))")
            }
        }
    }

    /// A member of `State` running one action block on `self`, the state as it is when it runs.
    mutating func actionMember(_ action: Action, payload: EventSpec?) -> String {
        let name = nextMember("action")
        var body = CaseBody(placement: placement)
        actionStatements(action, indent: "            ", into: &body)
        let parameter = payload.map { "_ event: Event.\(GeneratedNames.payloadType(ofEvent: $0.name.value)), " } ?? ""
        addMember(
            doc: "An action of \(position(action.location)), run on the state as it is then.",
            declaration: "fileprivate func \(name)(\(parameter)_ _next: inout State)",
            body: body.finished())
        return name
    }

    /// The branches that decide `event` in `leaf`, in the order they are tried (S10–S13), with
    /// the state that owns each (`nil`: the machine). Empty: ignored.
    func resolvedBranches(leaf: Int, event: String) -> [(branch: Branch, source: Int?)] {
        branches(semantics.chain(leaf: leaf, .event(event)))
    }

    /// The branches of `ids` with the state that owns each.
    func branches(_ ids: [Int]) -> [(branch: Branch, source: Int?)] {
        ids.map { (transitions.entries[$0].branch, semantics.sources[$0]) }
    }

    /// The `if` / `else if` chain of resolved branches. In a machine that settles, each taken
    /// branch returns `true` and the chain ends with `return false`.
    mutating func chainLines(_ chain: [(branch: Branch, source: Int?)], leaf: Int, payload: EventSpec?, indent: String) -> [String] {
        var body = CaseBody(placement: placement)
        var open = false
        var closed = false
        for (branch, source) in chain {
            guard case .transition(let transition) = branch else {
                // An `ignore` ends the chain: recorded, nothing else.
                if open { body.generated(indent + "} else {") }
                body.generated((open ? indent + "    " : indent) + take(at: branch.location) + " // ignored")
                if open { body.generated(indent + "}") }
                open = false
                closed = true
                break
            }
            let inner = indent + "    "
            let payload = payload != nil && Self.mentionsPayload([branch]) ? payload : nil
            if let condition = transition.guardExpression {
                body.spec(condition, after: open ? "} else if " : "if ", indent: indent, then: indent + "{")
                take(transition, source: source, leaf: leaf, payload: payload, indent: inner, into: &body)
                if layout.settles { body.generated(inner + "return true") }
                open = true
                continue
            }
            if open { body.generated(indent + "} else {") }
            take(transition, source: source, leaf: leaf, payload: payload, indent: open ? inner : indent, into: &body)
            if layout.settles { body.generated((open ? inner : indent) + "return true") }
            closed = true
            break
        }
        if open { body.generated(indent + "}") }
        if layout.settles, !closed || chain.last.map({ if case .ignore = $0.branch { true } else { false } }) == true {
            body.generated(indent + "return false")
        }
        if body.lines.isEmpty { body.generated(indent + "break // ignored") }
        return body.finished()
    }

    /// A branch's statements: inline when the leaf itself wrote it, else a call of the member
    /// shared by every leaf that inherits it.
    mutating func take(_ transition: Transition, source: Int?, leaf: Int, payload: EventSpec?, indent: String, into body: inout CaseBody) {
        guard source != leaf, transition.target != nil || !transition.assignments.isEmpty || !transition.actions.isEmpty else {
            transitionLines(transition, source: source, payload: payload, indent: indent, into: &body)
            return
        }
        let key = "\(transition.location.line):\(transition.location.column)"
        let name: String
        if let shared = sharedTakes[key] {
            name = shared
        } else {
            name = nextMember("take")
            sharedTakes[key] = name
            var member = CaseBody(placement: placement)
            transitionLines(transition, source: source, payload: payload, indent: "            ", into: &member)
            let parameter = payload.map { "_ event: Event.\(GeneratedNames.payloadType(ofEvent: $0.name.value)), " } ?? ""
            addMember(
                doc: "The transition of \(position(transition.location)), shared by the states that inherit it.",
                declaration: "fileprivate func \(name)<_R: StateLoop._TransitionRecorder>(\(parameter)_ _next: inout State, _ _trace: inout _R)",
                body: member.finished())
        }
        body.generated(indent + "\(name)(\(payload == nil ? "" : "event, ")&_next, &_trace)")
    }
}
