import StateLoopSpec

// How the generated code names and spells configurations: a state's case, the type of what it
// holds in `Mode` (an enum of its children for a composite, a struct of its regions for a
// parallel state), the value of a configuration after entering states, the `if case` conditions
// that test one, and the statements that store one in `_next.mode`.

extension MachineContextBuilder {
    /// The escaped case (and `StateName`) name of a state.
    func caseName(_ position: Int) -> String {
        caseNames[position]
    }

    /// The type of what a state holds in `Mode`: `Mode` for the machine, `Mode.Active` for a composite.
    func contentType(_ container: Int?) -> String {
        guard let container else { return GeneratedNames.mode }
        return GeneratedNames.mode + "." + GeneratedNames.modeType(ofState: semantics.tree[container].name)
    }

    /// `_exitBelow_active` (or `_exitBelow` for the machine).
    func below(_ kind: String, _ container: Int?) -> String {
        container.map { "_\(kind)Below_\(semantics.tree[$0].name)" } ?? "_\(kind)Below"
    }

    /// The configuration below `container` after entering it toward `targets` (states below
    /// it), and every `initial:` chain (and region) below: a value of `contentType(container)`.
    /// Without a target below a composite, its `initial:` states are the targets (S140).
    func modeValue(in container: Int?, toward targets: [Int], recorded: Bool = true) -> String {
        let tree = semantics.tree
        if let container, tree[container].spec.kind == .parallel {
            // A history child of a parallel state restores all its regions at once (S61, S65).
            if let history = targets.first(where: { tree[$0].parent == container && tree[$0].spec.isHistory }) { return historyValue(history, recorded: recorded) }
            let regions = tree.regions(of: container).map { region in
                "\(SwiftName.escaped(tree[region].name)): " + modeValue(in: region, toward: targets.filter { $0 != region && tree.isWithin($0, region) }, recorded: recorded)
            }
            return contentType(container) + "(" + regions.joined(separator: ", ") + ")"
        }
        let inside = targets.isEmpty ? semantics.initialTargets(of: container).filter { target in target != container && container.map { tree.isWithin(target, $0) } ?? true } : targets
        let child = tree.path(from: container, to: inside[0])[0]
        if tree[child].spec.isHistory { return historyValue(child, recorded: recorded) }
        guard tree[child].isComposite else { return "." + caseName(child) }
        return "." + caseName(child) + "(" + modeValue(in: child, toward: inside.filter { $0 != child }, recorded: recorded) + ")"
    }

    /// The configuration a history state restores below its parent (S61–S63, S65).
    func historyValue(_ history: Int, recorded: Bool) -> String {
        let tree = semantics.tree
        let parent = tree[history].parent!
        let fallback: String
        if let target = tree[history].spec.historyTarget.flatMap({ tree.index[$0.value] }) {
            fallback = modeValue(in: parent, toward: [target], recorded: recorded)
        } else {
            fallback = modeValue(in: parent, toward: [], recorded: recorded)
        }
        guard recorded, case .history(let deep) = tree[history].spec.kind else { return fallback }
        let record = "_next._history_\(tree[history].name)"
        if deep { return "(\(record) ?? \(fallback))" }
        guard tree[parent].spec.kind == .parallel else { return "(\(record).map(State._shallow_\(tree[history].name)) ?? \(fallback))" }
        // S65: once recorded, every region through its `initial:`; the same value without `target:`.
        let regions = modeValue(in: parent, toward: [], recorded: recorded)
        return regions == fallback ? fallback : "(\(record) == nil ? \(fallback) : \(regions))"
    }

    /// The conditions of an `if` that holds while `position` is active in `subject` (a `Mode`),
    /// binding its content (`contentType(position)`) to `bind` when given.
    func activeConditions(_ position: Int, subject: String, bind: String? = nil) -> [String] {
        let tree = semantics.tree
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
        for ancestor in semantics.tree.ancestors(of: position) {
            pattern = "." + caseName(ancestor) + "(" + pattern + ")"
        }
        return pattern
    }

    /// The entry count a timer of `state` was armed with: `_entered_<state>` where the state
    /// records it, else `_entries` (`StatechartFlags.stampsEntry`).
    func entryCount(_ state: Int) -> String {
        flags.stampsEntry[state] ? "_entered_\(semantics.tree[state].name)" : "_entries"
    }

    /// The pattern of an outermost parallel state binding its regions to `_p`: `.editor(let _p)`.
    func parallelPattern(_ position: Int) -> String {
        let condition = activeConditions(position, subject: "mode", bind: "_p")[0]
        return String(condition.dropFirst("case ".count).dropLast(" = mode".count))
    }

    /// Prints the statements that store `value` as the content of `domain` in `_next.mode`,
    /// keeping the regions of every parallel state above it.
    func assignContent(of domain: Int?, _ value: String, into out: inout SwiftPrinter) {
        let tree = semantics.tree
        guard let domain else { return out.line("_next.mode = \(value)") }
        guard let parent = tree[domain].parent else { return out.line("_next.mode = .\(caseName(domain))(\(value))") }
        guard tree[parent].spec.kind == .parallel else {
            return assignContent(of: parent, ".\(caseName(domain))(\(value))", into: &out)
        }
        let depth = tree[parent].depth
        let conditions = activeConditions(parent, subject: "_next.mode", bind: "_r\(depth)")
        out.block("if " + conditions.joined(separator: ", ") + " {") { out in
            out.line("var _w\(depth) = _r\(depth)")
            out.line("_w\(depth).\(SwiftName.escaped(tree[domain].name)) = \(value)")
            assignContent(of: parent, "_w\(depth)", into: &out)
        }
    }
}
