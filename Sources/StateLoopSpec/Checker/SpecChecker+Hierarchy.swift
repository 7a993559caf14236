/// The structure of nested states (Docs/Statecharts.md S1–S7, S42, S49, S50, S60): composites
/// name an initial child, names are unique, final and history states carry only their own keys,
/// parallel states have regions, actions start effects that exist, and `always:` cannot loop
/// without a guard.
extension SpecChecker {
    func checkHierarchy(_ spec: MachineSpec, into findings: inout Findings) {
        let tree = findings.tree
        var firstByName: [String: SourceLocation] = [:]
        for (position, node) in tree.nodes.enumerated() {
            let state = node.spec
            let name = node.name
            if let first = firstByName[name] {
                findings.error(
                    "state '\(name)' is declared twice; state names are unique in the whole machine", at: state.name.location,
                    notes: [Diagnostic.Note("'\(name)' is first declared here", at: first)], fixIt: "rename one of them")
            } else {
                firstByName[name] = state.name.location
            }
            let parent = node.parent.map { tree[$0] }
            switch state.kind {
            case .final:
                for key in ["on", "states", "initial", "after", "always", "onDone"] {
                    if let written = state.key(key) {
                        findings.error(
                            "a final state has no '\(key):'", at: written.location,
                            fixIt: "remove '\(key):', or remove 'type: final' to make '\(name)' an ordinary state")
                    }
                }
                if node.parent == nil, let exit = state.key("exit") {
                    findings.error(
                        "a top-level final state is never exited, so its 'exit:' would never run", at: exit.location,
                        fixIt: "move the actions to 'entry:', which runs when the machine finishes")
                }
            case .history:
                if parent == nil || parent!.spec.kind == .final || parent!.spec.isHistory {
                    findings.error(
                        "a history state belongs inside a composite or parallel state", at: (state.type ?? state.name).location,
                        fixIt: "move '\(name)' under the 'states:' of the state whose last configuration it restores")
                }
                for key in state.keys where !["type", "history", "target"].contains(key.value) {
                    findings.error(
                        "a history state has no '\(key.value):'", at: key.location,
                        fixIt: "a history state takes only 'history: shallow | deep' and a default 'target:'")
                }
                if let target = state.historyTarget, let parentPosition = node.parent,
                   let targetPosition = tree.index[target.value], findings.stateSet.contains(target.value),
                   !(tree.isWithin(targetPosition, parentPosition) && targetPosition != parentPosition) || tree[targetPosition].spec.isHistory {
                    findings.error(
                        "the default 'target:' of history state '\(name)' must be a state inside '\(tree[parentPosition].name)'", at: target.location,
                        fixIt: "name one of the states below '\(tree[parentPosition].name)', or remove 'target:' to default to its 'initial:'")
                }
            case .parallel:
                if let initial = state.key("initial") {
                    findings.error(
                        "a parallel state has no 'initial:': all its regions are entered", at: initial.location,
                        fixIt: "remove 'initial:'; to start a region elsewhere, set that region's own 'initial:'")
                }
                if tree.regions(of: position).isEmpty {
                    findings.error(
                        "parallel state '\(name)' has no regions", at: state.name.location,
                        fixIt: "add 'states:' with one composite state per region, each with its own 'states:' and 'initial:'")
                }
                for region in tree.regions(of: position) where !tree[region].isComposite {
                    findings.error(
                        "region '\(tree[region].name)' of parallel state '\(name)' has no 'states:'", at: tree[region].spec.name.location,
                        fixIt: "give '\(tree[region].name)' its own 'states:' and 'initial:': each child of a parallel state is a region")
                }
            case .normal:
                break
            }
            if state.kind == .normal || state.kind == .final {
                checkInitial(position, into: &findings)
            }
            if !state.onDone.isEmpty, !(node.isComposite || state.kind == .parallel), let key = state.key("onDone") {
                findings.error(
                    "'onDone:' belongs to a composite or parallel state; '\(name)' has no children to finish", at: key.location,
                    fixIt: "move 'onDone:' to the state that contains the final state")
            }
            for branch in state.always + state.onDone {
                if case .ignore(let location) = branch {
                    findings.error(
                        "'ignore' has nothing to ignore in 'always:' or 'onDone:'", at: location,
                        fixIt: "remove it: when no branch applies, nothing happens")
                }
            }
        }
        checkActions(spec, into: &findings)
        checkAlwaysLoops(into: &findings)
    }

    /// S1, S6: a composite names one of its children as `initial:`, and a state without children has none.
    private func checkInitial(_ position: Int, into findings: inout Findings) {
        let tree = findings.tree
        let node = tree[position]
        let children = node.children.map { tree[$0].name }
        guard node.isComposite else {
            if let initial = node.spec.key("initial"), node.spec.kind == .normal {
                findings.error(
                    "state '\(node.name)' has 'initial:' but no 'states:'", at: initial.location,
                    fixIt: "add 'states:' with the child states, or remove 'initial:'")
            }
            return
        }
        guard let initial = node.spec.initial else {
            if node.spec.key("initial") == nil {
                findings.error(
                    "composite state '\(node.name)' has no 'initial:'", at: node.spec.name.location,
                    fixIt: "add 'initial: \(tree[node.children.first { !tree[$0].spec.isHistory } ?? node.children[0]].name)' naming the child entered first")
            }
            return
        }
        guard let child = tree.initialChild(of: position) else {
            let closest = findings.closest(to: initial.value, among: children)
            findings.error(
                "'\(initial.value)' is not a child of '\(node.name)'", at: initial.location,
                fixIt: closest.map { "did you mean '\($0)'?" } ?? "name one of \(children.joined(separator: ", "))")
            return
        }
        if tree[child].spec.isHistory, tree[child].spec.historyTarget == nil {
            findings.error(
                "'initial:' names history state '\(initial.value)', which has no default 'target:'", at: initial.location,
                fixIt: "add 'target:' to '\(initial.value)', or name an ordinary child as 'initial:'")
        }
    }

    /// S42, S43: `run:` names a one-shot effect and gives a request exactly when the effect takes one.
    private func checkActions(_ spec: MachineSpec, into findings: inout Findings) {
        let effects = Dictionary(spec.effects.map { ($0.name.value, $0) }, uniquingKeysWith: { first, _ in first })
        let names = spec.effects.map(\.name.value)
        let lists = findings.tree.nodes.flatMap(\.spec.actionLists) + spec.on.flatMap(\.branches).compactMap(\.transition).map(\.actions)
        for case .run(let name, let request, let location) in lists.joined() {
            guard let effect = effects[name.value] else {
                let closest = findings.closest(to: name.value, among: names)
                findings.error(
                    "'run:' starts '\(name.value)', which is not an effect", at: name.location,
                    fixIt: Self.suggestion(for: name.value, closest: closest, among: names, declare: "'effects:' (without 'in:')"))
                continue
            }
            if !effect.isOneShot {
                findings.error(
                    "'run:' starts effect '\(name.value)', which runs by itself in the states of its 'in:'", at: name.location,
                    notes: [Diagnostic.Note("'\(name.value)' is declared here", at: effect.name.location)],
                    fixIt: "declare a separate effect without 'in:' for the one-shot run")
            } else if effect.request != nil, request == nil {
                findings.error(
                    "'run: \(name.value)' needs a 'request:' of type '\(effect.request!.type.value)'", at: location,
                    fixIt: "write '{run: \(name.value), request: expression}'")
            } else if effect.request == nil, let request {
                findings.error(
                    "effect '\(name.value)' takes no request", at: request.location,
                    fixIt: "remove 'request:', or declare 'request: {type: T}' on the effect")
            }
        }
    }

    /// S50: `always:` transitions that are certain to be taken must not come back to a state they left.
    private func checkAlwaysLoops(into findings: inout Findings) {
        let tree = findings.tree
        // The unguarded first `always:` branch that decides in each leaf (the innermost state
        // with `always:` whose first branch has no guard).
        func certainStep(from leaf: Int) -> (source: Int, target: Int?)? {
            for state in tree.lineage(of: leaf) where !tree[state].spec.always.isEmpty {
                guard case .transition(let transition)? = tree[state].spec.always.first, transition.guardExpression == nil else { return nil }
                guard let target = transition.target else { return (state, nil) }
                guard let position = tree.index[target.value] else { return nil }
                return (state, position)
            }
            return nil
        }
        // Follow the initial chain down to the leaf a target enters (the first region's, for a parallel state).
        func enteredLeaf(_ target: Int) -> Int? {
            var current = target
            var guardCount = 0
            while !tree.isLeaf(current), guardCount < tree.nodes.count {
                guardCount += 1
                let node = tree[current]
                if node.spec.isHistory {
                    guard let parent = node.parent else { return nil }
                    if let fallback = node.spec.historyTarget.flatMap({ tree.index[$0.value] }) { current = fallback; continue }
                    guard let initial = tree.initialChild(of: parent), initial != current else { return nil }
                    current = initial
                } else if node.spec.kind == .parallel {
                    guard let first = tree.regions(of: current).first else { return nil }
                    current = first
                } else if let initial = tree.initialChild(of: current) {
                    current = initial
                } else {
                    return nil  // a top-level final, or a structure error reported elsewhere
                }
            }
            return tree.isLeaf(current) ? current : nil
        }
        var reported: Set<Int> = []
        for start in tree.leaves {
            var seen: [Int] = []
            var sources: [Int] = []
            var leaf = start
            while let step = certainStep(from: leaf) {
                if let index = seen.firstIndex(of: leaf) {
                    let loop = sources[index...]
                    let first = loop.min()!
                    guard reported.insert(first).inserted, let key = tree[first].spec.key("always") else { break }
                    let names = loop.map { tree[$0].name } + [tree[loop.first!].name]
                    findings.error(
                        "'always:' transitions without a guard loop forever: \(names.joined(separator: " -> "))", at: key.location,
                        fixIt: "add a 'guard:' to one of them")
                    break
                }
                seen.append(leaf)
                sources.append(step.source)
                // No target: the same leaf again, and the same unguarded branch.
                guard let target = step.target else { continue }
                guard let next = enteredLeaf(target) else { break }
                leaf = next
            }
        }
    }
}
