import StateLoopSpec

// The render context of the diagram renderers: what a picture of a machine contains, with every
// decision about semantics (which branch is an edge, what "else" means, which events a state
// ignores) made once here. `DOTRenderer` and `MermaidRenderer` only decide syntax, so the two
// formats always show the same machine.

/// The boxes and arrows of one machine at one detail level, independent of the output syntax.
struct DiagramModel {
    /// A state box.
    struct Node {
        var name: String
        /// Effects that may run in this state, in `effects:` order (`⟳ loadNextPage`).
        var effects: [String]
        /// Events that do nothing here (`event [else]` when only an else branch ignores it);
        /// filled only at `DiagramDetail.full`.
        var ignoredEvents: [String]
        var isFinal: Bool
    }

    /// What fires a transition.
    enum Trigger {
        /// An event; `fromEffects` marks events only effects may send (`from: effects`), which the
        /// renderers style apart so results of effects stand out.
        case event(String, fromEffects: Bool)
        /// An `after:` timer, with the delay as written (`5s`).
        case timer(String)
    }

    /// The condition shown in brackets on an edge.
    enum Condition {
        /// A `guard:` expression, verbatim.
        case expression(String)
        /// An unguarded branch after guarded ones: it fires only when every guard before it
        /// failed, which UML spells `[else]`. Drawing it bare would claim it always fires.
        case otherwise
    }

    /// A transition arrow. `source == target` for internal transitions and self-transitions.
    struct Edge {
        var source: String
        var target: String
        var trigger: Trigger
        var condition: Condition?
        /// `set:` as `(field, expression)`; empty at `DiagramDetail.compact`.
        var assignments: [(field: String, expression: String)]
    }

    var machineName: String
    /// The spec's file name without folders, so output does not depend on where it was built.
    var sourceFileName: String
    var initialState: String
    var nodes: [Node]
    var edges: [Edge]

    init(spec: MachineSpec, detail: DiagramDetail) {
        machineName = spec.name.value
        sourceFileName = String(spec.file.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
        initialState = spec.initial.value

        let effectsOnlyEvents = Set(spec.events.filter { $0.source == .effects }.map(\.name.value))
        var nodes: [Node] = []
        var edges: [Edge] = []
        // Nested states are not part of spec v1 (the checks reject them); when they arrive, this
        // loop recurses and `Node` gains children that the renderers draw as clusters.
        for state in spec.states {
            let name = state.name.value
            var ignored: [String] = []

            func addBranches(_ branches: [Branch], trigger: Trigger, event: String?) {
                for (index, branch) in branches.enumerated() {
                    switch branch {
                    case .transition(let transition):
                        let condition: Condition? =
                            if let guardExpression = transition.guardExpression {
                                .expression(guardExpression.value)
                            } else if index > 0 {
                                .otherwise
                            } else {
                                nil
                            }
                        edges.append(Edge(
                            source: name,
                            target: transition.target?.value ?? name,
                            trigger: trigger,
                            condition: condition,
                            assignments: detail == .compact
                                ? [] : transition.assignments.map { ($0.field.value, $0.expression.value) }
                        ))
                    case .ignore:
                        // An else-ignore only drops the event when the guards before it fail.
                        if let event { ignored.append(index > 0 ? "\(event) [else]" : event) }
                    }
                    // The first branch that always applies wins; branches after it never run,
                    // so drawing them would show arrows the machine cannot take.
                    if branch.isUnconditional { return }
                }
            }

            // Timers first: they are the state's own way forward, and listing them first gives
            // Graphviz the main flow (red -> green -> yellow) as its ranking backbone.
            for timer in state.after {
                addBranches(timer.branches, trigger: .timer(timer.delay.value), event: nil)
            }
            for handler in state.on {
                let event = handler.event.value
                addBranches(
                    handler.branches,
                    trigger: .event(event, fromEffects: effectsOnlyEvents.contains(event)),
                    event: event
                )
            }

            if detail == .full {
                let handled = Set(state.on.map(\.event.value))
                ignored += state.ignore.map(\.value)
                ignored += spec.ignore.map(\.value).filter { !handled.contains($0) }
            }
            var seen = Set<String>()
            nodes.append(Node(
                name: name,
                effects: spec.effects(runningIn: name).map(\.name.value),
                ignoredEvents: detail == .full ? ignored.filter { seen.insert($0).inserted } : [],
                isFinal: state.isFinal
            ))
        }
        self.nodes = nodes
        self.edges = edges
    }
}
