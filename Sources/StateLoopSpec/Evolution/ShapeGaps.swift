// ShapeGaps: what a journal of one version holds that the version after it cannot read, after a
// migration (D54, D55, D57). Names only: where each gap is reported is `EvolutionCheck`'s business.

/// One item of the older version that the newer one lacks or changed, with no migration covering it.
enum ShapeGap: Equatable {
    /// A state the newer version lacks; `inside` counts the states inside it, which go with it.
    case stateGone(PersistedShape.State, inside: Int)
    case stateChanged(old: PersistedShape.State, new: PersistedShape.State)
    case fieldGone(PersistedShape.Field)
    case fieldChanged(old: PersistedShape.Field, new: PersistedShape.Field)
    case eventGone(PersistedShape.Event)
    case eventChanged(old: PersistedShape.Event, new: PersistedShape.Event)
    case runGone(PersistedShape.Run)
    case runChanged(old: PersistedShape.Run, new: PersistedShape.Run)

    /// The gaps between `old` and `new` that `migration` does not cover, in the order of `old`:
    /// states, then fields, events and runs.
    static func between(_ old: PersistedShape, and new: PersistedShape, migration: Migration?) -> [ShapeGap] {
        var gaps: [ShapeGap] = []
        let mappedStates = Set(migration?.states.map(\.from.value) ?? [])
        let oldStates = Dictionary(old.states.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let newStates = Dictionary(new.states.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        /// The state and its ancestors in `old`, innermost first.
        func chain(_ state: PersistedShape.State) -> [String] {
            var names = [state.name]
            var parent = state.parent
            while let name = parent, !names.contains(name) {
                names.append(name)
                parent = oldStates[name]?.parent
            }
            return names
        }
        // How many states lie inside each state, counted once: a gone state takes them along.
        var inside: [String: Int] = [:]
        for state in old.states {
            for ancestor in chain(state).dropFirst() { inside[ancestor, default: 0] += 1 }
        }
        for state in old.states {
            let ancestry = chain(state)
            // A mapped state takes every state inside it along (D55).
            if ancestry.contains(where: mappedStates.contains) { continue }
            if let now = newStates[state.name] {
                if now.kind != state.kind || now.parent != state.parent { gaps.append(.stateChanged(old: state, new: now)) }
                continue
            }
            // Inside a state that is gone itself: reported with it.
            if ancestry.dropFirst().contains(where: { newStates[$0] == nil }) { continue }
            gaps.append(.stateGone(state, inside: inside[state.name] ?? 0))
        }
        gaps += items(old.context, new.context, mapped: migration?.fields, name: \.name, gone: ShapeGap.fieldGone, changed: ShapeGap.fieldChanged)
        gaps += items(old.events, new.events, mapped: migration?.events, name: \.name, gone: ShapeGap.eventGone, changed: ShapeGap.eventChanged)
        gaps += items(old.runs, new.runs, mapped: migration?.runs, name: \.name, gone: ShapeGap.runGone, changed: ShapeGap.runChanged)
        return gaps
    }

    /// Fields, events or runs: an item the migration names is covered; one of the same name
    /// must be equal.
    private static func items<Item: Equatable>(
        _ old: [Item], _ new: [Item], mapped: [Renaming]?, name: KeyPath<Item, String>,
        gone: (Item) -> ShapeGap, changed: (Item, Item) -> ShapeGap
    ) -> [ShapeGap] {
        let covered = Set(mapped?.map(\.from.value) ?? [])
        let byName = Dictionary(new.map { ($0[keyPath: name], $0) }, uniquingKeysWith: { first, _ in first })
        return old.compactMap { item in
            if covered.contains(item[keyPath: name]) { return nil }
            guard let now = byName[item[keyPath: name]] else { return gone(item) }
            return now == item ? nil : changed(item, now)
        }
    }
}
