import StateLoopSpec

/// Renders a machine as a Mermaid `stateDiagram-v2`, the text GitHub and many Markdown viewers
/// draw inline (in a ```` ```mermaid ```` block).
///
/// `[*] --> initial` marks the initial state, `a --> b : event [guard] / field = expression`
/// each transition (`a --> a` for internal ones), `after 5s` each timer, and a description line
/// `⟳ effect` each state where an effect may run. Final states get `state --> [*]`. The layout
/// is left to right (`direction LR`), like the DOT rendering. Effect shapes, `onError:` arrows
/// and named delays read as in the DOT rendering (`⇶ stream`, `⟳ effect ∀ set`,
/// `❐ effect: Child`, `! event`, `after backoff`), but without its colors: Mermaid cannot color
/// one description line, so a fire-and-forget effect looks like any other `⟳` effect.
///
/// Statecharts (Docs/Statecharts.md) use Mermaid's own composite syntax:
/// - a composite state is a block `state active { ... }` holding its children, with
///   `[*] --> child` for its `initial:` and `child --> [*]` for its final children;
/// - a parallel state's regions are blocks inside its block, separated by `--`;
/// - Mermaid has no history pseudo-state, so a history state is a state of its own name shown
///   as `H` (`H*` for deep history) inside its parent's block, `state "H" as resume`, with an
///   arrow labelled `default` to its `target:`;
/// - `always:` arrows are labelled `always`, `onDone:` arrows `done`;
/// - a state's `entry:` and `exit:` are description lines (`entry / field = expression`), and a
///   one-shot effect's `run:` reads `▶ effect(request)`. Mermaid refuses description lines on a
///   composite state, so a composite's effects, actions and ignored events follow its name in
///   its title (`state "active · entry / …" as active { … }`);
/// - a composite's handler is one arrow from the composite (Mermaid draws it from the frame);
/// - the machine's own `on:` handlers are arrows from a state titled "any state", drawn with a
///   dashed border, as in the DOT rendering.
///
/// Every state is declared inside its parent's block before any arrow names it (Mermaid puts a
/// state in the block where it first appears), and the arrows come last, at the top level.
///
/// Pure and byte-stable. Mermaid has no string escapes, so labels use Mermaid's entity codes
/// (`#quot;`, `#58;` for `:`, …) for every character that would break its syntax, and names
/// that are not plain identifiers get aliases (`state "display name" as s1`); see `MermaidText`.
public struct MermaidRenderer: Sendable {
    /// How much of each transition the labels show.
    public var detail: DiagramDetail

    /// A renderer at the given detail level (`.standard` leaves ignored events out).
    public init(detail: DiagramDetail = .standard) {
        self.detail = detail
    }

    /// The Mermaid text of `spec`, ending in a newline (no Markdown fence around it).
    public func render(_ spec: CheckedMachineSpec) -> String {
        MermaidWriter(model: DiagramModel(spec: spec.spec, detail: detail)).text()
    }

    /// Each name's Mermaid ID: the name itself when Mermaid reads it as a plain ID, otherwise
    /// `s1`, `s2`, … in order of appearance, skipping IDs that a state already uses as its name.
    fileprivate static func stateIDs(for names: [String]) -> [String: String] {
        let plain = Set(names.filter(MermaidText.isPlainID))
        var ids: [String: String] = [:]
        var counter = 0
        for name in names where ids[name] == nil {
            if plain.contains(name) {
                ids[name] = name
            } else {
                var alias: String
                repeat {
                    counter += 1
                    alias = "s\(counter)"
                } while plain.contains(alias)
                ids[name] = alias
            }
        }
        return ids
    }
}

/// One rendering: the IDs, and the text of each part.
private struct MermaidWriter {
    let model: DiagramModel
    /// Each state's ID (`MermaidRenderer.stateIDs`), and the ID of the machine's "any state".
    let ids: [String: String]
    let machineID: String
    /// Transitions Mermaid cannot draw, as text on their source (by position), `event → target`:
    /// an arrow between a composite and a state inside it. Mermaid lays a composite out as a
    /// frame and draws such an arrow as a label with no line.
    let transitionLines: [Int: [String]]
    /// The arrows Mermaid can draw, in the model's order; the loops of one state are one arrow.
    let arrows: [(source: String?, target: String?, labels: [String])]

    init(model: DiagramModel) {
        self.model = model
        ids = MermaidRenderer.stateIDs(for: model.nodes.map(\.name) + model.initialStates + model.edges.compactMap(\.target))
        var machineID = "any_state"
        let usedIDs = Set(ids.values).union(model.nodes.map(\.name))
        while usedIDs.contains(machineID) { machineID += "_" }
        self.machineID = machineID

        var transitionLines: [Int: [String]] = [:]
        var arrows: [(source: String?, target: String?, labels: [String])] = []
        var loopArrow: [String: Int] = [:]
        for edge in model.edges {
            let source = edge.source.flatMap { model.index[$0] }
            let target = edge.target.flatMap { model.index[$0] }
            if let source, let target, source != target, model.isWithin(source, target) || model.isWithin(target, source) {
                transitionLines[source, default: []].append("\(Self.labelText(of: edge)) → \(edge.target!)")
                continue
            }
            guard edge.isLoop else {
                arrows.append((edge.source, edge.target, [Self.labelText(of: edge)]))
                continue
            }
            // Mermaid draws one loop per state, with the label of the last: one arrow carries
            // them all, a line each.
            let key = edge.source.map { "s" + $0 } ?? "m"
            if let index = loopArrow[key] {
                arrows[index].labels.append(Self.labelText(of: edge))
            } else {
                loopArrow[key] = arrows.count
                arrows.append((edge.source, edge.source, [Self.labelText(of: edge)]))
            }
        }
        self.transitionLines = transitionLines
        self.arrows = arrows
    }

    func text() -> String {
        var out = "stateDiagram-v2\n"
        // After the header: some Mermaid versions only skip comments once the diagram type is known.
        out += "    %% Generated by stateloop from \(MermaidText.comment(model.sourceFileName)). Do not edit.\n"
        out += "    direction LR\n"

        // The top-level boxes; composites are declared by their blocks below.
        let boxes = model.roots.filter { !model.nodes[$0].isCluster }
        let declared = boxes.filter(needsDeclaration)
        if !declared.isEmpty { out += "\n" }
        for position in declared {
            out += "    \(declaration(of: position))\n"
        }

        out += "\n" + model.initialStates.map { "    [*] --> \(ids[$0]!)\n" }.joined()
        for position in boxes where model.nodes[position].isFinal {
            out += "    \(id(position)) --> [*]\n"
        }

        for root in model.roots where model.nodes[root].isCluster {
            out += "\n"
            out += block(of: root, indent: "    ")
        }

        if model.hasMachineNode {
            out += "\n    state \"any state\" as \(machineID)\n"
            if !model.machineIgnoredEvents.isEmpty {
                out += "    \(machineID) : \(MermaidText.label(Self.ignoresText(model.machineIgnoredEvents)))\n"
            }
            out += "    classDef machine fill:#ffffff,stroke-dasharray:4 4\n"
            out += "    class \(machineID) machine\n"
        }

        let described = boxes.filter { !descriptions(of: $0).isEmpty }
        if !described.isEmpty { out += "\n" }
        for position in described {
            for line in descriptions(of: position) {
                out += "    \(id(position)) : \(MermaidText.label(line))\n"
            }
        }

        if !arrows.isEmpty { out += "\n" }
        for arrow in arrows {
            let label = arrow.labels.map { MermaidText.label($0) }.joined(separator: "<br/>")
            out += "    \(id(arrow.source)) --> \(id(arrow.target ?? arrow.source)) : \(label)\n"
        }
        return out
    }

    private func id(_ position: Int) -> String { ids[model.nodes[position].name]! }

    /// A state's ID by name; `nil` is the machine.
    private func id(_ name: String?) -> String { name.map { ids[$0]! } ?? machineID }

    /// True when a box needs a `state "…" as id` line: a history state (shown as `H`), a name
    /// that is not its ID, or a state with description lines. Mermaid shows a state's only
    /// description line *instead of* its name (`loading : ⟳ loadNextPage` draws a box reading
    /// "⟳ loadNextPage"); declared with its name first, the box shows the name as its title and
    /// the descriptions below it.
    private func needsDeclaration(_ position: Int) -> Bool {
        let node = model.nodes[position]
        return node.isHistory || id(position) != node.name || !descriptions(of: position).isEmpty
    }

    /// `state "H" as id` for a history state, `state "name" as id` for any other.
    private func declaration(of position: Int) -> String {
        let node = model.nodes[position]
        if case .history(let deep) = node.kind {
            return "state \"\(deep ? "H*" : "H")\" as \(id(position))"
        }
        return "state \"\(MermaidText.label(node.name, inStateName: true))\" as \(id(position))"
    }

    /// The block of a composite or parallel state: its initial arrow, its children (each
    /// declared here, so Mermaid puts it inside), its final children's arrows to `[*]`.
    private func block(of position: Int, indent: String) -> String {
        let node = model.nodes[position]
        let lines = descriptions(of: position)
        let inner = indent + "    "
        var out: String
        if lines.isEmpty, id(position) == node.name {
            out = "\(indent)state \(id(position)) {\n"
        } else {
            // One line: Mermaid sizes a frame's title bar for one line, and draws further lines
            // over the states inside. Mermaid refuses description lines on a composite.
            let title = ([node.name] + lines).map { MermaidText.label($0, inStateName: true) }.joined(separator: " · ")
            out = "\(indent)state \"\(title)\" as \(id(position)) {\n"
        }
        // S149: the actions of `initial: {target:, do:}` label each of its arrows.
        let label = node.initialActions.isEmpty ? "" : " : " + MermaidText.label("/ " + node.initialActions.map(\.text).joined(separator: ", "))
        for initial in node.initialTargets {
            out += "\(inner)[*] --> \(id(initial))\(label)\n"
        }
        // A parallel state's regions are separated by `--`; its other children (history
        // states) go with the first region.
        var sections: [[Int]]
        if node.kind == .parallel {
            let regions = node.children.filter { model.nodes[$0].isCluster }
            sections = regions.isEmpty ? [node.children] : regions.map { [$0] }
            sections[0] = node.children.filter { !regions.contains($0) } + sections[0]
        } else {
            sections = [node.children]
        }
        for (index, section) in sections.enumerated() {
            if index > 0 { out += "\(inner)--\n" }
            for child in section {
                if model.nodes[child].isCluster {
                    out += block(of: child, indent: inner)
                    continue
                }
                // Every child is named here, so that Mermaid puts it in this block.
                out += "\(inner)\(needsDeclaration(child) ? declaration(of: child) : id(child))\n"
                for line in descriptions(of: child) {
                    out += "\(inner)\(id(child)) : \(MermaidText.label(line))\n"
                }
                if model.nodes[child].isFinal {
                    out += "\(inner)\(id(child)) --> [*]\n"
                }
            }
        }
        out += "\(indent)}\n"
        return out
    }

    /// The description lines of a state, unescaped: effects, entry and exit actions, ignored
    /// events, and the transitions Mermaid cannot draw.
    private func descriptions(of position: Int) -> [String] {
        let node = model.nodes[position]
        var lines = node.effects.flatMap(\.lines)
        lines += node.entry.map { "entry / \($0.text)" }
        lines += node.exit.map { "exit / \($0.text)" }
        if !node.ignoredEvents.isEmpty { lines.append(Self.ignoresText(node.ignoredEvents)) }
        return lines + (transitionLines[position] ?? [])
    }

    private static func ignoresText(_ events: [String]) -> String {
        "ignores \(events.joined(separator: ", "))"
    }

    /// `event [guard] / a = x, b = y`, unescaped, on one line: Mermaid labels cannot break
    /// lines portably.
    private static func labelText(of edge: DiagramModel.Edge) -> String {
        var label = edge.trigger.text + (edge.reenters ? " (reenter)" : "")
        switch edge.condition {
        case .expression(let expression): label += " [\(expression)]"
        case .otherwise: label += " [else]"
        case nil: break
        }
        if !edge.actions.isEmpty {
            label += " / " + edge.actions.map(\.text).joined(separator: ", ")
        }
        return label
    }
}
