// System+Invariants: a running system that checks its machine's `invariants:` (Docs/Testing.md
// V7), in debug builds only, by opting in: a system that does not opt in, and every system of a
// release build, runs exactly the code it ran before.
//
// Invariants:
// - The check runs on the thread that reduced the step, after the reducer and before the state
//   reaches the observer: the event hook (`observingEvents`) for each reduced event, and one loop
//   that looks at the first state an instance shows (its initial or restored state) and no other.

/// A state that broke some of its machine's invariants, as `System.checkingInvariants` reports it.
public struct BrokenInvariants<State: Sendable, Event: Sendable>: Sendable {
    /// The event of the step; `nil` for the state an instance starts in.
    public var event: Event?
    /// The state after the step.
    public var state: State
    /// The invariants it breaks, in `StateMachine.invariants` order.
    public var invariants: [InvariantInfo]

    public init(event: Event?, state: State, invariants: [InvariantInfo]) {
        self.event = event
        self.state = state
        self.invariants = invariants
    }
}

extension System {
    /// The same system, which in a debug build (the `StateLoop` module compiled with `DEBUG`, as
    /// `swift build` does by default) calls `onBroken` with every state of every instance that
    /// breaks one of `machine`'s invariants: the state an instance starts in and the state after
    /// each reduced event. In a release build it returns the system unchanged and checks nothing.
    ///
    /// ```swift
    /// let system = Upload.system().checkingInvariants(Upload.self) { broken in
    ///     assertionFailure("\(broken.invariants) after \(String(describing: broken.event))")
    /// }
    /// ```
    ///
    /// `onBroken` runs on the thread that reduced the step, before the state reaches the
    /// observer and the feedback loops; keep it quick.
    public func checkingInvariants<Machine: StateMachine & SendableMetatype>(
        _ machine: Machine.Type,
        onBroken: @escaping @Sendable (BrokenInvariants<State, Event>) -> Void
    ) -> System where Machine.State == State, Machine.Event == Event {
        #if DEBUG
        let check: @Sendable (Event?, State) -> Void = { event, state in
            let broken = Machine.brokenInvariants(state)
            if !broken.isEmpty { onBroken(BrokenInvariants(event: event, state: state, invariants: broken)) }
        }
        // The first state of an instance is no reduced event's: a loop that looks at it alone.
        let first = Feedback<State, Event> { _ in
            var isFirst = true
            return FeedbackLoop(observe: { state in
                guard isFirst else { return }
                isFirst = false
                check(nil, state)
            }, stop: {})
        }
        let observed = observingEvents { event, state in check(event, state) }
        return System(
            initial: observed.initial, reduce: observed.reduce, feedbacks: [first] + observed.feedbacks,
            isFinished: observed.isFinished, eventHook: observed.eventHook, watcher: observed.watcher)
        #else
        return self
        #endif
    }
}
