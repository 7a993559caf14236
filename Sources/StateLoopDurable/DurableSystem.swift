// DurableSystem: a machine that journals every event it reduces and resumes from its journal
// after a restart (Docs/Durability.md D30-D49) - the one entry point, `M.durable(id:store:...)`.
//
// Invariants:
// - The phase is one value under `lock`: recovering (events sent meanwhile wait, in order),
//   running, or ended; it moves forward only.
// - Recovery runs on a thread of its own (it blocks on the store and replays), then starts the
//   system in the restored state and sends the waiting events, in order, before any sent later
//   (D36).
// - `onStop` is called once, when the system has ended, with the error that ended it, if any.

import Foundation
import StateLoop

/// How a durable system journals.
public struct DurableOptions: Sendable {
    /// A snapshot is written after this many records (and at the stop): recovery replays at most
    /// this many records after it (D34). 1,000 records replayed in about 2 ms here (Docs/Durability.md).
    public var snapshotEvery: Int
    /// The wall clock of each step's time in the journal: timers keep their deadlines by it
    /// across restarts (D38).
    public var wallClock: WallClock

    public init(snapshotEvery: Int = 1_000, wallClock: WallClock = .system) {
        self.snapshotEvery = max(1, snapshotEvery)
        self.wallClock = wallClock
    }
}

/// The wall-clock time of journaled steps: nanoseconds since the Unix epoch (UTC).
public struct WallClock: Sendable {
    /// Now, in nanoseconds since 1970-01-01 00:00 UTC.
    public var now: @Sendable () -> Int64

    public init(now: @escaping @Sendable () -> Int64) {
        self.now = now
    }

    /// The system's real-time clock.
    public static let system = WallClock {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}

extension DurableMachine {
    /// Starts the machine `id` of `store`: restores it from its journal (its latest snapshot and
    /// the events after it, through `reduce`), or starts it in `initial` when the store has
    /// never seen `id`, and runs it with `feedbacks`, journaling every event it reduces before
    /// anyone sees the state after it.
    ///
    /// ```swift
    /// let store = try SQLiteJournalStore(path: "app.journal")
    /// let order = Checkout.durable(id: "order-7", store: store, initial: .initial,
    ///                              feedbacks: Checkout.feedbacks(effects, clock: ContinuousClock()))
    /// order.send(.pay)
    /// ```
    ///
    /// On resume, query effects restart because the restored state asks for them; one-shot runs
    /// queued and not known finished run again with their ``OneShotRun/key`` (unless
    /// `rerunsAfterRestart` drops them, D46); timers keep their
    /// wall-clock deadlines, fire at once when those passed while the app was down, and never
    /// fire twice. Recovery runs on a thread of its own: the call returns at once, and events
    /// sent meanwhile wait and are reduced, in order, after it (D36).
    ///
    /// - Parameters:
    ///   - id: The machine's id in the store; machines of one store are kept apart by it (D4).
    ///   - onState: Every state, from the restored one on, each once durable (D30); on the
    ///     draining thread, as ``System/start(onState:)``.
    ///   - onStop: Called once when the system ends: `nil` after ``DurableSystem/stop()`` or a
    ///     finish, else the error that stopped it (a store that failed, D33; a journal that
    ///     cannot be read, D42).
    ///   - attach: Applied to the system before it starts in its restored state:
    ///     `{ $0.inspected(Self.self) }` (StateLoopInspector) shows the machine in
    ///     `stateloop inspect` (Docs/Inspector.md I50, I51); it journals the same either way.
    /// - Returns: The handle. Keep it: releasing it stops the system.
    @inlinable
    public static func durable(
        id: String,
        store: any JournalStore,
        initial: State,
        feedbacks: [Feedback<State, Event>],
        options: DurableOptions = DurableOptions(),
        onState: @escaping @Sendable (State) -> Void = { _ in },
        onStop: @escaping @Sendable ((any Error)?) -> Void = { _ in },
        attach: @escaping @Sendable (System<State, Event>) -> System<State, Event> = { $0 }
    ) -> DurableSystem<Self> {
        let system = DurableSystem<Self>(onStop: onStop)
        let recovery = Thread { [weak system] in
            system?.recover(id, store: store, initial: initial, feedbacks: feedbacks, options: options, onState: onState, attach: attach)
        }
        recovery.name = "StateLoop recovery of \(id)"
        recovery.start()
        return system
    }
}

/// The handle of a running durable machine: send it events, stop it, wait for its recovery.
public final class DurableSystem<M: DurableMachine>: @unchecked Sendable {
    @usableFromInline
    enum Phase {
        /// Reading the journal: events sent now wait here, in order.
        case recovering([M.Event])
        /// Started in the restored state; the recovery thread sends the events that waited, and
        /// events sent meanwhile wait behind them.
        case flushing(SystemRun<M.State, M.Event>, [M.Event])
        case running(SystemRun<M.State, M.Event>)
        case ended
    }

    @usableFromInline let lock = NSLock()
    // Guarded by `lock`.
    @usableFromInline var phase = Phase.recovering([])
    private var recoveryWaiters: [CheckedContinuation<Void, any Error>] = []
    /// Set once the recovery is over.
    private var recoveryResult: Result<Void, any Error>?
    private var stopReported = false
    private let onStop: @Sendable ((any Error)?) -> Void

    @usableFromInline
    init(onStop: @escaping @Sendable ((any Error)?) -> Void) {
        self.onStop = onStop
    }

    deinit {
        stop()
    }

    /// Sends an event from outside, from any thread: reduced at once (see
    /// `SystemRun.send(_:)`), or after the recovery while it is still running (D36). Ignored once
    /// the system has ended.
    @inlinable
    public func send(_ event: M.Event) {
        lock.lock()
        switch phase {
        case .recovering(var waiting):
            waiting.append(event)
            phase = .recovering(waiting)
            lock.unlock()
        case .flushing(let run, var waiting):
            waiting.append(event)
            phase = .flushing(run, waiting)
            lock.unlock()
        case .running(let run):
            lock.unlock()
            run.send(event)
        case .ended:
            lock.unlock()
        }
    }

    /// Stops the system (see `SystemRun.stop()`) and writes a snapshot of its last state (D34).
    /// During the recovery, the system does not start and the waiting events are dropped.
    public func stop() {
        lock.lock()
        let before = phase
        phase = .ended
        lock.unlock()
        switch before {
        case .flushing(let run, _), .running(let run):
            run.stop()
        case .recovering:
            finishRecovery(.failure(CancellationError()))
            report(nil)
        case .ended:
            break
        }
    }

    /// Returns once the system runs in its restored state; throws the error that stopped the
    /// recovery (a `JournalError` of the store, a ``DurableError``), or `CancellationError` when
    /// ``stop()`` came first.
    public func recovered() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            lock.lock()
            guard let result = recoveryResult else {
                recoveryWaiters.append(continuation)
                lock.unlock()
                return
            }
            lock.unlock()
            continuation.resume(with: result)
        }
    }

    // MARK: Recovery

    /// Reads the journal, starts the system in the restored state, then sends the events that
    /// waited, in order (on the recovery thread). Inlinable, like everything it calls on the
    /// per-event path (`MachineJournal`, `DurableBookkeeping`, the envelopes): specialised for the
    /// client's machine, an event costs less than half the instructions of the generic code,
    /// which spent a third of them looking up generic metadata (Docs/Durability.md).
    @inlinable
    func recover(
        _ id: String, store: any JournalStore, initial: M.State, feedbacks: [Feedback<M.State, M.Event>],
        options: DurableOptions, onState: @escaping @Sendable (M.State) -> Void,
        attach: (System<M.State, M.Event>) -> System<M.State, M.Event>
    ) {
        let journal: MachineJournal<M>
        let restored: RestoredMachine<M>
        let now = options.wallClock.now()
        // The id is taken before anything of the journal is read (D117), and given back by the
        // journal's close, or here when the start fails.
        let owner = JournalOwner.next()
        do {
            if let holder = try store.claim(id, for: owner) { throw DurableError.machineTaken(machine: id, by: holder) }
            do {
                // A hosted instance is its host's alone (H66): nothing of it is read.
                if let host = try store.host(of: id) { throw DurableError.hostedMachine(machine: id, host: host) }
                restored = try RestoredMachine<M>(id, from: store, initial: initial, now: now)
                journal = try MachineJournal(id, store: store, restored: restored, options: options, now: now, owner: owner)
            } catch {
                try? store.release(id, by: owner)
                throw error
            }
        } catch {
            lock.lock()
            let recovering = if case .recovering = phase { true } else { false }
            phase = .ended
            lock.unlock()
            guard recovering else { return }  // Stopped meanwhile: already reported.
            finishRecovery(.failure(error))
            report(error)
            return
        }
        // Stopped while reading: the restored state is shown to nobody.
        guard lock.withLock({ if case .recovering = phase { true } else { false } }) else {
            _ = journal.close()
            return
        }
        // A failed "returned nothing" record of a run stops the system like a failed event.
        journal.onFailure = { [weak self] in self?.stop() }
        let system = attach(System(
            initial: restored.state, reduce: { M.reduce(&$0, $1) }, feedbacks: feedbacks, isFinished: { M.isDone($0) }))
        let run = system.start(
            journal: SystemJournal(
                record: journal.record, runReturnedNothing: journal.runReturnedNothing,
                resume: journal.resumption(at: now)),
            onState: onState,
            onStop: { [weak self] in
                let error = journal.close()
                self?.report(error)
            })
        lock.lock()
        guard case .recovering(let waiting) = phase else {
            lock.unlock()
            run.stop()  // Stopped while starting.
            return
        }
        phase = .flushing(run, waiting)
        lock.unlock()
        finishRecovery(.success(()))
        // The events that waited go first, in order; those sent meanwhile wait behind them.
        while true {
            lock.lock()
            guard case .flushing(_, let waiting) = phase else {
                lock.unlock()
                return  // Stopped meanwhile.
            }
            if waiting.isEmpty {
                phase = .running(run)
                lock.unlock()
                return
            }
            phase = .flushing(run, [])
            lock.unlock()
            for event in waiting { run.send(event) }
        }
    }

    /// Calls `onStop` the first time.
    @usableFromInline
    func report(_ error: (any Error)?) {
        lock.lock()
        let first = !stopReported
        stopReported = true
        lock.unlock()
        if first { onStop(error) }
    }

    @usableFromInline
    func finishRecovery(_ result: Result<Void, any Error>) {
        lock.lock()
        guard recoveryResult == nil else {
            lock.unlock()
            return
        }
        recoveryResult = result
        let waiters = recoveryWaiters
        recoveryWaiters = []
        lock.unlock()
        for waiter in waiters { waiter.resume(with: result) }
    }
}
