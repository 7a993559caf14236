/// The structure of nested states (Docs/Statecharts.md S1–S7, S42, S49, S50, S60, S81): composites
/// name an initial child, names are unique, final and history states carry only their own keys,
/// parallel states have regions, actions start effects that exist, and `always:` and `onDone:`
/// cannot loop without a guard.
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
                for key in state.keys where !["type", "history", "target", "default"].contains(key.value) {
                    findings.error(
                        "a history state has no '\(key.value):'", at: key.location,
                        fixIt: "a history state takes only 'history: shallow | deep' and a default 'target:' (or 'default: {target:, do:}')")
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
            if let first = state.defaultActions.first, let anchor = state.isHistory ? node.parent : position,
               let holder = tree.ancestors(of: anchor).first(where: { tree[$0].children.contains { tree[$0].spec.isHistory } }) {
                // S148: a record of that history decides whether this default entry is taken.
                let what = state.isHistory ? "the 'default:' of history state '\(name)'" : "the 'initial:' of '\(name)'"
                findings.error(
                    "\(what) cannot take actions: it lies in '\(tree[holder].name)', whose history state restores what is below it",
                    at: first.location,
                    fixIt: "move the actions to the 'entry:' of the state the default enters, or to a default of '\(tree[holder].name)'")
            }
            if !state.onDone.isEmpty, !(node.isComposite || state.kind == .parallel), let key = state.key("onDone") {
                findings.error(
                    "'onDone:' belongs to a composite or parallel state; '\(name)' has no children to finish", at: key.location,
                    fixIt: "move 'onDone:' to the state that contains the final state")
            }
            if !state.onDone.isEmpty, node.isComposite, let key = state.key("onDone") {
                // S84: a composite without a final child, or a region without one, never finishes.
                let unfinished = state.kind == .parallel
                    ? tree.regions(of: position).filter { region in !tree[region].children.contains { tree[$0].spec.isFinal } }
                    : (node.children.contains { tree[$0].spec.isFinal } ? [] : [position])
                if let first = unfinished.first {
                    let whose = first == position ? "'\(name)' has no final child" : "region '\(tree[first].name)' of '\(name)' has no final child"
                    findings.warning(
                        "'onDone:' of '\(name)' never fires: \(whose)", at: key.location,
                        fixIt: "add a child with 'type: final' to '\(tree[first].name)', or remove 'onDone:'")
                }
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
        checkAlwaysLoops(findings.semantics, into: &findings)
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
        if let targets = node.spec.initialTargets {
            return checkInitialList(targets, of: position, into: &findings)
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

    /// S140: the states of a list `initial:` lie below `owner` (`nil`: the machine), are no history
    /// states, and can be active together: any two lie in different regions of a parallel state.
    func checkInitialList(_ targets: [Located<String>], of owner: Int?, into findings: inout Findings) {
        let tree = findings.tree
        let place = owner.map { "the 'initial:' of '\(tree[$0].name)'" } ?? "the machine's 'initial:'"
        var placed: [(name: Located<String>, position: Int)] = []
        for target in targets {
            guard let position = tree.index[target.value] else {
                checkKnown(target, among: findings.stateNames, known: findings.stateSet, "'\(target.value)' in \(place) is not a state", declare: "'states:'", into: &findings)
                continue
            }
            if let owner, position == owner || !tree.isWithin(position, owner) {
                findings.error(
                    "'\(target.value)' in \(place) is not inside '\(tree[owner].name)'", at: target.location,
                    fixIt: "name states below '\(tree[owner].name)', one per region of a parallel state")
                continue
            }
            if tree[position].spec.isHistory {
                findings.error(
                    "'\(target.value)' in \(place) is a history state", at: target.location,
                    fixIt: "name the states to enter; a list of 'initial:' enters states, not a history's record")
                continue
            }
            if let other = placed.first(where: { $0.position == position }) {
                findings.error(
                    "'\(target.value)' is listed twice in \(place)", at: target.location,
                    notes: [Diagnostic.Note("'\(other.name.value)' is first listed here", at: other.name.location)],
                    fixIt: "drop one of the two")
                continue
            }
            if let other = placed.first(where: { !Self.canBeActiveTogether($0.position, position, in: tree) }) {
                let common = tree.lineage(of: position).first { tree.isWithin(other.position, $0) }
                let reason: String
                if let common, common == position || common == other.position {
                    reason = "'\(tree[common == position ? other.position : position].name)' lies inside '\(tree[common].name)'"
                } else {
                    reason = "both lie in '\(common.map { tree[$0].name } ?? "the machine")', which is in one child at a time"
                }
                findings.error(
                    "'\(target.value)' in \(place) cannot be entered with '\(other.name.value)': \(reason)", at: target.location,
                    notes: [Diagnostic.Note("'\(other.name.value)' is listed here", at: other.name.location)],
                    fixIt: "name one state per region of a parallel state, and drop one of the two")
                continue
            }
            placed.append((target, position))
        }
    }

    /// True when two states lie in different regions of a parallel state (S140).
    static func canBeActiveTogether(_ first: Int, _ second: Int, in tree: StateTree) -> Bool {
        guard let common = tree.lineage(of: first).first(where: { tree.isWithin(second, $0) }) else { return false }
        return common != first && common != second && tree[common].spec.kind == .parallel
    }

    /// S42, S43: `run:` names a one-shot effect and gives a request exactly when the effect takes one.
    private func checkActions(_ spec: MachineSpec, into findings: inout Findings) {
        let effects = Dictionary(spec.effects.map { ($0.name.value, $0) }, uniquingKeysWith: { first, _ in first })
        let names = spec.effects.map(\.name.value)
        let lists = findings.tree.nodes.flatMap(\.spec.actionLists) + spec.on.flatMap(\.branches).compactMap(\.transition).map(\.actions)
        for case .run(let name, let request, let location) in lists.joined().flatMap(\.flattened) {
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

    /// S50, S81: `always:` and `onDone:` transitions that are certain to be taken must not come
    /// back to a configuration they left. The steps are the semantic core's (S96, S97, S99); a
    /// step is certain when the first branch of its chain has no guard.
    private func checkAlwaysLoops(_ semantics: MachineSemantics, into findings: inout Findings) {
        let tree = semantics.tree
        /// A transition certain to be taken: its id, its source, its target (`nil`: no target),
        /// and whether it is an `onDone:` (else an `always:`).
        struct Step {
            var id: Int
            var source: Int
            var target: Int?
            var isOnDone: Bool
        }
        /// The step of the first branch of `chain`, when that branch has no guard.
        func unguarded(_ chain: [Int], isOnDone: Bool) -> Step? {
            guard let id = chain.first, semantics.isUnconditional(id), semantics.transitions.entries[id].branch.transition != nil,
                  let source = semantics.sources[id]
            else { return nil }
            if semantics.transitions.entries[id].branch.transition?.target != nil, semantics.targets[id] == nil { return nil }  // an unknown target, reported elsewhere
            return Step(id: id, source: source, target: semantics.targets[id], isOnDone: isOnDone)
        }
        /// The step certain to follow a microstep that left the machine in `leaves` (every
        /// region's leaf, in document order), having just entered them when `entered` is true.
        /// `onDone:` comes first (S53), in the order entering made it due (S99); then the
        /// `always:` chain of the first region's leaf. `nil` when the next step is not certain (a
        /// guard decides) or there is none.
        func certainStep(from leaves: [Int], entered: Bool) -> Step? {
            if entered {
                var due: [Int] = []
                for leaf in leaves { semantics.queueDone(entering: leaf, into: &due) }
                if let first = due.first(where: { semantics.isDue($0, active: leaves.contains) }) {
                    return unguarded(semantics.doneChain(first), isOnDone: true)
                }
            }
            return unguarded(semantics.chain(leaf: leaves[0], .always), isOnDone: false)
        }
        /// The leaves after taking `step` from `leaves`: those outside its domain, and those it
        /// enters (S97; a history enters its default).
        func leaves(after step: Step, from leaves: [Int]) -> [Int]? {
            guard let target = step.target, let domain = semantics.domains[step.id] else { return nil }
            let kept = leaves.filter { leaf in domain.map { leaf != $0 && !tree.isWithin(leaf, $0) } ?? false }
            let next = (kept + semantics.entered(below: domain, toward: target).filter(tree.isLeaf)).sorted()
            return next.isEmpty ? nil : next
        }
        /// The leaves entering `state` from outside it enters.
        func enteredLeaves(_ state: Int) -> [Int]? {
            let leaves = semantics.entered(below: tree[state].parent, toward: state).filter { tree.isLeaf($0) && tree.isWithin($0, state) }
            return leaves.isEmpty ? nil : leaves
        }
        struct Configuration: Equatable {
            var leaves: [Int]
            var entered: Bool
        }
        var reported: Set<Int> = []
        // Each leaf as just entered, and each parallel state entered whole (its `onDone:` needs
        // every region).
        let starts = tree.leaves.map { [$0] }
            + tree.nodes.indices.filter { tree[$0].spec.kind == .parallel && !tree[$0].spec.onDone.isEmpty }.compactMap { enteredLeaves($0) }
        for start in starts {
            var seen: [Configuration] = []
            var steps: [Step] = []
            var configuration = Configuration(leaves: start, entered: true)
            while let step = certainStep(from: configuration.leaves, entered: configuration.entered) {
                if let index = seen.firstIndex(of: configuration) {
                    let loop = steps[index...]
                    let first = loop.min { $0.source < $1.source }!
                    let kinds = Set(loop.map(\.isOnDone))
                    guard reported.insert(first.source).inserted,
                          let key = tree[first.source].spec.key(first.isOnDone ? "onDone" : "always")
                    else { break }
                    let names = loop.map { tree[$0.source].name } + [tree[loop.first!.source].name]
                    let what = kinds.count == 2 ? "'always:' and 'onDone:'" : kinds.contains(true) ? "'onDone:'" : "'always:'"
                    findings.error(
                        "\(what) transitions without a guard loop forever: \(names.joined(separator: " -> "))", at: key.location,
                        fixIt: "add a 'guard:' to one of them")
                    break
                }
                seen.append(configuration)
                steps.append(step)
                // No target: nothing is exited or entered, and the same configuration decides again.
                guard step.target != nil else {
                    configuration.entered = false
                    continue
                }
                guard let next = leaves(after: step, from: configuration.leaves) else { break }
                configuration = Configuration(leaves: next, entered: true)
            }
        }
    }
}
