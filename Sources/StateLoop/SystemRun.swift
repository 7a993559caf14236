// SystemRun: the handle of one running instance of a System.
//
// Invariants:
// - The handle owns its instance: releasing it stops the instance, exactly as `stop()` does.

/// The handle of one running instance of a ``System``: send it events, stop it.
///
/// The instance lives as long as this handle: releasing the handle stops it, cancelling every
/// effect, exactly like ``stop()``.
public final class SystemRun<State: Sendable, Event: Sendable>: Sendable {
    @usableFromInline let core: SystemCore<State, Event>

    @inlinable
    init(core: SystemCore<State, Event>) {
        self.core = core
    }

    deinit {
        core.stop()
    }

    /// Sends an event from outside, from any thread.
    ///
    /// If no event is being reduced, this reduces it on the calling thread before returning,
    /// with whatever the states it makes queue, up to 4,096 events in all; the rest is reduced
    /// by a task, so the call returns after bounded work (E60). Otherwise it is queued and
    /// reduced in order by the thread that is reducing. Events sent after the instance stopped
    /// are ignored.
    ///
    /// (Always inlined into the caller, as the optimizer did until the write-ahead check joined
    /// the per-event path: called, it costs 35 more instructions per event, Benchmarks/README.md
    /// "durability off".)
    @inlinable @inline(__always)
    public func send(_ event: Event) {
        core.enqueue(event, from: nil)
    }

    /// Stops the instance: drops queued events, cancels every running effect (their late events
    /// are dropped), and finishes the state sequence. Stopping twice is harmless.
    ///
    /// Once this returns, no feedback starts an effect any more. If another thread is reducing
    /// an event, this waits until that thread has delivered the event's state and torn the
    /// instance down: do not call it from a thread that the observer, the reducer or a feedback
    /// of this instance waits for. Called from inside the instance (the observer, a feedback's
    /// request), it skips the feedbacks not yet shown the current state and returns at once.
    @inlinable
    public func stop() {
        core.stop()
    }

    /// Sends an event from outside, as ``send(_:)`` does, with the token a host's record is
    /// handed for it (its sender, Docs/Hosting.md H12).
    @inlinable
    package func send(_ event: Event, token: SentToken) {
        core.enqueue(event, from: token)
    }

    /// The journal made `count` more of the states whose records it answered `pending` durable
    /// (a host's commit, Docs/Hosting.md H12, H20): they are shown, the oldest first, on a task,
    /// unless a thread is draining, which shows them next. From any thread.
    @inlinable
    package func durable(_ count: Int) {
        core.durable(count)
    }
}

/// A weak reference to an instance's handle, for a state callback that is handed the handle
/// (the `start(onState:)` whose closure takes the state and the handle). Weak: the instance must not keep its own
/// handle alive. Set once, before the instance starts; read by whoever drains it.
@usableFromInline
final class RunReference<State: Sendable, Event: Sendable>: @unchecked Sendable {
    @usableFromInline weak var run: SystemRun<State, Event>?

    @inlinable
    init() {}
}
