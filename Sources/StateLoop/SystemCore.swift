// SystemCore: one running instance of a System - the "floodgate" that serialises everything.
//
// `send` puts an event into a queue under a lock. Whoever finds the gate open takes the drain
// role and, outside the lock, reduces queued events one at a time, first in first out; after
// each event it hands the new state to the event hook, the observer and every feedback loop,
// synchronously. An event sent meanwhile (from an effect task, from another thread, or
// reentrantly from the observer) is only queued; the drainer picks it up. So the reducer and the
// loops never run concurrently or reentrantly, and no Swift Concurrency hop sits on that path.

/// One instance of a system: its state, its feedback loops and its event queue.
///
/// `@unchecked Sendable` because `gate` is touched only under `lock`, and the fields below it
/// (`state`, `loops`) only by the thread that holds the drain role. That role is taken and given
/// back under `lock`, so every hand-over is ordered by the lock, which also makes it visible to
/// ThreadSanitizer.
final class SystemCore<State: Sendable, Event: Sendable>: @unchecked Sendable {
    /// What the lock protects.
    private struct Gate: Sendable {
        /// Events waiting for the drainer, each with the effect run that produced it (if any).
        var queue: [Pending] = []
        /// Index of the next event to reduce; the queue is compacted when it runs empty.
        var head = 0
        /// Someone is draining. Starts `true`: the starter holds the gate until every loop runs.
        var isDraining = true
        /// Once set, the gate never opens again and new events are dropped.
        var isStopped = false
    }

    /// A queued event and the run it came from (`nil` for events sent from outside).
    private struct Pending: Sendable {
        let event: Event
        let run: EffectRun?
    }

    /// What a drainer does next.
    private enum Next: Sendable {
        case reduce(Pending)
        case idle
        case stop
    }

    private let lock = PlatformLock()
    private var gate = Gate()

    // Owned by the drainer (see the type's comment).
    private var state: State
    private var loops: [any FeedbackLoop<State>] = []
    private let reduce: @Sendable (inout State, Event) -> Void
    private let eventHook: (@Sendable (Event, State) -> Void)?
    private let observer: @Sendable (State) -> Void
    private let onStop: (@Sendable () -> Void)?

    init(
        initial: State,
        reduce: @escaping @Sendable (inout State, Event) -> Void,
        eventHook: (@Sendable (Event, State) -> Void)?,
        observer: @escaping @Sendable (State) -> Void,
        onStop: (@Sendable () -> Void)?
    ) {
        self.state = initial
        self.reduce = reduce
        self.eventHook = eventHook
        self.observer = observer
        self.onStop = onStop
    }

    deinit {
        lock.deallocate()
    }

    @inline(__always)
    private func withGate<Result>(_ body: (inout Gate) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&gate)
    }

    /// Delivers the initial state, starts every loop in order, then opens the gate.
    ///
    /// The starter holds the drain role throughout, so events sent by effects that answer at once
    /// (or by the observer) wait until every loop has seen the initial state.
    func start(feedbacks: [Feedback<State, Event>]) {
        let launcher = EffectLauncher<Event>(deliver: { [weak self] event, run in
            // A run that outlives its system has nobody to talk to.
            self?.enqueue(event, from: run)
        })
        observer(state)
        loops.reserveCapacity(feedbacks.count)
        for feedback in feedbacks {
            let loop = feedback.makeLoop(launcher)
            loops.append(loop)
            loop.observe(state)
        }
        drain()
    }

    /// Queues `event`; reduces it (and whatever else is queued) at once if the gate is open.
    func enqueue(_ event: Event, from run: EffectRun?) {
        let mayDrain = withGate { gate -> Bool in
            if gate.isStopped { return false }
            if gate.isDraining {
                gate.queue.append(Pending(event: event, run: run))
                return false
            }
            // The gate is open, so the queue is empty: take the role and skip the queue.
            gate.isDraining = true
            return true
        }
        guard mayDrain else { return }
        process(Pending(event: event, run: run))
        drain()
    }

    /// Stops the instance: drops queued events, cancels every effect, finishes the observer.
    ///
    /// If another thread (or the caller, reentrantly) is draining, that drainer tears down after
    /// the event it is reducing; otherwise the caller takes the role for good and tears down now.
    func stop() {
        let mustTearDown = withGate { gate -> Bool in
            if gate.isStopped { return false }
            gate.isStopped = true
            gate.queue = []
            gate.head = 0
            if gate.isDraining { return false }
            gate.isDraining = true
            return true
        }
        if mustTearDown { tearDown() }
    }

    /// Reduces queued events until the queue is empty, then opens the gate.
    private func drain() {
        while true {
            let next = withGate { gate -> Next in
                if gate.isStopped { return .stop }
                guard gate.head < gate.queue.count else {
                    gate.queue.removeAll(keepingCapacity: true)
                    gate.head = 0
                    gate.isDraining = false
                    return .idle
                }
                let pending = gate.queue[gate.head]
                gate.head += 1
                return .reduce(pending)
            }
            switch next {
            case .reduce(let pending): process(pending)
            case .idle: return
            case .stop: tearDown(); return
            }
        }
    }

    /// Reduces one event and shows the new state to the hook, the observer and every loop.
    @inline(__always)
    private func process(_ pending: Pending) {
        // Stale: its run was cancelled (request changed or gone) after the event was produced.
        if let run = pending.run, !run.isCurrent { return }
        reduce(&state, pending.event)
        eventHook?(pending.event, state)
        observer(state)
        for loop in loops { loop.observe(state) }
    }

    private func tearDown() {
        for loop in loops { loop.stop() }
        loops = []
        onStop?()
    }
}
