// System: the description of a feedback-loop system, and the way to start instances of it.
//
// Invariants:
// - A `System` is immutable and `Sendable`; each `start` makes one `SystemCore`, independent of
//   every other, and returns the only strong reference to it that outlives the start (its
//   `SystemRun`).

/// A feedback-loop system: an initial state, a pure reducer, and the feedback loops that run
/// effects the state asks for.
///
/// A `System` is an immutable description. Every ``start(onState:)-((State)->Void)`` (or
/// ``start(bufferingPolicy:)``) makes a fresh, independent instance with its own state, queue
/// and effects, and returns its ``SystemRun`` handle. The instance runs until the handle is
/// stopped or released, until the observer of its states goes away, or until it finishes (see
/// ``init(initial:reduce:feedbacks:isFinished:)``).
///
/// ```swift
/// let system = System<Int, Counter.Event>(initial: 0, reduce: Counter.reduce, feedbacks: [])
/// let (run, states) = system.start()
/// run.send(.increment)
/// for await count in states { print(count) }   // 0, 1
/// ```
public final class System<State: Sendable, Event: Sendable>: Sendable {
    @usableFromInline let initial: State
    @usableFromInline let reduce: @Sendable (inout State, Event) -> Void
    @usableFromInline let feedbacks: [Feedback<State, Event>]
    @usableFromInline let eventHook: (@Sendable (Event, State) -> Void)?
    @usableFromInline let isFinished: (@Sendable (State) -> Bool)?
    /// Follows every instance (the inspector); `nil` for a system nobody watches.
    @usableFromInline let watcher: InstanceWatcher<State, Event>?

    /// Describes a system: its initial state, its reducer and its feedback loops (started in
    /// this order).
    ///
    /// - Parameters:
    ///   - initial: The state every instance starts in.
    ///   - reduce: Applies one event to the state. It must be pure: effects belong in feedbacks.
    ///   - feedbacks: The loops that run effects requested by the state.
    @inlinable
    public convenience init(
        initial: State,
        reduce: @escaping @Sendable (inout State, Event) -> Void,
        feedbacks: [Feedback<State, Event>]
    ) {
        self.init(initial: initial, reduce: reduce, feedbacks: feedbacks, isFinished: nil, eventHook: nil)
    }

    /// Describes a system that ends by itself: once it delivers a state for which `isFinished`
    /// is true (the initial state included), it finishes.
    ///
    /// Finishing: every feedback still sees the finished state, so the one-shot runs it queued
    /// (``Feedback/runs(pending:effect:)``) start; then every other effect is cancelled and
    /// every later event dropped; the instance waits for the one-shot runs it has started
    /// (their events are dropped), and then ends: the state sequence finishes, as on
    /// ``SystemRun/stop()``. A `stop()` during that wait cancels the runs at once.
    ///
    /// - Parameters:
    ///   - initial: The state every instance starts in.
    ///   - reduce: Applies one event to the state. It must be pure: effects belong in feedbacks.
    ///   - feedbacks: The loops that run effects requested by the state.
    ///   - isFinished: Whether a state is final; `nil` for a system that never finishes by
    ///     itself (then the check costs nothing).
    @inlinable
    public convenience init(
        initial: State,
        reduce: @escaping @Sendable (inout State, Event) -> Void,
        feedbacks: [Feedback<State, Event>],
        isFinished: (@Sendable (State) -> Bool)?
    ) {
        self.init(initial: initial, reduce: reduce, feedbacks: feedbacks, isFinished: isFinished, eventHook: nil)
    }

    @usableFromInline
    init(
        initial: State,
        reduce: @escaping @Sendable (inout State, Event) -> Void,
        feedbacks: [Feedback<State, Event>],
        isFinished: (@Sendable (State) -> Bool)?,
        eventHook: (@Sendable (Event, State) -> Void)?,
        watcher: InstanceWatcher<State, Event>? = nil
    ) {
        self.initial = initial
        self.reduce = reduce
        self.feedbacks = feedbacks
        self.isFinished = isFinished
        self.eventHook = eventHook
        self.watcher = watcher
    }

    /// The same system, calling `observe` with every reduced event and the state after it.
    ///
    /// Meant for logging and debugging, e.g. `system.observingEvents { logger.debug("\($0) ->
    /// \($1)") }` with swift-log. `observe` runs synchronously on the thread that reduced the
    /// event, before the state reaches the observer and the feedback loops; keep it quick.
    /// Several hooks run in the order they were added. Dropped (stale) events are not reported.
    public func observingEvents(_ observe: @escaping @Sendable (Event, State) -> Void) -> System {
        let hook: @Sendable (Event, State) -> Void
        if let earlier = eventHook {
            hook = { event, state in
                earlier(event, state)
                observe(event, state)
            }
        } else {
            hook = observe
        }
        return System(
            initial: initial, reduce: reduce, feedbacks: feedbacks, isFinished: isFinished, eventHook: hook,
            watcher: watcher)
    }

    /// The same system, each instance of which `watcher` follows from its start (the inspector,
    /// StateLoopInspector's `inspected(_:by:)`); it replaces an earlier watcher.
    @usableFromInline package func watched(by watcher: @escaping InstanceWatcher<State, Event>) -> System {
        System(
            initial: initial, reduce: reduce, feedbacks: feedbacks, isFinished: isFinished, eventHook: eventHook,
            watcher: watcher)
    }

    /// Starts a fresh instance and calls `onState` with every state, in order, starting with the
    /// initial state (before this method returns).
    ///
    /// `onState` runs synchronously on the thread that reduced the event, never concurrently
    /// with itself or the reducer; it may call ``SystemRun/send(_:)`` (the event is queued and
    /// reduced after the current one). Hop to your UI's actor yourself, or use ``Store``.
    ///
    /// This thread reduces at most 4,096 events before `start` returns, however many the
    /// initial state causes (effects that answer at once, an observer that sends); the rest is
    /// reduced by a task (E60). To stop the instance from `onState`, from the first state on,
    /// use the `start(onState:)` whose closure is also handed the instance's handle.
    ///
    /// - Returns: The instance's handle. Keep it: releasing it stops the instance.
    @inlinable
    public func start(onState: @escaping @Sendable (State) -> Void) -> SystemRun<State, Event> {
        start(observer: onState, onStop: nil, onFinished: nil, immediately: EffectStart.immediately())
    }

    /// Starts a fresh instance like ``start(onState:)``, and hands `onState` the instance's own
    /// handle with every state, from the initial state on: the way to stop the instance (or send
    /// to it) from its state callback, as RxFeedback's `take(n)` does (E60).
    ///
    /// ```swift
    /// var seen = 0   // (in a Sendable box)
    /// let run = system.start { state, run in
    ///     seen += 1
    ///     if seen == 4 { run.stop() }   // no fifth state, even if every effect answers at once
    /// }
    /// ```
    ///
    /// `run` is the handle this method returns (the callback may run before it returns, on this
    /// thread). Use it, do not keep it from the callback: the instance would then keep its own
    /// handle alive and run until stopped. While the handle is being released (which stops the
    /// instance), a state being delivered on another thread is not shown to `onState`.
    ///
    /// - Returns: The instance's handle. Keep it: releasing it stops the instance.
    @inlinable
    public func start(
        onState: @escaping @Sendable (_ state: State, _ run: SystemRun<State, Event>) -> Void
    ) -> SystemRun<State, Event> {
        let handle = RunReference<State, Event>()
        return start(
            observer: { state in
                // `nil` only while the handle is being released, which stops the instance.
                if let run = handle.run { onState(state, run) }
            },
            onStop: nil, onFinished: nil, immediately: EffectStart.immediately(), handle: handle)
    }

    /// Starts a fresh instance like ``start(onState:)-((State)->Void)``, and calls `onFinished` with the last
    /// state once the instance ends because it finished (E53).
    ///
    /// `onFinished` is called once, after the instance has finished (see
    /// ``init(initial:reduce:feedbacks:isFinished:)``) and its one-shot runs have returned, on
    /// the thread that ended it. It is never called for an instance that was stopped (by
    /// ``SystemRun/stop()`` or by releasing the handle) before it ended; a system without
    /// `isFinished` never calls it. ``Feedback/child(request:start:forwarded:output:sent:)`` uses it
    /// to feed a child's output back to its parent.
    ///
    /// - Returns: The instance's handle. Keep it: releasing it stops the instance.
    @inlinable
    public func start(
        onState: @escaping @Sendable (State) -> Void,
        onFinished: @escaping @Sendable (State) -> Void
    ) -> SystemRun<State, Event> {
        start(observer: onState, onStop: nil, onFinished: onFinished, immediately: EffectStart.immediately())
    }

    /// Starts a fresh instance and returns its handle with the sequence of its states, starting
    /// with the initial state.
    ///
    /// With the default `.unbounded` policy the sequence yields every state, in order; with
    /// `.bufferingNewest(1)` a slow consumer sees only the latest state. The sequence finishes
    /// when the instance stops. Ending the iteration (or dropping the sequence) stops the
    /// instance, as does releasing the handle.
    @inlinable
    public func start(
        bufferingPolicy: AsyncStream<State>.Continuation.BufferingPolicy = .unbounded
    ) -> (run: SystemRun<State, Event>, states: AsyncStream<State>) {
        let (states, continuation) = AsyncStream.makeStream(
            of: State.self, bufferingPolicy: bufferingPolicy)
        let run = start(
            observer: { state in continuation.yield(state) },
            onStop: { continuation.finish() },
            onFinished: nil,
            immediately: EffectStart.immediately())
        // Weak: the handle's owner decides the instance's lifetime, not the stream.
        continuation.onTermination = { [weak core = run.core] _ in core?.stop() }
        return (run, states)
    }

    /// Starts an instance. `immediately`: its effect runs start on the draining thread (E54);
    /// the public `start` methods read it from `EffectStart`, a child takes its parent's.
    /// `handle`: set to the instance's handle before the initial state is delivered.
    /// `parent`: the name of the watched instance whose feedbacks start this one (a child).
    @inlinable
    func start(
        observer: @escaping @Sendable (State) -> Void,
        onStop: (@Sendable () -> Void)?,
        onFinished: (@Sendable (State) -> Void)?,
        immediately: Bool,
        handle: RunReference<State, Event>? = nil,
        journal: SystemJournal<State, Event>? = nil,
        parent: String? = nil
    ) -> SystemRun<State, Event> {
        guard let watcher else {
            return start(
                reduce: reduce, eventHook: eventHook, observer: observer, onStop: onStop, onFinished: onFinished,
                immediately: immediately, handle: handle, journal: journal, watched: nil)
        }
        // Asked once per instance: what is not watched pays nothing per event (Docs/Inspector.md).
        let watch = watcher(initial, parent)
        let hook: @Sendable (Event, State) -> Void
        if let eventHook {
            hook = { event, state in
                eventHook(event, state)
                watch.step(event, state)
            }
        } else {
            hook = watch.step
        }
        return start(
            reduce: watch.reduce, eventHook: hook, observer: observer,
            onStop: {
                onStop?()
                watch.stopped()
            },
            onFinished: onFinished, immediately: immediately, handle: handle, journal: journal, watched: watch.asParent)
    }

    /// Makes the instance's core and starts it; `watched`: the instance as its children see it,
    /// if watched.
    @inlinable
    func start(
        reduce: @escaping @Sendable (inout State, Event) -> Void,
        eventHook: (@Sendable (Event, State) -> Void)?,
        observer: @escaping @Sendable (State) -> Void,
        onStop: (@Sendable () -> Void)?,
        onFinished: (@Sendable (State) -> Void)?,
        immediately: Bool,
        handle: RunReference<State, Event>?,
        journal: SystemJournal<State, Event>?,
        watched: WatchedParent?
    ) -> SystemRun<State, Event> {
        let core = SystemCore(
            initial: initial, reduce: reduce, eventHook: eventHook, record: journal?.recordOfRun,
            observer: observer, onStop: onStop, onFinished: onFinished)
        let run = SystemRun(core: core)
        handle?.run = run
        core.start(
            feedbacks: feedbacks, isFinished: isFinished, immediately: immediately,
            resume: journal?.resume, runReturnedNothing: journal?.runReturnedNothing, watched: watched)
        return run
    }

    /// Starts an instance like ``start(onState:)`` that makes every reduced event durable with
    /// `journal.record` before anyone sees the state after it, and whose loops resume with
    /// `journal.resume` (StateLoopDurable's `DurableSystem`, Docs/Durability.md D30-D49).
    /// `onStop` is called once the instance has ended, however it ended.
    @usableFromInline
    package func start(
        journal: SystemJournal<State, Event>,
        onState: @escaping @Sendable (State) -> Void,
        onStop: @escaping @Sendable () -> Void
    ) -> SystemRun<State, Event> {
        start(
            observer: onState, onStop: onStop, onFinished: nil, immediately: EffectStart.immediately(),
            journal: journal)
    }
}
