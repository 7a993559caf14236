// EffectRun: one run of one effect, and the token its events carry back into the queue.
//
// Invariants:
// - `isCurrent` goes from true to false once (on cancel), never back, and only on the draining
//   thread; an event whose run is not current when it is dequeued is dropped (stale).
// - A run holds its system only weakly (through its launcher), so a slow effect cannot keep a
//   stopped system alive.

/// One run of an effect: the task that runs it and whether it is still the current run.
///
/// Every event an effect produces is queued together with its run; the system drops the event
/// at dequeue time if the run is no longer current. That is what makes late events of a
/// cancelled effect harmless, even when they were already queued before the cancellation.
///
/// The base class is the token alone (a child system's output carries one, E51); a run with a
/// task is a ``RequestRun``.
///
/// `@unchecked Sendable` because the run crosses into its own task (as a token only) and
/// through the queue, while its mutable fields are touched only by the thread that currently
/// drains the system; the hand-over of that role happens under the system's lock, which orders
/// every access (see `SystemCore`).
@usableFromInline
package class EffectRun: CancellableRun, @unchecked Sendable {
    /// Cleared when the run is cancelled; read when one of its events is dequeued.
    /// (Touched only by the draining thread; see SystemCore for why the checks are off.)
    @usableFromInline @exclusivity(unchecked) final var isCurrent = true
    @usableFromInline @exclusivity(unchecked) final var task: Task<Void, Never>?
    /// The last state (by a ``RequestSetLoop``'s count) whose set kept this run: how the loop
    /// finds its leavers without looking each running element up in the new set.
    @usableFromInline @exclusivity(unchecked) final var keptAt = 0

    /// A run without a task: only the token for events that come from elsewhere.
    @inlinable
    init() {}

    /// Marks the run stale and cancels its task. Called by the draining thread only.
    @inlinable
    final func cancel() {
        isCurrent = false
        task?.cancel()
        task = nil
    }
}

/// A run of `run` for one request, in a task of its own; its events reach `deliver` tagged with
/// this run.
///
/// The run object is also what its task's closure and its `send` function capture, and nothing
/// else: a closure whose only capture is one object uses that object as its context, so a run
/// costs one allocation besides its task, however many closures refer to it (the restart
/// benchmark's instruction count, Benchmarks/README.md).
@usableFromInline
final class RequestRun<Request: Sendable, Event: Sendable>: EffectRun, @unchecked Sendable {
    @usableFromInline let request: Request
    @usableFromInline let run: @Sendable (Request, _ send: @escaping @Sendable (Event) -> Void) async -> Void
    @usableFromInline let deliver: @Sendable (Event, EffectRun) -> Void

    /// Starts the run. `immediately`: its task starts on the calling (draining) thread and runs
    /// there until its first suspension (E54), where the platform has `Task.immediate`; the
    /// events it sends meanwhile are only queued, since the caller holds the drain role.
    /// Otherwise the task starts on the global executor.
    @inlinable
    init(
        request: Request,
        run: @escaping @Sendable (Request, _ send: @escaping @Sendable (Event) -> Void) async -> Void,
        deliver: @escaping @Sendable (Event, EffectRun) -> Void,
        immediately: Bool
    ) {
        self.request = request
        self.run = run
        self.deliver = deliver
        super.init()
        // The task holds the run as its context, and the run its task: the cycle ends when the
        // task finishes or the run is cancelled.
        #if compiler(>=6.2)
        if immediately, #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            task = Task.immediate { [self] in await self.run(self.request, self.send) }
            return
        }
        #endif
        task = Task { [self] in
            // Cancelled before the task began (its request changed, or the system stopped):
            // the effect does not start at all.
            if Task.isCancelled { return }
            await self.run(self.request, self.send)
        }
    }

    /// Queues `event` tagged with this run, from any thread.
    @inlinable
    @Sendable
    func send(_ event: Event) {
        deliver(event, self)
    }
}

/// The token of a one-shot run's event: never cancelled, so the event is never stale; it carries
/// the run's number, which a durable instance journals with the event (D32).
@usableFromInline
final class OneShotToken: EffectRun, @unchecked Sendable {
    @usableFromInline let key: Int

    @inlinable
    init(key: Int) {
        self.key = key
        super.init()
    }
}
