/// A state that no chain of transitions (or timers) from the initial state leads to is dead
/// weight: a warning, since it may be work in progress.
extension SpecChecker {
    func checkReachability(_ spec: MachineSpec, into findings: inout Findings) {
        let byName = Dictionary(spec.states.map { ($0.name.value, $0) }, uniquingKeysWith: { first, _ in first })
        guard byName[spec.initial.value] != nil else { return }  // reported as an unknown initial state
        var reached: Set<String> = [spec.initial.value]
        var pending = [spec.initial.value]
        while let name = pending.popLast() {
            guard let state = byName[name] else { continue }
            let branches = state.on.flatMap(\.branches) + state.after.flatMap(\.branches)
            for case .transition(let transition) in branches {
                // A misspelt target leads where it was meant to (its typo is reported once).
                guard let written = transition.target?.value,
                    let target = findings.intended(written, known: findings.stateSet, among: findings.stateNames)
                else { continue }
                if byName[target] != nil, reached.insert(target).inserted {
                    pending.append(target)
                }
            }
        }
        for state in spec.states where !reached.contains(state.name.value) {
            findings.warning(
                "state '\(state.name.value)' is unreachable: no transition from the initial state '\(spec.initial.value)' leads to it",
                at: state.name.location, fixIt: "add a transition with 'target: \(state.name.value)', or remove the state")
        }
    }
}
