// MachinePaths: for every state and every branch of a spec, a shortest sequence of steps from the
// initial state that reaches it, or why none does (Docs/Testing.md, "Paths", P1–P12). What
// `stateloop paths` prints and what a generated `Machine.paths` table is made from.

/// Shortest paths to every state and every `TransitionList` entry of a spec, found by a
/// breadth-first search over configurations.
///
/// The search is symbolic: context fields and event payloads are not modelled, so every guard
/// may hold and may fail (P4), and a path lists the guards it assumes. History states enter
/// their default (P9), one-shot effects may answer in any state (P6), and the search stops at
/// `limit` configurations (P12).
public struct MachinePaths: Sendable {
    /// A guard a path assumes to hold, or to fail.
    public struct Assumption: Hashable, Sendable {
        /// The guard's Swift expression, as written.
        public var expression: String
        /// Where the guard is written.
        public var location: SourceLocation
        /// The `TransitionList` id of the branch the guard belongs to.
        public var transition: Int
    }

    /// One step of a path: an event sent (or answered by an effect), a timer that fires, or one
    /// `always:` or `onDone:` microstep of the settling that follows them.
    public struct Step: Hashable, Sendable {
        /// The event, the timer (its state is that of `transitions`), `always` or `onDone`.
        public var trigger: TransitionEntry.Handler
        /// The branches taken, by `TransitionList` id, in the order they were selected: one, or
        /// below a parallel state one per region that took one (S67–S69).
        public var transitions: [Int]
        /// The guards that must hold for this step to take `transitions`.
        public var holding: [Assumption]
        /// The guards that must fail: the earlier guarded branches skipped on the way (S11, S12).
        public var failing: [Assumption]
        /// For an event `from: effects`: the effect that must answer with it.
        public var effect: String?
        /// True for the step of an event that a step before it raised (S121, S125): `reduce`
        /// takes it on its own, so a test sends nothing for it.
        public var isRaised = false
        /// For the delivery of a pending `send:` (S150): its delay as written, `0s` when it has
        /// none; a test moves the clock by it and receives the delivery instead of sending.
        public var sentAfter: String?
    }

    /// Every step of every path, each stored once (P15): a step and the index of the step before
    /// it, so that the paths form a tree and a path is its last step's index. Paths share their
    /// prefixes, so the table grows with the configurations searched, not with the paths' lengths
    /// (stored path by path, a chain of 4,000 states took 1.7 GB); a path is rebuilt when read.
    public final class StepTable: Sendable {
        /// The steps, each after the one before it in its path.
        public let steps: [Step]
        /// For each step, the index of the step before it; `-1` for a path's first step.
        public let previous: [Int]

        init(steps: [Step], previous: [Int]) {
            self.steps = steps
            self.previous = previous
        }

        /// The path whose last step is `last`, first step first; empty for `-1`.
        public func path(endingAt last: Int) -> [Step] {
            var path: [Step] = []
            var index = last
            while index >= 0 {
                path.append(steps[index])
                index = previous[index]
            }
            return path.reversed()
        }

        /// How many steps the path ending at `last` has, without building it.
        public func length(endingAt last: Int) -> Int {
            var count = 0
            var index = last
            while index >= 0 {
                count += 1
                index = previous[index]
            }
            return count
        }
    }

    /// A state, and a shortest path that enters it.
    public struct StatePath: Sendable {
        /// Its position in `StateTree(spec.states)`.
        public var position: Int
        public var name: String
        /// Where its name is written.
        public var location: SourceLocation
        /// The index in `table` of the last step of its path (`-1`: the empty path); `nil` when
        /// no path enters it.
        public var last: Int?
        /// The table `last` indexes.
        public let table: StepTable
        /// Why no path enters it, when none does.
        public var unreachable: String?

        /// The steps that enter it: empty for the initial configuration, `nil` when no path does.
        /// A history state counts as entered by a step that targets it. Built on each call.
        public var steps: [Step]? { last.map(table.path(endingAt:)) }
    }

    /// A branch of the spec, and a shortest path whose last step takes it.
    public struct TransitionPath: Sendable {
        public var entry: TransitionEntry
        /// The index in `table` of the path's last step, which takes `entry`; `nil` when no path
        /// takes it.
        public var last: Int?
        /// The table `last` indexes.
        public let table: StepTable
        /// Why no path takes it, when none does.
        public var unreachable: String?

        /// The steps, the last of which takes `entry`; `nil` when no path takes it. Built on each call.
        public var steps: [Step]? { last.map(table.path(endingAt:)) }
    }

    /// The search stops when it has seen this many configurations (P12).
    public static let defaultLimit = 100_000

    /// The branches `transitions` refers to.
    public let transitionList: TransitionList
    /// Every state, in document order (history states included).
    public let states: [StatePath]
    /// Every entry of `transitionList`, in id order.
    public let transitions: [TransitionPath]
    /// How many configurations (sets of active leaves) the search visited.
    public let configurations: Int
    /// The steps of every path, each stored once.
    public let table: StepTable
    /// Why the search stopped before it saw every configuration; `nil` when it did not.
    public let truncation: String?

    /// Searches `spec` (it should have passed the checks: targets and names must resolve).
    public init(_ spec: MachineSpec, limit: Int = defaultLimit) {
        self.init(MachineSemantics(spec: spec), limit: limit)
    }

    /// The paths of a machine whose rules are already decided (a checked spec's `semantics`).
    public init(_ semantics: MachineSemantics, limit: Int = defaultLimit) {
        let search = PathSearch(semantics, limit: limit)
        search.run()
        transitionList = search.list
        let table = search.table()
        self.table = table
        states = search.statePaths(table)
        transitions = search.transitionPaths(table)
        configurations = search.configurations.count
        truncation = search.truncation
    }

    /// How many `Step` values the result stores: at most one per configuration, state and
    /// branch, however long the paths (P15).
    public var storedSteps: Int { table.steps.count }

    /// True when every state and every branch has a path.
    public var isComplete: Bool {
        states.allSatisfy { $0.last != nil } && transitions.allSatisfy { $0.last != nil }
    }

    /// `searchChanged [!event.search.isEmpty]`, `loaded (answer of loadNextPage)`,
    /// `after 5s in failed`, `always in checking [!(isValid)]`, `onDone of active`: the trigger,
    /// then the guards assumed (those that must fail as `!(guard)`), then the answering effect.
    public func text(of step: Step) -> String {
        let states = step.transitions.map { transitionList.entries[$0].state ?? "(any)" }
        let owners = states.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }.joined(separator: ", ")
        var text = switch step.trigger {
        case .event(let name), .group(let name, _):
            step.isRaised ? "↺ \(name)" : step.sentAfter.map { "\(name) (sent after \($0))" } ?? name
        case .timer(_, let delay): "after \(delay) in \(owners)"
        case .always: "always in \(owners)"
        case .done: "onDone of \(owners)"
        }
        let guards = step.holding.map(\.expression) + step.failing.map { "!(\($0.expression))" }
        if !guards.isEmpty { text += " [\(guards.joined(separator: ", "))]" }
        if let effect = step.effect { text += " (answer of \(effect))" }
        return text
    }
}

/// The search behind `MachinePaths`: a 0-1 breadth-first search (settling that takes no branch
/// costs no step) over nodes that are a configuration and what is left of its settling. A class,
/// so that the tables it reads are not copied into every closure that reads them.
final class PathSearch {
    /// A configuration (its active leaves, and a top-level final state once the machine is done),
    /// the composites whose `onDone:` is due, and whether `always:` is still to be tried.
    struct Node: Hashable {
        var leaves: [Int]
        var dues: [Int] = []
        var settling = false
        /// The events raised and not yet taken, oldest first (S121); taken once settling is over.
        var raised: [String] = []
        /// The sends pending, in the order they were sent (S127, S150).
        var sends: [PendingSend] = []
    }

    /// A `send:` not yet delivered nor cancelled.
    struct PendingSend: Hashable {
        var event: String
        var id: String?
        /// The delay as written (`0s` without one) and in milliseconds (`nil` for a named delay).
        var delay: String
        var milliseconds: Int64?
    }

    /// What an action does to the machine's queues (S121, S127–S130).
    enum QueueAction {
        case raise(String)
        case send(PendingSend)
        case cancel(String)
    }

    /// One branch (or nothing) a leaf, a timer or a due `onDone:` may select, with its guards.
    struct Choice {
        var taken: Int?
        var holding: [MachinePaths.Assumption] = []
        var failing: [MachinePaths.Assumption] = []
    }

    /// Several leaves' choices, merged into one microstep's branches (S67–S69).
    struct Selection {
        var taken: [Int] = []
        var holding: [MachinePaths.Assumption] = []
        var failing: [MachinePaths.Assumption] = []
    }

    /// What the search asks of a state on every step, read once from the tree.
    struct Facts {
        var isHistory: Bool
        /// A leaf of a configuration, or a top-level final state (which ends the machine).
        var isTerminal: Bool
        /// The state and its ancestors, innermost first.
        var lineage: [Int]
    }

    /// An event `from: effects` that arrived while `owner` was active.
    struct Arrival: Hashable {
        var event: String
        var owner: Int
    }

    /// A microstep's result.
    struct Move {
        var node: Node
        var historyTargets: [Int]
        /// Its sends and cancels, in the order they run, for the pending sends before it.
        var queueActions: [QueueAction] = []
    }

    let semantics: MachineSemantics
    let spec: MachineSpec
    let tree: StateTree
    let list: TransitionList
    let limit: Int
    /// By state position.
    let facts: [Facts]

    private var nodes: [Node] = []
    /// The leaves of every node: the configurations seen, which `limit` bounds.
    private(set) var configurations: Set<[Int]> = []
    private var nodeIndex: [Node: Int] = [:]
    private var distance: [Int] = []
    /// How each node was first reached at its distance: the node before it and the step taken
    /// (`nil` for settling that took no branch).
    private var parent: [(node: Int, step: MachinePaths.Step?)?] = []
    private(set) var truncation: String?

    /// Where each state was first active (or, for a history state, targeted) and each entry first taken.
    private var stateFound: [Int: (node: Int, step: MachinePaths.Step?)] = [:]
    private var entryFound: [Int: (node: Int, step: MachinePaths.Step)] = [:]
    /// What the reasons of unreachable ones are made of.
    private var consulted: Set<Int> = []
    private var shadowedBy: [Int: Int] = [:]
    /// The events `from: effects` that arrived while a state (or the machine) was active, as
    /// (event name, owner) pairs.
    private var arrived: Set<Arrival> = []
    private var dueSeen: Set<Int> = []

    /// The most combinations of the regions' choices one event may make (P12).
    static let combinationLimit = 1_024
    /// The most raised events a node holds; later ones are dropped, so that a loop of raises
    /// through guards revisits nodes instead of making longer queues (S122, S125).
    static let raisedLimit = 4
    /// A node that holds raised events or pending sends is made only while the search has fewer
    /// than `limit / raisedNodeShare` nodes: each configuration may come with many queues.
    static let raisedNodeShare = 10
    /// The most pending sends a node holds; later ones are left out, and reached only by sending
    /// their events (S150).
    static let sendLimit = 4

    init(_ semantics: MachineSemantics, limit: Int) {
        let tree = semantics.tree
        self.semantics = semantics
        self.spec = semantics.spec
        self.limit = limit
        self.tree = tree
        self.list = semantics.transitions
        facts = tree.nodes.indices.map { position in
            let node = tree[position]
            return Facts(
                isHistory: node.spec.isHistory,
                isTerminal: tree.isLeaf(position) || (node.spec.isFinal && node.parent == nil), lineage: tree.lineage(of: position))
        }
    }

    // MARK: The search

    func run() {
        let entry = semantics.initialEntry
        let entered = entry.states
        guard !entered.isEmpty else { return }
        let initialActions = queueActions(entering: entry)
        var start = settlingNode(leaves: Set(entered.filter(isTerminal)), entered: entered, raised: Self.raises(initialActions))
        if !isDone(start.leaves) { start.sends = Self.pending([], after: initialActions) }
        _ = add(start, distance: 0, from: nil)
        var buckets: [[Int]] = [[0]]
        var expanded = Set<Int>()
        var level = 0
        while level < buckets.count {
            var position = 0
            while position < buckets[level].count {
                let node = buckets[level][position]
                position += 1
                guard distance[node] == level, expanded.insert(node).inserted else { continue }
                for successor in expand(node) {
                    let reached = level + successor.cost
                    if reached >= buckets.count { buckets.append([]) }
                    if let known = nodeIndex[successor.node] {
                        if reached < distance[known] {
                            distance[known] = reached
                            parent[known] = (node, successor.step)
                            buckets[reached].append(known)
                        }
                    } else if configurations.count >= limit && !configurations.contains(successor.node.leaves)
                        // Queues of raised events and pending sends multiply the nodes of one
                        // configuration (S125, S150).
                        || !(successor.node.raised.isEmpty && successor.node.sends.isEmpty) && nodes.count >= limit / Self.raisedNodeShare
                    {
                        truncation = configurations.count >= limit
                            ? "the search stopped after \(limit) configurations"
                            : "the search stopped after \(limit / Self.raisedNodeShare) nodes with raised events or pending sends"
                        // The states the step enters are reached all the same.
                        for state in activeStates(successor.node.leaves) where stateFound[state] == nil {
                            stateFound[state] = (node, successor.step)
                        }
                    } else {
                        buckets[reached].append(add(successor.node, distance: reached, from: (node, successor.step)))
                    }
                }
            }
            level += 1
        }
    }

    private func add(_ node: Node, distance reached: Int, from: (node: Int, step: MachinePaths.Step?)?) -> Int {
        nodes.append(node)
        configurations.insert(node.leaves)
        nodeIndex[node] = nodes.count - 1
        distance.append(reached)
        parent.append(from)
        return nodes.count - 1
    }

    /// The successors of a node, each with its cost (1 for a step, 0 for settling that took no
    /// branch); records the states and entries it reaches first.
    private func expand(_ position: Int) -> [(node: Node, step: MachinePaths.Step?, cost: Int)] {
        let node = nodes[position]
        let active = activeStates(node.leaves)
        for state in active where stateFound[state] == nil { stateFound[state] = (position, nil) }
        var successors: [(node: Node, step: MachinePaths.Step?, cost: Int)] = []
        // `queue`: what is left of the raised events, for a raised event's step; `delivered`: the
        // pending send a delivery takes, for its step.
        func take(
            _ selection: Selection, _ trigger: TransitionEntry.Handler, effect: String? = nil, queue: [String]? = nil, isRaised: Bool = false,
            delivered: Int? = nil, then settle: (Move) -> Node
        ) {
            var sends = node.sends
            let sent = delivered.map { sends.remove(at: $0) }
            let step = MachinePaths.Step(
                trigger: trigger, transitions: selection.taken, holding: selection.holding, failing: selection.failing, effect: effect,
                isRaised: isRaised, sentAfter: sent?.delay)
            for id in selection.taken where entryFound[id] == nil { entryFound[id] = (position, step) }
            guard selection.taken.contains(where: { list.entries[$0].branch.transition != nil }) else {
                // Ignored: no change (S48); a raised event is taken all the same, and a delivered
                // send is no longer pending (S133).
                if let queue { successors.append((Node(leaves: node.leaves, raised: queue, sends: sends), nil, 0)) }
                if sent != nil { successors.append((Node(leaves: node.leaves, raised: node.raised, sends: sends), step, 1)) }
                return
            }
            let move = microstep(node.leaves, selection.taken)
            for history in move.historyTargets where stateFound[history] == nil { stateFound[history] = (position, step) }
            var next = settle(move)
            // What was queued before this step stays ahead of what it raised (S121); a finished
            // machine drops the queue (S122) and its pending sends (S135).
            next.raised = isDone(next.leaves) ? [] : Array(((queue ?? node.raised) + next.raised).prefix(Self.raisedLimit))
            next.sends = isDone(next.leaves) ? [] : Self.pending(sends, after: move.queueActions)
            successors.append((next, step, 1))
        }
        if isDone(node.leaves) { return [] }
        if let due = node.dues.first {
            var rest = node
            rest.dues.removeFirst()
            guard isDue(due, in: node.leaves) else { return [(rest, nil, 0)] }
            for choice in resolve(semantics.doneChain(due), shadowing: []) {
                guard let taken = choice.taken else {
                    successors.append((rest, nil, 0))
                    continue
                }
                take(Selection(taken: [taken], holding: choice.holding, failing: choice.failing), .done) { move in
                    var next = move.node
                    // A state already due stays due once (as the reducer keeps it at its bound,
                    // S51): a guarded `onDone:` loop then revisits nodes instead of making new ones.
                    if !next.leaves.contains(where: isDoneState) { next.dues = rest.dues + next.dues.filter { !rest.dues.contains($0) } }
                    return next
                }
            }
        } else if node.settling {
            for selection in combine(node.leaves.map { resolve($0, .always) }) {
                if selection.taken.isEmpty {
                    successors.append((Node(leaves: node.leaves, raised: node.raised, sends: node.sends), nil, 0))
                } else {
                    take(selection, .always) { $0.node }
                }
            }
        } else if let event = node.raised.first {
            // The oldest raised event, a step of its own once the step before has settled (S121).
            let rest = Array(node.raised.dropFirst())
            for selection in combine(node.leaves.map { resolve($0, .event(event)) }) {
                if selection.taken.isEmpty {
                    successors.append((Node(leaves: node.leaves, raised: rest, sends: node.sends), nil, 0))
                } else {
                    take(selection, .event(event), queue: rest, isRaised: true) { $0.node }
                }
            }
        } else {
            // A pending send delivered (S150): its event's step, tried before the events a test
            // sends, so that a path takes the machine's own send where it can.
            for (index, send) in node.sends.enumerated() where Self.mayBeDeliveredFirst(index, of: node.sends) {
                for selection in combine(node.leaves.map { resolve($0, .event(send.event)) }) where !selection.taken.isEmpty {
                    take(selection, .event(send.event), delivered: index) { $0.node }
                }
            }
            let names = Set(active.map { tree[$0].name })
            for event in spec.events {
                let name = event.name.value
                var effect: String?
                if event.source == .effects {
                    guard let answering = spec.effect(answeringWith: name, whileIn: names) else { continue }
                    effect = answering.name.value
                }
                if effect != nil {
                    for owner in active + [semantics.machine] { arrived.insert(Arrival(event: name, owner: owner)) }
                }
                for selection in combine(node.leaves.map { resolve($0, .event(name)) }) where !selection.taken.isEmpty {
                    take(selection, .event(name), effect: effect) { $0.node }
                }
            }
            for state in active {
                for index in tree[state].spec.after.indices {
                    for choice in resolve(state, .timer(state: state, index: index)) {
                        guard let taken = choice.taken, case .timer(_, let delay) = list.entries[taken].trigger else { continue }
                        take(Selection(taken: [taken], holding: choice.holding, failing: choice.failing), .timer(index: index, delay: delay)) { $0.node }
                    }
                }
            }
        }
        return successors
    }

    // MARK: Selecting branches

    /// The choices of handlers tried in order, innermost first (S10–S12, S46): each branch whose
    /// guard may hold, with the guards before it assumed false; the chain ends at a branch
    /// without a guard, and when it does not, "nothing" is a choice too (P4). Records which
    /// branches were tried and, for those that were not, the branch that always decides first.
    private func resolve(_ leaf: Int, _ trigger: MachineSemantics.StepTrigger) -> [Choice] {
        let chain = semantics.chain(leaf: leaf, trigger)
        return resolve(chain, shadowing: semantics.candidates(leaf: leaf, trigger).dropFirst(chain.count))
    }

    /// The choices of one chain; `shadowed` are the candidates after it, which its last branch,
    /// when it has no guard, always decides before.
    private func resolve(_ chain: [Int], shadowing shadowed: ArraySlice<Int>) -> [Choice] {
        var choices: [Choice] = []
        var failing: [MachinePaths.Assumption] = []
        for id in chain {
            consulted.insert(id)
            if let condition = list.entries[id].branch.transition?.guardExpression {
                let assumption = MachinePaths.Assumption(expression: condition.value, location: condition.location, transition: id)
                choices.append(Choice(taken: id, holding: [assumption], failing: failing))
                failing.append(assumption)
            } else {
                choices.append(Choice(taken: id, failing: failing))
                for later in shadowed where shadowedBy[later] == nil { shadowedBy[later] = id }
                return choices
            }
        }
        choices.append(Choice(taken: nil, failing: failing))
        return choices
    }

    /// Every combination of the leaves' choices as one microstep's branches: a branch several
    /// leaves reach is taken once (S68), and of two conflicting branches the inner source wins,
    /// else the first selected (S69). Of combinations that take the same branches, the first is
    /// kept, with the guards of every leaf's choice (a branch that lost a conflict was still selected).
    private func combine(_ perLeaf: [[Choice]]) -> [Selection] {
        var combinations: [[Choice]] = [[]]
        for choices in perLeaf {
            combinations = combinations.flatMap { prefix in choices.map { prefix + [$0] } }
            if combinations.count > Self.combinationLimit {
                combinations.removeLast(combinations.count - Self.combinationLimit)
                if truncation == nil {
                    truncation = "the search followed only the first \(Self.combinationLimit) combinations of the regions' branches for an event"
                }
            }
        }
        var selections: [Selection] = []
        var seen: Set<[Int]> = []
        for combination in combinations {
            var selection = Selection()
            for choice in combination {
                if let taken = choice.taken, !selection.taken.contains(taken) { selection.taken.append(taken) }
                for assumption in choice.holding where !selection.holding.contains(assumption) { selection.holding.append(assumption) }
                for assumption in choice.failing where !selection.failing.contains(assumption) { selection.failing.append(assumption) }
            }
            selection.taken = semantics.withoutConflicts(selection.taken)
            if seen.insert(selection.taken).inserted { selections.append(selection) }
        }
        return selections
    }

    // MARK: Taking branches

    /// Takes the branches `taken` from the configuration `leaves`: exits the active leaves below
    /// each targeted branch's domain and enters its target (S21–S26); then the `onDone:` that
    /// entering a final state made due (S53, S71) and `always:` (S45) are to be tried.
    private func microstep(_ leaves: [Int], _ taken: [Int]) -> Move {
        var current = Set(leaves)
        var entered: [Int] = []
        var enteredActions: [QueueAction] = []
        var historyTargets: [Int] = []
        // What the microstep raises and sends, in its order (S70): exits, the branches' actions, entries.
        var actions: [QueueAction] = []
        let active = activeStates(leaves)
        for id in taken.reversed() {
            guard let domain = semantics.domains[id] else { continue }
            for state in semantics.exited(below: domain, active: active) { actions += Self.queueActions(tree[state].spec.exit) }
        }
        for id in taken {
            actions += Self.queueActions(list.entries[id].branch.transition?.actions ?? [])
        }
        for id in taken {
            guard let domain = semantics.domains[id], let target = semantics.targets[id] else { continue }
            if facts[target].isHistory { historyTargets.append(target) }
            current = current.filter { leaf in domain.map { !tree.isWithin(leaf, $0) } ?? false }
            // P9: a history state enters its default, as if nothing were recorded yet (S63).
            let entry = semantics.entry(below: domain, toward: target)
            current.formUnion(entry.states.filter(isTerminal))
            entered += entry.states
            enteredActions += queueActions(entering: entry)
        }
        actions += enteredActions
        return Move(
            node: settlingNode(leaves: current, entered: entered, raised: Self.raises(actions)), historyTargets: historyTargets,
            queueActions: actions)
    }

    /// What `actions` raise, send and cancel, in order; one under `if:` is assumed to run, as a
    /// path assumes a guard may hold (P4).
    private static func queueActions(_ actions: [Action]) -> [QueueAction] {
        actions.flatMap(\.flattened).compactMap { action in
            switch action {
            case .raise(let event, _, _): .raise(event.value)
            case .send(let send): .send(PendingSend(event: send.event.value, id: send.id?.value, delay: send.delay?.value ?? "0s", milliseconds: send.milliseconds))
            case .cancel(let id, _): .cancel(id.value)
            default: nil
            }
        }
    }

    /// What the `entry:` actions of `entry` and its default entries' `do:` raise, send and cancel,
    /// in entry order (S145, S146).
    private func queueActions(entering entry: MachineSemantics.Entry) -> [QueueAction] {
        semantics.actionLists(entering: entry).flatMap(Self.queueActions)
    }

    /// The events `actions` raise, in order.
    private static func raises(_ actions: [QueueAction]) -> [String] {
        actions.compactMap { if case .raise(let event) = $0 { event } else { nil } }
    }

    /// The sends pending after `actions` ran with `pending` pending: a send replaces the pending
    /// one of its id (S129), a cancel drops those of its id (S130); the oldest `sendLimit` are kept.
    private static func pending(_ pending: [PendingSend], after actions: [QueueAction]) -> [PendingSend] {
        var sends = pending
        for action in actions {
            switch action {
            case .raise: continue
            case .send(let send):
                if let id = send.id { sends.removeAll { $0.id == id } }
                sends.append(send)
            case .cancel(let id): sends.removeAll { $0.id == id }
            }
        }
        return Array(sends.prefix(sendLimit))
    }

    /// False when a send sent before the one at `index` is due no later, so that it is delivered
    /// first (S134); a named delay is compared with nothing, since its value is only known when
    /// the send runs.
    private static func mayBeDeliveredFirst(_ index: Int, of sends: [PendingSend]) -> Bool {
        guard let delay = sends[index].milliseconds else { return true }
        return !sends[..<index].contains { $0.milliseconds.map { $0 <= delay } ?? false }
    }

    /// The node after a microstep that entered `entered`: done when a top-level final state was
    /// entered (S56), else with the `onDone:` it made due queued, and `always:` to try.
    private func settlingNode(leaves: Set<Int>, entered: [Int], raised: [String]) -> Node {
        let sorted = leaves.sorted()
        if sorted.contains(where: isDoneState) { return Node(leaves: sorted) }
        var due: [Int] = []
        for state in entered { semantics.queueDone(entering: state, into: &due) }
        dueSeen.formUnion(due)
        return Node(leaves: sorted, dues: due, settling: true, raised: Array(raised.prefix(Self.raisedLimit)))
    }

    // MARK: Questions about states and branches

    private func isTerminal(_ position: Int) -> Bool {
        facts[position].isTerminal
    }

    /// A top-level final state.
    private func isDoneState(_ position: Int) -> Bool {
        semantics.isDoneState(position)
    }

    private func isDone(_ leaves: [Int]) -> Bool {
        leaves.contains(where: isDoneState)
    }

    /// The active leaves and all their ancestors, in document order.
    private func activeStates(_ leaves: [Int]) -> [Int] {
        Set(leaves.flatMap { facts[$0].lineage }).sorted()
    }

    /// True when `composite`'s `onDone:` applies in the configuration: it rests in a final child,
    /// or, for a parallel state, every region does (S53, S71).
    private func isDue(_ composite: Int, in leaves: [Int]) -> Bool {
        semantics.isDue(composite) { leaves.contains($0) }
    }


    // MARK: Results

    /// The steps of the paths, built as the results ask for them (P15): a node's path is its
    /// parent's and its own step, stored once and shared by every path through the node.
    private var tableSteps: [MachinePaths.Step] = []
    private var tablePrevious: [Int] = []
    /// By node: the index in the table of its path's last step, `-1` for the empty path.
    private var nodeEnds: [Int: Int] = [:]

    private func append(_ step: MachinePaths.Step, after previous: Int) -> Int {
        tableSteps.append(step)
        tablePrevious.append(previous)
        return tableSteps.count - 1
    }

    /// The table index of the last step of the path to `position`, adding what is missing.
    private func end(of position: Int) -> Int {
        var chain: [Int] = []
        var current = position
        var end = -1
        while true {
            if let known = nodeEnds[current] {
                end = known
                break
            }
            guard let link = parent[current] else {
                nodeEnds[current] = -1
                break
            }
            chain.append(current)
            current = link.node
        }
        for node in chain.reversed() {
            if let step = parent[node]?.step { end = append(step, after: end) }
            nodeEnds[node] = end
        }
        return end
    }

    /// The last step of each state's path, then of each transition's: the table is complete after both.
    private lazy var ends: (states: [Int?], transitions: [Int?]) = {
        let states = tree.nodes.indices.map { position -> Int? in
            guard let found = stateFound[position] else { return nil }
            let last = end(of: found.node)
            return found.step.map { append($0, after: last) } ?? last
        }
        let transitions = list.entries.map { entry -> Int? in
            guard let found = entryFound[entry.id] else { return nil }
            return append(found.step, after: end(of: found.node))
        }
        return (states, transitions)
    }()

    func table() -> MachinePaths.StepTable {
        _ = ends
        return MachinePaths.StepTable(steps: tableSteps, previous: tablePrevious)
    }

    func statePaths(_ table: MachinePaths.StepTable) -> [MachinePaths.StatePath] {
        tree.nodes.indices.map { position in
            let node = tree[position]
            var path = MachinePaths.StatePath(position: position, name: node.name, location: node.spec.name.location, last: ends.states[position], table: table)
            if path.last == nil { path.unreachable = stateReason(position) }
            return path
        }
    }

    func transitionPaths(_ table: MachinePaths.StepTable) -> [MachinePaths.TransitionPath] {
        list.entries.map { entry in
            var path = MachinePaths.TransitionPath(entry: entry, last: ends.transitions[entry.id], table: table)
            if path.last == nil { path.unreachable = transitionReason(entry) }
            return path
        }
    }

    /// P11: why no path enters a state: no transition leads into it, or every one that does is unreachable.
    private func stateReason(_ position: Int) -> String {
        if let truncation { return "not reached: \(truncation)" }
        let into = list.entries.filter { entry in semantics.targets[entry.id].map { tree.isWithin($0, position) } ?? false }
        if into.isEmpty { return "no transition leads into it" }
        let at = into.prefix(3).map { "\($0.location.line):\($0.location.column)" }.joined(separator: ", ")
        return "every transition into it is unreachable (\(at)\(into.count > 3 ? ", ..." : ""))"
    }

    /// P11: why no path takes `entry`, most telling reason first.
    private func transitionReason(_ entry: TransitionEntry) -> String {
        if let truncation { return "not reached: \(truncation)" }
        let owner = semantics.sources[entry.id]
        let ownerName = entry.state.map { "'\($0)'" } ?? "any state"
        if let owner, stateFound[owner] == nil {
            return "its state \(ownerName) is never entered"
        }
        if case .event(let name) = entry.trigger, spec.events.contains(where: { $0.name.value == name && $0.source == .effects }),
            !arrived.contains(Arrival(event: name, owner: owner ?? semantics.machine))
        {
            return "event '\(name)' never arrives while in \(ownerName): no effect that sends it runs there"
        }
        if !consulted.contains(entry.id), let winner = shadowedBy[entry.id] {
            let first = list.entries[winner]
            return "'\(first.description)' (line \(first.location.line)) always applies first"
        }
        if entry.trigger == .done, let owner, !dueSeen.contains(owner) {
            return "no path ends \(ownerName) in a final state"
        }
        if !consulted.contains(entry.id) {
            return "it is never tried: the machine never rests in a state where it applies"
        }
        return "every path that tries it takes a conflicting branch of another region instead"
    }
}
