import StateLoopSpec

// What the generator derives from the state tree once per machine, as flags: which states have
// exit or entry work of their own or below them, and which statechart features the machine uses
// (so the writer prints only the members they need).

/// The flags the generator reads off the state tree, computed once per machine: per state, its
/// entry and exit work; for the machine, the statechart features it uses.
struct StatechartFlags {
    /// Per state: it has its own exit work (exit actions, history to record).
    let ownExit: [Bool]
    /// Per state: some state strictly below it has exit work.
    let exitBelow: [Bool]
    let ownEntry: [Bool]
    let entryBelow: [Bool]
    /// Per state: some `exit:` below it (inclusive) sets fields.
    let changesOnExitWithin: [Bool]
    /// `exitBelow`, `entryBelow` and `changesOnExitWithin` for the machine: over its top-level states.
    let exitBelowMachine: Bool, entryBelowMachine: Bool, changesOnExitBelowMachine: Bool
    /// Per state: it has timers and may stay active while another state is entered (a composite,
    /// or a state below a parallel state), so it records `_entries` at its entry (`_entered_<state>`).
    /// A timed leaf elsewhere is active exactly since the last entry: its timers read `_entries`.
    let stampsEntry: [Bool]
    let hasTimers: Bool
    let hasAlways: Bool
    let hasOnDone: Bool
    let hasTopLevelFinal: Bool
    let hasRuns: Bool
    /// An action raises an event (S120): `State` has the internal queue `_raised`.
    let raises: Bool
    /// An action sends an event to the machine (S126): `State` has `pendingSends`, `Event` has `_send`.
    let sends: Bool
    /// An action sends an event to the parent machine (Docs/Effects.md E70): `State` has `toParent`.
    let sendsToParent: Bool
    /// A default entry has actions (S144): the entry walks take the default entries a transition
    /// takes, `_defaults`.
    let defaultEntries: Bool

    init(_ semantics: MachineSemantics) {
        let tree = semantics.tree
        let spec = semantics.spec
        let count = tree.nodes.count
        hasTimers = tree.nodes.contains { !$0.spec.after.isEmpty }
        let stampsEntry = tree.nodes.indices.map { position in
            !tree[position].spec.after.isEmpty
                && (!tree.isLeaf(position) || tree.lineage(of: position).contains { tree[$0].spec.kind == .parallel })
        }
        self.stampsEntry = stampsEntry
        var ownExit = Array(repeating: false, count: count)
        var ownEntry = Array(repeating: false, count: count)
        var changesOnExit = Array(repeating: false, count: count)
        for (position, node) in tree.nodes.enumerated() where !node.spec.isHistory {
            let recordsHistory = node.children.contains { tree[$0].spec.isHistory }
            ownExit[position] = !node.spec.exit.isEmpty || recordsHistory
            let computesDelay = node.spec.after.contains { $0.milliseconds == nil }
            let defaults = !node.spec.defaultActions.isEmpty || node.children.contains { tree[$0].spec.isHistory && !tree[$0].spec.defaultActions.isEmpty }
            ownEntry[position] = !node.spec.entry.isEmpty || stampsEntry[position] || computesDelay || !semantics.doneTargets[position].isEmpty || defaults
            changesOnExit[position] = node.spec.exit.contains(where: \.changesState)
        }
        var exitBelow = Array(repeating: false, count: count)
        var entryBelow = Array(repeating: false, count: count)
        var setsWithin = changesOnExit
        // Children come after their parent in document order: walk backwards to sum subtrees.
        for position in (0..<count).reversed() {
            guard let parent = tree[position].parent else { continue }
            exitBelow[parent] = exitBelow[parent] || exitBelow[position] || ownExit[position]
            entryBelow[parent] = entryBelow[parent] || entryBelow[position] || ownEntry[position]
            setsWithin[parent] = setsWithin[parent] || setsWithin[position]
        }
        self.ownExit = ownExit
        self.ownEntry = ownEntry
        self.exitBelow = exitBelow
        self.entryBelow = entryBelow
        self.changesOnExitWithin = setsWithin
        // Asked for every transition whose domain is the machine (every one of a flat machine).
        exitBelowMachine = tree.roots.contains { exitBelow[$0] || ownExit[$0] }
        entryBelowMachine = tree.roots.contains { entryBelow[$0] || ownEntry[$0] }
        changesOnExitBelowMachine = tree.roots.contains { setsWithin[$0] }
        hasAlways = tree.nodes.contains { !$0.spec.always.isEmpty }
        hasOnDone = tree.nodes.contains { !$0.spec.onDone.isEmpty }
        hasTopLevelFinal = tree.roots.contains { tree[$0].spec.isFinal }
        hasRuns = spec.effects.contains(where: \.isOneShot)
        raises = spec.raises(tree: tree)
        sends = spec.sends(tree: tree)
        sendsToParent = !spec.eventsSentToParent(tree: tree).isEmpty
        defaultEntries = tree.nodes.contains { !$0.spec.defaultActions.isEmpty }
    }

    /// True when a step can be followed by `onDone:` or `always:` microsteps, or by the steps of
    /// raised events, which `isSettled` also reports on (S122).
    var settles: Bool { hasAlways || hasOnDone || raises }

    func exitBelow(_ domain: Int?) -> Bool {
        domain.map { exitBelow[$0] } ?? exitBelowMachine
    }

    func entryBelow(_ domain: Int?) -> Bool {
        domain.map { entryBelow[$0] } ?? entryBelowMachine
    }

    func changesOnExit(below domain: Int?) -> Bool {
        domain.map { changesOnExitWithin[$0] } ?? changesOnExitBelowMachine
    }
}
