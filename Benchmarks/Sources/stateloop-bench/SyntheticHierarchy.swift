// SyntheticHierarchy: the statechart the hierarchical compile benchmark runs on, written both as a
// spec with nested states and as the flat Swift a careful person would write by hand for the same
// behaviour (issue 9: "a hierarchical machine compiles within 1.2x the hand-written flat
// equivalent").

/// A statechart whose leaves sit under four levels of composites (with the default shape, 2 top
/// composites `a*`, each with 2 `b*`, each with 2 `c*`, each with 5 `d*`, each with 5 leaves
/// `s*`: 200 leaves under 54 composites), `events` events, and this split of who decides an event:
///
/// - `e0`: every leaf, to the next leaf (so every state is reachable);
/// - `e1`–`e3`: the machine's own `on:` and `ignore:`;
/// - `e4`–`e9`, `e10`–`e17`, `e18`–`e27`, `e28`–`e37`: the composites of levels 1, 2, 3 and 4;
/// - `e38` and up: every leaf, with the mix of `SyntheticMachine` (plain, `set:`, guarded with an
///   `ignore` else, `ignore:`).
///
/// So 37 of a leaf's 50 events are inherited. A composite's handler is a plain transition (to a
/// leaf anywhere, to a leaf of its own subtree, or to a composite, entered through `initial:`), a
/// transition with `set:` from the payload, a guarded list with an `ignore` else, an internal
/// `set:`, or an `ignore:` that hides its ancestors' handler. One (leaf, event) pair in ten of the
/// composites' events is overridden by the leaf's own transition, and one in ten by a guarded
/// branch that falls through to the ancestor's handler when false (S12). A few composites have `entry:` or `exit:`
/// actions. The spec and the hand-written Swift are both printed from one model of the machine,
/// the latter by resolving every (leaf, event) pair the way Docs/Statecharts.md says (S10-S12,
/// S22-S31), so both describe exactly the same behaviour.
struct SyntheticHierarchy {
    /// Children per composite, top level first; the last number is leaves per lowest composite.
    let fanout: [Int]
    let events: Int

    init(fanout: [Int] = [2, 2, 2, 5, 5], events: Int = 50) {
        precondition(fanout.count == 5, "four levels of composites, then the leaves")
        precondition(events >= 40, "the split of events above needs at least 40")
        self.fanout = fanout
        self.events = events
        build()
    }

    /// The figure's name for this size, e.g. `200x50`.
    var sizeName: String { "\(leaves.count)x\(events)" }

    // MARK: - The model

    /// A state, or the machine itself (node 0).
    struct Node {
        var name: String
        var parent: Int?
        var children: [Int] = []
        /// 0 for the machine, 1 for top-level composites, ..., 5 for leaves.
        var level: Int
        var on: [Int: Handler] = [:]
        var ignore: [Int] = []
        var entry: SetAction? = nil
        var exit: SetAction? = nil
    }

    /// The assignments of one `set:`, in order, as `field: expression` with the spec's spelling;
    /// the Swift spelling replaces the bare fields.
    struct SetAction {
        var assignments: [(field: String, spec: String, swift: String)]
    }

    struct Branch {
        var guardSpec: String?
        var guardSwift: String?
        var target: Int?
        var set: SetAction?
    }

    /// One event's handler: branches in order, then whether a bare `ignore` ends the list.
    struct Handler {
        var branches: [Branch]
        var ignoreElse: Bool
    }

    private(set) var nodes: [Node] = []
    private(set) var leaves: [Int] = []
    /// The composites of each level, 1...4.
    private(set) var levels: [[Int]] = []

    /// Payloads cycle through `{by: Int}`, `{text: String}` and none, as in `SyntheticMachine`.
    func payload(_ event: Int) -> SyntheticMachine.Payload { SyntheticMachine.payload(event) }

    /// The level of the composites (1-4) that handle event `event`, 0 for the machine, 5 for leaves.
    func ownerLevel(_ event: Int) -> Int {
        switch event {
        case 0: 5
        case 1...3: 0
        case 4...9: 1
        case 10...17: 2
        case 18...27: 3
        case 28...37: 4
        default: 5
        }
    }

    private mutating func add(_ name: String, parent: Int?, level: Int) -> Int {
        nodes.append(Node(name: name, parent: parent, level: level))
        if let parent { nodes[parent].children.append(nodes.count - 1) }
        return nodes.count - 1
    }

    private mutating func build() {
        _ = add("(machine)", parent: nil, level: 0)
        var current = [0]
        let letters = ["a", "b", "c", "d"]
        for level in 1...4 {
            var next: [Int] = []
            for parent in current {
                for _ in 0..<fanout[level - 1] {
                    next.append(add("\(letters[level - 1])\(next.count)", parent: parent, level: level))
                }
            }
            levels.append(next)
            current = next
        }
        for parent in current {
            for _ in 0..<fanout[4] {
                leaves.append(add("s\(leaves.count)", parent: parent, level: 5))
            }
        }

        // A few entry and exit actions.
        for (index, composite) in levels[0].enumerated() {
            nodes[composite].entry = SetAction(assignments: [("count", "count + \(index + 1)", "state.count + \(index + 1)")])
        }
        for composite in levels[1] {
            nodes[composite].exit = SetAction(assignments: [("flag", "\"false\"", "false")])
        }
        for (index, composite) in levels[3].enumerated() where index % 10 == 0 {
            nodes[composite].entry = SetAction(assignments: [("flag", "\"true\"", "true")])
            nodes[composite].exit = SetAction(assignments: [("count", "count - 1", "state.count - 1")])
        }

        // Handlers of the machine and the composites.
        for event in 1..<events where ownerLevel(event) < 5 {
            let owners = ownerLevel(event) == 0 ? [0] : levels[ownerLevel(event) - 1]
            for owner in owners {
                let hash = (owner &* 31 &+ event &* 17) % 10
                if hash == 9 && owner != 0 {
                    nodes[owner].ignore.append(event)
                    continue
                }
                nodes[owner].on[event] = compositeHandler(owner, event: event, hash: hash)
            }
        }

        // The leaves' own events, and overrides of inherited ones.
        for (index, leaf) in leaves.enumerated() {
            let nextLeaf = leaves[(index + 1) % leaves.count]
            nodes[leaf].on[0] = Handler(branches: [Branch(target: nextLeaf)], ignoreElse: false)
            for event in 1..<events {
                let target = leaves[(index &* 7 &+ event &* 3 &+ 1) % leaves.count]
                if ownerLevel(event) == 5 {
                    switch (index &* 31 &+ event &* 17) % 10 {
                    case 0, 1, 2: nodes[leaf].on[event] = Handler(branches: [Branch(target: target)], ignoreElse: false)
                    case 3, 4: nodes[leaf].on[event] = Handler(branches: [assignBranch(event, target: target)], ignoreElse: false)
                    case 5, 6:
                        nodes[leaf].on[event] = Handler(
                            branches: [Branch(guardSpec: "count < 100 && flag", guardSwift: "state.count < 100 && state.flag", target: target,
                                              set: SetAction(assignments: [("count", "count * 2", "state.count * 2")]))],
                            ignoreElse: true)
                    default: nodes[leaf].ignore.append(event)
                    }
                } else if event > 3 {
                    switch (index &* 7 &+ event &* 13) % 10 {
                    case 0:
                        nodes[leaf].on[event] = Handler(branches: [Branch(target: target)], ignoreElse: false)
                    case 1:
                        // Falls through to the ancestor's handler when the guard is false (S12).
                        nodes[leaf].on[event] = Handler(
                            branches: [Branch(guardSpec: "count > 5 && !flag", guardSwift: "state.count > 5 && !state.flag", target: target,
                                              set: SetAction(assignments: [("count", "count - 1", "state.count - 1")]))],
                            ignoreElse: false)
                    default: break
                    }
                }
            }
        }
    }

    /// A `set:` transition from the payload of `event` (internal when it has none).
    private func assignBranch(_ event: Int, target: Int) -> Branch {
        switch payload(event) {
        case .number:
            Branch(target: target, set: SetAction(assignments: [("count", "count + event.by", "state.count + by")]))
        case .text:
            Branch(target: target, set: SetAction(assignments: [("name", "event.text", "text"), ("flag", "\"true\"", "true")]))
        case .none:
            Branch(target: nil, set: SetAction(assignments: [("count", "count + 1", "state.count + 1"), ("flag", "\"!flag\"", "!state.flag")]))
        }
    }

    private func compositeHandler(_ owner: Int, event: Int, hash: Int) -> Handler {
        // A leaf anywhere, a leaf of the owner's own subtree (so the owner is not exited), or a
        // level-3 composite, entered through its `initial:` chain.
        let anywhere = leaves[(owner &* 13 &+ event &* 7) % leaves.count]
        let own = owner == 0 ? anywhere : firstLeaf(of: nodes[owner].children[event % nodes[owner].children.count])
        let composite = levels[2][(owner &+ event) % levels[2].count]
        switch hash {
        case 0, 1: return Handler(branches: [Branch(target: anywhere)], ignoreElse: false)
        case 2: return Handler(branches: [Branch(target: own)], ignoreElse: false)
        case 3: return Handler(branches: [Branch(target: composite)], ignoreElse: false)
        case 4, 5: return Handler(branches: [assignBranch(event, target: hash == 4 ? anywhere : own)], ignoreElse: false)
        case 6, 7:
            return Handler(
                branches: [Branch(guardSpec: "count > 10 || !flag", guardSwift: "state.count > 10 || !state.flag", target: anywhere,
                                  set: SetAction(assignments: [("count", "count * 2", "state.count * 2")]))],
                ignoreElse: true)
        default:
            return Handler(branches: [assignBranch(event, target: anywhere).with(target: nil)], ignoreElse: false)
        }
    }

    /// The leaf `node`'s `initial:` chain ends in (`initial:` is always the first child).
    func firstLeaf(of node: Int) -> Int {
        var node = node
        while let first = nodes[node].children.first { node = first }
        return node
    }

    /// `node` and its ancestors, innermost first, the machine (node 0) last.
    func path(_ node: Int) -> [Int] {
        var result = [node]
        var current = node
        while let parent = nodes[current].parent {
            result.append(parent)
            current = parent
        }
        return result
    }

    /// The transition's domain (S22): the source when the target is a proper descendant of it,
    /// else the innermost state with both as proper descendants, else the machine.
    func domain(source: Int, target: Int) -> Int {
        let targetAncestors = Set(path(target).dropFirst())
        if targetAncestors.contains(source) { return source }
        return path(source).dropFirst().first(where: targetAncestors.contains) ?? 0
    }

    // MARK: - The spec

    /// The `.machine.yml` text.
    var yaml: String {
        var lines = [
            "# A synthetic statechart for the compile benchmarks: \(leaves.count) leaves four composites deep x \(events) events.",
            "machine: SyntheticHierarchy",
            "",
            "context:",
            "  count: {type: Int, default: \"0\"}",
            "  name:  {type: String, default: '\"\"'}",
            "  flag:  {type: Bool, default: \"false\"}",
            "",
            "events:",
        ]
        lines += SyntheticMachine.specEvents(events)
        lines += ["", "initial: \(nodes[nodes[0].children[0]].name)"]
        appendHandlers(of: 0, indent: "", to: &lines)
        lines.append("states:")
        for child in nodes[0].children { appendState(child, indent: "  ", to: &lines) }
        return lines.joined(separator: "\n") + "\n"
    }

    private func yaml(_ set: SetAction) -> String {
        "{" + set.assignments.map { "\($0.field): \($0.spec)" }.joined(separator: ", ") + "}"
    }

    private func yaml(_ branch: Branch) -> String {
        var parts: [String] = []
        if let guardSpec = branch.guardSpec { parts.append("guard: \"\(guardSpec)\"") }
        if let target = branch.target { parts.append("target: \(nodes[target].name)") }
        if let set = branch.set { parts.append("set: \(yaml(set))") }
        return "{" + parts.joined(separator: ", ") + "}"
    }

    private func appendHandlers(of node: Int, indent: String, to lines: inout [String]) {
        let on = nodes[node].on
        if !on.isEmpty {
            lines.append("\(indent)on:")
            for event in on.keys.sorted() {
                let handler = on[event]!
                if handler.branches.count == 1 && handler.branches[0].guardSpec == nil && !handler.ignoreElse {
                    lines.append("\(indent)  e\(event): \(yaml(handler.branches[0]))")
                } else {
                    lines.append("\(indent)  e\(event):")
                    for branch in handler.branches { lines.append("\(indent)    - \(yaml(branch))") }
                    if handler.ignoreElse { lines.append("\(indent)    - ignore") }
                }
            }
        }
        if !nodes[node].ignore.isEmpty {
            lines.append("\(indent)ignore: [" + nodes[node].ignore.map { "e\($0)" }.joined(separator: ", ") + "]")
        }
    }

    private func appendState(_ node: Int, indent: String, to lines: inout [String]) {
        let state = nodes[node]
        lines.append("\(indent)\(state.name):")
        let inner = indent + "  "
        if let first = state.children.first { lines.append("\(inner)initial: \(nodes[first].name)") }
        if let entry = state.entry { lines.append("\(inner)entry: [{set: \(yaml(entry))}]") }
        if let exit = state.exit { lines.append("\(inner)exit: [{set: \(yaml(exit))}]") }
        appendHandlers(of: node, indent: inner, to: &lines)
        if !state.children.isEmpty {
            lines.append("\(inner)states:")
            for child in state.children { appendState(child, indent: inner + "  ", to: &lines) }
        }
    }

    // MARK: - The hand-written flat equivalent

    /// What the leaf `leaf` does on `event`: the branches tried in order (its own, then its
    /// ancestors' while every guard so far was false, S10-S12), each with the node it was written on.
    func resolve(leaf: Int, event: Int) -> [(source: Int, branch: Branch)] {
        var result: [(Int, Branch)] = []
        for node in path(leaf) {
            if nodes[node].ignore.contains(event) { return result }
            guard let handler = nodes[node].on[event] else { continue }
            result += handler.branches.map { (node, $0) }
            if handler.ignoreElse || handler.branches.contains(where: { $0.guardSpec == nil }) { return result }
        }
        return result
    }

    /// The statements of one branch taken in `leaf`: exit actions innermost first, the
    /// transition's `set:`, entry actions outermost first, the new leaf (S25, S29-S31).
    func statements(leaf: Int, source: Int, branch: Branch) -> [String] {
        func assign(_ set: SetAction?) -> [String] {
            (set?.assignments ?? []).map { "state.\($0.field) = \($0.swift)" }
        }
        guard let target = branch.target else { return assign(branch.set) }
        let domain = domain(source: source, target: target)
        var lines: [String] = []
        for exited in path(leaf).prefix(while: { $0 != domain }) { lines += assign(nodes[exited].exit) }
        lines += assign(branch.set)
        let entered = Array(path(target).prefix(while: { $0 != domain }).reversed())
            + Array(path(firstLeaf(of: target)).prefix(while: { $0 != target }).reversed())
        for state in entered { lines += assign(nodes[state].entry) }
        lines.append("state.mode = .\(nodes[firstLeaf(of: target)].name)")
        return lines
    }

    /// A flat `Mode` of every leaf and one `reduce` with a nested `switch state.mode { case .s0:
    /// switch event { ... } }`, each inherited handler copied into every leaf that inherits it,
    /// with the exit and entry actions each transition runs written out in it; the same `State`
    /// and `Event` declarations as the generated file, as `SyntheticMachine.handwrittenSwift` has.
    var handwrittenSwift: String { handwrittenSwift(methodPerLeaf: false) }

    /// The same with `reduce` split into one method per leaf (`case .s0: reduce_s0(&state,
    /// event)`), as the generated file splits it: what a person does who has found that swiftc
    /// takes more than linear time in the size of one function.
    var handwrittenSwiftMethodPerLeaf: String { handwrittenSwift(methodPerLeaf: true) }

    private func handwrittenSwift(methodPerLeaf: Bool) -> String {
        var lines = [
            "import StateLoop",
            "",
            "public enum HandwrittenHierarchy {",
            "    public enum Mode: Hashable, Sendable, CaseIterable {",
            "        case " + leaves.map { nodes[$0].name }.joined(separator: ", "),
            "    }",
            "",
            "    public struct State: Equatable, Sendable {",
            "        public internal(set) var mode: Mode",
            "        public var count: Int",
            "        public var name: String",
            "        public var flag: Bool",
            "",
            "        public static var initial: State {",
            "            var state = State(mode: .\(nodes[firstLeaf(of: 0)].name), count: 0, name: \"\", flag: false)",
        ]
        for state in path(firstLeaf(of: 0)).dropLast().reversed() {
            for assignment in nodes[state].entry?.assignments ?? [] {
                lines.append("            state.\(assignment.field) = \(assignment.swift)")
            }
        }
        lines += [
            "            return state",
            "        }",
            "    }",
            "",
            "    public enum Event: Equatable, Sendable {",
        ]
        lines += SyntheticMachine.swiftEventCases(events)
        lines += [
            "    }",
            "",
            "    public static func reduce(_ state: inout State, _ event: Event) {",
            "        switch state.mode {",
        ]
        if methodPerLeaf {
            for leaf in leaves { lines.append("        case .\(nodes[leaf].name): reduce_\(nodes[leaf].name)(&state, event)") }
            lines += ["        }", "    }"]
            for leaf in leaves {
                lines.append("")
                lines.append("    private static func reduce_\(nodes[leaf].name)(_ state: inout State, _ event: Event) {")
                lines += eventSwitch(leaf: leaf, indent: "        ")
                lines.append("    }")
            }
            lines.append("}")
        } else {
            for leaf in leaves {
                lines.append("        case .\(nodes[leaf].name):")
                lines += eventSwitch(leaf: leaf, indent: "            ")
            }
            lines += ["        }", "    }", "}"]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `switch event { ... }` in `leaf`, at `indent`.
    private func eventSwitch(leaf: Int, indent base: String) -> [String] {
        var lines = [base + "switch event {"]
        for event in 0..<events {
            let branches = resolve(leaf: leaf, event: event)
            let bodies = branches.map { statements(leaf: leaf, source: $0.source, branch: $0.branch) }
            let binding: String
            switch payload(event) {
            case .number where bodies.joined().contains(where: { $0.contains(" by") }): binding = "(let by)"
            case .text where bodies.joined().contains(where: { $0.hasSuffix("= text") }): binding = "(let text)"
            default: binding = ""
            }
            guard !branches.isEmpty else {
                lines.append(base + "case .e\(event): break")
                continue
            }
            lines.append(base + "case .e\(event)\(binding):")
            let indent = base + "    "
            var open = false
            for (index, (_, branch)) in branches.enumerated() {
                if let guardSwift = branch.guardSwift {
                    lines.append(indent + (index == 0 ? "" : "} else ") + "if \(guardSwift) {")
                    open = true
                } else if open {
                    lines.append(indent + "} else {")
                }
                let bodyIndent = open ? indent + "    " : indent
                lines += bodies[index].map { bodyIndent + $0 }
            }
            if open { lines.append(indent + "}") }
        }
        lines.append(base + "}")
        return lines
    }
}

extension SyntheticHierarchy.Branch {
    init(target: Int?, set: SyntheticHierarchy.SetAction? = nil) {
        self.init(guardSpec: nil, guardSwift: nil, target: target, set: set)
    }

    func with(target: Int?) -> Self {
        var copy = self
        copy.target = target
        return copy
    }
}
