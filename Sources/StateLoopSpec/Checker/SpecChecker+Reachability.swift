/// A state that no chain of transitions (or timers) from the initial state leads to is dead
/// weight: a warning, since it may be work in progress. Entering a state enters its ancestors and
/// its `initial:` chain (every region of a parallel state); a history state leads to its default
/// and, when shallow, to any child of its parent that can be active, through that child's
/// `initial:` chain (S80).
extension SpecChecker {
    func checkReachability(_ spec: MachineSpec, into findings: inout Findings) {
        let tree = findings.tree
        guard let start = tree.index[spec.initial.value] else { return }  // reported as an unknown initial state
        // `reached`: can be active. `entered`: can be entered as a target, so its `initial:` chain
        // is entered too. A state can be active without being entered (the ancestors of the
        // initial state, or of a target below them), and entered later through a history state.
        var reached = Set<Int>()
        var entered = Set<Int>()
        // The parents of the shallow history states entered: their record is any child that was active.
        var shallowParents: [Int] = []
        var pending: [Int] = []
        func enter(_ position: Int) {
            for state in tree.lineage(of: position) where reached.insert(state).inserted {
                pending.append(state)
            }
            guard entered.insert(position).inserted else { return }
            let node = tree[position]
            if node.spec.isHistory {
                if case .history(deep: false) = node.spec.kind, let parent = node.parent { shallowParents.append(parent) }
                // A deep record holds leaves that were active, so only its default adds states.
                if let fallback = tree.historyDefault(of: position), fallback != position { enter(fallback) }
            } else if node.spec.kind == .parallel {
                for region in tree.regions(of: position) { enter(region) }
            } else if let initial = tree.initialChild(of: position) {
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
                enter(position)
            }
        }
        enter(start)
        follow(spec.on.flatMap(\.branches))
        var enteredBefore: Int
        repeat {
            enteredBefore = entered.count
            while let position = pending.popLast() {
                follow(tree[position].spec.branches)
            }
            // A shallow record re-enters the recorded child through its `initial:` chain (S61).
            for parent in shallowParents {
                for child in tree[parent].children where reached.contains(child) && !entered.contains(child) {
                    enter(child)
                }
            }
        } while !pending.isEmpty || entered.count != enteredBefore
        // A history state counts as reached when a transition or an `initial:` names it (S8).
        for (position, node) in tree.nodes.enumerated() where !reached.contains(position) {
            findings.warning(
                "state '\(node.name)' is unreachable: no transition from the initial state '\(spec.initial.value)' leads to it",
                at: node.spec.name.location, fixIt: "add a transition with 'target: \(node.name)', or remove the state")
        }
    }
}
