import StateLoopSpec

// Below a parallel state several leaves are active, so an event is not one leaf's method: each
// leaf's `_select_<leaf>` returns the branch it selects (a number) without taking it, evaluating
// guards on the state before the event (S67); `_selectIn_<state>` walks the configuration of a
// parallel state's regions collecting them; `_step` drops duplicates and conflicts (S68, S69) and
// takes the rest as one microstep: all exits (later regions first), then every transition's
// actions, then all entries (S70), each phase through `_parallel(branch, phase, ...)`.

extension MachineContextBuilder {
    /// The outermost parallel state above `position` (or `position` itself), if any.
    func outermostParallel(_ position: Int) -> Int? {
        semantics.tree.lineage(of: position).last { semantics.tree[$0].spec.kind == .parallel }
    }

    /// `_select_<leaf>`: the branch `leaf` selects for an event, or for `always:` when the event is `nil`.
    mutating func makeSelector(_ leaf: Int) {
        let tree = semantics.tree
        var body = memberPrinter()
        body.block("guard let _event else {") { out in
            selectLines(alwaysBranches(leaf), payload: nil, into: &out)
        }
        body.switchBlock("_event") { out in
            for decision in leafDecisions(leaf) {
                // A selector evaluates guards only: it binds the payload when a guard reads it (the
                // branch's own phases bind it again for `set:` and `do:`).
                let bindsPayload = decision.payload != nil && Self.guardsMentionPayload(decision.chain.map(\.branch))
                let pattern = decision.payload.map { payload in
                    bindsPayload ? decision.pattern : eventCaseSpellings[spec.events.firstIndex { $0.name.value == payload.name.value }!].pattern
                } ?? decision.pattern
                out.block(pattern, closing: nil) { out in
                    if bindsPayload, let binding = decision.payloadBinding { out.line(binding) }
                    selectLines(decision.chain, payload: decision.payload, into: &out)
                }
            }
        }
        addMember(
            doc: "The branch `\(tree[leaf].name)` selects for `_event` (`always:` for `nil`), innermost first, not yet taken (S67).",
            declaration: "fileprivate func _select_\(tree[leaf].name)<_R: StateLoop._TransitionRecorder>(_ _event: Event?, _ _trace: inout _R) -> Swift.Int?",
            body: body)
    }

    /// `if <guard> { return 3 } else if ... `: the branch numbers of a resolved chain.
    private mutating func selectLines(_ chain: [(branch: Branch, source: Int?)], payload: EventSpec?, into out: inout SwiftPrinter) {
        var open = false
        var closed = false
        for (branch, source) in chain {
            guard case .transition(let transition) = branch else {
                // An `ignore` selects nothing; the trace records it (the selector runs on the old state).
                if open { out.line("}") }
                out.line(take(at: branch.location) + " // ignored")
                open = false
                break
            }
            // The branch's phases bind the payload for its `set:` and `do:`; its guard reads it here.
            let number = parallelBranch(transition, source: source, payload: payload != nil && Self.actionsMentionPayload(transition) ? payload : nil)
            if let condition = transition.guardExpression {
                out.spec(condition, after: open ? "} else if (" : "if (", then: ") {")
                out.indent()
                out.line("return \(number)")
                out.outdent()
                open = true
                continue
            }
            if open { out.line("}") }
            out.line("return \(number)")
            closed = true
            open = false
            break
        }
        if open { out.line("}") }
        if !closed { out.line("return nil") }
    }

    /// The number of a branch taken below a parallel state, its phases written into `_parallel` once.
    private mutating func parallelBranch(_ transition: Transition, source: Int?, payload: EventSpec?) -> Int {
        let key = "\(transition.location.line):\(transition.location.column)"
        if let number = parallelNumbers[key] { return number }
        let number = parallelPhases.count
        parallelNumbers[key] = number
        parallelIds.append(transitions.id(at: transition.location)!)
        var phases: [SwiftPrinter] = []
        for phase in [TransitionPhase.exits, .actions, .entries] {
            // A case body of `_parallel`: machine, `State`, method, `case`.
            var body = SwiftPrinter(placement: placement, level: 4)
            if phase == .actions, let payload {
                let spelling = eventCaseSpellings[spec.events.firstIndex { $0.name.value == payload.name.value }!]
                let pattern = spelling.bindingPattern.dropFirst("case ".count).dropLast()
                body.block("if case \(pattern)? = _event {") { out in
                    out.line(spelling.payloadBinding)
                    transitionLines(transition, source: source, payload: payload, phase: phase, into: &out)
                }
            } else {
                transitionLines(transition, source: source, payload: payload, phase: phase, into: &body)
            }
            phases.append(body)
        }
        parallelPhases.append(phases)
        return number
    }

    /// `_selectIn_<state>` for every composite and parallel state below a parallel state, and
    /// `_reduce_<parallel>` for the outermost ones; `_parallel` and `_step`.
    mutating func makeParallelMembers() {
        let tree = semantics.tree
        guard tree.nodes.contains(where: { $0.spec.kind == .parallel }) else { return }
        for leaf in tree.leaves where outermostParallel(leaf) != nil { makeSelector(leaf) }
        for (position, node) in tree.nodes.enumerated() where node.isComposite && outermostParallel(position) != nil {
            var body = memberPrinter()
            if node.spec.kind == .parallel {
                for region in tree.regions(of: position) {
                    body.line("_selectIn_\(tree[region].name)(_content.\(caseName(region)), _event, &_ids, &_trace)")
                }
            } else {
                body.switchBlock("_content") { out in
                    for child in node.children where !tree[child].spec.isHistory {
                        if tree[child].isComposite {
                            out.line("case .\(caseName(child))(let _inner): _selectIn_\(tree[child].name)(_inner, _event, &_ids, &_trace)")
                        } else if tree.isLeaf(child) {
                            out.line("case .\(caseName(child)): if let _id = _select_\(tree[child].name)(_event, &_trace) { _ids.append(_id) }")
                        }
                    }
                }
            }
            addMember(
                doc: "Collects the branches the active leaves below `\(node.name)` select, in document order.",
                declaration: "fileprivate func _selectIn_\(node.name)<_R: StateLoop._TransitionRecorder>(_ _content: \(contentType(position)), _ _event: Event?, _ _ids: inout [Swift.Int], _ _trace: inout _R)",
                body: body)
            if outermostParallel(position) == position {
                var reduce = memberPrinter()
                reduce.line("var _ids: [Swift.Int] = []")
                reduce.line("_selectIn_\(node.name)(_content, _event, &_ids, &_trace)")
                reduce.line("return State._step(_ids, _event, &_next, &_trace)")
                addMember(
                    doc: "One microstep below parallel state `\(node.name)`: every region's branch, taken together.",
                    declaration: "fileprivate func _reduce_\(node.name)<_R: StateLoop._TransitionRecorder>(_ _content: \(contentType(position)), _ _event: Event?, _ _next: inout State, _ _trace: inout _R) -> Swift.Bool",
                    body: reduce)
            }
        }
        var phases = memberPrinter()
        phases.switchBlock("(_branch, _phase)") { out in
            for (number, branch) in parallelPhases.enumerated() {
                for (phase, lines) in branch.enumerated() where !lines.lines.isEmpty {
                    out.line("case (\(number), \(phase)):")
                    out.append(lines)
                }
            }
            out.line("default: break")
        }
        addMember(
            doc: "Phase 0 (exits), 1 (actions) or 2 (entries) of a branch taken below a parallel state, on the state as it is then.",
            declaration: "fileprivate func _parallel<_R: StateLoop._TransitionRecorder>(_ _branch: Swift.Int, _ _phase: Swift.Int, _ _event: Event?, _ _next: inout State, _ _trace: inout _R)",
            body: phases)
        // S69, S98, decided by `MachineSemantics`: per branch number, the branches selected
        // before it that it replaces, and those it yields to.
        func numbers(_ conflict: MachineSemantics.Conflict, of id: Int) -> String {
            "[" + parallelIds.indices.filter { parallelIds[$0] != id && semantics.conflict(id, with: parallelIds[$0]) == conflict }
                .map(String.init).joined(separator: ", ") + "]"
        }
        var step = memberPrinter()
        step.line("let replaces: [[Swift.Int]] = [\(parallelIds.map { numbers(.replaces, of: $0) }.joined(separator: ", "))]")
        step.line("let yields: [[Swift.Int]] = [\(parallelIds.map { numbers(.yields, of: $0) }.joined(separator: ", "))]")
        step.line("var kept: [Swift.Int] = []")
        step.block("for id in _ids where !kept.contains(id) && !kept.contains(where: yields[id].contains) {") { out in
            out.line("kept.removeAll(where: replaces[id].contains)")
            out.line("kept.append(id)")
        }
        step.line("for id in kept.reversed() { let _s = _next; _s._parallel(id, 0, _event, &_next, &_trace) }")
        step.line("for id in kept { let _s = _next; _s._parallel(id, 1, _event, &_next, &_trace) }")
        step.line("for id in kept { let _s = _next; _s._parallel(id, 2, _event, &_next, &_trace) }")
        step.line("return !kept.isEmpty")
        addMember(
            doc: "Takes the selected branches as one microstep: each once; of two that exit the same states, the inner source's, else the first (S68–S70).",
            declaration: "fileprivate static func _step<_R: StateLoop._TransitionRecorder>(_ _ids: [Swift.Int], _ _event: Event?, _ _next: inout State, _ _trace: inout _R) -> Swift.Bool",
            body: step)
    }
}
