// Feedback+Child: a child system per request, `child(request:start:forwarded:output:sent:)`
// (E49-E52, Docs/Effects.md E74, E75).
//
// A child is a separate `System` that runs while the parent's state requests it. It is one more
// query-triggered run (a `RequestLoop`), so a changed request replaces it and `nil` stops it. Its
// output, and the events it sends its parent, come back tagged with an `EffectRun` token, like
// any effect's event, and are dropped if the child was stopped or replaced meanwhile.
//
// Why no deadlock: a child's `onFinished` may run on the child's draining thread, deliver into
// the parent, drain the parent there, and have the parent stop that same child. `stop()` called
// on the thread that holds the child's drain role does not wait (it cannot wait for itself); the
// child tears down when the call returns. A parent that stops a child from another thread waits
// for the child's drainer, which never waits for the parent: delivering into the parent only
// queues when the parent is busy, and a stopped parent drops the event. So every wait points
// from a parent to its child, never back.
//
// Invariants:
// - A child is a run of a `RequestLoop`: at most one per request, started synchronously on the
//   draining thread, stopped when its request changes or goes, or when the parent stops.
// - Its output reaches the parent once, tagged with its run, and is dropped as stale after a
//   replacement; so do the events it sends, each state's as the child shows it, so all of them
//   before its output (the child shows its last state before it reports finishing).

extension Feedback {
    /// Runs a child system while the state requests it (E49-E52).
    ///
    /// - A new request starts the child that `start` makes for it, synchronously on the thread
    ///   that delivers the state, before the next event is reduced (E49). A changed request stops
    ///   the child and starts another; `nil` stops it; an equal request keeps it, also once it has
    ///   finished (it is not started again).
    /// - `forwarded` gives the events that the step which made the state forwarded to the child;
    ///   they are sent to the running child, in order, as the state is delivered, so before the
    ///   parent reduces its next event (E50). Generated machines fill it only when the same child
    ///   runs before and after the step.
    /// - When the child finishes (see ``System/init(initial:reduce:feedbacks:isFinished:)``),
    ///   `output` maps its last state to the event fed back to the parent, or `nil` for none.
    ///   That event is tagged with the child's run: it is dropped if the child was stopped or
    ///   replaced before it is reduced (E51).
    /// - Stopping or finishing the parent stops every child; once the parent's
    ///   ``SystemRun/stop()`` returns, no child starts an effect any more (E52).
    /// - `sent`, when given, maps each state the child shows to the events it sends its parent
    ///   (Docs/Effects.md E70-E75); they are fed back in order, tagged with the child's run like
    ///   its output, and all before it.
    ///
    /// ```swift
    /// .child(request: { $0.paymentInput },
    ///        start: { input in Payment.system(input: input, effects: effects.pay(input), clock: clock) },
    ///        forwarded: { $0.forwarded.compactMap(\.pay) },
    ///        output: { payment in payment.output.map { .paid($0) } })
    /// ```
    @inlinable
    public static func child<Request: Equatable & Sendable, ChildState: Sendable, ChildEvent: Sendable>(
        request: @escaping @Sendable (State) -> Request?,
        start: @escaping @Sendable (Request) -> System<ChildState, ChildEvent>,
        forwarded: @escaping @Sendable (State) -> [ChildEvent],
        output: @escaping @Sendable (ChildState) -> Event?,
        sent: (@Sendable (ChildState) -> [Event])? = nil
    ) -> Feedback {
        child(request: request, start: { request, _ in start(request) }, forwarded: forwarded, output: output, sent: sent)
    }

    /// Runs a child machine while the state requests it, like
    /// ``child(request:start:forwarded:output:sent:)``; what generated machines use. When the parent
    /// instance is watched (the inspector), the child's instance is watched too, as a `Machine`
    /// (Docs/Inspector.md I6).
    @inlinable
    public static func child<Machine: StateMachine & SendableMetatype, Request: Equatable & Sendable>(
        machine: Machine.Type,
        request: @escaping @Sendable (State) -> Request?,
        start: @escaping @Sendable (Request) -> System<Machine.State, Machine.Event>,
        forwarded: @escaping @Sendable (State) -> [Machine.Event],
        output: @escaping @Sendable (Machine.State) -> Event?,
        sent: (@Sendable (Machine.State) -> [Event])? = nil
    ) -> Feedback {
        child(
            request: request,
            start: { request, parent in
                let system = start(request)
                return parent.map { system.watched(by: $0.children.watcher(for: Machine.self)) } ?? system
            },
            forwarded: forwarded, output: output, sent: sent)
    }

    /// The child feedback; `start` is also handed the watched parent, if any.
    @inlinable
    static func child<Request: Equatable & Sendable, ChildState: Sendable, ChildEvent: Sendable>(
        request: @escaping @Sendable (State) -> Request?,
        start: @escaping @Sendable (Request, WatchedParent?) -> System<ChildState, ChildEvent>,
        forwarded: @escaping @Sendable (State) -> [ChildEvent],
        output: @escaping @Sendable (ChildState) -> Event?,
        sent: (@Sendable (ChildState) -> [Event])?
    ) -> Feedback {
        Feedback { launcher in
            let deliver = launcher.deliver
            let immediately = launcher.immediately
            let parent = launcher.watched
            let loop = RequestLoop<State, Request, ChildRun<ChildState, ChildEvent>>(
                request: request,
                start: { request in
                    let token = EffectRun()
                    // E74: each state's events as the child shows it, before its next step.
                    let observer: @Sendable (ChildState) -> Void
                    if let sent {
                        observer = { state in for event in sent(state) { deliver(event, token) } }
                    } else {
                        observer = { _ in }
                    }
                    let run = start(request, parent).start(
                        observer: observer,
                        onStop: nil,
                        onFinished: { last in
                            if let event = output(last) { deliver(event, token) }
                        },
                        immediately: immediately,
                        parent: parent?.name)
                    return ChildRun(token: token, run: run)
                })
            return FeedbackLoop(
                observe: { state in
                    loop.observe(state)
                    if let child = loop.currentRun { child.send(forwarded(state)) }
                },
                stop: loop.stop)
        }
    }
}

/// One child system started for one request: its handle, the token its output carries, and, for
/// a durable child (DurableChild.swift), the journals of its parent and the last forwarded event
/// its own journal held when it was opened.
@usableFromInline
final class ChildRun<ChildState: Sendable, ChildEvent: Sendable>: CancellableRun {
    /// Made stale when the child is stopped, so that an output already on its way is dropped.
    @usableFromInline let token: EffectRun
    // Touched only by the parent's draining thread; see SystemCore for why the checks are off.
    @usableFromInline @exclusivity(unchecked) var run: SystemRun<ChildState, ChildEvent>?
    /// The journals of a durable parent, which say the step that forwards; `nil` for a plain child.
    @usableFromInline let journals: (any ChildJournals)?
    /// The last forwarded event the durable child's journal held when it was opened (D105).
    @usableFromInline let forwardedUpTo: ForwardedFrom?

    @inlinable
    init(token: EffectRun, run: SystemRun<ChildState, ChildEvent>?, journals: (any ChildJournals)? = nil, forwardedUpTo: ForwardedFrom? = nil) {
        self.token = token
        self.run = run
        self.journals = journals
        self.forwardedUpTo = forwardedUpTo
    }

    /// Sends the events the parent's step forwarded to the child, in order (a finished or stopped
    /// child ignores them). A durable child gets each tagged with the step and its place, but those
    /// its journal already held when it was opened (D105).
    @inlinable
    func send(_ events: [ChildEvent]) {
        guard let run, !events.isEmpty else { return }
        guard let journals else {
            for event in events { run.send(event) }
            return
        }
        let step = journals.step
        for (index, event) in events.enumerated() {
            let from = ForwardedFrom(parentStep: step, index: index)
            if let forwardedUpTo, from <= forwardedUpTo { continue }
            run.core.enqueue(event, from: ForwardedToken(from: from))
        }
    }

    /// Marks the child's output stale, then stops the child: when this returns, the child starts
    /// no effect any more (unless this thread is the child's own drainer, which tears it down when
    /// it returns to it).
    @inlinable
    func cancel() {
        token.cancel()
        let stopped = run
        run = nil
        stopped?.stop()
    }
}
