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
                let parameters = regions.map { "\(Self.label(tree[$0].name)) \(Self.parameterName(tree[$0].name)): \(contentType($0))" }
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

    /// The reducer's method for one leaf of a hierarchical machine.
    mutating func makeLeafReducer(_ leaf: Int) -> MachineContext.ReducerMode {
        let tree = layout.tree
        var cases: [MachineContext.ReducerCase] = []
        let ignored = [Self.caseIndent + (layout.settles ? "return false // ignored" : "break // ignored")]
        let notSent = [Self.caseIndent + (layout.settles ? "return false" : "break") + " // no effect that sends it runs here"]
        for (event, spelling) in zip(spec.events, eventCaseSpellings) {
            guard canArrive(event, in: leaf) else {
                cases.append(.init(pattern: spelling.pattern, body: notSent))
                continue
            }
            let chain = resolvedBranches(leaf: leaf, event: event.name.value)
            guard chain.contains(where: { $0.branch.transition != nil }) else {
                cases.append(.init(pattern: spelling.pattern, body: ignored))
                continue
            }
            let mentions = !event.payload.isEmpty && Self.mentionsPayload(chain.map(\.branch))
            let body = chainLines(chain, leaf: leaf, payload: mentions ? event : nil, indent: Self.caseIndent)
            cases.append(mentions ? .init(pattern: spelling.bindingPattern, body: [spelling.payloadBinding] + body) : .init(pattern: spelling.pattern, body: body))
        }
        if layout.hasTimers {
            for state in tree.lineage(of: leaf) {
                for (index, timer) in tree[state].spec.after.enumerated() {
                    cases.append(.init(
                        pattern: "case .\(GeneratedNames.timerCase)(let _fired) where _fired == .init(state: .\(caseName(state)), index: \(index), entry: _entered_\(tree[state].name)):",
                        body: chainLines(timer.branches.map { ($0, state) }, leaf: leaf, payload: nil, indent: Self.caseIndent)))
                }
            }
            cases.append(.init(pattern: "case .\(GeneratedNames.timerCase):", body: [Self.caseIndent + (layout.settles ? "return false" : "break") + " // a timer of a state not active, or of an earlier entry"]))
        }
        return .init(
            mode: tree[leaf].name,
            function: GeneratedNames.reducerFunction(ofState: tree[leaf].name),
            cases: cases)
    }

    /// True when `event` can reach the reducer in `leaf` (S19): anyone's events always; effect
    /// results where an emitting effect runs (in the leaf or above it), or from one-shot runs.
    func canArrive(_ event: EventSpec, in leaf: Int) -> Bool {
        guard event.source == .effects else { return true }
        let lineage = Set(layout.tree.lineage(of: leaf).map { layout.tree[$0].name })
        return spec.effects.contains { effect in
            effect.emits.contains { $0.value == event.name.value }
                && (effect.isOneShot || effect.runningStates.contains { lineage.contains($0.value) })
        }
    }

    /// The lines of `_reduce`'s switch on the configuration.
    func dispatchLines() -> [String] {
        let tree = layout.tree
        let call = layout.settles ? "return " : ""
        var lines: [String] = []
        var finished: [String] = []
        for position in tree.nodes.indices {
            if tree.isLeaf(position) {
                lines.append("            case \(leafPattern(position)): \(call)\(GeneratedNames.reducerFunction(ofState: tree[position].name))(_event, &_next)")
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
        for target in layout.doneTargets[state] {
            lines.append(indent + "_next._done.append(.\(caseName(target)))")
        }
        return lines
    }

    // MARK: - Settling

    /// `_always`, `_onDone` and `_settle`: the microsteps after a step (S45–S55).
    mutating func makeSettleMembers() {
        let tree = layout.tree
        if layout.hasAlways {
            var dispatch = ["            switch mode {"]
            var quiet: [String] = []
            for leaf in tree.nodes.indices where tree.isLeaf(leaf) {
                var chain: [(branch: Branch, source: Int?)] = []
                for state in tree.lineage(of: leaf) where !tree[state].spec.always.isEmpty {
                    chain += tree[state].spec.always.map { ($0, state) }
                    if tree[state].spec.always.last!.isUnconditional { break }
                }
                guard !chain.isEmpty else {
                    quiet.append(leafPattern(leaf))
                    continue
                }
                let name = "_always_\(tree[leaf].name)"
                addMember(
                    doc: "The `always:` branches that apply in `\(tree[leaf].name)`, innermost first (S46).",
                    declaration: "fileprivate func \(name)(_ _next: inout State) -> Swift.Bool",
                    body: chainLines(chain, leaf: leaf, payload: nil, indent: "            "))
                dispatch.append("            case \(leafPattern(leaf)): return \(name)(&_next)")
            }
            quiet += tree.roots.filter { tree[$0].spec.isFinal }.map(leafPattern)
            if !quiet.isEmpty { dispatch.append("            case \(quiet.joined(separator: ", ")): return false") }
            dispatch.append("            }")
            addMember(
                doc: "Takes the `always:` transition that applies now, if one does.",
                declaration: "fileprivate func _always(_ _next: inout State) -> Swift.Bool",
                body: dispatch)
        }
        if layout.hasOnDone {
            var body = ["            switch _state {"]
            for (position, node) in tree.nodes.enumerated() where !node.spec.onDone.isEmpty {
                let finished: String
                if node.spec.kind == .parallel {
                    finished = tree.regions(of: position).map { region in
                        "(" + tree[region].children.filter { tree[$0].spec.isFinal }.map { "isIn(.\(caseName($0)))" }.joined(separator: " || ") + ")"
                    }.joined(separator: " && ")
                } else {
                    finished = node.children.filter { tree[$0].spec.isFinal }.map { "isIn(.\(caseName($0)))" }.joined(separator: " || ")
                }
                body.append("            case .\(caseName(position)):")
                body.append("                guard \(finished.isEmpty ? "false" : finished) else { return false }")
                body += chainLines(node.spec.onDone.map { ($0, position) }, leaf: -1, payload: nil, indent: "                ")
            }
            body.append("            default: return false")
            body.append("            }")
            addMember(
                doc: "Takes the `onDone:` of `_state` if its final state (every region's) is still active (S53–S55, S71).",
                declaration: "fileprivate func _onDone(_ _state: StateName, _ _next: inout State) -> Swift.Bool",
                body: body)
        }
        var loop = ["            for _ in 0..<1_000 {"]
        if layout.hasTopLevelFinal { loop.append("                if isDone { return }") }
        if layout.hasOnDone {
            loop += [
                "                if !_done.isEmpty {",
                "                    let _state = _done.removeFirst()",
                "                    let _s = self",
                "                    _ = _s._onDone(_state, &self)",
                "                    continue",
                "                }",
            ]
        }
        if layout.hasAlways {
            loop += ["                let _s = self", "                if !_s._always(&self) {", "                    isSettled = true", "                    return", "                }"]
        } else {
            loop += ["                isSettled = true", "                return"]
        }
        loop += ["            }", "            isSettled = false"]
        addMember(
            doc: "Takes `onDone:` and `always:` microsteps until none applies, at most 1,000 (S51).",
            declaration: "fileprivate mutating func _settle()",
            body: loop)
    }
}
