/// The states of a spec as one flat table in document order (a parent before its children), with
/// the parent of each: the questions of hierarchy (ancestors, leaves, a transition's domain) are
/// answered here once, for the checks, the generator and the diagrams.
public struct StateTree: Sendable {
    /// One state: its spec (its `states` moved to `children`), its parent and its depth.
    public struct Node: Sendable {
        /// The state as written, except `states`, which is empty: see `children`.
        public var spec: StateSpec
        /// The parent's position in `nodes`; `nil` at the top level.
        public var parent: Int?
        /// The children's positions, in document order (history states included).
        public var children: [Int]
        /// 0 at the top level.
        public var depth: Int

        public var name: String { spec.name.value }
        /// True for a state with children other than history states.
        public var isComposite: Bool { spec.kind != .final && !spec.isHistory && !children.isEmpty }
    }

    /// Every state, in document order.
    public let nodes: [Node]
    /// The top-level states' positions.
    public let roots: [Int]
    /// A state's position by name (the first, when a name is repeated: an error of the checks).
    public let index: [String: Int]
    /// True when the machine has no nesting and no new kind of state anywhere: v1 specs are flat.
    /// Found once here: the generator asks it once per state.
    public let isFlat: Bool

    public init(_ states: [StateSpec]) {
        var nodes: [Node] = []
        var roots: [Int] = []
        var index: [String: Int] = [:]
        func add(_ state: StateSpec, parent: Int?, depth: Int) -> Int {
            var spec = state
            spec.states = []
            let position = nodes.count
            nodes.append(Node(spec: spec, parent: parent, children: [], depth: depth))
            if index[state.name.value] == nil { index[state.name.value] = position }
            let children = state.states.map { add($0, parent: position, depth: depth + 1) }
            nodes[position].children = children
            return position
        }
        // Deep nesting is bounded by the reader's depth limit, so recursion is safe here.
        for state in states { roots.append(add(state, parent: nil, depth: 0)) }
        self.nodes = nodes
        self.roots = roots
        self.index = index
        isFlat = nodes.allSatisfy { $0.parent == nil && $0.children.isEmpty && $0.spec.kind == .normal }
    }

    /// The state at `position`, read in place: a `Node` holds the state's whole spec, and a copy
    /// per question (`tree[p].parent`) costs a retain and release of each of its arrays.
    public subscript(_ position: Int) -> Node {
        _read { yield nodes[position] }
    }

    /// The states a configuration can rest in: no children (history states aside), not a history
    /// state, and not a top-level final state (that ends the machine).
    public var leaves: [Int] {
        nodes.indices.filter { isLeaf($0) }
    }

    public func isLeaf(_ position: Int) -> Bool {
        let node = nodes[position]
        if node.spec.isHistory || node.isComposite { return false }
        if node.spec.isFinal && node.parent == nil { return false }
        return true
    }

    /// The parent, its parent, ... up to a top-level state (not `position` itself).
    public func ancestors(of position: Int) -> [Int] {
        var result: [Int] = []
        var current = nodes[position].parent
        while let parent = current {
            result.append(parent)
            current = nodes[parent].parent
        }
        return result
    }

    /// `position`, then its ancestors: the states whose handlers apply, innermost first.
    public func lineage(of position: Int) -> [Int] {
        [position] + ancestors(of: position)
    }

    /// True when `position` is `ancestor` or below it.
    public func isWithin(_ position: Int, _ ancestor: Int) -> Bool {
        var current: Int? = position
        while let state = current {
            if state == ancestor { return true }
            current = nodes[state].parent
        }
        return false
    }

    /// The transition's domain (Docs/Statecharts.md S22, S28): the source when the target is a
    /// proper descendant of it, else the innermost state with both as proper descendants; `nil`
    /// for the machine. A history target counts as a child of its parent; a `nil` source is the
    /// machine's own `on:`.
    public func domain(source: Int?, target: Int) -> Int? {
        guard let source else { return nil }
        if target != source, isWithin(target, source) { return source }
        for ancestor in ancestors(of: source) where isWithin(target, ancestor) && target != ancestor {
            return ancestor
        }
        return nil
    }

    /// The states entered on the way from `domain` (exclusive) down to `target` (inclusive), outermost first.
    public func path(from domain: Int?, to target: Int) -> [Int] {
        var chain: [Int] = []
        var current: Int? = target
        while let state = current, state != domain {
            chain.append(state)
            current = nodes[state].parent
        }
        return chain.reversed()
    }

    /// The child `initial:` names, when it names one; for a list (S140), the child on the way to
    /// its first state, when that state lies below `position`.
    public func initialChild(of position: Int) -> Int? {
        guard let initial = nodes[position].spec.initial?.value else { return nil }
        if let child = nodes[position].children.first(where: { nodes[$0].name == initial }) { return child }
        guard nodes[position].spec.initialTargets != nil, let target = index[initial], target != position, isWithin(target, position) else { return nil }
        return path(from: position, to: target).first
    }

    /// The regions of a parallel state (its children other than history states).
    public func regions(of position: Int) -> [Int] {
        nodes[position].children.filter { !nodes[$0].spec.isHistory }
    }
}
