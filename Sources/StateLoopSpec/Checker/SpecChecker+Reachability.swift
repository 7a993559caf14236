/// A state that no chain of transitions (or timers) from the initial state leads to is dead
/// weight: a warning, since it may be work in progress. Entering a state enters its ancestors and
/// its `initial:` chain (every region of a parallel state); a history state leads to its default
/// and, when shallow, to any child of its parent that can be active, through that child's
/// `initial:` chain (S80).
extension SpecChecker {
    func checkReachability(_ spec: MachineSpec, into findings: inout Findings) {
        let semantics = findings.semantics
        let tree = semantics.tree
        guard tree.index[spec.initial.value] != nil else { return }  // reported as an unknown initial state
        var reached = Set<Int>()
        var pending: [Int] = []
        // The targets entered so far, and the shallow history states among them with the
        // children of their parent already tried as their record.
        var targets = Set<Int>()
        var shallow: [Int: Set<Int>] = [:]
        /// Enters `target` as the semantic core does (S97), with `record` as its record when it
        /// is a history state; a history state on the way counts as reached (S8).
        func enter(_ target: Int?, record: [Int]? = nil) {
            var states = target.map { target in semantics.entered(below: nil, toward: target) { $0 == target ? record : nil } } ?? semantics.enteredInitially
            if let target, tree[target].spec.isHistory { states.append(target) }
            states += states.compactMap { tree.initialChild(of: $0) }.filter { tree[$0].spec.isHistory }
            for state in states where reached.insert(state).inserted { pending.append(state) }
        }
        func follow(_ branches: [Branch]) {
            for case .transition(let transition) in branches {
                // A misspelt target leads where it was meant to (its typo is reported once).
                guard let written = transition.target?.value,
                    let target = findings.intended(written, known: findings.stateSet, among: findings.stateNames),
                    let position = tree.index[target], targets.insert(position).inserted
                else { continue }
                enter(position)
                if case .history(deep: false) = tree[position].spec.kind { shallow[position] = [] }
            }
        }
        enter(nil)
        follow(spec.on.flatMap(\.branches))
        repeat {
            while let position = pending.popLast() {
                follow(tree[position].spec.branches)
            }
            // A shallow record re-enters the recorded child through its `initial:` chain (S61):
            // any child of its parent that can be active. A deep record holds leaves that were
            // active, so only its default (entered above) adds states.
            for (history, tried) in shallow {
                guard let parent = tree[history].parent else { continue }
                for child in tree[parent].children where reached.contains(child) && !tried.contains(child) && !tree[child].spec.isHistory {
                    shallow[history, default: []].insert(child)
                    enter(history, record: [child])
                }
            }
        } while !pending.isEmpty
        let start = spec.initialTargets.map { "states " + $0.map { "'\($0.value)'" }.joined(separator: ", ") } ?? "state '\(spec.initial.value)'"
        for (position, node) in tree.nodes.enumerated() where !reached.contains(position) {
            findings.warning(
                "state '\(node.name)' is unreachable: no transition from the initial \(start) leads to it",
                at: node.spec.name.location, fixIt: "add a transition with 'target: \(node.name)', or remove the state")
        }
    }
}
