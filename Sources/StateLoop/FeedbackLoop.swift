// FeedbackLoop: the per-instance, running side of a `Feedback`.

/// The running side of one `Feedback` inside one system instance.
///
/// Loops are owned by their `SystemCore` and called only by the thread that currently drains it,
/// so they keep plain mutable state without locks.
protocol FeedbackLoop<State>: AnyObject {
    associatedtype State
    /// Sees every state, synchronously, before any event caused by it is reduced.
    func observe(_ state: State)
    /// Cancels every running effect; called once, when the system stops.
    func stop()
}

/// How a loop starts effect runs whose events come back into its system.
struct EffectLauncher<Event: Sendable>: Sendable {
    /// Queues an effect's event together with the run that produced it.
    let deliver: @Sendable (Event, EffectRun) -> Void

    /// Starts `operation` as a new run; its events are tagged with that run.
    func launch(
        _ operation: @escaping @Sendable (_ send: @escaping @Sendable (Event) -> Void) async -> Void
    ) -> EffectRun {
        EffectRun(deliver: deliver, operation: operation)
    }
}
