import StateLoopSpec

// The exit and entry functions: one static function per state with exit work below it
// (`_exitBelow_active`) and one with entry work (`_enterBelow_active`), each switching on the
// configuration: exits innermost first and later regions first, recording history; entries
// outermost first and regions in document order (S29–S32). And the shallow-history helpers.

extension MachineContextBuilder {
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
            var body = memberPrinter()
            body.switchBlock("_record") { out in
                for child in tree[parent].children where !tree[child].spec.isHistory {
                    out.line("case .\(caseName(child)): \(modeValue(in: parent, toward: [child]))")
                }
            }
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
        /// The statements of `state` and below it, in the walk's order.
        func work(_ state: Int, content: String) -> [String] {
            let needed = exiting ? layout.exitBelow[state] : layout.entryBelow[state]
            let deeper = needed ? ["State.\(below(kind, state))(\(content), &_next)"] : []
            return exiting ? deeper + exitWork(state, content: content) : entryWork(state) + deeper
        }
        var body = memberPrinter()
        if let container, tree[container].spec.kind == .parallel {
            let regions = tree.regions(of: container)
            for region in exiting ? regions.reversed() : regions {
                for statement in work(region, content: "_content." + SwiftName.escaped(tree[region].name)) { body.line(statement) }
            }
        } else {
            let children = container.map { tree[$0].children } ?? tree.roots
            body.switchBlock("_content") { out in
                for child in children where !tree[child].spec.isHistory {
                    let statements = work(child, content: "_inner")
                    let binds = tree[child].isComposite && statements.contains { $0.contains("_inner") }
                    out.block("case .\(caseName(child))\(binds ? "(let _inner)" : ""):", closing: nil) { out in
                        for statement in statements.isEmpty ? ["break"] : statements { out.line(statement) }
                    }
                }
            }
        }
        addMember(
            doc: exiting
                ? "Exits every active state below \(container.map { "`\(tree[$0].name)`" } ?? "the machine"), innermost first, recording history (S29, S32)."
                : "Enters every active state below \(container.map { "`\(tree[$0].name)`" } ?? "the machine"), outermost first (S31).",
            declaration: "fileprivate static func \(below(kind, container))(_ _content: \(contentType(container)), _ _next: inout State)",
            body: body)
    }

    /// A state's own exit work: its history records, then its `exit:` actions.
    private mutating func exitWork(_ state: Int, content: String) -> [String] {
        let tree = layout.tree
        var statements: [String] = []
        for history in tree[state].children where tree[history].spec.isHistory {
            statements.append("_next._history_\(tree[history].name) = \(content)")
        }
        for action in tree[state].spec.exit {
            statements.append("do { let _s = _next; _s.\(actionMember(action, payload: nil))(&_next) }")
        }
        return statements
    }

    /// A state's own entry work: its timers' entry stamp, its `entry:` actions, the `onDone:`
    /// it makes due when final.
    private mutating func entryWork(_ state: Int) -> [String] {
        let tree = layout.tree
        var statements: [String] = []
        if layout.stampsEntry[state] { statements.append("_next._entered_\(tree[state].name) = _next._entries") }
        for action in tree[state].spec.entry {
            statements.append("do { let _s = _next; _s.\(actionMember(action, payload: nil))(&_next) }")
        }
        // Named delays: evaluated after the state's own `entry:`, on the state as it is then (E38).
        for (index, timer) in tree[state].spec.after.enumerated() where timer.milliseconds == nil {
            statements.append("_next.\(delayField(tree[state].name, index)) = _next.\(delayMembers[timer.delay.value]!)()")
        }
        for target in semantics.doneTargets[state] {
            // A parallel state is due once however many regions finish in one microstep, after
            // the regions' own `onDone:` (S71): an earlier entry moves to the end.
            if tree[target].spec.kind == .parallel { statements.append("_next._done.removeAll { $0 == .\(caseName(target)) }") }
            statements.append("_next._done.append(.\(caseName(target)))")
        }
        return statements
    }
}
