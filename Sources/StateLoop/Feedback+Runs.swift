// Feedback+Runs: one-shot effects that the state queues, `runs(pending:effect:)`.
//
// Invariants:
// - Each queued run starts exactly once, in queue order; no state change cancels it and its event
//   is never stale; only the instance's stop cancels it, and a finish waits for it.

extension Feedback {
    /// Starts, exactly once each and in queue order, the one-shot runs that the state queues,
    /// and feeds back the event each returns.
    ///
    /// `pending` returns how many runs the state has ever queued (`queued`) and the latest of
    /// them (`runs`, numbered `queued - runs.count ..< queued`). When the loop sees a state whose
    /// `queued` is above the number it has started, it starts the runs numbered from there to
    /// `queued`; a state seen again, or with a lower count, starts nothing.
    ///
    /// A run is never cancelled by a state change, only when the system stops; its event (if
    /// `effect` returns one) is never dropped as stale. Several runs may be in flight at once.
    /// A system that finishes (see ``System/init(initial:reduce:feedbacks:isFinished:)``)
    /// waits for its runs before it ends.
    ///
    /// ```swift
    /// .runs(pending: { state in (state._runsQueued, state.runs) }, effect: { run in
    ///     await effects.perform(run)
    /// })
    /// ```
    @inlinable
    public static func runs<Run: Sendable>(
        pending: @escaping @Sendable (State) -> (queued: Int, runs: [Run]),
        effect: @escaping @Sendable (Run) async -> Event?
    ) -> Feedback {
        Feedback { launcher in
            let loop = RunsLoop(pending: pending, effect: effect, launcher: launcher)
            // Nothing to stop: the runs belong to the instance's `OneShotRuns`.
            return FeedbackLoop(observe: loop.observe, stop: {})
        }
    }
}
