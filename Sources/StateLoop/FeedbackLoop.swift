// FeedbackLoop: the per-instance, running side of a `Feedback`, and how it starts effects.
//
// Everything on the per-event path is `@inlinable`/`@usableFromInline`: the generic runtime is
// then specialised for the client's concrete State and Event, instead of looking up generic
// metadata on every event. For the same reason a loop is reached through closures made in
// inlinable code, not through a protocol existential, whose witness would be the unspecialised
// generic code.
//
// Invariants:
// - A loop is called only by the thread that holds its instance's drain role: `observe` once per
//   state, in order, and `stop` once, at teardown, after which `observe` is never called.

/// The running side of one `Feedback` inside one system instance.
///
/// Loops are owned by their `SystemCore` and called only by the thread that currently drains it,
/// so the loop objects behind these closures keep plain mutable state without locks.
@usableFromInline
struct FeedbackLoop<State> {
    /// Sees every state, synchronously, before any event caused by it is reduced.
    @usableFromInline let observe: (State) -> Void
    /// Cancels every running effect; called once, when the system stops.
    @usableFromInline let stop: () -> Void

    @inlinable
    init(observe: @escaping (State) -> Void, stop: @escaping () -> Void) {
        self.observe = observe
        self.stop = stop
    }
}

/// How a loop starts effect runs whose events come back into its system.
@usableFromInline
struct EffectLauncher<Event: Sendable>: Sendable {
    /// Queues an effect's event together with the run that produced it.
    @usableFromInline let deliver: @Sendable (Event, EffectRun) -> Void
    /// Queues an event of a one-shot run: it carries no run, so it is never stale.
    @usableFromInline let send: @Sendable (Event) -> Void
    /// The instance's one-shot runs, which outlive every state change.
    @usableFromInline let oneShots: OneShotRuns
    /// Runs start on the draining thread until their first suspension (E54); `false` when
    /// `Task.immediate` is forced off (the instance's mode, read when it started).
    @usableFromInline let immediately: Bool

    @inlinable
    init(
        deliver: @escaping @Sendable (Event, EffectRun) -> Void,
        send: @escaping @Sendable (Event) -> Void,
        oneShots: OneShotRuns,
        immediately: Bool
    ) {
        self.deliver = deliver
        self.send = send
        self.oneShots = oneShots
        self.immediately = immediately
    }

    /// Starts `run` for `request` as a new run; its events are tagged with that run.
    @inlinable
    func launch<Request: Sendable>(
        _ request: Request,
        _ run: @escaping @Sendable (Request, _ send: @escaping @Sendable (Event) -> Void) async -> Void
    ) -> EffectRun {
        RequestRun(request: request, run: run, deliver: deliver, immediately: immediately)
    }

    /// Starts `operation` as a one-shot run: cancelled only when the system stops, waited for
    /// when it finishes.
    @inlinable
    func launchOneShot(
        _ operation: @escaping @Sendable (_ send: @escaping @Sendable (Event) -> Void) async -> Void
    ) {
        let send = self.send
        oneShots.start(immediately: immediately) { await operation(send) }
    }
}
