// SystemCore: one running instance of a System - the "floodgate" that serialises everything.
//
// Invariants:
// - The reducer, the event hook, the observer and the loops run on the thread that holds the
//   drain role, one event at a time, never concurrently or reentrantly: an event sent meanwhile
//   (from an effect task, another thread, or the observer) is only queued (semantics 3).
// - Every loop sees a state before the next event is reduced; the start shows the initial state
//   to every loop before any event (semantics 2).
// - The phase (running, stopping, finishing, ended) lives in one `SystemLifecycle` under `lock`,
//   and changes only through its methods (E65-E69); this file does what they decide.
// - Once `stop()` returns on a thread that does not drain, every loop is stopped (semantics 6).
// - No Swift Concurrency hop on the path from `send` to the loops; a drain reduces at most one
//   budget of events on its thread (E60).
//
// `send` puts an event into the lifecycle's queue under the lock. Whoever finds the instance
// idle takes the drain role and, outside the lock, reduces queued events first in first out;
// after each it hands the new state to the event hook, the observer and every feedback loop,
// synchronously.
//
// `@inlinable` throughout so that it is specialised for the client's State and Event (see
// FeedbackLoop.swift).

import DequeModule

/// One instance of a system: its state, its feedback loops and its lifecycle.
///
/// `@unchecked Sendable` because `lifecycle` is touched only under `lock`, and the fields below
/// it (`state`, `loops`, `isStopping`) only by the thread that holds the drain role. That role is
/// taken and given back under `lock`, so every hand-over is ordered by the lock, which also makes
/// it visible to ThreadSanitizer.
@usableFromInline
final class SystemCore<State: Sendable, Event: Sendable>: @unchecked Sendable {
    @usableFromInline typealias Lifecycle = SystemLifecycle<State, Event>

    // The mutable fields opt out of Swift's dynamic exclusivity checks: access is already
    // serialised (by `lock`, or by the drain role), and the checks cost about a third of the
    // time of an event.
    @usableFromInline let lock = PlatformLock()
    @usableFromInline @exclusivity(unchecked) var lifecycle: Lifecycle

    // Owned by the drainer (see the type's comment).
    @usableFromInline @exclusivity(unchecked) var state: State
    @usableFromInline @exclusivity(unchecked) var loops: [FeedbackLoop<State>] = []
    /// Every loop's `observe`, in order, as one closure made once the loops have started (see
    /// `chain`): one call per state from `process`, and no retain per loop.
    @usableFromInline @exclusivity(unchecked) var observeLoops: ((State) -> Void)?
    /// Set by a `stop()` made from inside the drainer's own call (reducer, hook, observer, a
    /// loop), and by the teardown: the loops not yet shown the current state are skipped, so they
    /// start no effect. Not a phase: the drainer's own note that the lifecycle is `.stopping` by
    /// its thread, read without the lock on the per-event path.
    @usableFromInline @exclusivity(unchecked) var isStopping = false
    @usableFromInline let reduce: @Sendable (inout State, Event) -> Void
    @usableFromInline let eventHook: (@Sendable (Event, State) -> Void)?
    /// The write-ahead of a durable instance (`SystemJournal.record`, handed the event's run),
    /// `nil` for any other.
    @usableFromInline let record: (@Sendable (Event, EffectRun?, State) -> RecordOutcome)?
    /// A hosted instance's states whose records are pending, with their events, oldest first:
    /// shown once durable (Docs/Hosting.md H20). Owned by the drainer; the lifecycle counts them.
    @usableFromInline @exclusivity(unchecked) var held = Deque<(event: Event, state: State)>()
    /// Whether a state is finished (the finish loop's check), for a held state (H8); set at the start.
    @usableFromInline @exclusivity(unchecked) var isFinished: (@Sendable (State) -> Bool)?
    @usableFromInline let observer: @Sendable (State) -> Void
    @usableFromInline let onStop: (@Sendable () -> Void)?
    /// Called with the finished state when the instance ends because it finished (E53).
    @usableFromInline let onFinished: (@Sendable (State) -> Void)?
    /// Its own lock; safe from any thread.
    @usableFromInline let oneShots = OneShotRuns()

    @inlinable
    init(
        initial: State,
        reduce: @escaping @Sendable (inout State, Event) -> Void,
        eventHook: (@Sendable (Event, State) -> Void)?,
        record: (@Sendable (Event, EffectRun?, State) -> RecordOutcome)?,
        observer: @escaping @Sendable (State) -> Void,
        onStop: (@Sendable () -> Void)?,
        onFinished: (@Sendable (State) -> Void)?
    ) {
        self.state = initial
        self.reduce = reduce
        self.eventHook = eventHook
        self.record = record
        self.observer = observer
        self.onStop = onStop
        self.onFinished = onFinished
        // The thread that creates the instance starts it (E65).
        lifecycle = Lifecycle(startingOn: currentThread())
    }

    deinit {
        lock.deallocate()
    }

    /// Delivers the initial state, starts every loop in order, then drains what they queued.
    ///
    /// The starter holds the drain role throughout, so events sent by effects that answer at once
    /// (or by the observer) wait until every loop has seen the initial state.
    ///
    /// With `isFinished`, one more loop after the feedbacks finishes the instance when it sees a
    /// finished state; without it there is no such loop, so the check costs nothing.
    ///
    /// `immediately`: effect runs start on the draining thread until their first suspension (E54).
    @inlinable
    func start(
        feedbacks: [Feedback<State, Event>], isFinished: (@Sendable (State) -> Bool)?, immediately: Bool,
        resume: Resumption<Event>? = nil, runReturnedNothing: (@Sendable (Int) -> Void)? = nil,
        watched: WatchedParent? = nil
    ) {
        // A run that outlives its system has nobody to talk to.
        let launcher = EffectLauncher<Event>(
            deliver: { [weak self] event, run in self?.enqueue(event, from: run) },
            oneShots: oneShots,
            immediately: immediately,
            resume: resume,
            runReturnedNothing: runReturnedNothing,
            watched: watched)
        self.isFinished = isFinished
        observer(state)
        loops.reserveCapacity(feedbacks.count + 1)
        for feedback in feedbacks {
            let loop = feedback.makeLoop(launcher)
            loops.append(loop)
            if !isStopping { loop.observe(state) }
        }
        if let isFinished {
            // Unowned: the loops belong to `self` and go when it goes.
            let loop = FeedbackLoop<State>(
                observe: { [unowned self] state in if isFinished(state) { finish(state) } },
                stop: {})
            loops.append(loop)
            if !isStopping { loop.observe(state) }
        }
        observeLoops = chain(loops[...])
        // The start counts as one step of this thread's budget.
        if drain(budget: DrainBudget.events - 1) { handOn() }
    }

    /// The loops' `observe` calls as one closure: the first loop, then, unless a `stop()` made
    /// from inside the call has set `isStopping`, the closure of the rest. Calling closures kept
    /// in an array retains and releases each one's context per call; closures captured by a
    /// closure are borrowed.
    @inlinable
    func chain(_ loops: ArraySlice<FeedbackLoop<State>>) -> ((State) -> Void)? {
        guard let first = loops.first?.observe else { return nil }
        guard let rest = chain(loops.dropFirst()) else { return first }
        // Unowned: the closures belong to `self` and go when it goes.
        return { [unowned(unsafe) self] state in
            first(state)
            if isStopping { return }
            rest(state)
        }
    }

    /// Queues `event`; reduces it (and whatever else is queued) at once if nobody drains.
    /// (Always inlined into its two callers, `SystemRun.send` and the effects' `deliver`: since
    /// the write-ahead check joined `process`, the optimizer no longer did; 12 instructions per
    /// event, Benchmarks/README.md "durability off".)
    @inlinable @inline(__always)
    func enqueue(_ event: Event, from run: EffectRun?) {
        lock.lock()
        let action = lifecycle.send(Lifecycle.Pending(event: event, run: run), from: currentThread())
        lock.unlock()
        // Nobody drained, so the queue is empty: this thread took the role and skips the queue.
        guard case .reduceNow = action else { return }
        process(event, from: run)
        if drain(budget: DrainBudget.events - 1) { handOn() }
    }

    /// Stops the instance: drops queued events, cancels every effect, finishes the observer.
    ///
    /// When this returns, no feedback loop starts an effect any more:
    /// - if nobody is draining, the caller takes the role for good and tears down now;
    /// - if another thread is draining, the caller waits until that drainer has finished the
    ///   event it is reducing (its state still reaches the loops) and has torn down;
    /// - if the caller is the drainer itself (a stop from the reducer, the hook, the observer or
    ///   a loop), the loops not yet shown the current state are skipped, and the drainer tears
    ///   down after it; it cannot wait for itself.
    ///
    /// While a finished instance waits for its one-shot runs, this cancels them and ends it now.
    @inlinable
    func stop() {
        var dropped = Lifecycle.Dropped()
        lock.lock()
        let action = lifecycle.stop(on: currentThread(), dropping: &dropped)
        lock.unlock()
        // Released outside the lock: an event's deinit may do anything. A finished state dropped
        // here is never reported: the instance was stopped first.
        _ = consume dropped
        switch action {
        case .tearDown:
            tearDown()
        case .fromInside:
            isStopping = true  // this thread owns the drainer's fields
        case .wait(let latch):
            latch.wait()
        case .endNow:
            oneShots.cancelAll()
            onStop?()
        case .nothing:
            break
        }
    }

    /// Reduces queued events until the queue is empty, then gives the role back; or, once
    /// `budget` events are reduced with more queued, hands the drain role on to a task (E60), so
    /// that the calling thread (whoever sent, or started the instance) is never held for longer
    /// than one budget, even by a loop that never runs empty.
    ///
    /// - Returns: Whether it handed the role on: the caller must then make a task take it
    ///   (``handOn()``), or, in that task, yield and take it again (``resumeDrain()``).
    /// (Always inlined, as the optimizer did until the write-ahead check joined `process`:
    /// called, it costs about 23 more instructions per event.)
    @inlinable @inline(__always)
    func drain(budget: Int) -> Bool {
        var budget = budget
        while true {
            lock.lock()
            let step = lifecycle.next(budgetLeft: budget)
            lock.unlock()
            switch step {
            case .reduce(let pending):
                budget -= 1
                process(pending.event, from: pending.run)
            case .show(let count):
                budget -= count
                showHeld(count)
            case .done:
                return false
            case .handOn:
                return true
            case .tearDown:
                tearDown()
                return false
            }
        }
    }

    /// Goes on draining in a new task on the global executor, a budget at a time, yielding
    /// between budgets (a loop that never runs empty takes turns with the pool's other work).
    /// The task holds the instance while it runs; a `stop()` while the role waits for it takes
    /// the role itself, and the task ends. (Inlinable, so that the task drains in code
    /// specialised for the client's State and Event, like the drainer that handed on.)
    @inlinable
    func handOn() {
        Task { [self] in
            while resumeDrain() { await Task.yield() }
        }
    }

    /// The task's side of ``handOn()``: takes the drain role unless a `stop()` took it first,
    /// and drains one budget. Returns whether it handed the role on again.
    @inlinable
    func resumeDrain() -> Bool {
        lock.lock()
        let resumes = lifecycle.resume(on: currentThread())
        lock.unlock()
        return resumes && drain(budget: DrainBudget.events)
    }

    /// Reduces one event and shows the new state to the hook, the observer and every loop.
    /// (Always inlined into its two callers, as the optimizer did before the lifecycle was one
    /// enum: called, it costs 16 more instructions per event.)
    @inlinable @inline(__always)
    func process(_ event: Event, from run: EffectRun?) {
        // Stale: its run was cancelled (request changed or gone) after the event was produced.
        if let run, !run.isCurrent { return }
        reduce(&state, event)
        // Write-ahead (D30): durable before anyone sees the state; a failed append stops (D33),
        // a pending one holds the state (H20).
        // The run's cast and the failure's path are out of line: inlined here, they made the
        // per-event code of every instance larger (Benchmarks/README.md, "durability off").
        if let record {
            let outcome = record(event, run, state)
            if outcome != .durable {
                holdOrStop(event, outcome)
                return
            }
        }
        show(event, state)
    }

    /// Shows the state after `event` to the hook, the observer and every loop.
    @inlinable @inline(__always)
    func show(_ event: Event, _ state: State) {
        eventHook?(event, state)
        observer(state)
        // Stopped from inside this call: start no effect for this state.
        if isStopping { return }
        observeLoops?(state)
    }

    /// The record of `event` was refused: the instance stops from inside `process` (D33); or it
    /// is pending: the state is held until the journal says it is durable (H20), and after a
    /// finished one nothing more is reduced (H8).
    @inlinable @inline(never)
    func holdOrStop(_ event: Event, _ outcome: RecordOutcome) {
        guard outcome == .pending else { return stop() }
        held.append((event, state))
        let finished = isFinished?(state) ?? false
        lock.lock()
        lifecycle.hold(finished: finished)
        lock.unlock()
    }

    /// Shows the `count` oldest held states, which are durable now, unless a `stop()` from inside
    /// one of them comes first.
    @inlinable @inline(never)
    func showHeld(_ count: Int) {
        for _ in 0..<count where !isStopping {
            let (event, state) = held.removeFirst()
            show(event, state)
        }
    }

    /// The journal made `count` more of the held states durable (a host's commit, from its
    /// writer's thread): a task shows them, unless someone drains (H13: never on the writer's
    /// thread).
    @inlinable
    func durable(_ count: Int) {
        lock.lock()
        let handsOn = lifecycle.durable(count)
        lock.unlock()
        if handsOn { handOn() }
    }

    /// Finishes the instance: called by the finish loop (on the draining thread) after every
    /// feedback has seen the finished state. Drops queued and later events like `stop()`; the
    /// drainer then tears down, keeping the one-shot runs, and the instance ends when they return.
    @inlinable
    func finish(_ finished: State) {
        var dropped = Lifecycle.Dropped()
        lock.lock()
        lifecycle.finish(onFinished == nil ? nil : finished, dropping: &dropped)
        lock.unlock()
        // Released outside the lock: an event's deinit may do anything.
        _ = consume dropped
    }

    /// Stops every loop (cancelling every effect), then ends at once (stopped: the one-shot runs
    /// are cancelled too) or once the one-shot runs have returned (finished), then lets `stop()`
    /// callers on other threads return. Called once, by the thread that holds the drain role.
    @inlinable
    func tearDown() {
        isStopping = true
        for loop in loops { loop.stop() }
        loops = []
        observeLoops = nil
        held = []
        lock.lock()
        let ending = lifecycle.loopsStopped()
        lock.unlock()
        switch ending {
        case .afterRuns:
            oneShots.whenIdle { [weak self] in self?.endAfterRuns() }
        case .stop:
            oneShots.cancelAll()
            onStop?()
            lock.lock()
            let latch = lifecycle.ended()
            lock.unlock()
            latch?.open()
        }
    }

    /// Ends a finished instance whose last one-shot run has returned, unless `stop()` ended it:
    /// finishes the observer, then reports the finished state (E53).
    ///
    /// Runs on the draining thread (no run was running) or on the last run's task. `onFinished`
    /// may deliver into another system (a parent) that stops this one from this very thread;
    /// `stop()` then finds the instance ended and returns at once.
    @inlinable
    func endAfterRuns() {
        lock.lock()
        let (ends, finished) = lifecycle.runsReturned()
        lock.unlock()
        guard ends else { return }
        onStop?()
        if let finished { onFinished?(finished) }
    }
}

/// How much one thread reduces in a row before it hands the rest of the queue on (E60).
@usableFromInline
enum DrainBudget {
    /// Events (each: reduce, hook, observer, every feedback) per drain on one thread; the start
    /// of an instance (the initial state to the observer and every loop) counts as one.
    @usableFromInline static let events = 4_096
}
