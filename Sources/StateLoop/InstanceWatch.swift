// InstanceWatch: how a tool follows each instance of a system from its start to its end: the
// inspector (StateLoopInspector, Docs/Inspector.md) attaches through it.
//
// Invariants:
// - A system without a watcher runs exactly as before: the watcher is asked once per start, never
//   per event (Docs/Inspector.md, "The app side").
// - A watch's `reduce` and `step` run where the system's reducer and event hook run: on the
//   draining thread, one event at a time.

/// What follows one instance of a system, made by the system's watcher as the instance starts.
@usableFromInline package struct InstanceWatch<State: Sendable, Event: Sendable>: Sendable {
    /// The instance as the children its feedbacks start see it: their parent.
    @usableFromInline package var asParent: WatchedParent
    /// The reducer the instance runs instead of the system's (the machine's traced reducer).
    @usableFromInline package var reduce: @Sendable (inout State, Event) -> Void
    /// Called with every reduced event and the state after it, where the event hook is.
    @usableFromInline package var step: @Sendable (Event, State) -> Void
    /// Called once, when the instance has ended.
    @usableFromInline package var stopped: @Sendable () -> Void

    @usableFromInline package init(
        asParent: WatchedParent,
        reduce: @escaping @Sendable (inout State, Event) -> Void,
        step: @escaping @Sendable (Event, State) -> Void,
        stopped: @escaping @Sendable () -> Void
    ) {
        self.asParent = asParent
        self.reduce = reduce
        self.step = step
        self.stopped = stopped
    }
}

/// Makes the watch of an instance as it starts, from its initial state and the name of the
/// watched instance whose feedbacks started it (`nil` for a top-level instance).
@usableFromInline package typealias InstanceWatcher<State: Sendable, Event: Sendable> =
    @Sendable (_ initial: State, _ parent: String?) -> InstanceWatch<State, Event>

/// A watched instance as the feedbacks that start its children see it.
@usableFromInline package struct WatchedParent: Sendable {
    /// The instance's name: its children's `parent`.
    @usableFromInline package var name: String
    /// What watches the child machines its feedbacks start (`Feedback.child(machine:...)`).
    @usableFromInline package var children: any ChildWatcher

    @usableFromInline package init(name: String, children: any ChildWatcher) {
        self.name = name
        self.children = children
    }
}

/// Makes the watcher of a child machine's system, for the machine's type: a watched parent's
/// children are watched too (Inspector.md I6).
@usableFromInline package protocol ChildWatcher: Sendable {
    func watcher<Machine: StateMachine & SendableMetatype>(for machine: Machine.Type) -> InstanceWatcher<Machine.State, Machine.Event>
}
