// MachineSemantics: the statechart rules of Docs/Statecharts.md decided once per machine, for
// everything that needs them: the generator prints them, `MachinePaths` searches with them, and
// `MachineInterpreter` runs them (the differential test holds the three together).
//
// Invariants:
// - a branch is named by its `TransitionList` id everywhere (trace, coverage, paths, tables);
// - a chain is the branches tried in order for one leaf and one trigger, innermost state first,
//   ending at its first branch without a guard (S10–S13, S46): whoever reads it never walks the
//   lineage again;
// - a configuration's states in document order are its entry order, and in reverse its exit
//   order (S29–S31): entries outermost first with regions in document order, exits innermost
//   first with later regions first.

/// The decisions of one machine: which branches a leaf tries for each trigger, each branch's
/// source, target and domain, the conflict rule between regions, which `onDone:` a final state
/// makes due, and the states a transition enters.
public struct MachineSemantics: Sendable {
    /// What one step of the machine runs on, the `trigger` its expressions read (S111): an event,
    /// an `after:` timer that fires, or the eventless `always:` pass. A leaf tries one chain of
    /// branches for each.
    public enum StepTrigger: Hashable, Sendable {
        case event(String)
        /// `after:` timer `index` of the state at `state`.
        case timer(state: Int, index: Int)
        case always
    }

    /// How a branch selected later stands against one kept earlier in the same microstep (S69).
    public enum Conflict: Sendable {
        /// They exit disjoint states: both are taken.
        case none
        /// Its source lies inside the other's: it replaces the other.
        case replaces
        /// It yields to the other, selected first.
        case yields
    }

    public let spec: MachineSpec
    public let tree: StateTree
    public let transitions: TransitionList
    /// The owner of the machine's own `on:` and `ignore:` in per-owner tables: one past the states.
    public let machine: Int
    /// By branch id: the state that owns it (`nil` for the machine), its target, and its domain,
    /// the state whose active descendants it exits (`.some(nil)`: the machine; `nil`: no target).
    public let sources: [Int?]
    public let targets: [Int?]
    public let domains: [Int??]
    /// Per state: the composites and parallel states whose `onDone:` entering it makes due (S53, S71).
    public let doneTargets: [[Int]]
    /// Per owner (a state's position, or `machine`): its branch ids per event, per timer,
    /// `always:` and `onDone:`, in the order they are tried.
    private let eventBranches: [[String: [Int]]]
    private let timerBranches: [[[Int]]]
    private let alwaysBranches: [[Int]]
    private let doneBranches: [[Int]]
    /// The events `from: effects`: the only ones S19 may keep from a leaf.
    private let effectEvents: Set<String>

    /// The semantics of a spec whose names all resolve: a checked one, or the tools' own reads.
    init(spec: MachineSpec) {
        let tree = StateTree(spec.states)
        let list = TransitionList(spec)
        let machine = tree.nodes.count
        self.spec = spec
        self.tree = tree
        self.transitions = list
        self.machine = machine
        let sources = list.entries.map { entry in entry.state.flatMap { tree.index[$0] } }
        let targets = list.entries.map { entry in entry.branch.transition?.target.flatMap { tree.index[$0.value] } }
        self.sources = sources
        self.targets = targets
        domains = list.entries.map { entry in
            targets[entry.id].map { target in
                let source = sources[entry.id]
                // S115: `reenter: true` exits the source too when the target lies inside it.
                if entry.branch.transition?.reenter != nil, let source, tree.isWithin(target, source) { return tree[source].parent }
                return tree.domain(source: source, target: target)
            }
        }
        var events = [[String: [Int]]](repeating: [:], count: machine + 1)
        var timers = [[[Int]]](repeating: [], count: machine + 1)
        var always = [[Int]](repeating: [], count: machine + 1)
        var done = [[Int]](repeating: [], count: machine + 1)
        for entry in list.entries {
            let owner = sources[entry.id] ?? machine
            switch entry.trigger {
            case .event(let name): events[owner][name, default: []].append(entry.id)
            case .group(_, let members):
                for name in members { events[owner][name, default: []].append(entry.id) }
            case .timer(let index, _):
                while timers[owner].count <= index { timers[owner].append([]) }
                timers[owner][index].append(entry.id)
            case .always: always[owner].append(entry.id)
            case .done: done[owner].append(entry.id)
            }
        }
        eventBranches = events
        timerBranches = timers
        alwaysBranches = always
        doneBranches = done
        effectEvents = Set(spec.events.filter { $0.source == .effects }.map(\.name.value))
        doneTargets = tree.nodes.indices.map { position in
            guard tree[position].spec.isFinal, let parent = tree[position].parent else { return [] }
            var due: [Int] = []
            if !done[parent].isEmpty { due.append(parent) }
            if let outer = tree[parent].parent, tree[outer].spec.kind == .parallel, !done[outer].isEmpty { due.append(outer) }
            return due
        }
    }

    // MARK: Chains

    /// The branches `leaf` tries for `trigger`, in order: the innermost state that has some, then,
    /// while every branch so far is guarded, the next one up (and, for events, the machine's own
    /// `on:` and `ignore:` last); an `ignore` ends the chain (S10–S13, S46). Empty: nothing applies.
    /// An event `from: effects` that no effect running in `leaf` sends applies nowhere (S19).
    public func chain(leaf: Int, _ trigger: StepTrigger) -> [Int] {
        let all = candidates(leaf: leaf, trigger)
        guard let end = all.firstIndex(where: isUnconditional) else { return all }
        return Array(all[...end])
    }

    /// Every branch written for `trigger` that applies in `leaf`, innermost state first: `chain`
    /// and, after it, those its last branch, when it has no guard, always decides before.
    public func candidates(leaf: Int, _ trigger: StepTrigger) -> [Int] {
        switch trigger {
        case .event(let name):
            guard canArrive(name, in: leaf) else { return [] }
            var candidates: [Int] = []
            var owner: Int? = leaf
            while let state = owner {
                if let ids = eventBranches[state][name] { candidates += ids }
                owner = tree[state].parent
            }
            return candidates + (eventBranches[machine][name] ?? [])
        case .timer(let state, let index):
            guard tree.isWithin(leaf, state), index < timerBranches[state].count else { return [] }
            return timerBranches[state][index]
        case .always:
            return tree.lineage(of: leaf).flatMap { alwaysBranches[$0] }
        }
    }

    /// The `onDone:` branches of `state`, in order.
    public func doneChain(_ state: Int) -> [Int] {
        doneBranches[state]
    }

    /// True when a branch has no guard (an `ignore` has none): it ends its chain.
    public func isUnconditional(_ id: Int) -> Bool {
        transitions.entries[id].branch.isUnconditional
    }

    /// True when `event` can reach the reducer in `leaf` (S19): anyone's events always; effect
    /// results where an effect that sends them runs (in the leaf or above it), or from one-shot runs.
    public func canArrive(_ event: String, in leaf: Int) -> Bool {
        guard effectEvents.contains(event) else { return true }
        let lineage = Set(tree.lineage(of: leaf).map { tree[$0].name })
        return spec.effects.contains { effect in
            effect.results.contains { $0.value == event } && (effect.isOneShot || effect.runningStates.contains { lineage.contains($0.value) })
        }
    }

    // MARK: Several regions in one microstep

    /// How `later`, selected after `earlier` in one microstep, stands against it (S69, SCXML's
    /// `removeConflictingTransitions`): two targeted branches conflict when the states they exit
    /// overlap (one domain contains the other); the one whose source lies inside the other's wins,
    /// else the one selected first.
    public func conflict(_ later: Int, with earlier: Int) -> Conflict {
        guard let exits = domains[later], let otherExits = domains[earlier], overlap(exits, otherExits) else { return .none }
        return isInside(sources[later], sources[earlier]) ? .replaces : .yields
    }

    /// The branches a microstep takes of those its leaves selected, in selection order: each once
    /// (S68), without the losers of conflicts (S69).
    public func withoutConflicts(_ selected: [Int]) -> [Int] {
        var kept: [Int] = []
        for id in selected where !kept.contains(id) && !kept.contains(where: { conflict(id, with: $0) == .yields }) {
            kept.removeAll { conflict(id, with: $0) == .replaces }
            kept.append(id)
        }
        return kept
    }

    private func overlap(_ first: Int?, _ second: Int?) -> Bool {
        guard let first, let second else { return true }
        return tree.isWithin(first, second) || tree.isWithin(second, first)
    }

    /// True when `inner` lies strictly inside `outer` (every state lies inside the machine, `nil`).
    private func isInside(_ inner: Int?, _ outer: Int?) -> Bool {
        guard let inner else { return false }
        guard let outer else { return true }
        return inner != outer && tree.isWithin(inner, outer)
    }

    // MARK: Entering and exiting

    /// What a transition (or the start) enters: the states in entry order, and the default
    /// entries taken on the way, in the order they were taken (S144–S146): a composite whose
    /// `initial:` was read, a history state whose default was entered.
    public struct Entry: Sendable, Equatable {
        public var states: [Int] = []
        public var defaults: [Int] = []
    }

    /// The states below `domain` (`nil`: the machine) of the configuration a transition to
    /// `target` enters, in entry order (S21, S61–S66): the way down to the target, every region
    /// of a parallel state, the `initial:` chain below, and for a history state what `records`
    /// holds for it (the states that were active below its parent when the parent was last
    /// exited), else its default. A shallow history restores the recorded child through that
    /// child's `initial:` chain; one below a parallel state every region through its `initial:` (S65).
    public func entered(below domain: Int?, toward target: Int, records: (Int) -> [Int]? = { _ in nil }) -> [Int] {
        entry(below: domain, toward: target, records: records).states
    }

    /// `entered(below:toward:records:)` with the default entries taken on the way (S145, S146).
    public func entry(below domain: Int?, toward target: Int, records: (Int) -> [Int]? = { _ in nil }) -> Entry {
        var entry = Entry()
        enterChildren(of: domain, toward: [target], records: records, into: &entry)
        entry.states.sort()
        return entry
    }

    /// The initial configuration, in entry order: the machine's `initial:` state, or every state
    /// of its list, each region of a parallel state on the way entered down to the state named in
    /// it, else through its own `initial:` (S140, S141).
    public var enteredInitially: [Int] {
        initialEntry.states
    }

    /// `enteredInitially` with the default entries taken on the way (S145, S146).
    public var initialEntry: Entry {
        var entry = Entry()
        enterChildren(of: nil, toward: initialTargets(of: nil), records: { _ in nil }, into: &entry)
        entry.states.sort()
        return entry
    }

    /// The state after whose `entry:` the actions of default entry `position` run (S145, S146):
    /// a composite's own, a history state's parent's.
    public func anchor(ofDefault position: Int) -> Int {
        tree[position].spec.isHistory ? tree[position].parent! : position
    }

    /// The default entries of `entry` whose anchor stays active (a history state targeted from
    /// inside its parent): their `do:` runs before any state is entered (S146).
    public func unanchoredDefaults(_ entry: Entry) -> [Int] {
        entry.defaults.filter { !entry.states.contains(anchor(ofDefault: $0)) }
    }

    /// The action lists entering runs, in order (S31, S145, S146): the `do:` of the unanchored
    /// default entries, then each state's `entry:` followed by the `do:` of the default entries
    /// anchored at it, in the order they were taken.
    public func actionLists(entering entry: Entry) -> [[Action]] {
        unanchoredDefaults(entry).map { tree[$0].spec.defaultActions } + entry.states.flatMap { state in
            [tree[state].spec.entry] + entry.defaults.filter { anchor(ofDefault: $0) == state }.map { tree[$0].spec.defaultActions }
        }
    }

    /// The states `initial:` names below `position` (`nil`: the machine), one for a single name,
    /// every state of a list (S140); the names that resolve to no state are left out.
    public func initialTargets(of position: Int?) -> [Int] {
        let written = position.map { tree[$0].spec.initialTargets ?? tree[$0].spec.initial.map { [$0] } ?? [] } ?? spec.initialTargets ?? [spec.initial]
        return written.compactMap { tree.index[$0.value] }
    }

    /// The states to exit of the active ones `active` for a transition of `domain`: those strictly
    /// below it, innermost first and later regions first (S29).
    public func exited(below domain: Int?, active: [Int]) -> [Int] {
        active.filter { state in domain.map { state != $0 && tree.isWithin(state, $0) } ?? true }.sorted(by: >)
    }

    private func enter(_ position: Int, toward targets: [Int], records: (Int) -> [Int]?, into entry: inout Entry) {
        if tree[position].spec.isHistory {
            restore(position, records: records, into: &entry)
            return
        }
        entry.states.append(position)
        enterChildren(of: position, toward: targets.filter { $0 != position }, records: records, into: &entry)
    }

    /// Enters the children of `position` (the top-level states for `nil`): every region of a
    /// parallel state, else the child on the way to the targets or, without targets below it, to
    /// the states of its `initial:` (S140), a default entry (S145).
    private func enterChildren(of position: Int?, toward targets: [Int], records: (Int) -> [Int]?, into entry: inout Entry) {
        var inside = targets.filter { target in position.map { target != $0 && tree.isWithin(target, $0) } ?? true }
        if inside.isEmpty, let position, tree[position].spec.kind != .parallel, tree[position].isComposite {
            inside = initialTargets(of: position).filter { $0 != position && tree.isWithin($0, position) }
            entry.defaults.append(position)
        }
        let way = inside.first.flatMap { tree.path(from: position, to: $0).first }
        if let position, tree[position].spec.kind == .parallel {
            // A history child of a parallel state restores all its regions at once (S61, S65).
            if let way, tree[way].spec.isHistory { return restore(way, records: records, into: &entry) }
            for region in tree.regions(of: position) {
                enter(region, toward: inside.filter { tree.isWithin($0, region) }, records: records, into: &entry)
            }
        } else if let child = way {
            enter(child, toward: inside, records: records, into: &entry)
        }
    }

    /// What entering history state `history` enters (S61–S65), and its default when it takes it (S146).
    private func restore(_ history: Int, records: (Int) -> [Int]?, into entry: inout Entry) {
        guard let parent = tree[history].parent, case .history(let deep) = tree[history].spec.kind else { return }
        let parallel = tree[parent].spec.kind == .parallel
        if let record = records(history) {
            if deep {
                entry.states += record
            } else if parallel {
                // S65: a parallel state's active children are all its regions, each re-entered
                // through its `initial:` (SCXML's record of a shallow history is those children).
                for region in tree.regions(of: parent) { enter(region, toward: [], records: records, into: &entry) }
            } else if let child = record.first(where: { tree[$0].parent == parent && !tree[$0].spec.isHistory }) {
                enter(child, toward: [], records: records, into: &entry)
            }
            return
        }
        // The default: `target:` (a state below the parent), else the parent's `initial:`, never
        // a history state again (the checks refuse such a default; the checks themselves read
        // specs before refusing it).
        let written = tree[history].spec.historyTarget.flatMap { tree.index[$0.value] }
        let fallback = written.flatMap { $0 != parent && tree.isWithin($0, parent) && !tree[$0].spec.isHistory ? $0 : nil }
        if fallback == nil, let initial = tree.initialChild(of: parent), tree[initial].spec.isHistory { return }
        // Without `target:`, the parent's `initial:` states are the history's own default target:
        // the parent's default entry is not taken, so its `initial:` actions do not run (S146).
        entry.defaults.append(history)
        enterChildren(of: parent, toward: fallback.map { [$0] } ?? initialTargets(of: parent), records: records, into: &entry)
    }

    // MARK: Settling

    /// True when `composite`'s `onDone:` applies: it rests in a final child, or, for a parallel
    /// state, every region does (S53, S71).
    public func isDue(_ composite: Int, active: (Int) -> Bool) -> Bool {
        dueWhen(composite).allSatisfy { $0.contains(where: active) }
    }

    /// What makes `composite`'s `onDone:` due, as groups of final states: it is due while each
    /// group has an active state. One group, its final children, for a composite; one per region
    /// for a parallel state (a region without a final state never lets it finish, S84).
    public func dueWhen(_ composite: Int) -> [[Int]] {
        func finals(_ state: Int) -> [Int] { tree[state].children.filter { tree[$0].spec.isFinal } }
        return tree[composite].spec.kind == .parallel ? tree.regions(of: composite).map(finals) : [finals(composite)]
    }

    /// The final children of `composite` that name a `doneEvent:`, each with its event, in
    /// document order (S160): while `composite`'s `onDone:` is tried and taken, `trigger` is the
    /// event of the one that is active (S161). A parallel state's children are regions, so it has
    /// none: its `onDone:` keeps the step's trigger.
    public func doneEvents(_ composite: Int) -> [(final: Int, event: String)] {
        tree[composite].children.compactMap { child in tree[child].spec.doneEvent.map { (child, $0.value) } }
    }

    /// Adds to the queue of due `onDone:`s what entering `state` makes due: a parallel state once,
    /// after the regions' own (an earlier entry moves to the end, S71).
    public func queueDone(entering state: Int, into queue: inout [Int]) {
        for target in doneTargets[state] {
            if tree[target].spec.kind == .parallel { queue.removeAll { $0 == target } }
            queue.append(target)
        }
    }

    /// A top-level final state: entering it ends the machine (S56).
    public func isDoneState(_ position: Int) -> Bool {
        tree[position].spec.isFinal && tree[position].parent == nil
    }

    /// At most this many `always:` and `onDone:` microsteps follow a step (S51).
    public static let microstepLimit = 1_000
}
