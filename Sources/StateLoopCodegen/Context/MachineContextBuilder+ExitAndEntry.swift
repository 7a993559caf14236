import StateLoopSpec

// The exit and entry functions: one static function per state with exit work below it
// (`_exitBelow_active`) and one with entry work (`_enterBelow_active`), each switching on the
// configuration: exits innermost first and later regions first, recording history; entries
// outermost first and regions in document order (S29–S32). And the shallow-history helpers.

extension MachineContextBuilder {
    /// `_exitBelow_x` and `_enterBelow_x`: one static function per state with work below it.
    mutating func makeExitAndEntryMembers() {
        let tree = semantics.tree
        for container in [nil] + tree.nodes.indices.map(Optional.some) {
            if let container, !tree[container].isComposite { continue }
            if flags.exitBelow(container) { makeWalk("exit", container) }
            if flags.entryBelow(container) { makeWalk("enter", container) }
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
        let tree = semantics.tree
        let exiting = kind == "exit"
        /// The statements of `state` and below it, in the walk's order.
        func work(_ state: Int, content: String) -> [String] {
            let needed = exiting ? flags.exitBelow[state] : flags.entryBelow[state]
            let defaults = !exiting && flags.defaultEntries ? ", _defaults" : ""
            let deeper = needed ? ["State.\(below(kind, state))(\(content), &_next\(defaults))"] : []
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
            declaration: "fileprivate static func \(below(kind, container))(_ _content: \(contentType(container)), _ _next: inout State"
                + (!exiting && flags.defaultEntries ? ", _ _defaults: [Swift.String])" : ")"),
            body: body)
    }

    /// A state's own exit work: its history records, then its `exit:` actions.
    private mutating func exitWork(_ state: Int, content: String) -> [String] {
        let tree = semantics.tree
        var statements: [String] = []
        for history in tree[state].children where tree[history].spec.isHistory {
            statements.append("_next._history_\(tree[history].name) = \(content)")
        }
        for action in tree[state].spec.exit {
            statements.append(actionCall(action, payload: nil))
        }
        return statements
    }

    /// A state's own entry work: its timers' entry stamp, its `entry:` actions, its default
    /// entries' actions, the `onDone:` it makes due when final.
    private mutating func entryWork(_ state: Int) -> [String] {
        let tree = semantics.tree
        var statements: [String] = []
        if flags.stampsEntry[state] { statements.append("_next._entered_\(tree[state].name) = _next._entries") }
        for action in tree[state].spec.entry {
            statements.append(actionCall(action, payload: nil))
        }
        // Named delays: evaluated after the state's own `entry:`, on the state as it is then (E38).
        for (index, timer) in tree[state].spec.after.enumerated() where timer.milliseconds == nil {
            statements.append("_next.\(delayField(tree[state].name, index)) = _next.\(delayMembers[timer.delay.value]!)()")
        }
        // S145, S146: the `do:` of the state's default entry and of its history children's, when
        // the transition takes them (`_defaults`, `defaultsArgument`).
        for position in [state] + tree[state].children.filter({ tree[$0].spec.isHistory }) where !tree[position].spec.defaultActions.isEmpty {
            let actions = tree[position].spec.defaultActions.map { actionCall($0, payload: nil) }
            statements.append("if _defaults.contains(\(SwiftLiteral.string(tree[position].name))) {")
            statements += actions.map { "    " + $0 }
            statements.append("}")
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

extension MachineContextBuilder {
    /// The `do:` of the default entries of `entry` whose anchor stays active (a history state
    /// targeted from inside its parent), before the walk enters anything (S146).
    mutating func unanchoredDefaultLines(_ entry: MachineSemantics.Entry, into out: inout SwiftPrinter) {
        let tree = semantics.tree
        for position in semantics.unanchoredDefaults(entry) where !tree[position].spec.defaultActions.isEmpty {
            let actions = tree[position].spec.defaultActions.map { actionCall($0, payload: nil) }
            guard let condition = recordCondition(position) else {
                for line in actions { out.line(line) }
                continue
            }
            out.block("if \(condition) {") { out in
                for line in actions { out.line(line) }
            }
        }
    }

    /// `_next._history_h == nil` for a history state, whose default is taken only without a
    /// record (S63, S65, S146); `nil` for a composite.
    func recordCondition(_ position: Int) -> String? {
        guard semantics.tree[position].spec.isHistory else { return nil }
        return "_next._history_\(semantics.tree[position].name) == nil"
    }

    /// The default entries with actions that `entry` takes, as the last argument of an entry walk
    /// (S145, S146): `, ["s0"]`, a history's only while it has no record, as the walk runs after
    /// the exits that write records; empty when the machine has no default actions.
    func defaultsArgument(_ entry: MachineSemantics.Entry) -> String {
        guard flags.defaultEntries else { return "" }
        let tree = semantics.tree
        var parts: [String] = []
        var fixed: [String] = []
        for position in entry.defaults where !tree[position].spec.defaultActions.isEmpty {
            let name = SwiftLiteral.string(tree[position].name)
            if let condition = recordCondition(position) {
                if !fixed.isEmpty { parts.append("[" + fixed.joined(separator: ", ") + "]") }
                fixed = []
                parts.append("(\(condition) ? [\(name)] : [])")
            } else {
                fixed.append(name)
            }
        }
        if !fixed.isEmpty || parts.isEmpty { parts.append("[" + fixed.joined(separator: ", ") + "]") }
        return ", " + parts.joined(separator: " + ")
    }
}
