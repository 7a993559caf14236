// EffectRun: one run of one effect, and the token its events carry back into the queue.

/// One run of an effect: the task that runs it and whether it is still the current run.
///
/// Every event an effect produces is queued together with its run; the system drops the event
/// at dequeue time if the run is no longer current. That is what makes late events of a
/// cancelled effect harmless, even when they were already queued before the cancellation.
///
/// `@unchecked Sendable` because the run crosses into its own task (as a token only) and
/// through the queue, while its mutable fields are touched only by the thread that currently
/// drains the system; the hand-over of that role happens under the system's lock, which orders
/// every access (see `SystemCore`).
@usableFromInline
final class EffectRun: CancellableRun, @unchecked Sendable {
    /// Cleared when the run is cancelled; read when one of its events is dequeued.
    /// (Touched only by the draining thread; see SystemCore for why the checks are off.)
    @usableFromInline @exclusivity(unchecked) var isCurrent = true
    @usableFromInline @exclusivity(unchecked) var task: Task<Void, Never>?

    /// A run without a task: only the token for events that come from elsewhere (the output of a
    /// child system, E51).
    @inlinable
    init() {}

    /// Starts `operation` in a new task; its events reach `deliver` tagged with this run.
    ///
    /// `immediately`: the task starts on the calling (draining) thread and runs there until its
    /// first suspension (E54), where the platform has `Task.immediate`; its events sent meanwhile
    /// are only queued, since the caller holds the drain role. Otherwise it starts on the
    /// global executor.
    @inlinable
    init<Event: Sendable>(
        deliver: @escaping @Sendable (Event, EffectRun) -> Void,
        immediately: Bool,
        operation: @escaping @Sendable (_ send: @escaping @Sendable (Event) -> Void) async -> Void
    ) {
        // The task holds the run only as the token to send back; it never reads its fields.
        // The reference cycle run -> task -> closure -> run ends when the task finishes.
        task = startTask(immediately: immediately) { [self] in
            // Cancelled before the task began (its request changed, or the system stopped):
            // the effect does not start at all. (Never the case for a task started immediately.)
            if Task.isCancelled { return }
            await operation { event in deliver(event, self) }
        }
    }

    /// Marks the run stale and cancels its task. Called by the draining thread only.
    @inlinable
    func cancel() {
        isCurrent = false
        task?.cancel()
        task = nil
    }
}
