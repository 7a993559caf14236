import StateLoopSpec

// The render context of the diagram renderers: what a picture of a machine contains, with every
// decision about semantics (which branch is an edge, what "else" means, which events a state
// ignores, which state owns an inherited handler) made once here. `DOTRenderer` and
// `MermaidRenderer` only decide syntax, so the two formats always show the same machine.

/// The boxes and arrows of one machine at one detail level, independent of the output syntax.
struct DiagramModel {
    /// What a state is drawn as.
    enum Kind: Equatable {
        /// A state without children: a box.
        case leaf
        /// A state with children (`states:`): a frame around them, with its own initial marker.
        case composite
        /// `type: parallel` with children: a frame whose children, the regions, are framed apart.
        case parallel
        /// `type: final`: a double circle.
        case final
        /// `type: history`: a small `H` (`H*` for deep history) circle inside its parent.
        case history(deep: Bool)
    }

    /// A state.
    struct Node {
        var name: String
        var kind: Kind
        /// The parent's position in `nodes`; `nil` at the top level.
        var parent: Int?
        /// The children's positions in `nodes`, in document order (history states included).
        var children: [Int]
        /// What the state's initial dot points at: the child that `initial:` names, or each state
        /// of a list (S143); empty when it names none.
        var initialTargets: [Int]
        /// The actions of a composite's `initial: {target:, do:}`, on its initial arrow (S149).
        var initialActions: [Action] = []
        /// A history state's `target:` (its default when nothing is recorded), as written.
        var historyDefault: String?
        /// Effects that may run in this state, in `effects:` order (`⟳ loadNextPage`).
        var effects: [Effect]
        /// `entry:` and `exit:`, flattened to one action per line.
        var entry: [Action]
        var exit: [Action]
        /// Events that do nothing here (`event [else]` when only an else branch ignores it);
        /// filled only at `DiagramDetail.full`.
        var ignoredEvents: [String]

        var isFinal: Bool { kind == .final }
        /// True for the states drawn as a frame around their children.
        var isCluster: Bool { kind == .composite || kind == .parallel }
        var isHistory: Bool {
            if case .history = kind { return true }
            return false
        }
    }

    /// An effect on the line of a state where it runs (Docs/Effects.md, "Diagrams").
    struct Effect {
        /// A child machine's name, its `input:` and its `forward:`.
        struct Child {
            var machine: String
            /// `field: expression` per input field; filled only at `DiagramDetail.full`.
            var input: [(field: String, expression: String)]
            /// `parentEvent → childEvent` per `forward:` entry; filled only at `DiagramDetail.full`.
            var forward: [(from: String, to: String)]
            /// `childEvent ↑ parentEvent` per `events:` entry (E71); filled only at `DiagramDetail.full`.
            var events: [(from: String, to: String)]
        }

        var name: String
        /// `stream: true`: any number of results per run (`⇶`).
        var isStream: Bool
        /// The `requests:` expression of a set effect (`∀ images`), at every detail level.
        var set: String?
        /// The `request:` expression of a single effect; filled only at `DiagramDetail.full`.
        var request: String?
        /// `machine:`: the effect is a child machine (`❐`).
        var child: Child?
        /// False for an effect that feeds nothing back (fire-and-forget, or a child without
        /// `onDone:`): drawn in grey instead of the effects' blue.
        var sendsEvents: Bool

        /// The text of the effect, unescaped, a line each: `⟳ loadNextPage(nextPageURL)`,
        /// `⇶ trackDelivery`, `⟳ loadImage ∀ images`, `❐ pay: Payment(amount: total)` and then
        /// one `cancel → abort` line per forwarded event and one `progress ↑ uploaded` line per
        /// event of the child that the parent takes.
        var lines: [String] {
            if let child {
                let input = child.input.isEmpty ? "" : "(" + child.input.map { "\($0.field): \($0.expression)" }.joined(separator: ", ") + ")"
                return ["❐ \(name): \(child.machine)\(input)"] + child.forward.map { "\($0.from) → \($0.to)" }
                    + child.events.map { "\($0.from) ↑ \($0.to)" }
            }
            let argument = set.map { " ∀ \($0)" } ?? request.map { "(\($0))" } ?? ""
            return ["\(isStream ? "⇶" : "⟳") \(name)\(argument)"]
        }

        init(_ effect: EffectSpec, detail: DiagramDetail) {
            let full = detail == .full
            name = effect.name.value
            isStream = effect.isStream
            set = effect.isSet ? effect.request?.value?.value : nil
            request = full && !effect.isSet ? effect.request?.value?.value : nil
            child = effect.child.map { child in
                Child(
                    machine: child.machine.value,
                    input: full ? child.input.map { ($0.field.value, $0.expression.value) } : [],
                    forward: full ? child.forward.map { ($0.from.value, $0.to.value) } : [],
                    events: full ? child.events.map { ($0.from.value, $0.to.value) } : []
                )
            }
            sendsEvents = !effect.results.isEmpty
        }
    }

    /// One action of an `entry:`, `exit:`, or a transition's `set:` and `do:`.
    enum Action {
        /// `field = expression`, from `set:`.
        case assign(field: String, expression: String)
        /// `▶ effect(request)`: a `run:` of a one-shot effect; the request is `nil` when none is
        /// written, and at `DiagramDetail.compact`.
        case run(effect: String, request: String?)
        /// `↺ event(field: expression)`: a `raise:` (S125); the payload is `nil` when the event has
        /// none, and at `DiagramDetail.compact`.
        case raise(event: String, payload: String?)
        /// `send event(field: expression) after 5s as id`: a `send:` (S136); the payload is `nil`
        /// as a raise's; no `after` without `delay:`, no `as` without `id:`.
        case send(event: String, payload: String?, delay: String?, id: String?)
        /// `cancel id` (S136).
        case cancel(id: String)
        /// `send event(field: expression) to parent`: a send to the machine that runs this one
        /// (Docs/Effects.md E70); the payload is `nil` as a raise's.
        case sendToParent(event: String, payload: String?)
        /// `if condition [then...] else [otherwise...]`: a conditional action (S106).
        indirect case conditional(condition: String, then: [Action], otherwise: [Action])
        /// `for item, index in array [actions]`: a `foreach:` (S174).
        indirect case loop(item: String, index: String?, array: String, actions: [Action])

        /// `field = expression`, `▶ effect(request)`, `↺ event` or `if n > 0 [n = 0] else [▶ beep]`, unescaped,
        /// as both formats write it.
        var text: String {
            switch self {
            case .assign(let field, let expression): "\(field) = \(expression)"
            case .run(let effect, let request): "▶ \(effect)" + (request.map { "(\($0))" } ?? "")
            case .raise(let event, let payload): "↺ \(event)" + (payload.map { "(\($0))" } ?? "")
            case .send(let event, let payload, let delay, let id):
                "send \(event)" + (payload.map { "(\($0))" } ?? "") + (delay.map { " after \($0)" } ?? "") + (id.map { " as \($0)" } ?? "")
            case .cancel(let id): "cancel \(id)"
            case .sendToParent(let event, let payload): "send \(event)" + (payload.map { "(\($0))" } ?? "") + " to parent"
            case .conditional(let condition, let then, let otherwise):
                "if \(condition) [\(then.map(\.text).joined(separator: "; "))]"
                    + (otherwise.isEmpty ? "" : " else [\(otherwise.map(\.text).joined(separator: "; "))]")
            case .loop(let item, let index, let array, let actions):
                "for \(item)\(index.map { ", \($0)" } ?? "") in \(array) [\(actions.map(\.text).joined(separator: "; "))]"
            }
        }
    }

    /// What fires a transition.
    enum Trigger {
        /// An event; `fromEffects` marks events only effects may send (`from: effects`), which the
        /// renderers style apart so results of effects stand out; `isFailure` marks the
        /// `onError:` event of an effect (`! trackingLost`).
        case event(String, fromEffects: Bool, isFailure: Bool)
        /// An `after:` timer, with the delay as written (`5s`, or a name of `delays:`), and for a
        /// named delay at `DiagramDetail.full`, its expression.
        case timer(String, expression: String?)
        /// An `always:` branch: taken without an event as soon as its guard holds.
        case always
        /// An `onDone:` branch: taken when the state's final child (every region's) is entered.
        case done
        /// A history state's `target:`: where it leads while nothing is recorded. Not a
        /// transition, but drawn as one so the default can be followed.
        case historyDefault

        /// The trigger as both formats write it, unescaped: `event`, `! failureEvent`,
        /// `after 5s`, `after backoff = .seconds(…)`, `always`, `done`, `default`.
        var text: String {
            switch self {
            case .event(let name, _, let isFailure): (isFailure ? "! " : "") + name
            case .timer(let delay, let expression): "after \(delay)" + (expression.map { " = \($0)" } ?? "")
            case .always: "always"
            case .done: "done"
            case .historyDefault: "default"
            }
        }
    }

    /// The condition shown in brackets on an edge.
    enum Condition {
        /// A `guard:` expression, verbatim.
        case expression(String)
        /// An unguarded branch after guarded ones: it fires only when every guard before it
        /// failed, which UML spells `[else]`. Drawing it bare would claim it always fires.
        case otherwise
    }

    /// A transition arrow. A handler inherited by the children of a composite state is one edge
    /// from the composite: it is drawn once, from the composite's frame.
    struct Edge {
        /// The state whose `on:`, `after:`, `always:` or `onDone:` holds the transition; `nil` for
        /// the machine's own `on:`.
        var source: String?
        /// The target as written; `nil` for a transition without `target:` (internal).
        var target: String?
        var trigger: Trigger
        var condition: Condition?
        /// `set:`, then `do:`, one action per line; no assignments at `DiagramDetail.compact`.
        var actions: [Action]
        /// `reenter: true`: the label says so, since the arrow alone cannot (S119).
        var reenters = false
        /// The branch's id in `TransitionList` (the id a trace reports), for the SVG's element ids.
        var branch: Int?

        /// True when the arrow comes back to its source: internal transitions and self-transitions.
        var isLoop: Bool { target == nil || target == source }
    }

    var machineName: String
    /// The spec's file name without folders, so output does not depend on where it was built.
    var sourceFileName: String
    /// What the machine's initial dot points at: its `initial:` state, or each state of a list (S143).
    var initialStates: [String]
    /// Every state in document order, a parent before its children.
    var nodes: [Node]
    /// The top-level states' positions in `nodes`.
    var roots: [Int]
    /// A state's position by name.
    var index: [String: Int]
    /// The states' hierarchy, whose positions are those of `nodes`.
    let tree: StateTree
    var edges: [Edge]
    /// True when the machine's own handlers are drawn from a node of their own ("any state"):
    /// when it has an `on:`, and, at `DiagramDetail.full`, when a hierarchical machine has an
    /// `ignore:` (a flat machine lists those events on every state, as v1 did).
    var hasMachineNode: Bool
    /// The machine's own `ignore:`, listed on the machine node; filled only at `DiagramDetail.full`.
    var machineIgnoredEvents: [String]

    /// True when some state has children, so the picture has frames.
    var hasClusters: Bool { nodes.contains(where: \.isCluster) }

    init(spec: MachineSpec, detail: DiagramDetail) {
        machineName = spec.name.value
        sourceFileName = String(spec.file.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
        initialStates = (spec.initialTargets ?? [spec.initial]).map(\.value)

        let tree = StateTree(spec.states)
        self.tree = tree
        let effectsOnlyEvents = Set(spec.events.filter { $0.source == .effects }.map(\.name.value))
        let failureEvents = Set(spec.effects.compactMap(\.onError?.value))
        // A named delay's expression, shown at full detail (a literal has none).
        let delays = detail == .full ? Dictionary(spec.delays.map { ($0.field.value, $0.expression.value) }, uniquingKeysWith: { first, _ in first }) : [:]
        let hasClusters = tree.nodes.contains { !$0.children.isEmpty }
        hasMachineNode = !spec.on.isEmpty || (hasClusters && detail == .full && !spec.ignore.isEmpty)
        roots = tree.roots
        index = tree.index

        func actions(_ list: [Action]) -> [Action] {
            list.compactMap { action in
                switch action {
                case .assign: detail == .compact ? nil : action
                case .run(let effect, let request): .run(effect: effect, request: detail == .compact ? nil : request)
                case .raise(let event, let payload): .raise(event: event, payload: detail == .compact ? nil : payload)
                case .send(let event, let payload, let delay, let id): .send(event: event, payload: detail == .compact ? nil : payload, delay: delay, id: id)
                case .cancel: action
                case .sendToParent(let event, let payload): .sendToParent(event: event, payload: detail == .compact ? nil : payload)
                case .conditional(let condition, let then, let otherwise): .conditional(condition: condition, then: actions(then), otherwise: actions(otherwise))
                case .loop(let item, let index, let array, let body): .loop(item: item, index: index, array: array, actions: actions(body))
                }
            }
        }
        func payloadText(_ payload: [Assignment]) -> String? {
            payload.isEmpty ? nil : payload.map { "\($0.field.value): \($0.expression.value)" }.joined(separator: ", ")
        }
        func actions(_ list: [StateLoopSpec.Action]) -> [Action] {
            func shown(_ list: [StateLoopSpec.Action]) -> [Action] {
                list.flatMap { action -> [Action] in
                    switch action {
                    case .set(let assignments, _): assignments.map { .assign(field: $0.field.value, expression: $0.expression.value) }
                    case .run(let effect, let request, _): [.run(effect: effect.value, request: request?.value)]
                    case .raise(let event, let payload, _):
                        [.raise(event: event.value, payload: payloadText(payload))]
                    case .send(let send):
                        [.send(event: send.event.value, payload: payloadText(send.payload), delay: send.delay?.value, id: send.id?.value)]
                    case .cancel(let id, _): [.cancel(id: id.value)]
                    case .sendToParent(let event, let payload, _): [.sendToParent(event: event.value, payload: payloadText(payload))]
                    case .conditional(let conditional):
                        [.conditional(condition: conditional.condition.value, then: shown(conditional.then), otherwise: shown(conditional.otherwise))]
                    case .foreach(let loop):
                        [.loop(item: loop.item.value, index: loop.index?.value, array: loop.array.value, actions: shown(loop.actions))]
                    }
                }
            }
            return actions(shown(list))
        }

        var edges: [Edge] = []
        let transitions = TransitionList(spec)
        /// Adds an edge per branch that can be taken; returns the events the branches ignore.
        func addBranches(_ branches: [Branch], source: String?, trigger: Trigger, event: String?) -> [String] {
            var ignored: [String] = []
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
                    let assignments = transition.assignments.map { Action.assign(field: $0.field.value, expression: $0.expression.value) }
                    edges.append(Edge(
                        source: source,
                        target: transition.target?.value,
                        trigger: trigger,
                        condition: condition,
                        actions: actions(assignments) + actions(transition.actions),
                        reenters: transition.reenter != nil,
                        branch: transitions.id(at: branch.location)
                    ))
                case .ignore:
                    // An else-ignore only drops the event when the guards before it fail.
                    if let event { ignored.append(index > 0 ? "\(event) [else]" : event) }
                }
                // The first branch that always applies wins; branches after it never run,
                // so drawing them would show arrows the machine cannot take.
                if branch.isUnconditional { break }
            }
            return ignored
        }
        func addHandlers(_ handlers: [EventHandler], source: String?) -> [String] {
            handlers.flatMap { handler in
                let event = handler.event.value
                return addBranches(
                    handler.branches, source: source,
                    trigger: .event(event, fromEffects: effectsOnlyEvents.contains(event), isFailure: failureEvents.contains(event)),
                    event: event)
            }
        }

        var nodes: [Node] = []
        for (position, treeNode) in tree.nodes.enumerated() {
            let state = treeNode.spec
            let name = state.name.value
            // Timers first: they are the state's own way forward, and listing them first gives
            // Graphviz the main flow (red -> green -> yellow) as its ranking backbone.
            var ignored: [String] = []
            for timer in state.after {
                let expression = timer.milliseconds == nil ? delays[timer.delay.value] : nil
                ignored += addBranches(timer.branches, source: name, trigger: .timer(timer.delay.value, expression: expression), event: nil)
            }
            ignored += addHandlers(state.on, source: name)
            ignored += addBranches(state.always, source: name, trigger: .always, event: nil)
            ignored += addBranches(state.onDone, source: name, trigger: .done, event: nil)
            if let historyDefault = state.historyTarget?.value, state.isHistory {
                edges.append(Edge(source: name, target: historyDefault, trigger: .historyDefault, condition: nil, actions: actions(state.defaultActions)))
            }

            if detail == .full {
                let handled = Set(state.on.map(\.event.value))
                ignored += state.ignore.map(\.value)
                // Without a machine node, the machine's `ignore:` is listed on every state that
                // does not handle the event, as in v1.
                if !hasMachineNode { ignored += spec.ignore.map(\.value).filter { !handled.contains($0) } }
            }
            var seen = Set<String>()

            let kind: Kind =
                if !treeNode.children.isEmpty {
                    state.kind == .parallel ? .parallel : .composite
                } else {
                    switch state.kind {
                    case .final: .final
                    case .history(let deep): .history(deep: deep)
                    case .normal, .parallel: .leaf
                    }
                }
            nodes.append(Node(
                name: name,
                kind: kind,
                parent: treeNode.parent,
                children: treeNode.children,
                initialTargets: kind != .composite ? [] : state.initialTargets.map { $0.compactMap { tree.index[$0.value] } } ?? tree.initialChild(of: position).map { [$0] } ?? [],
                initialActions: kind != .composite ? [] : actions(state.defaultActions),
                historyDefault: state.isHistory ? state.historyTarget?.value : nil,
                effects: spec.effects(runningIn: name).map { Effect($0, detail: detail) },
                entry: actions(state.entry),
                exit: actions(state.exit),
                ignoredEvents: detail == .full ? ignored.filter { seen.insert($0).inserted } : []
            ))
        }
        // The machine's own handlers last: they are drawn once, from the machine node.
        let machineIgnored = addHandlers(spec.on, source: nil)
        var seen = Set<String>()
        machineIgnoredEvents = detail == .full && hasMachineNode
            ? (machineIgnored + spec.ignore.map(\.value)).filter { seen.insert($0).inserted } : []
        self.nodes = nodes
        self.edges = edges
    }

    /// True when `position` is `ancestor` or below it.
    func isWithin(_ position: Int, _ ancestor: Int) -> Bool {
        tree.isWithin(position, ancestor)
    }
}
