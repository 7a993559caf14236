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
    /// The instance's one-shot runs, which outlive every state change.
    @usableFromInline let oneShots: OneShotRuns
    /// Runs start on the draining thread until their first suspension (E54); `false` when
    /// `Task.immediate` is forced off (the instance's mode, read when it started).
    @usableFromInline let immediately: Bool
    /// What a durable instance restored from its journal resumes with (D37-D40); `nil` otherwise.
    @usableFromInline let resume: Resumption<Event>?
    /// Told of a one-shot run that returned no event, in a durable instance (D37).
    @usableFromInline let runReturnedNothing: (@Sendable (Int) -> Void)?
    /// The instance as its children see it, when it is watched (the inspector).
    @usableFromInline let watched: WatchedParent?

    @inlinable
    init(
        deliver: @escaping @Sendable (Event, EffectRun) -> Void,
        oneShots: OneShotRuns,
        immediately: Bool,
        resume: Resumption<Event>?,
        runReturnedNothing: (@Sendable (Int) -> Void)?,
        watched: WatchedParent? = nil
    ) {
        self.deliver = deliver
        self.oneShots = oneShots
        self.immediately = immediately
        self.resume = resume
        self.runReturnedNothing = runReturnedNothing
        self.watched = watched
    }

    /// Starts `run` for `request` as a new run; its events are tagged with that run.
    @inlinable
    func launch<Request: Sendable>(
        _ request: Request,
        _ run: @escaping @Sendable (Request, _ send: @escaping @Sendable (Event) -> Void) async -> Void
    ) -> EffectRun {
        RequestRun(request: request, run: run, deliver: deliver, immediately: immediately)
    }

    /// Starts the one-shot run numbered `key` with `effect`: cancelled only when the system
    /// stops, waited for when it finishes. The effect sees its number as ``OneShotRun/key``; its
    /// event carries a token that is never stale, and the number, for the journal.
    @inlinable
    func launchOneShot(key: Int, _ effect: @escaping @Sendable () async -> Event?) {
        let deliver = self.deliver
        let returnedNothing = runReturnedNothing
        oneShots.start(immediately: immediately) {
            let event = await OneShotRun.$key.withValue(key) { await effect() }
            // Stopped meanwhile: its event is dropped, and the run is not known finished.
            if Task.isCancelled { return }
            if let event {
                deliver(event, OneShotToken(key: key))
            } else {
                returnedNothing?(key)
            }
        }
    }
}
