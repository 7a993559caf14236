// SystemCore: one running instance of a System - the "floodgate" that serialises everything.
//
// `send` puts an event into a queue under a lock. Whoever finds the gate open takes the drain
// role and, outside the lock, reduces queued events one at a time, first in first out; after
// each event it hands the new state to the event hook, the observer and every feedback loop,
// synchronously. An event sent meanwhile (from an effect task, from another thread, or
// reentrantly from the observer) is only queued; the drainer picks it up. So the reducer and the
// loops never run concurrently or reentrantly, and no Swift Concurrency hop sits on that path.
//
// The queue is a `Deque` (a ring buffer): the drainer takes each event out before reducing it,
// so the queue holds only the events that wait, however long it goes without running empty.
//
// `@inlinable` throughout so that it is specialised for the client's State and Event (see
// FeedbackLoop.swift).

import DequeModule

/// One instance of a system: its state, its feedback loops and its event queue.
///
/// `@unchecked Sendable` because `gate` is touched only under `lock`, and the fields below it
/// (`state`, `loops`, `isStopping`) only by the thread that holds the drain role. That role is
/// taken and given back under `lock`, so every hand-over is ordered by the lock, which also makes
/// it visible to ThreadSanitizer.
@usableFromInline
final class SystemCore<State: Sendable, Event: Sendable>: @unchecked Sendable {
    /// What the lock protects.
    @usableFromInline
    struct Gate {
        /// Events waiting for the drainer, each with the effect run that produced it (if any),
        /// oldest first. An event leaves it when its reduction starts: memory follows the events
        /// waiting, not those reduced since the queue last ran empty.
        @usableFromInline var queue = Deque<Pending>()
        /// Someone is draining. Starts `true`: the starter holds the gate until every loop runs.
        @usableFromInline var isDraining = true
        /// Once set, the gate never opens again and new events are dropped.
        @usableFromInline var isStopped = false
        /// The thread that holds the drain role (meaningful while `isDraining`); `nil` while the
        /// role is handed on.
        @usableFromInline var drainer: PlatformThread?
        /// A drainer spent its budget with events still queued and handed the role on to a task
        /// that has not taken it yet (`isDraining` stays set, `drainer` is `nil`). A `stop()`
        /// meanwhile takes the role itself; the task then finds nothing to do.
        @usableFromInline var isHandedOn = false
        /// Every loop is stopped and every effect cancelled; `stop()` callers may return.
        @usableFromInline var isTornDown = false
        /// Where `stop()` callers on other threads wait for the drainer to tear down; made by
        /// the first caller that has to wait.
        @usableFromInline var tornDown: OneShotLatch?
        /// How the instance ends once `isStopped` is set.
        @usableFromInline var ending = Ending.stop
        /// The finished state, kept from `finish` for `onFinished` until the instance ends.
        @usableFromInline var finishedState: State?

        @inlinable init() {}
    }

    /// How a stopped instance ends: at once, or after its one-shot runs have returned.
    @usableFromInline
    enum Ending {
        /// Stopped: the drainer cancels every effect and ends at once.
        case stop
        /// A finished state was delivered: the drainer cancels every effect but the one-shot
        /// runs, and waits for those. A `stop()` before that turns this back into `.stop`.
        case finish
        /// Waiting for the one-shot runs; whichever comes first of a `stop()` (which cancels
        /// them) and the last run's return ends the instance.
        case waitingForRuns
        /// `onStop` (and, for a finish, `onFinished`) has been called, or is being called.
        case ended
    }

    /// A queued event and the run it came from (`nil` for events sent from outside).
    @usableFromInline
    struct Pending {
        @usableFromInline let event: Event
        @usableFromInline let run: EffectRun?

        @inlinable
        init(event: Event, run: EffectRun?) {
            self.event = event
            self.run = run
        }
    }

    // The mutable fields opt out of Swift's dynamic exclusivity checks: access is already
    // serialised (by `lock`, or by the drain role), and the checks cost about a third of the
    // time of an event.
    @usableFromInline let lock = PlatformLock()
    @usableFromInline @exclusivity(unchecked) var gate = Gate()

    // Owned by the drainer (see the type's comment).
    @usableFromInline @exclusivity(unchecked) var state: State
    @usableFromInline @exclusivity(unchecked) var loops: [FeedbackLoop<State>] = []
    /// Every loop's `observe`, in order, as one closure made once the loops have started (see
    /// `chain`): one call per state from `process`, and no retain per loop.
    @usableFromInline @exclusivity(unchecked) var observeLoops: ((State) -> Void)?
    /// Set by a `stop()` made from inside the drainer's own call (reducer, hook, observer, a
    /// loop): the loops not yet shown the current state are skipped, so they start no effect.
    @usableFromInline @exclusivity(unchecked) var isStopping = false
    @usableFromInline let reduce: @Sendable (inout State, Event) -> Void
    @usableFromInline let eventHook: (@Sendable (Event, State) -> Void)?
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
        observer: @escaping @Sendable (State) -> Void,
        onStop: (@Sendable () -> Void)?,
        onFinished: (@Sendable (State) -> Void)?
    ) {
        self.state = initial
        self.reduce = reduce
        self.eventHook = eventHook
        self.observer = observer
        self.onStop = onStop
        self.onFinished = onFinished
        // The gate starts closed: the thread that creates the instance starts it.
        gate.drainer = currentThread()
    }

    deinit {
        lock.deallocate()
    }

    /// Delivers the initial state, starts every loop in order, then opens the gate.
    ///
    /// The starter holds the drain role throughout, so events sent by effects that answer at once
    /// (or by the observer) wait until every loop has seen the initial state.
    ///
    /// With `isFinished`, one more loop after the feedbacks finishes the instance when it sees a
    /// finished state; without it there is no such loop, so the check costs nothing.
    ///
    /// `immediately`: effect runs start on the draining thread until their first suspension (E54).
    @inlinable
    func start(feedbacks: [Feedback<State, Event>], isFinished: (@Sendable (State) -> Bool)?, immediately: Bool) {
        // A run that outlives its system has nobody to talk to.
        let launcher = EffectLauncher<Event>(
            deliver: { [weak self] event, run in self?.enqueue(event, from: run) },
            send: { [weak self] event in self?.enqueue(event, from: nil) },
            oneShots: oneShots,
            immediately: immediately)
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

    /// The loops' `observe` calls as one closure: each loop, then, unless a `stop()` made from
    /// inside the call has set `isStopping`, the next. Calling closures kept in an array retains
    /// and releases each one's context per call; closures captured by a closure are borrowed.
    /// Up to three loops are called by one closure, which then calls the closure of the rest.
    @inlinable
    func chain(_ loops: ArraySlice<FeedbackLoop<State>>) -> ((State) -> Void)? {
        // Unowned: the closures belong to `self` and go when it goes.
        var index = loops.startIndex
        switch loops.count {
        case 0:
            return nil
        case 1:
            return loops[index].observe
        case 2:
            let first = loops[index].observe
            index += 1
            let second = loops[index].observe
            return { [unowned(unsafe) self] state in
                first(state)
                if isStopping { return }
                second(state)
            }
        default:
            let first = loops[index].observe
            index += 1
            let second = loops[index].observe
            index += 1
            let third = loops[index].observe
            guard let rest = chain(loops[(index + 1)...]) else {
                return { [unowned(unsafe) self] state in
                    first(state)
                    if isStopping { return }
                    second(state)
                    if isStopping { return }
                    third(state)
                }
            }
            return { [unowned(unsafe) self] state in
                first(state)
                if isStopping { return }
                second(state)
                if isStopping { return }
                third(state)
                if isStopping { return }
                rest(state)
            }
        }
    }

    /// Queues `event`; reduces it (and whatever else is queued) at once if the gate is open.
    @inlinable
    func enqueue(_ event: Event, from run: EffectRun?) {
        lock.lock()
        if gate.isStopped {
            lock.unlock()
            return
        }
        if gate.isDraining {
            gate.queue.append(Pending(event: event, run: run))
            lock.unlock()
            return
        }
        // The gate is open, so the queue is empty: take the role and skip the queue.
        gate.isDraining = true
        gate.drainer = currentThread()
        lock.unlock()
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
        lock.lock()
        if gate.ending == .waitingForRuns {
            gate.ending = .ended
            let finished = gate.finishedState.take()
            lock.unlock()
            _ = consume finished  // released outside the lock; never reported: stopped first
            oneShots.cancelAll()
            onStop?()
            return
        }
        if gate.isTornDown {
            lock.unlock()
            return
        }
        // Finished but not torn down yet: the drainer will cancel the runs too, and the instance
        // counts as stopped (no `onFinished`).
        if gate.ending == .finish { gate.ending = .stop }
        var dropped = Deque<Pending>()
        if !gate.isStopped {
            gate.isStopped = true
            swap(&dropped, &gate.queue)
        }
        if !gate.isDraining || gate.isHandedOn {
            // Nobody drains, or the role waits for the task it was handed to: take it for good.
            gate.isDraining = true
            gate.isHandedOn = false
            gate.drainer = currentThread()
            lock.unlock()
            // Released outside the lock: an event's deinit may do anything.
            _ = consume dropped
            tearDown()
            return
        }
        if let drainer = gate.drainer, isCurrentThread(drainer) {
            lock.unlock()
            _ = consume dropped
            isStopping = true  // this thread owns the drainer's fields
            return
        }
        let latch: OneShotLatch
        if let existing = gate.tornDown {
            latch = existing
        } else {
            latch = OneShotLatch()
            gate.tornDown = latch
        }
        lock.unlock()
        _ = consume dropped
        latch.wait()
    }

    /// Reduces queued events until the queue is empty, then opens the gate; or, once `budget`
    /// events are reduced with more queued, hands the drain role on to a task (E60), so that the
    /// calling thread (whoever sent, or started the instance) is never held for longer than one
    /// budget, even by a loop that never runs empty.
    ///
    /// - Returns: Whether it handed the role on: the caller must then make a task take it
    ///   (``handOn()``), or, in that task, yield and take it again (``resumeDrain()``).
    @inlinable
    func drain(budget: Int) -> Bool {
        var budget = budget
        while true {
            lock.lock()
            if gate.isStopped {
                lock.unlock()
                tearDown()
                return false
            }
            if budget <= 0, !gate.queue.isEmpty {
                gate.isHandedOn = true
                gate.drainer = nil
                lock.unlock()
                return true
            }
            guard let pending = gate.queue.popFirst() else {
                gate.isDraining = false
                lock.unlock()
                return false
            }
            lock.unlock()
            budget -= 1
            process(pending.event, from: pending.run)
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
        guard gate.isHandedOn else {
            lock.unlock()
            return false
        }
        gate.isHandedOn = false
        gate.drainer = currentThread()
        lock.unlock()
        return drain(budget: DrainBudget.events)
    }

    /// Reduces one event and shows the new state to the hook, the observer and every loop.
    @inlinable
    func process(_ event: Event, from run: EffectRun?) {
        // Stale: its run was cancelled (request changed or gone) after the event was produced.
        if let run, !run.isCurrent { return }
        reduce(&state, event)
        eventHook?(event, state)
        observer(state)
        // Stopped from inside this call: start no effect for this state.
        if isStopping { return }
        observeLoops?(state)
    }

    /// Finishes the instance: called by the finish loop (on the draining thread) after every
    /// feedback has seen the finished state. Drops queued and later events like `stop()`; the
    /// drainer then tears down, keeping the one-shot runs, and the instance ends when they return.
    @inlinable
    func finish(_ finished: State) {
        lock.lock()
        if gate.isStopped {
            lock.unlock()
            return
        }
        gate.isStopped = true
        gate.ending = .finish
        if onFinished != nil { gate.finishedState = finished }
        var dropped = Deque<Pending>()
        swap(&dropped, &gate.queue)
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
        lock.lock()
        let waits = gate.ending == .finish
        gate.ending = waits ? .waitingForRuns : .ended
        // Stopped before it could end as finished: `onFinished` is never called.
        let unreported = waits ? nil : gate.finishedState.take()
        lock.unlock()
        _ = consume unreported
        if waits {
            oneShots.whenIdle { [weak self] in self?.endAfterRuns() }
        } else {
            oneShots.cancelAll()
            onStop?()
        }
        lock.lock()
        gate.isTornDown = true
        let latch = gate.tornDown
        lock.unlock()
        latch?.open()
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
        guard gate.ending == .waitingForRuns else {
            lock.unlock()
            return
        }
        gate.ending = .ended
        let finished = gate.finishedState.take()
        lock.unlock()
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
