/// A state that no chain of transitions (or timers) from the initial state leads to is dead
/// weight: a warning, since it may be work in progress. Entering a state enters its ancestors and
/// its `initial:` chain (every region of a parallel state); a history state leads to its default.
extension SpecChecker {
    func checkReachability(_ spec: MachineSpec, into findings: inout Findings) {
        let tree = findings.tree
        guard let start = tree.index[spec.initial.value] else { return }  // reported as an unknown initial state
        var reached = Set<Int>()
        var pending: [Int] = []
        func enter(_ position: Int) {
            for state in tree.lineage(of: position) where reached.insert(state).inserted {
                pending.append(state)
            }
            let node = tree[position]
            if node.spec.isHistory {
                if let fallback = tree.historyDefault(of: position), fallback != position, !reached.contains(fallback) { enter(fallback) }
            } else if node.spec.kind == .parallel {
                for region in tree.regions(of: position) where !reached.contains(region) { enter(region) }
            } else if let initial = tree.initialChild(of: position), !reached.contains(initial) {
                enter(initial)
            }
        }
        func follow(_ branches: [Branch]) {
            for case .transition(let transition) in branches {
                // A misspelt target leads where it was meant to (its typo is reported once).
                guard let written = transition.target?.value,
                    let target = findings.intended(written, known: findings.stateSet, among: findings.stateNames),
                    let position = tree.index[target]
                else { continue }
                if !reached.contains(position) { enter(position) }
            }
        }
        enter(start)
        follow(spec.on.flatMap(\.branches))
        while let position = pending.popLast() {
            follow(tree[position].spec.branches)
        }
        // A history state counts as reached when a transition or an `initial:` names it (S8).
        for (position, node) in tree.nodes.enumerated() where !reached.contains(position) {
            findings.warning(
                "state '\(node.name)' is unreachable: no transition from the initial state '\(spec.initial.value)' leads to it",
                at: node.spec.name.location, fixIt: "add a transition with 'target: \(node.name)', or remove the state")
        }
    }
}
