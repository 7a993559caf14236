// SystemLifecycle: the phase of one running instance, and every change of phase (E65-E69).
//
// Invariants:
// - The phase is one value, changed only by the methods of `SystemLifecycle`, each called under
//   the instance's lock; `SystemCore` does what a method returns, outside the lock.
// - At most one thread holds the drain role: `drainer`, in `.draining`, `.finishing` and
//   `.stopping`. In `.handedOn` a task is about to take it; in every other phase nobody has it.
// - The phases run forward only: `.draining`, `.idle`, `.handedOn` and `.awaitingDurability`
//   (running) alternate; then
//   `.finishing` or `.stopping` (a finish may still become a stop), then `.waitingForRuns`
//   (finished) or straight to `.ended`.
//   Nothing leaves `.ended`.
// - The queue is empty in `.idle` and in every phase after running: a stop or a finish drops it,
//   and no later event enters it.
// - `finished` is `nil` outside `.finishing` and `.waitingForRuns`, `latch` outside `.stopping`;
//   `drainer` means nothing outside the three phases that have a drainer.
// - A hosted instance's states whose records are pending (Docs/Hosting.md H20) are `held` by the
//   drainer, `heldDurable` of them durable and not yet shown; an event from an effect, and every
//   event behind a held finished state, is not reduced while any is held (`.awaitingDurability`).
//   Both counts are zero for every other instance, so its events pay one comparison.
//
// As Mobius's loop does (one state enum, its transitions in one place), so that a combination
// nobody meant (stopped but open, torn down but still draining) cannot be written down.

import DequeModule

/// The phase of one instance and the events waiting for its drainer.
///
/// A value type with no lock of its own: ``SystemCore`` keeps it under its lock, and the tests
/// drive it directly, a transition at a time.
@usableFromInline
struct SystemLifecycle<State, Event> {
    /// Where an instance is in its life.
    @usableFromInline
    enum Phase {
        /// Running, and `drainer` holds the drain role: it reduces the queued events. The first
        /// phase: the thread that starts the instance holds the role until every loop has seen
        /// the initial state (E65).
        case draining
        /// Running, and nobody drains: the queue is empty; the next event's sender takes the role.
        case idle
        /// Running: a drainer spent its budget with events still queued (E60) and handed the role
        /// to a task that has not taken it yet.
        case handedOn
        /// Running, and nobody drains: the next queued event is an effect's, or follows a finished
        /// state, and waits until the held states are durable (H20, H8); `durable(_:)` hands the
        /// role on.
        case awaitingDurability
        /// A finished state was delivered (E53): new events are dropped, and `drainer` tears the
        /// instance down after its current step, keeping the one-shot runs.
        case finishing
        /// Stopped: new events are dropped, and `drainer` tears the instance down and ends it.
        case stopping
        /// Finished and torn down: waiting for the one-shot runs to return (E67).
        case waitingForRuns
        /// Ended: `onStop` (and for a finish `onFinished`) has been called, or is being called.
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

        /// Whether it waits behind held states (H20): an effect's event does, one from outside
        /// (no token, or a host's ``SentToken``) does not. Asked only while states are held.
        @inlinable
        var waitsBehindHeld: Bool {
            guard let run else { return false }
            return !(run is SentToken)
        }
    }

    // The phase is a one-byte enum, and what some phases carry (the drainer, the finished state,
    // the latch) sits beside it, set only by the transitions below: with the drainer as the
    // payload of its three phases, `runtime.generated` took 18 more instructions per event
    // (247.8 against 229.8, callgrind; Benchmarks/README.md), and with the state and the latch
    // in the enum too, more again.
    @usableFromInline var phase: Phase
    /// The thread that holds the drain role, in `.draining`, `.finishing` and `.stopping`.
    @usableFromInline var drainer: PlatformThread
    /// The finished state, for `onFinished` (`nil` when nobody asked for it): set in `.finishing`
    /// and `.waitingForRuns` only.
    @usableFromInline var finished: State?
    /// Where `stop()` callers on other threads wait for the drainer to end the instance: made by
    /// the first of them, in `.stopping` only.
    @usableFromInline var latch: OneShotLatch?
    /// Events waiting for the drainer, oldest first. An event leaves it when its reduction starts,
    /// so memory follows the events waiting, not those reduced since the queue last ran empty.
    @usableFromInline var queue = Deque<Pending>()
    /// How many states the drainer holds because their records are pending (H20), oldest first.
    @usableFromInline var held = 0
    /// How many of the held states the journal says are durable: the drainer shows them next
    /// (more than `held` while the drainer has yet to hold a state whose record committed).
    @usableFromInline var heldDurable = 0
    /// Whether a held state is finished: nothing more is reduced (H8).
    @usableFromInline var holdsFinished = false

    /// An instance that `starter` is starting: it holds the drain role.
    @inlinable
    init(startingOn starter: PlatformThread) {
        phase = .draining
        drainer = starter
    }

    // MARK: Running

    /// What `send` does with an event.
    @usableFromInline
    enum SendAction {
        /// Nobody was draining: the caller now holds the role and reduces the event itself.
        case reduceNow
        /// Queued for the drainer (or for the task the role was handed to).
        case queued
        /// The instance is stopping, finishing or over: the event is dropped.
        case dropped
    }

    /// An event arrives from `thread`: `.idle` -> `.draining` by `thread`; queued while someone
    /// drains; dropped once the instance stops or finishes.
    @inlinable
    mutating func send(_ pending: Pending, from thread: PlatformThread) -> SendAction {
        switch phase {
        case .idle:
            if held > 0, holdsFinished || pending.waitsBehindHeld {
                queue.append(pending)
                phase = .awaitingDurability
                return .queued
            }
            phase = .draining
            drainer = thread
            return .reduceNow
        case .draining, .handedOn, .awaitingDurability:
            queue.append(pending)
            return .queued
        case .finishing, .stopping, .waitingForRuns, .ended:
            return .dropped
        }
    }

    /// What the drainer does next.
    @usableFromInline
    enum DrainStep {
        /// Reduce this event.
        case reduce(Pending)
        /// Show this many of the held states, the oldest first: they are durable.
        case show(Int)
        /// The queue ran empty: the role is given back (`.idle`).
        case done
        /// The budget is spent with events queued: the role is handed on (`.handedOn`); the
        /// caller makes a task take it.
        case handOn
        /// The instance stopped or finished: the drainer tears it down.
        case tearDown
    }

    /// The drainer asks for the next event, with `budgetLeft` events left to reduce on its
    /// thread (E60): `.draining` -> `.idle` when the queue is empty, -> `.handedOn` when the
    /// budget is spent; in `.finishing` and `.stopping` it is told to tear down.
    @inlinable
    mutating func next(budgetLeft: Int) -> DrainStep {
        switch phase {
        case .draining:
            if held > 0 {
                if heldDurable > 0 {
                    let shown = min(held, heldDurable)
                    heldDurable -= shown
                    held -= shown
                    if held == 0 { holdsFinished = false }
                    return .show(shown)
                }
                if holdsFinished || queue.first?.waitsBehindHeld == true {
                    phase = .awaitingDurability
                    return .done
                }
            }
            if queue.isEmpty {
                phase = .idle
                return .done
            }
            if budgetLeft <= 0 {
                phase = .handedOn
                return .handOn
            }
            return .reduce(queue.removeFirst())
        case .finishing, .stopping:
            return .tearDown
        case .idle, .handedOn, .awaitingDurability, .waitingForRuns, .ended:
            preconditionFailure("StateLoop: a drainer without the drain role (\(phase))")
        }
    }

    /// The drainer holds the state it just reduced until its record is durable (H20); `finished`:
    /// it is a finished state, so nothing is reduced after it (H8).
    @inlinable
    mutating func hold(finished: Bool) {
        held += 1
        if finished { holdsFinished = true }
    }

    /// The journal made `count` more of the held states durable (from any thread). Returns whether
    /// the caller must hand the role on (``SystemCore/handOn()``): nobody drains, and they are to
    /// be shown (`.idle`, `.awaitingDurability` -> `.handedOn`).
    @inlinable
    mutating func durable(_ count: Int) -> Bool {
        switch phase {
        case .draining, .handedOn, .idle, .awaitingDurability:
            // It may come before the drainer holds the state (the writer committed its record
            // before `record` returned): the drainer then shows it as soon as it holds it.
            heldDurable += max(0, count)
            guard held > 0, phase == .idle || phase == .awaitingDurability else { return false }
            phase = .handedOn
            return true
        case .finishing, .stopping, .waitingForRuns, .ended:
            return false
        }
    }

    /// The task the role was handed to takes it on `thread`: `.handedOn` -> `.draining` by `thread`.
    /// Returns false when a `stop()` took the role first: the task has nothing to do.
    @inlinable
    mutating func resume(on thread: PlatformThread) -> Bool {
        guard case .handedOn = phase else { return false }
        phase = .draining
        drainer = thread
        return true
    }

    // MARK: Ending

    /// What `stop()` does.
    @usableFromInline
    enum StopAction {
        /// Nobody held the role: the caller took it (`.stopping`) and tears down now.
        case tearDown
        /// Called by the drainer itself, from inside its step: it tears down when the step ends.
        case fromInside
        /// Another thread drains: wait at this latch until it has torn the instance down.
        case wait(OneShotLatch)
        /// The instance was waiting for its one-shot runs: it has ended (`.ended`); cancel them
        /// and call `onStop` now.
        case endNow
        /// Already ended, or ending on another thread with nobody to wait for: nothing to do.
        case nothing
    }

    /// What a transition drops, to release outside the lock (an event's or a state's `deinit` may
    /// do anything).
    @usableFromInline
    struct Dropped {
        @usableFromInline var queue = Deque<Pending>()
        @usableFromInline var finished: State?

        @inlinable
        init() {}
    }

    /// `stop()` is called on `thread`. Running -> `.stopping` (queue dropped; the caller takes
    /// the role if nobody holds it); `.finishing` -> `.stopping` (the finish becomes a stop:
    /// `onFinished` is never called, E68); `.waitingForRuns` -> `.ended` (E68).
    @inlinable
    mutating func stop(on thread: PlatformThread, dropping dropped: inout Dropped) -> StopAction {
        switch phase {
        case .idle, .handedOn, .awaitingDurability:
            swap(&dropped.queue, &queue)
            phase = .stopping
            drainer = thread
            return .tearDown
        case .draining:
            swap(&dropped.queue, &queue)
        case .finishing:
            swap(&dropped.finished, &finished)
        case .stopping:
            break
        case .waitingForRuns:
            swap(&dropped.finished, &finished)
            phase = .ended
            return .endNow
        case .ended:
            return .nothing
        }
        phase = .stopping
        if isSameThread(drainer, thread) { return .fromInside }
        if let latch { return .wait(latch) }
        let made = OneShotLatch()
        latch = made
        return .wait(made)
    }

    /// The finish loop saw a finished state (on the drainer's thread): `.draining` ->
    /// `.finishing` (queue dropped). After a `stop()` it changes nothing.
    @inlinable
    mutating func finish(_ finished: State?, dropping dropped: inout Dropped) {
        guard case .draining = phase else { return }
        swap(&dropped.queue, &queue)
        phase = .finishing
        self.finished = finished
    }

    /// How the drainer ends the instance once every loop is stopped.
    @usableFromInline
    enum Ending {
        /// Stopped: cancel the one-shot runs, call `onStop`, then ``ended()``.
        case stop
        /// Finished: now `.waitingForRuns`; end when the runs have returned (``runsReturned()``).
        case afterRuns
    }

    /// The drainer has stopped every loop: `.finishing` -> `.waitingForRuns`; `.stopping` stays
    /// until ``ended()``, so that callers waiting at its latch return only after `onStop`.
    @inlinable
    mutating func loopsStopped() -> Ending {
        switch phase {
        case .finishing:
            phase = .waitingForRuns
            return .afterRuns
        case .stopping:
            return .stop
        case .draining, .idle, .handedOn, .awaitingDurability, .waitingForRuns, .ended:
            preconditionFailure("StateLoop: a teardown without a stop or a finish (\(phase))")
        }
    }

    /// A stopped instance's teardown is done: `.stopping` -> `.ended`. Returns the latch to open.
    @inlinable
    mutating func ended() -> OneShotLatch? {
        guard case .stopping = phase else {
            preconditionFailure("StateLoop: ended without stopping (\(phase))")
        }
        phase = .ended
        return latch.take()
    }

    /// A finished instance's last one-shot run returned: `.waitingForRuns` -> `.ended` (E67).
    /// Returns whether it ended now (a `stop()` may have ended it first), and the finished state.
    @inlinable
    mutating func runsReturned() -> (ends: Bool, finished: State?) {
        guard case .waitingForRuns = phase else { return (false, nil) }
        phase = .ended
        return (true, finished.take())
    }
}
