import StateLoopSpec

// The declarations of a hierarchical machine around its transitions: `Mode`'s nested types,
// `StateName` and `isIn`, the per-leaf reducer methods and their dispatch, the exit and entry
// functions, `onDone:` and `always:` and the settle loop, `State.initial` and `reduce`.

extension MachineContextBuilder {
    // MARK: - Types and queries

    /// The body of `Mode`: its cases, then an enum per composite and a struct per parallel state.
    func modeLines() -> [String] {
        let tree = layout.tree
        func caseLine(_ position: Int, indent: String) -> String {
            tree[position].isComposite ? "\(indent)case \(caseName(position))(\(contentType(position)))" : "\(indent)case \(caseName(position))"
        }
        var lines = tree.roots.filter { !tree[$0].spec.isHistory }.map { caseLine($0, indent: "        ") }
        for (position, node) in tree.nodes.enumerated() where node.isComposite {
            let name = GeneratedNames.modeType(ofState: node.name)
            lines.append("")
            if node.spec.kind == .parallel {
                lines.append("        /// The regions of `\(node.name)`, all active at once.")
                lines.append("        \(access.prefix)struct \(name): Swift.Hashable, Swift.Sendable {")
                let regions = tree.regions(of: position)
                for region in regions {
                    lines.append("            \(access.prefix)var \(caseName(region)): \(contentType(region))")
                }
                let parameters = regions.map { region -> String in
                    let name = tree[region].name
                    let parameter = Self.parameterName(name)
                    return (parameter == name ? name : "\(Self.label(name)) \(parameter)") + ": \(contentType(region))"
                }
                lines.append("")
                lines.append("            \(access.prefix)init(\(parameters.joined(separator: ", "))) {")
                for region in regions {
                    lines.append("                self.\(caseName(region)) = \(Self.parameterName(tree[region].name))")
                }
                lines.append("            }")
            } else {
                lines.append("        /// The children of `\(node.name)`.")
                lines.append("        \(access.prefix)enum \(name): Swift.Hashable, Swift.Sendable {")
                for child in node.children where !tree[child].spec.isHistory {
                    lines.append(caseLine(child, indent: "            "))
                }
            }
            lines.append("        }")
        }
        if !tree.isFlat, !tree.nodes.contains(where: { $0.spec.kind == .parallel }) {
            let resting = tree.nodes.indices.filter { tree.isLeaf($0) || (tree[$0].parent == nil && tree[$0].spec.isFinal) }
            lines.append("")
            lines.append("        /// Every configuration: each leaf with its ancestors.")
            lines.append("        \(access.prefix)static let allCases: [Mode] = [\(resting.map(leafPattern).joined(separator: ", "))]")
        }
        return lines
    }

    /// `StateName`, `isIn(_:)` and `isDone`, declared for every machine.
    func queryLines() -> [String] {
        let tree = layout.tree
        let states = tree.nodes.indices.filter { !tree[$0].spec.isHistory }
        var lines = [
            "",
            "        /// True while `name` is active: the state itself or, for a composite, any state below it.",
            "        \(access.prefix)func isIn(_ name: StateName) -> Swift.Bool {",
            "            switch name {",
        ]
        for state in states {
            let conditions = layout.tree.isFlat ? ["case .\(caseName(state)) = mode"] : activeConditions(state, subject: "mode")
            lines.append("            case .\(caseName(state)): if \(conditions.joined(separator: ", ")) { true } else { false }")
        }
        lines += ["            }", "        }", ""]
        let timed = tree.nodes.indices.filter { !tree[$0].spec.after.isEmpty }
        if !isV1, !timed.isEmpty {
            lines += [
                "        /// The event `after:` timer `index` of `name` sends now, or `nil` when that state is not",
                "        /// active: for tests that fire a timer through `reduce` (S77).",
                "        \(access.prefix)func armedTimer(_ name: StateName, index: Swift.Int = 0) -> Event? {",
                "            switch (name, index) {",
            ]
            for state in timed {
                for index in tree[state].spec.after.indices {
                    lines.append("            case (.\(caseName(state)), \(index)) where isIn(.\(caseName(state))): .\(GeneratedNames.timerCase)(.init(state: .\(caseName(state)), index: \(index), entry: _entered_\(tree[state].name)))")
                }
            }
            lines += ["            default: nil", "            }", "        }", ""]
        }
        let finals = tree.roots.filter { tree[$0].spec.isFinal }
        lines.append("        /// True once a top-level final state is entered: the machine has finished, and `reduce` changes nothing.")
        if finals.isEmpty {
            lines.append("        \(access.prefix)var isDone: Swift.Bool { false }")
        } else {
            lines.append("        \(access.prefix)var isDone: Swift.Bool {")
            lines.append("            switch mode {")
            lines.append("            case \(finals.map { "." + caseName($0) }.joined(separator: ", ")): true")
            let others = tree.roots.filter { !tree[$0].spec.isFinal && !tree[$0].spec.isHistory }
            if !others.isEmpty { lines.append("            case \(others.map { "." + caseName($0) }.joined(separator: ", ")): false") }
            lines.append("            }")
            lines.append("        }")
        }
        return lines
    }

    /// `enum StateName`'s cases: every state but history states.
    func stateNameCases() -> [String] {
        layout.tree.nodes.indices.filter { !layout.tree[$0].spec.isHistory }.map(caseName)
    }

    // MARK: - Reducer

    /// What a leaf decides for one case of `Event`: the branches resolved for it (none: ignored),
    /// the payload to bind when some branch names `event`, and why it may be empty.
    struct LeafDecision {
        var pattern: String
        var payloadBinding: String?
        var chain: [(branch: Branch, source: Int?)]
        var payload: EventSpec?
        /// Why the chain is empty, as a comment: ignored, not sent here, a stale timer.
        var whyNothing: String
    }

    /// Every case of `Event` in `leaf`, in `Event` order, then its timers and the stale-timer case:
    /// the one place that resolves a leaf's branches (S10–S13, S19, S75), for the reducer's
    /// methods and for the selectors below parallel states alike.
    func leafDecisions(_ leaf: Int) -> [LeafDecision] {
        let tree = layout.tree
        var decisions: [LeafDecision] = []
        for (event, spelling) in zip(spec.events, eventCaseSpellings) {
            guard semantics.canArrive(event.name.value, in: leaf) else {
                decisions.append(.init(pattern: spelling.pattern, chain: [], whyNothing: "no effect that sends it runs here"))
                continue
            }
            let chain = resolvedBranches(leaf: leaf, event: event.name.value)
            guard chain.contains(where: { $0.branch.transition != nil }) else {
                // Ignored: by an `ignore` the trace records, or by `forward:`, or by nothing.
                decisions.append(.init(pattern: spelling.pattern, chain: chain, whyNothing: isForwarded(event, in: leaf) && chain.isEmpty ? "answered by `forward:` (E28)" : "ignored"))
                continue
            }
            if !event.payload.isEmpty && Self.mentionsPayload(chain.map(\.branch)) {
                decisions.append(.init(pattern: spelling.bindingPattern, payloadBinding: spelling.payloadBinding, chain: chain, payload: event, whyNothing: ""))
            } else {
                decisions.append(.init(pattern: spelling.pattern, chain: chain, whyNothing: ""))
            }
        }
        guard layout.hasTimers else { return decisions }
        for state in tree.lineage(of: leaf) {
            for index in tree[state].spec.after.indices {
                decisions.append(.init(
                    pattern: "case .\(GeneratedNames.timerCase)(let _fired) where _fired == .init(state: .\(caseName(state)), index: \(index), entry: _entered_\(tree[state].name)):",
                    chain: branches(semantics.chain(leaf: leaf, .timer(state: state, index: index))), whyNothing: ""))
            }
        }
        decisions.append(.init(pattern: "case .\(GeneratedNames.timerCase):", chain: [], whyNothing: "a timer of a state not active, or of an earlier entry"))
        return decisions
    }

    /// The reducer's method for one leaf of a hierarchical machine.
    mutating func makeLeafReducer(_ leaf: Int) -> MachineContext.ReducerMode {
        let cases = leafDecisions(leaf).map { decision -> MachineContext.ReducerCase in
            guard !decision.chain.isEmpty else {
                return .init(pattern: decision.pattern, body: [Self.caseIndent + (layout.settles ? "return false" : "break") + " // " + decision.whyNothing])
            }
            let body = chainLines(decision.chain, leaf: leaf, payload: decision.payload, indent: Self.caseIndent)
            return .init(pattern: decision.pattern, body: (decision.payloadBinding.map { [$0] } ?? []) + body)
        }
        return .init(
            mode: layout.tree[leaf].name,
            function: GeneratedNames.reducerFunction(ofState: layout.tree[leaf].name),
            cases: cases)
    }

    /// The pattern of an outermost parallel state binding its regions to `_p`: `.editor(let _p)`.
    func parallelPattern(_ position: Int) -> String {
        let condition = activeConditions(position, subject: "mode", bind: "_p")[0]
        return String(condition.dropFirst("case ".count).dropLast(" = mode".count))
    }

    /// True when a child machine that runs in `leaf` gets `event` by `forward:` (E28).
    func isForwarded(_ event: EventSpec, in leaf: Int) -> Bool {
        effects(runningIn: leaf).contains { $0.child?.forward.contains { $0.from.value == event.name.value } ?? false }
    }

    /// The effects with `in:` that run while `leaf` is active: their `in:` names it or an ancestor.
    private func effects(runningIn leaf: Int) -> [EffectSpec] {
        let lineage = Set(layout.tree.lineage(of: leaf).map { layout.tree[$0].name })
        return spec.effects.filter { $0.runningStates.contains { lineage.contains($0.value) } }
    }

    /// The lines of `_reduce`'s switch on the configuration.
    func dispatchLines() -> [String] {
        let tree = layout.tree
        let call = layout.settles ? "return " : ""
        var lines: [String] = []
        var finished: [String] = []
        for position in tree.nodes.indices {
            if tree[position].spec.kind == .parallel, outermostParallel(position) == position {
                lines.append("            case \(parallelPattern(position)): \(layout.settles ? "return " : "_ = ")_reduce_\(tree[position].name)(_p, _event, &_next, &_trace)")
            } else if tree.isLeaf(position), outermostParallel(position) == nil {
                lines.append("            case \(leafPattern(position)): \(call)\(GeneratedNames.reducerFunction(ofState: tree[position].name))(_event, &_next, &_trace)")
            } else if tree[position].parent == nil, tree[position].spec.isFinal {
                finished.append(leafPattern(position))
            }
        }
        if !finished.isEmpty {
            lines.append("            case \(finished.joined(separator: ", ")): \(layout.settles ? "return false" : "break") // finished: `reduce` returns before")
        }
        return lines
    }

    /// `_exitBelow_x` and `_enterBelow_x`: one static function per state with work below it.
    mutating func makeExitAndEntryMembers() {
        let tree = layout.tree
        for container in [nil] + tree.nodes.indices.map(Optional.some) {
            if let container, !tree[container].isComposite { continue }
            if layout.exitBelow(container) { makeWalk("exit", container) }
            if layout.entryBelow(container) { makeWalk("enter", container) }
        }
        for (position, node) in tree.nodes.enumerated() {
            guard case .history(deep: false) = node.spec.kind, let parent = node.parent, tree[parent].spec.kind != .parallel else { continue }
            var body = ["            switch _record {"]
            for child in tree[parent].children where !tree[child].spec.isHistory {
                body.append("            case .\(caseName(child)): \(modeValue(in: parent, path: [child]))")
            }
            body.append("            }")
            addMember(
                doc: "Shallow history `\(node.name)`: the recorded child of `\(tree[parent].name)`, entered through its `initial:` (S61).",
                declaration: "fileprivate static func _shallow_\(tree[position].name)(_ _record: \(contentType(parent))) -> \(contentType(parent))",
                body: body)
        }
    }

    /// One walk over the configuration below `container`: exits innermost first with later
    /// regions first, or entries outermost first with regions in document order.
    private mutating func makeWalk(_ kind: String, _ container: Int?) {
        let tree = layout.tree
        let exiting = kind == "exit"
        var body: [String] = []
        func own(_ state: Int, content: String?, indent: String) -> [String] {
            exiting ? exitWork(state, content: content, indent: indent) : entryWork(state, indent: indent)
        }
        func deeper(_ state: Int, content: String, indent: String) -> [String] {
            let needed = exiting ? layout.exitBelow[state] : layout.entryBelow[state]
            return needed ? [indent + "State.\(below(kind, state))(\(content), &_next)"] : []
        }
        if let container, tree[container].spec.kind == .parallel {
            let regions = tree.regions(of: container)
            for region in exiting ? regions.reversed() : regions {
                let content = "_content." + SwiftName.escaped(tree[region].name)
                body += exiting
                    ? deeper(region, content: content, indent: "            ") + own(region, content: content, indent: "            ")
                    : own(region, content: content, indent: "            ") + deeper(region, content: content, indent: "            ")
            }
        } else {
            body.append("            switch _content {")
            let children = container.map { tree[$0].children } ?? tree.roots
            for child in children where !tree[child].spec.isHistory {
                let composite = tree[child].isComposite
                var lines = exiting
                    ? deeper(child, content: "_inner", indent: "                ") + own(child, content: "_inner", indent: "                ")
                    : own(child, content: nil, indent: "                ") + deeper(child, content: "_inner", indent: "                ")
                let binds = lines.contains { $0.contains("_inner") }
                if lines.isEmpty { lines = ["                break"] }
                body.append("            case .\(caseName(child))\(composite && binds ? "(let _inner)" : ""):")
                body += lines
            }
            body.append("            }")
        }
        addMember(
            doc: exiting
                ? "Exits every active state below \(container.map { "`\(tree[$0].name)`" } ?? "the machine"), innermost first, recording history (S29, S32)."
                : "Enters every active state below \(container.map { "`\(tree[$0].name)`" } ?? "the machine"), outermost first (S31).",
            declaration: "fileprivate static func \(below(kind, container))(_ _content: \(contentType(container)), _ _next: inout State)",
            body: body)
    }

    /// A state's own exit work: its history records, then its `exit:` actions.
    private mutating func exitWork(_ state: Int, content: String?, indent: String) -> [String] {
        let tree = layout.tree
        var lines: [String] = []
        for history in tree[state].children where tree[history].spec.isHistory {
            lines.append(indent + "_next._history_\(tree[history].name) = \(content!)")
        }
        for action in tree[state].spec.exit {
            lines.append(indent + "do { let _s = _next; _s.\(actionMember(action, payload: nil))(&_next) }")
        }
        return lines
    }

    /// A state's own entry work: its timers' entry stamp, its `entry:` actions, the `onDone:`
    /// it makes due when final.
    private mutating func entryWork(_ state: Int, indent: String) -> [String] {
        let tree = layout.tree
        var lines: [String] = []
        if !tree[state].spec.after.isEmpty { lines.append(indent + "_next._entered_\(tree[state].name) = _next._entries") }
        for action in tree[state].spec.entry {
            lines.append(indent + "do { let _s = _next; _s.\(actionMember(action, payload: nil))(&_next) }")
        }
        // Named delays: evaluated after the state's own `entry:`, on the state as it is then (E38).
        for (index, timer) in tree[state].spec.after.enumerated() where timer.milliseconds == nil {
            lines.append(indent + "_next.\(delayField(tree[state].name, index)) = _next.\(delayMembers[timer.delay.value]!)()")
        }
        for target in semantics.doneTargets[state] {
            // A parallel state is due once however many regions finish in one microstep, after
            // the regions' own `onDone:` (S71): an earlier entry moves to the end.
            if tree[target].spec.kind == .parallel { lines.append(indent + "_next._done.removeAll { $0 == .\(caseName(target)) }") }
            lines.append(indent + "_next._done.append(.\(caseName(target)))")
        }
        return lines
    }

    // MARK: - Settling

    /// The `always:` branches that decide in `leaf`, in the order they are tried (S46).
    func alwaysBranches(_ leaf: Int) -> [(branch: Branch, source: Int?)] {
        branches(semantics.chain(leaf: leaf, .always))
    }

    /// `_always`, `_onDone` and `_settle`: the microsteps after a step (S45–S55).
    mutating func makeSettleMembers() {
        let tree = layout.tree
        if layout.hasAlways {
            var dispatch = ["            switch mode {"]
            var quiet: [String] = []
            for position in tree.nodes.indices where tree[position].spec.kind == .parallel && outermostParallel(position) == position {
                dispatch.append("            case \(parallelPattern(position)): return _reduce_\(tree[position].name)(_p, nil, &_next, &_trace)")
            }
            for leaf in tree.nodes.indices where tree.isLeaf(leaf) && outermostParallel(leaf) == nil {
                let chain = alwaysBranches(leaf)
                guard !chain.isEmpty else {
                    quiet.append(leafPattern(leaf))
                    continue
                }
                let name = "_always_\(tree[leaf].name)"
                addMember(
                    doc: "The `always:` branches that apply in `\(tree[leaf].name)`, innermost first (S46).",
                    declaration: "fileprivate func \(name)<_R: StateLoop._TransitionRecorder>(_ _next: inout State, _ _trace: inout _R) -> Swift.Bool",
                    body: chainLines(chain, leaf: leaf, payload: nil, indent: "            "))
                dispatch.append("            case \(leafPattern(leaf)): return \(name)(&_next, &_trace)")
            }
            quiet += tree.roots.filter { tree[$0].spec.isFinal }.map(leafPattern)
            if !quiet.isEmpty { dispatch.append("            case \(quiet.joined(separator: ", ")): return false") }
            dispatch.append("            }")
            addMember(
                doc: "Takes the `always:` transition that applies now, if one does.",
                declaration: "fileprivate func _always<_R: StateLoop._TransitionRecorder>(_ _next: inout State, _ _trace: inout _R) -> Swift.Bool",
                body: dispatch)
        }
        if layout.hasOnDone {
            var body = ["            switch _state {"]
            for (position, node) in tree.nodes.enumerated() where !node.spec.onDone.isEmpty {
                let finished: String
                if node.spec.kind == .parallel {
                    let finals = tree.regions(of: position).map { region in
                        tree[region].children.filter { tree[$0].spec.isFinal }.map { "isIn(.\(caseName($0)))" }
                    }
                    // A region without a final state never finishes, and neither does the parallel state.
                    finished = finals.contains(where: \.isEmpty) ? "" : finals.map { "(" + $0.joined(separator: " || ") + ")" }.joined(separator: " && ")
                } else {
                    finished = node.children.filter { tree[$0].spec.isFinal }.map { "isIn(.\(caseName($0)))" }.joined(separator: " || ")
                }
                body.append("            case .\(caseName(position)):")
                body.append("                guard \(finished.isEmpty ? "false" : finished) else { return false }")
                body += chainLines(branches(semantics.doneChain(position)), leaf: -1, payload: nil, indent: "                ")
            }
            body.append("            default: return false")
            body.append("            }")
            addMember(
                doc: "Takes the `onDone:` of `_state` if its final state (every region's) is still active (S53–S55, S71).",
                declaration: "fileprivate func _onDone<_R: StateLoop._TransitionRecorder>(_ _state: StateName, _ _next: inout State, _ _trace: inout _R) -> Swift.Bool",
                body: body)
        }
        var loop = ["            for _ in 0..<1_000 {"]
        if layout.hasTopLevelFinal { loop.append("                if isDone { return }") }
        if layout.hasOnDone {
            loop += [
                "                if !_done.isEmpty {",
                "                    let _state = _done.removeFirst()",
                "                    let _s = self",
                "                    _ = _s._onDone(_state, &self, &_trace)",
                "                    continue",
                "                }",
            ]
        }
        if layout.hasAlways {
            loop += ["                let _s = self", "                if !_s._always(&self, &_trace) {", "                    isSettled = true", "                    return", "                }"]
        } else {
            loop += ["                isSettled = true", "                return"]
        }
        loop += ["            }", "            isSettled = false"]
        // At the bound, what is still due stays due once: the queue cannot grow step after step (S51).
        if layout.hasOnDone { loop += ["            var _seen = Swift.Set<StateName>()", "            _done.removeAll { !_seen.insert($0).inserted }"] }
        addMember(
            doc: "Takes `onDone:` and `always:` microsteps until none applies, at most 1,000 (S51).",
            declaration: "fileprivate mutating func _settle<_R: StateLoop._TransitionRecorder>(_ _trace: inout _R)",
            body: loop)
    }
}

// MARK: - Parallel regions

// Below a parallel state several leaves are active, so an event is not one leaf's method: each
// leaf's `_select_<leaf>` returns the branch it selects (a number) without taking it, evaluating
// guards on the state before the event (S67); `_selectIn_<state>` walks the configuration of a
// parallel state's regions collecting them; `_step` drops duplicates and conflicts (S68, S69) and
// takes the rest as one microstep: all exits (later regions first), then every transition's
// actions, then all entries (S70), each phase through `_parallel(branch, phase, ...)`.

extension MachineContextBuilder {
    /// The outermost parallel state above `position` (or `position` itself), if any.
    func outermostParallel(_ position: Int) -> Int? {
        layout.tree.lineage(of: position).last { layout.tree[$0].spec.kind == .parallel }
    }

    /// `_select_<leaf>`: the branch `leaf` selects for an event, or for `always:` when the event is `nil`.
    mutating func makeSelector(_ leaf: Int) {
        let tree = layout.tree
        var body = ["            guard let _event else {"]
        body += selectLines(alwaysBranches(leaf), payload: nil, indent: "                ")
        body += ["            }", "            switch _event {"]
        for decision in leafDecisions(leaf) {
            // A selector evaluates guards only: it binds the payload when a guard reads it (the
            // branch's own phases bind it again for `set:` and `do:`).
            if let payload = decision.payload, !Self.guardsMentionPayload(decision.chain.map(\.branch)) {
                body.append("            " + eventCaseSpellings[spec.events.firstIndex { $0.name.value == payload.name.value }!].pattern)
            } else {
                body.append("            " + decision.pattern)
                if let binding = decision.payloadBinding { body.append(binding) }
            }
            body += selectLines(decision.chain, payload: decision.payload, indent: Self.caseIndent)
        }
        body.append("            }")
        addMember(
            doc: "The branch `\(tree[leaf].name)` selects for `_event` (`always:` for `nil`), innermost first, not yet taken (S67).",
            declaration: "fileprivate func _select_\(tree[leaf].name)<_R: StateLoop._TransitionRecorder>(_ _event: Event?, _ _trace: inout _R) -> Swift.Int?",
            body: body)
    }

    /// `if <guard> { return 3 } else if ... `: the branch numbers of a resolved chain.
    private mutating func selectLines(_ chain: [(branch: Branch, source: Int?)], payload: EventSpec?, indent: String) -> [String] {
        var body = CaseBody(placement: placement)
        var open = false
        var closed = false
        for (branch, source) in chain {
            guard case .transition(let transition) = branch else {
                // An `ignore` selects nothing; the trace records it (the selector runs on the old state).
                if open { body.generated(indent + "}") }
                body.generated(indent + take(at: branch.location) + " // ignored")
                open = false
                break
            }
            // The branch's phases bind the payload for its `set:` and `do:`; its guard reads it here.
            let number = parallelBranch(transition, source: source, payload: payload != nil && Self.actionsMentionPayload(transition) ? payload : nil)
            if let condition = transition.guardExpression {
                body.spec(condition, after: open ? "} else if " : "if ", indent: indent, then: indent + "{")
                body.generated(indent + "    return \(number)")
                open = true
                continue
            }
            if open { body.generated(indent + "}") }
            body.generated(indent + "return \(number)")
            closed = true
            open = false
            break
        }
        if open { body.generated(indent + "}") }
        if !closed { body.generated(indent + "return nil") }
        return body.finished()
    }

    /// The number of a branch taken below a parallel state, its phases written into `_parallel` once.
    private mutating func parallelBranch(_ transition: Transition, source: Int?, payload: EventSpec?) -> Int {
        let key = "\(transition.location.line):\(transition.location.column)"
        if let number = parallelNumbers[key] { return number }
        let number = parallelPhases.count
        parallelNumbers[key] = number
        parallelIds.append(transitions.id(at: transition.location)!)
        var phases: [[String]] = []
        for phase in [TransitionPhase.exits, .actions, .entries] {
            var body = CaseBody(placement: placement)
            var indent = "                "
            if phase == .actions, let payload {
                let spelling = eventCaseSpellings[spec.events.firstIndex { $0.name.value == payload.name.value }!]
                let pattern = spelling.bindingPattern.dropFirst("case ".count).dropLast()
                body.generated(indent + "if case \(pattern)? = _event {")
                body.generated(spelling.payloadBinding.replacingOccurrences(of: Self.caseIndent, with: indent + "    "))
                indent += "    "
            }
            transitionLines(transition, source: source, payload: payload, indent: indent, phase: phase, into: &body)
            if phase == .actions, payload != nil { body.generated("                }") }
            phases.append(body.finished())
        }
        parallelPhases.append(phases)
        return number
    }

    /// `_selectIn_<state>` for every composite and parallel state below a parallel state, and
    /// `_reduce_<parallel>` for the outermost ones; `_parallel` and `_step`.
    mutating func makeParallelMembers() {
        let tree = layout.tree
        guard tree.nodes.contains(where: { $0.spec.kind == .parallel }) else { return }
        for leaf in tree.leaves where outermostParallel(leaf) != nil { makeSelector(leaf) }
        for (position, node) in tree.nodes.enumerated() where node.isComposite && outermostParallel(position) != nil {
            var body: [String] = []
            if node.spec.kind == .parallel {
                for region in tree.regions(of: position) {
                    body.append("            _selectIn_\(tree[region].name)(_content.\(caseName(region)), _event, &_ids, &_trace)")
                }
            } else {
                body.append("            switch _content {")
                for child in node.children where !tree[child].spec.isHistory {
                    if tree[child].isComposite {
                        body.append("            case .\(caseName(child))(let _inner): _selectIn_\(tree[child].name)(_inner, _event, &_ids, &_trace)")
                    } else if tree.isLeaf(child) {
                        body.append("            case .\(caseName(child)): if let _id = _select_\(tree[child].name)(_event, &_trace) { _ids.append(_id) }")
                    }
                }
                body.append("            }")
            }
            addMember(
                doc: "Collects the branches the active leaves below `\(node.name)` select, in document order.",
                declaration: "fileprivate func _selectIn_\(node.name)<_R: StateLoop._TransitionRecorder>(_ _content: \(contentType(position)), _ _event: Event?, _ _ids: inout [Swift.Int], _ _trace: inout _R)",
                body: body)
            if outermostParallel(position) == position {
                addMember(
                    doc: "One microstep below parallel state `\(node.name)`: every region's branch, taken together.",
                    declaration: "fileprivate func _reduce_\(node.name)<_R: StateLoop._TransitionRecorder>(_ _content: \(contentType(position)), _ _event: Event?, _ _next: inout State, _ _trace: inout _R) -> Swift.Bool",
                    body: ["            var _ids: [Swift.Int] = []", "            _selectIn_\(node.name)(_content, _event, &_ids, &_trace)", "            return State._step(_ids, _event, &_next, &_trace)"])
            }
        }
        var phases = ["            switch (_branch, _phase) {"]
        for (number, branch) in parallelPhases.enumerated() {
            for (phase, lines) in branch.enumerated() where !lines.isEmpty && !(lines.count == 1 && lines[0].hasSuffix("break")) {
                phases.append("            case (\(number), \(phase)):")
                phases += lines
            }
        }
        phases += ["            default: break", "            }"]
        addMember(
            doc: "Phase 0 (exits), 1 (actions) or 2 (entries) of a branch taken below a parallel state, on the state as it is then.",
            declaration: "fileprivate func _parallel<_R: StateLoop._TransitionRecorder>(_ _branch: Swift.Int, _ _phase: Swift.Int, _ _event: Event?, _ _next: inout State, _ _trace: inout _R)",
            body: phases)
        // S69, decided by `MachineSemantics`: per branch number, the branches selected before it
        // that it replaces, and those it yields to.
        func numbers(_ conflict: MachineSemantics.Conflict, of id: Int) -> String {
            "[" + parallelIds.indices.filter { parallelIds[$0] != id && semantics.conflict(id, with: parallelIds[$0]) == conflict }.map(String.init).joined(separator: ", ") + "]"
        }
        addMember(
            doc: "Takes the selected branches as one microstep: each once; of two that exit the same states, the inner source's, else the first (S68–S70).",
            declaration: "fileprivate static func _step<_R: StateLoop._TransitionRecorder>(_ _ids: [Swift.Int], _ _event: Event?, _ _next: inout State, _ _trace: inout _R) -> Swift.Bool",
            body: [
                "            let replaces: [[Swift.Int]] = [\(parallelIds.map { numbers(.replaces, of: $0) }.joined(separator: ", "))]",
                "            let yields: [[Swift.Int]] = [\(parallelIds.map { numbers(.yields, of: $0) }.joined(separator: ", "))]",
                "            var kept: [Swift.Int] = []",
                "            for id in _ids where !kept.contains(id) && !kept.contains(where: yields[id].contains) {",
                "                kept.removeAll(where: replaces[id].contains)",
                "                kept.append(id)",
                "            }",
                "            for id in kept.reversed() { let _s = _next; _s._parallel(id, 0, _event, &_next, &_trace) }",
                "            for id in kept { let _s = _next; _s._parallel(id, 1, _event, &_next, &_trace) }",
                "            for id in kept { let _s = _next; _s._parallel(id, 2, _event, &_next, &_trace) }",
                "            return !kept.isEmpty",
            ])
    }
}
