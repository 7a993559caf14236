/// Questions about a spec that the checks, the code generator and the diagrams all ask, answered
/// once so they cannot disagree.
extension MachineSpec {
    /// The effects that may run in `state` (those whose `in:` lists it), in file order.
    public func effects(runningIn state: String) -> [EffectSpec] {
        effects.filter { effect in effect.runningStates.contains { $0.value == state } }
    }

    /// The groups of `groups:` by name, except a name that is also an event's (the checks refuse
    /// it, S102): an `ignore:` entry names a group when it is a key here.
    public var groupsByName: [String: EventGroup] {
        let events = Set(self.events.map(\.name.value))
        return Dictionary(groups.filter { !events.contains($0.name.value) }.map { ($0.name.value, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every action of the spec whose states are `tree`, in the states' and the machine's action
    /// lists, a conditional's inner actions included.
    public func actions(tree: StateTree) -> [Action] {
        let lists = tree.nodes.flatMap(\.spec.actionLists) + on.flatMap(\.branches).compactMap(\.transition).map(\.actions)
        return lists.joined().flatMap(\.flattened)
    }

    /// True when an action raises an event (S120): only then has `State` an internal queue.
    public func raises(tree: StateTree) -> Bool {
        actions(tree: tree).contains { if case .raise = $0 { true } else { false } }
    }

    /// True when an action sends an event to the machine (S126): only then has `State` its
    /// pending sends and `Event` the case that delivers one.
    public func sends(tree: StateTree) -> Bool {
        actions(tree: tree).contains { if case .send = $0 { true } else { false } }
    }

    /// Every Swift expression of the spec whose states are `tree` (the checks read the same list).
    public func expressions(tree: StateTree) -> [Located<String>] {
        SpecChecker.embeddedSwift(self, tree: tree).expressions
    }

    /// The first effect, in file order, that may answer with `event` while the states named in
    /// `active` are: one whose `in:` names one of them, or a one-shot effect, whose runs may
    /// answer in any state (S19). `nil` when none may.
    public func effect(answeringWith event: String, whileIn active: Set<String>) -> EffectSpec? {
        effects.first { effect in
            effect.results.contains { $0.value == event }
                && (effect.isOneShot || effect.runningStates.contains { active.contains($0.value) })
        }
    }
}

extension StateSpec {
    /// Every branch the state owns: `on:`, `after:`, `always:` and `onDone:`, in that order.
    public var branches: [Branch] {
        on.flatMap(\.branches) + after.flatMap(\.branches) + always + onDone
    }

    /// Every action block the state owns: `entry:`, `exit:`, its default entry's `do:` (S144) and
    /// its transitions' `do:` (a conditional's inner actions are in it, not here).
    public var actionLists: [[Action]] {
        [entry, exit, defaultActions] + branches.compactMap(\.transition).map(\.actions)
    }
}

extension Branch {
    /// The transition, unless the branch is a bare `ignore`.
    public var transition: Transition? {
        if case .transition(let transition) = self { return transition }
        return nil
    }
}

extension Action {
    /// The Swift expressions of the action, in the order written (a conditional's condition, then
    /// those of the actions inside it).
    public var expressions: [Located<String>] {
        switch self {
        case .set(let assignments, _): assignments.map(\.expression)
        case .run(_, let request, _): request.map { [$0] } ?? []
        case .raise(_, let payload, _): payload.map(\.expression)
        case .send(let send): send.payload.map(\.expression)
        case .sendToParent(_, let payload, _): payload.map(\.expression)
        case .cancel: []
        case .conditional(let conditional): [conditional.condition] + (conditional.then + conditional.otherwise).flatMap(\.expressions)
        case .foreach(let loop): [loop.array] + loop.actions.flatMap(\.expressions)
        }
    }

    /// The action and, for a conditional or a `foreach:`, every action inside it, in the order written.
    public var flattened: [Action] {
        switch self {
        case .conditional(let conditional): [self] + (conditional.then + conditional.otherwise).flatMap(\.flattened)
        case .foreach(let loop): [self] + loop.actions.flatMap(\.flattened)
        default: [self]
        }
    }

    /// True when the action may change what a later expression of its step reads (S36, S107): a
    /// field (`set:`, a `foreach:`'s item), `runs` (`run:`, S39), `pendingSends` (`send:`,
    /// `cancel:`, S127), `toParent` (E70), or a conditional with one of these inside. A `raise:`
    /// changes only the queue of raised events, which no expression reads.
    public var changesState: Bool {
        flattened.contains {
            switch $0 {
            case .set, .foreach, .run, .send, .cancel, .sendToParent: true
            case .raise, .conditional: false
            }
        }
    }
}

extension Transition {
    /// Its guard, its `set:` values and its `do:` actions' expressions, in the order written.
    public var expressions: [Located<String>] {
        (guardExpression.map { [$0] } ?? []) + assignments.map(\.expression) + actions.flatMap(\.expressions)
    }
}
