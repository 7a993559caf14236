// MachineHost: many instances of one durable machine in one process, each by id (Docs/Hosting.md
// H1-H25): an instance is recovered, or created, by the first send that needs it; its states wait
// for the host's group commit (CommitPipeline) before anyone sees them, while its events from
// outside run on (H20).
//
//   send(e, to: id) ─► instance(id) ──not in memory──► load: claim (D117), read, restore, open
//                          │                                   (its opening committed first, H3)
//                          ▼
//           HostedInstance: SystemCore reduces e ── record ──► JournalSteps ──► CommitPipeline
//                          ▲                                                       │
//           durable(1): show the state, start its effects,                         ▼
//           resume the sender with its receipt ◄──────────────── one transaction of many parts
//                                                                                  │
//           TimerScheduler: the window of the earliest rows ◄── rows armed, deleted ┘
//               └─ a due row ─► deliver(timer:) to its instance, loading it (H30); taken only
//                               while its timer is armed and unfired (H31)
//
//           sweep (every quarter of idleTimeout, at most 1 s): an instance idle that long, then
//           the least recently used past maxInstancesInMemory, passivates unless pinned (H40-H45)
//
// Invariants:
// - One `HostedInstance` per id in memory, made under `lock`; it is the only way to reach its
//   machine, and the host's claim of the id (D117) is held while it is in memory.
// - Nothing of an instance is shown, and no send returns, before its record committed (H12).
// - User code (reducers, feedbacks, `onState`) never runs on the writer's thread (H13).
// - The per-event path (`send`, `HostedInstance`, `Waiter`) is `@inlinable`, so that it is
//   specialized for the client's machine, as `DurableSystem`'s is: unspecialized, 8% of its CPU
//   went to generic metadata lookups (Benchmarks/README.md, `host.sqlite.events_per_s`).
//
// Its life (H54-H57): made, it waits; `run()` claims the machine, loads the awake instances,
// starts the scheduler and lets the sends in; `shutdown()` drains each instance (its taken
// deliveries reduced, then a closing part) and `run()` returns; `stop()`, or cancelling `run()`,
// stops at once. What it does is told to `options.observer` (HostObserver.swift).
//
// Not built yet (Docs/Hosting.md, build order): children (step 8).

import Foundation
import StateLoop

/// What a host decides for all its instances.
public struct HostOptions: Sendable {
    /// The most records one transaction holds (H18).
    public var commitBatchSize: Int
    /// How long the oldest waiting record may wait for others to share its transaction (H19).
    public var commitMaxDelay: Duration
    /// A snapshot is written once this many records follow the latest (D34, H25).
    public var snapshotEvery: Int
    /// The wall clock each record is stamped with and the timer rows fall due by (D38, H36).
    public var clock: any HostClock
    /// The most timer rows the scheduler holds in memory (H35).
    public var timerWindow: Int
    /// The most instances the scheduler loads at once to deliver their timers (H11).
    public var maxConcurrentLoads: Int
    /// How long an instance that is not pinned stays in memory without an event (H41).
    public var idleTimeout: Duration
    /// The most instances in memory: past it, the least recently used that are not pinned are
    /// passivated (H45).
    public var maxInstancesInMemory: Int
    /// Whether a running query effect, set element or stream keeps its instance in memory (H40, H50).
    public var queryEffects: QueryEffects
    /// The most accepted events that are not yet durable, over all instances: a send beyond it
    /// waits for room (H10).
    public var maxQueuedEvents: Int
    /// Told what the host does, for logs and metrics (H58, H59): StateLoopHost's `HostTelemetry`.
    public var observer: (any HostObserver)?

    /// What a running query effect, set element or stream does to its instance's passivation.
    public enum QueryEffects: Sendable, Equatable {
        /// It keeps the instance in memory while it runs (the default).
        case pin
        /// It does not: a passivation cancels it, and the restored state starts it again at the
        /// instance's next load (D41, H50).
        case restartOnLoad
    }

    public init(
        commitBatchSize: Int = 1_000, commitMaxDelay: Duration = .zero, snapshotEvery: Int = 1_000,
        clock: any HostClock = .system, timerWindow: Int = 10_000, maxConcurrentLoads: Int = 4,
        idleTimeout: Duration = .seconds(120), maxInstancesInMemory: Int = 10_000, queryEffects: QueryEffects = .pin,
        maxQueuedEvents: Int = 100_000, observer: (any HostObserver)? = nil
    ) {
        self.commitBatchSize = max(1, commitBatchSize)
        self.commitMaxDelay = commitMaxDelay
        self.snapshotEvery = max(1, snapshotEvery)
        self.clock = clock
        self.timerWindow = max(1, timerWindow)
        self.maxConcurrentLoads = max(1, maxConcurrentLoads)
        self.idleTimeout = max(.zero, idleTimeout)
        self.maxInstancesInMemory = max(1, maxInstancesInMemory)
        self.queryEffects = queryEffects
        self.maxQueuedEvents = max(1, maxQueuedEvents)
        self.observer = observer
    }

    /// `idleTimeout` in nanoseconds of the host's clock.
    var idleNanoseconds: Int64 { idleTimeout.hostNanoseconds }
}

/// What a send to a hosted instance answers once its event is durable (H12).
public struct Receipt<M: DurableMachine>: Sendable {
    /// The sequence number of the event's record in the instance's journal.
    public var sequence: Int64
    /// The state after the event.
    public var state: M.State

    @inlinable
    init(sequence: Int64, state: M.State) {
        self.sequence = sequence
        self.state = state
    }
}

/// Why a host refused or could not carry out a call; each says what happened, to which instance,
/// what was and was not done, and what to do (H62).
public enum HostError: Error, Equatable, CustomStringConvertible {
    /// An id that is empty or holds `/` (which names child machines, D100) (H1).
    case invalidID(String)
    /// A send to an id without a journal, for a machine whose `initial` gives no state for it
    /// (H3): create it first.
    case unknownInstance(String)
    /// `create` of an id that has a journal (H4).
    case instanceExists(String)
    /// A send to an instance that finished, or one queued behind its finishing step (H8, H46).
    case finished(String)
    /// The instance's event could not be made durable, or the instance stopped before it was
    /// (H23): its journal holds the events through `durableThrough` (when known), no state after
    /// them was shown, and the next send recovers the instance from its journal.
    case notDurable(String, durableThrough: Int64?, reason: String)
    /// Another running process holds the id (D117).
    case claimed(String, by: JournalOwner)
    /// The instance could not be loaded: its journal cannot be read or restored (damaged,
    /// another machine's, a newer version: D111-D120), or the store failed; it is left as it is
    /// (H53).
    case loadFailed(String, reason: String)
    /// The host is shutting down or stopped, or was never run (H55, H57).
    case shuttingDown
    /// Another host runs machine `machine` on the same journal (H54): this one ran nothing.
    case hostTaken(String, by: JournalOwner)
    /// `run()` was called on a host that runs or ran: a host runs once.
    case alreadyRun
    /// A send to an id whose journal a `DurableSystem` wrote, outside any host (H68): adopt it first.
    case notHosted(String)
    /// The instance's state would run the child machine of `effect`, which a host does not
    /// journal yet (H75): the step, or the load, was refused.
    case childMachine(String, effect: String)
    /// The host lost its lease on machine `machine` (Docs/Postgres.md G42) and stopped at once.
    case leaseLost(String, reason: String)

    public var description: String {
        switch self {
        case let .invalidID(id) where id.isEmpty:
            "'' cannot be a hosted instance id: it is empty; give every instance a non-empty id; nothing was read or written"
        case let .invalidID(id):
            "'\(id)' cannot be a hosted instance id: '/' names child machines; use another character; nothing was read or written"
        case let .unknownInstance(id):
            "no instance '\(id)': it has no journal and `initial` gave no state for it; create it with `create(_:initial:)`; nothing was written"
        case let .instanceExists(id):
            "instance '\(id)' already has a journal: send it events instead of creating it; nothing was written"
        case let .finished(id):
            "instance '\(id)' finished: it takes no more events; its journal stays, and nothing was journaled"
        case let .notDurable(id, durableThrough?, reason):
            "instance '\(id)': its events after \(durableThrough) are not durable (\(reason)), and no state after event \(durableThrough) was shown; the next send recovers it from its journal"
        case let .notDurable(id, nil, reason):
            "instance '\(id)': the event is not durable (\(reason)); the next send recovers the instance from its journal"
        case let .claimed(id, owner):
            "instance '\(id)' is run by another process (\(owner)): send to that process, or stop it first; nothing was written"
        case let .loadFailed(id, reason):
            "instance '\(id)' could not be loaded (\(reason)); its journal was left as it is, and the next send (or, for a timer, the scheduler after its back-off) tries again"
        case .shuttingDown:
            "the host is stopping or stopped: start a host to send to its instances; nothing was written"
        case let .hostTaken(machine, owner):
            "another host runs the machine '\(machine)' on this journal (\(owner)): stop it first, or send to it; nothing was read or written"
        case .alreadyRun:
            "this host runs or ran already: a host runs once; make a new host to run again; nothing was read or written"
        case let .childMachine(id, effect):
            "instance '\(id)' would run the child machine of effect '\(effect)', which a host does not journal yet (Docs/Hosting.md H52): run this machine with `durable(id:)`; nothing of that state was journaled or shown, and its journal was left as it was"
        case let .leaseLost(machine, reason):
            "this host lost its lease on the machine '\(machine)' (\(reason)), so another process may run its instances: it stopped at once, its instances without a snapshot and its unacknowledged sends failed; start a new host, which stands by until it holds the lease"
        case let .notHosted(id):
            "'\(id)' has a journal written outside a host: run it with `durable(id:)`, or take it with `adopt(_:)`; nothing was written"
        }
    }
}

/// Runs the instances of one durable machine `M` on one store, each by its id (Docs/Hosting.md).
public final class MachineHost<M: DurableMachine>: Sendable {
    @usableFromInline let store: any HostJournalStore
    @usableFromInline let initial: @Sendable (String) -> M.State?
    @usableFromInline let feedbacks: @Sendable (String) -> [Feedback<M.State, M.Event>]
    @usableFromInline let onState: @Sendable (String, M.State) -> Void
    @usableFromInline let attach: @Sendable (String, System<M.State, M.Event>) -> System<M.State, M.Event>
    /// What the host was made with.
    public let options: HostOptions
    @usableFromInline let owner = JournalOwner.next()
    @usableFromInline let pipeline: CommitPipeline
    @usableFromInline let scheduler: TimerScheduler
    @usableFromInline let admission: HostAdmission
    @usableFromInline let tally: HostTally
    /// Told when a commit was fenced (G43), to stop the host (G42).
    let fence = Fence()
    @usableFromInline let lock = NSLock()
    @usableFromInline nonisolated(unsafe) var instances: [String: HostedInstance<M>] = [:]  // guarded by `lock`
    /// Why sends are refused now: `nil` while the host runs or has not yet run (H54, H55).
    @usableFromInline nonisolated(unsafe) var refusal: HostError?  // guarded by `lock`
    nonisolated(unsafe) var lifecycle = Lifecycle.new  // guarded by `lock`
    /// Whether this host holds its machine's claim on the store (H54); guarded by `lock`.
    nonisolated(unsafe) var holdsMachine = false
    /// Whether the store was indexed for this machine (H67): then an id with a journal and no
    /// instance row was written outside a host (H68). Guarded by `lock`.
    @usableFromInline nonisolated(unsafe) var indexed = false
    /// Held by the sweep that runs (one at a time).
    let sweeping = NSLock()
    /// A sweep is asked for, for the instances past the limit (H45); guarded by `lock`.
    @usableFromInline nonisolated(unsafe) var sweepAsked = false
    nonisolated(unsafe) var sweeper: Task<Void, Never>?  // set once, by `run`, guarded by `lock`
    /// Renews the lease of a leasing store (G41); set once, by `run`, guarded by `lock`.
    nonisolated(unsafe) var renewer: LeaseKeeper?
    /// `run()` waiting for a shutdown (graceful or not) to be asked for; guarded by `lock`.
    nonisolated(unsafe) var shutdownWaiter: CheckedContinuation<Void, Never>?

    /// Where the host is in its life (H54-H57).
    enum Lifecycle {
        /// Made: sends wait for `run()`.
        case new
        /// `run()` claims the machine and loads the awake instances; sends still wait.
        case starting
        /// Takes events.
        case running
        /// A graceful shutdown was asked for (H55): `run()` drains the instances.
        case draining
        /// Stopped, at once (H57) or at the end of a shutdown: nothing runs.
        case stopped
    }

    /// A host of `M` on `store`.
    ///
    /// - Parameters:
    ///   - initial: The state an id without a journal starts in, or `nil` when such an id must be
    ///     created first (`create(_:initial:)`, a machine with `input:`).
    ///   - feedbacks: The feedbacks of instance `id` (its effects; its timers are the host's).
    ///   - onState: Each state of each instance, once durable, in order (H13), on a task.
    ///   - attach: Applied to the system of each incarnation of instance `id` before it starts,
    ///     as `durable(…, attach:)`'s is (H61): `{ $1.inspected(Order.self) }` (StateLoopInspector)
    ///     shows each load in `stateloop inspect`; the host journals the same either way.
    public init(
        store: any HostJournalStore,
        initial: @escaping @Sendable (String) -> M.State?,
        feedbacks: @escaping @Sendable (String) -> [Feedback<M.State, M.Event>] = { _ in [] },
        options: HostOptions = HostOptions(),
        onState: @escaping @Sendable (String, M.State) -> Void = { _, _ in },
        attach: @escaping @Sendable (_ id: String, System<M.State, M.Event>) -> System<M.State, M.Event> = { $1 }
    ) {
        self.store = store
        self.initial = initial
        self.feedbacks = feedbacks
        self.options = options
        self.onState = onState
        self.attach = attach
        admission = HostAdmission(limit: options.maxQueuedEvents)
        let tally = HostTally(observer: options.observer, machine: M.journalName, clock: options.clock)
        self.tally = tally
        let scheduler = TimerScheduler(
            store: store, clock: options.clock,
            settings: .init(window: options.timerWindow, concurrentDeliveries: options.maxConcurrentLoads))
        self.scheduler = scheduler
        pipeline = CommitPipeline(
            settings: .init(batchSize: options.commitBatchSize, maxDelay: options.commitMaxDelay),
            commit: { [fence] batch in
                let start = DispatchTime.now().uptimeNanoseconds
                let failed = store.commit(batch)
                tally.committed(batch, failed: failed, seconds: HostTally.seconds(since: start))
                scheduler.committed(batch, failed: failed)
                if failed.values.contains(where: { if case .fenced = $0 { true } else { false } }) { fence.fenced() }
                return failed
            })
        // `lose` halts on a thread of its own: the writer's thread, which told it, is not held.
        fence.onFenced { [weak self] in self?.lose("a commit was fenced: the lease had expired or another process held it") }
    }

    // MARK: Lifecycle

    /// Runs the host until it is shut down (H54): claims its machine on the store (another host of
    /// it, in this process or another, makes this throw `HostError.hostTaken`), adopts the
    /// instances a `DurableSystem` wrote when it first runs on the store (H67), loads the awake
    /// instances (H48), starts the scheduler, then takes events; sends and creates made before
    /// then wait for it. After `shutdown()` it drains every instance and returns (H55); cancelled,
    /// it stops the host at once and returns (H57). A host runs once.
    public func run() async throws {
        try lock.withLock {
            guard case .new = lifecycle else { throw HostError.alreadyRun }
            lifecycle = .starting
        }
        do {
            guard let renewed = try await claimMachine() else {
                stop()
                return
            }
            // Stopped while it claimed: the claim goes back at once.
            let stopped = lock.withLock { () -> Bool in
                if case .stopped = lifecycle { return true }
                holdsMachine = true
                if let lease = store.leaseDuration {
                    renewer = LeaseKeeper(
                        lease: lease, renewed: renewed,
                        renew: { [store, owner] () throws(JournalError) in try store.renewHost(M.journalName, by: owner) },
                        lost: { [weak self] reason in self?.lose(reason) })
                }
                return false
            }
            if stopped { try? store.releaseHost(M.journalName, by: owner) }
        } catch {
            // Nothing ran: the sends that waited are refused with why.
            lock.withLock {
                refusal = error as? HostError ?? .shuttingDown
                lifecycle = .stopped
            }
            admission.open()
            throw error
        }
        await withTaskCancellationHandler {
            await adoptUnhostedInstances()
            await loadAwakeInstances()
            let started = lock.withLock { () -> Bool in
                guard case .starting = lifecycle else { return false }
                lifecycle = .running
                sweeper = Self.sweeps(every: Self.sweepInterval(options), on: options.clock) { [weak self] in self?.sweep() }
                return true
            }
            if started {
                scheduler.start { [weak self] row, ended in
                    guard let self else { return ended(false) }
                    await deliverTimer(row, ended: ended)
                }
            }
            admission.open()
            await withCheckedContinuation { continuation in
                let asked = lock.withLock { () -> Bool in
                    guard case .running = lifecycle else { return true }
                    shutdownWaiter = continuation
                    return false
                }
                if asked { continuation.resume() }
            }
            await drain()
        } onCancel: {
            stop()
        }
        // A host that lost its lease halted itself, and writes nothing more (G42).
        if case .leaseLost(let machine, let reason)? = lock.withLock({ refusal }) { throw HostError.leaseLost(machine, reason: reason) }
        stop()
    }

    /// Returns once the host takes events (H54), a standby once it holds its lease (G40): a
    /// readiness check, and the moment after which `state(of:)` reads what this host runs. Throws
    /// why when the host stopped first.
    public func ready() async throws {
        await admission.opened()
        if let refusal = lock.withLock({ refusal }) { throw refusal }
    }

    /// Claims the host's machine on its store (H54), returning when it sent the claim that took it;
    /// on a store whose claims are leases, stands by while another owner holds it, claiming again
    /// every third of the lease (Docs/Postgres.md G40). `nil` when the host was stopped or
    /// cancelled first.
    func claimMachine() async throws -> ContinuousClock.Instant? {
        while true {
            let sent = ContinuousClock.now
            guard let other = try await store.claimHost(M.journalName, for: owner) else { return sent }
            guard let lease = store.leaseDuration else { throw HostError.hostTaken(M.journalName, by: other) }
            let retry = sent + lease / 3
            while ContinuousClock.now < retry {
                if Task.isCancelled || lock.withLock({ if case .stopped = lifecycle { true } else { false } }) { return nil }
                try? await Task.sleep(for: min(.milliseconds(50), retry - ContinuousClock.now))
            }
        }
    }

    /// The host's lease is gone (G42): it stops at once, and `run()` throws why.
    @usableFromInline
    func lose(_ reason: String) {
        let lost = lock.withLock { () -> Bool in
            if case .stopped = lifecycle { return false }
            refusal = .leaseLost(M.journalName, reason: reason)
            return true
        }
        guard lost else { return }
        tally.tell(.hostStopped(.leaseLost(M.journalName, reason: reason)))
        // On a thread of its own: the halt waits for the commit in flight, which the store may hold
        // as long as the server does, and a dispatch queue's few threads may all be waiting too.
        Thread { self.halt(releasing: false) }.start()
    }

    /// Begins a graceful shutdown (H55): later sends throw `HostError.shuttingDown` and the
    /// scheduler fires nothing more; `run()` then lets each instance reduce and commit the events
    /// queued before now, stops it with its snapshot, and returns. A host never run just stops.
    public func shutdown() {
        let (waiter, stopsNow) = lock.withLock { () -> (CheckedContinuation<Void, Never>?, Bool) in
            if refusal == nil { refusal = .shuttingDown }
            switch lifecycle {
            case .new:
                return (nil, true)
            case .starting, .running:
                lifecycle = .draining
                defer { shutdownWaiter = nil }
                return (shutdownWaiter, false)
            case .draining, .stopped:
                return (nil, false)
            }
        }
        scheduler.stop()
        if stopsNow { stop() }
        waiter?.resume()
    }

    /// Lets every instance close once the deliveries it took are reduced (H55), until none is left
    /// in memory or the host is stopped at once.
    func drain() async {
        let sweeper = lock.withLock { self.sweeper }
        sweeper?.cancel()
        scheduler.stop()
        var pause = Duration.microseconds(100)
        while let running = lock.withLock({ () -> [HostedInstance<M>]? in
            guard case .draining = lifecycle, !instances.isEmpty else { return nil }
            return Array(instances.values)
        }) {
            for instance in running { instance.close() }
            do { try await Task.sleep(for: pause) } catch { return }
            pause = min(pause * 2, .milliseconds(10))
        }
    }

    /// The first time the host runs on its store, adopts every id whose latest snapshot names
    /// its machine and that has no instance row, one after another (H67): each is loaded as a
    /// send would load it (claimed, so one a running process owns is left; its rows written),
    /// then passivated unless pinned; then the store is marked as indexed for the machine.
    func adoptUnhostedInstances() async {
        if (try? await store.isIndexed(M.journalName)) != true {
            var after: String?
            while let ids = try? await store.instances(.unhosted, after: after, limit: 100), let last = ids.last {
                for id in ids where (try? Self.check(id)) != nil {
                    guard let snapshot = (try? await store.load(id))?.snapshot,
                          (try? JournalSnapshotEnvelope(snapshot.state))?.machine == M.journalName
                    else { continue }
                    guard let instance = try? instance(id, adopting: true) else { return }
                    if (try? await instance.opened()) != nil { _ = instance.passivate(.idle) }
                }
                after = last
            }
            do { try await store.markIndexed(M.journalName, by: owner) } catch { return }
        }
        lock.withLock { indexed = true }
    }

    /// Takes instance `id`, whose journal a `DurableSystem` wrote outside any host, into the host
    /// (H68): it is recovered once, as a send would load it, and its instance and timer rows are
    /// written; returns once they committed. An id the host already runs is left as it is; one
    /// without a journal throws `HostError.unknownInstance`.
    public func adopt(_ id: String) async throws {
        try Self.check(id)
        await admission.opened()
        if try await store.hostedInstance(id) != nil { return }
        guard try await store.load(id).lastSequence != nil else { throw HostError.unknownInstance(id) }
        try await instance(id, adopting: true).opened()
    }

    /// Loads every instance whose row says it is awake, a page of ids at a time, one after
    /// another (H48), before the host takes events (H54): after a crash, their one-shot runs run
    /// again or are dropped, their children resume and their query effects restart.
    func loadAwakeInstances() async {
        var after: String?
        while let ids = try? await store.instances(.awake(host: M.journalName), after: after, limit: 100), let last = ids.last {
            for id in ids {
                guard let instance = try? instance(id) else { return }
                try? await instance.opened()
            }
            after = last
        }
    }

    /// Delivers `event` to instance `id`, recovering it when it is not in memory and creating it
    /// from `initial(id)` when it has no journal (H2, H3); returns once the event is durable,
    /// with its sequence number and the state after it (H12). Cancelling the caller does not
    /// withdraw an accepted event (H9). While `maxQueuedEvents` accepted events are not yet
    /// durable, the send waits for room, behind the sends that came before it (H10).
    @inlinable
    public func send(_ event: M.Event, to id: String) async throws -> Receipt<M> {
        try Self.check(id)
        return try await withCheckedThrowingContinuation { continuation in
            admission.admit { [self] in
                do {
                    let instance = try instance(id)
                    instance.accept(event, Waiter<M>(id: id, continuation: continuation, ending: instance.ending, admission: admission, tally: tally))
                } catch {
                    continuation.resume(throwing: error)
                    admission.release()
                }
            }
        }
    }

    /// Creates instance `id` in `initial`: its first snapshot committed before this returns (H4);
    /// throws `HostError.instanceExists` for an id with a journal.
    @inlinable
    public func create(_ id: String, initial: M.State) async throws {
        try Self.check(id)
        await admission.opened()
        if try await store.load(id).lastSequence != nil { throw HostError.instanceExists(id) }
        try await instance(id, creating: initial).opened()
    }

    /// The state after instance `id`'s last durable event when it is in memory (what every send
    /// that returned made true), the state its journal restores when it is not (read without
    /// loading it: nothing claimed, run or written), `nil` for an id never created (H7).
    public func state(of id: String) async throws -> M.State? {
        try Self.check(id)
        if let instance = lock.withLock({ instances[id] }), let durable = instance.durableState { return durable }
        let recovery = try await store.load(id)
        guard recovery.lastSequence != nil else { return nil }
        return try RestoredMachine<M>(id, recovery: recovery, initial: try initialState(of: id), now: options.clock.now()).state
    }

    /// The host's figures now (H60): instances in memory and pinned, queued events, the last
    /// transaction, and the timers' lag over the last minute.
    public var statistics: HostStatistics {
        let running = lock.withLock { Array(instances.values) }
        let figures = tally.figures()
        return HostStatistics(
            instancesInMemory: running.count, instancesPinned: running.count(where: \.isPinned), queuedEvents: admission.queued,
            lastCommitRecords: figures.records, lastCommitSeconds: figures.seconds, timerLagP50: figures.p50, timerLagP99: figures.p99)
    }

    deinit {
        stop()
    }

    /// Stops the host at once (H57): every instance stops without a snapshot, its sends still
    /// waiting throw `HostError.shuttingDown`, the parts queued commit, and the ids and the
    /// `run()` gives the machine back (H54) and returns. Stopping twice is harmless; a host
    /// released without it stops.
    public func stop() {
        halt(releasing: true)
    }

    /// Stops the host at once; gives back the ids and the machine when `releasing` (a host that lost
    /// its lease writes nothing more: what it held is judged by the lease, G44).
    func halt(releasing: Bool) {
        let (running, waiter, claimed) = lock.withLock { () -> ([HostedInstance<M>], CheckedContinuation<Void, Never>?, Bool) in
            if refusal == nil { refusal = .shuttingDown }
            defer { holdsMachine = false }
            lifecycle = .stopped
            defer {
                instances = [:]
                shutdownWaiter = nil
            }
            return (Array(instances.values), shutdownWaiter, holdsMachine)
        }
        scheduler.stop()
        lock.withLock { sweeper }?.cancel()
        lock.withLock { renewer }?.stop()
        admission.open()
        for instance in running { instance.stop() }
        // Without its lease, the host is done once its instances stopped: the commits still queued
        // are fenced (G43), and may wait as long as the server holds them.
        if !releasing { waiter?.resume() }
        pipeline.close()
        if releasing {
            for instance in running { try? store.release(instance.id, by: owner) }
            if claimed { try? store.releaseHost(M.journalName, by: owner) }
            waiter?.resume()
        }
    }

    // MARK: Instances

    @inlinable
    static func check(_ id: String) throws {
        if id.isEmpty || id.contains("/") { throw HostError.invalidID(id) }
    }

    /// The state instance `id` starts in without a journal (H3).
    @inlinable
    func initialState(of id: String, creating: M.State? = nil) throws -> M.State {
        guard let state = creating ?? initial(id) else { throw HostError.unknownInstance(id) }
        return state
    }

    /// The instance `id` in memory, loaded (or created in `creating`) by a task of its own when it
    /// is not.
    @inlinable
    func instance(_ id: String, creating: M.State? = nil, adopting: Bool = false) throws -> HostedInstance<M> {
        try lock.withLock {
            if let refusal { throw refusal }
            if let found = instances[id] {
                if creating != nil { throw HostError.instanceExists(id) }
                return found
            }
            let made = HostedInstance<M>(id: id, host: self)
            instances[id] = made
            Task { await made.load(creating: creating, adopting: adopting) }
            return made
        }
    }

    /// An instance loaded: past `maxInstancesInMemory`, a sweep passivates the least recently
    /// used (H45), on a task, once however many loads ask.
    @inlinable
    func loaded() {
        let asks = lock.withLock { () -> Bool in
            guard instances.count > options.maxInstancesInMemory, !sweepAsked else { return false }
            sweepAsked = true
            return true
        }
        if asks { Task { [weak self] in self?.sweep() } }
    }

    /// Hands `delivery` to the incarnation of `id` in memory, loading one when there is none: a
    /// send that reached an incarnation after it passivated (H43).
    @inlinable
    func redeliver(_ delivery: HostedInstance<M>.Delivery, to id: String) {
        do {
            try instance(id).take(delivery)
        } catch {
            delivery.fail(error as? HostError ?? .shuttingDown)
        }
    }

    // MARK: Passivation

    /// How often the host looks for idle instances, by its clock: a quarter of `idleTimeout`,
    /// between a millisecond and a second, so an instance leaves at most that late (H41).
    static func sweepInterval(_ options: HostOptions) -> Int64 {
        min(1_000_000_000, max(1_000_000, options.idleNanoseconds / 4))
    }

    /// A task that calls `sweep` every `interval` nanoseconds of `clock` until it is cancelled.
    private static func sweeps(every interval: Int64, on clock: any HostClock, _ sweep: @escaping @Sendable () -> Void) -> Task<Void, Never> {
        Task {
            while true {
                do { try await clock.sleep(until: clock.now() &+ interval) } catch { return }
                sweep()
            }
        }
    }

    /// Passivates the instances that reduced no event for `idleTimeout` (H41), then, while more
    /// than `maxInstancesInMemory` are in memory, the least recently used (H45); a pinned one
    /// stays (H40). One sweep at a time: a second waits for the first (bounded work).
    @usableFromInline
    func sweep() {
        sweeping.lock()
        defer { sweeping.unlock() }
        let running = lock.withLock { () -> [HostedInstance<M>]? in
            sweepAsked = false
            return refusal != nil ? nil : Array(instances.values)
        }
        guard let running else { return }
        let (idleBefore, overflow) = options.clock.now().subtractingReportingOverflow(options.idleNanoseconds)
        // The instances kept, as their last activity and their places in `running`: sorted as
        // plain integers (ties in `running`'s order), since this function is not specialized for
        // `M`, and a sort of tuples holding a `HostedInstance<M>` moves each through the generic
        // value witnesses, a retain and a release a move (Benchmarks/README.md, `host.timers_1M`).
        var kept: [(active: Int64, index: Int)] = []
        var inMemory = running.count
        for index in running.indices {
            guard let active = running[index].activeSince else { continue }
            if !overflow, active <= idleBefore, running[index].passivate(.idle) {
                inMemory -= 1
            } else {
                kept.append((active, index))
            }
        }
        guard inMemory > options.maxInstancesInMemory else { return }
        kept.sort { $0.active != $1.active ? $0.active < $1.active : $0.index < $1.index }
        // Down to a hundredth under the limit (H45): a run of loads past it costs a sweep per
        // hundred loads, not one each (each sweep reads every instance; Benchmarks/README.md,
        // `host.timers_1M`).
        let target = options.maxInstancesInMemory - options.maxInstancesInMemory / 100
        for (_, index) in kept where inMemory > target {
            if running[index].passivate(.limit) { inMemory -= 1 }
        }
        // Those left are pinned (H45).
        if inMemory > options.maxInstancesInMemory { tally.tell(.overLimit(inMemory: inMemory, limit: options.maxInstancesInMemory)) }
    }

    /// Delivers a due timer row's event to its instance, loading it when it is not in memory
    /// (H30); returns once the instance took it. A row whose checksum fails, or whose event this
    /// machine cannot read, is not delivered: its instance writes its rows again from its journal
    /// (H37, H38), loaded for it when it is not in memory.
    func deliverTimer(_ row: CheckedRow<TimerRow>, ended: @escaping @Sendable (_ retry: Bool) -> Void) async {
        let id = row.row.machine
        // A child machine's rows are its parent's to deliver (Docs/Hosting.md, step 8).
        guard (try? Self.check(id)) != nil, let instance = try? instance(id) else { return ended(false) }
        var reader = JournalReader(row.row.timer.event)
        if row.checksumMatches, let event = try? reader.read(M.Event.self), reader.isAtEnd {
            instance.deliver(timer: event, TimerDelivery(ending: instance.ending, deadline: row.row.timer.deadline, ended: ended))
        } else {
            instance.rewriteTimerRows()
            ended(false)
        }
        try? await instance.opened()
    }

    /// `instance` left memory (it failed or finished, or found nothing to load): the next send
    /// loads it again. Its claim is given back once the parts it queued have committed or failed
    /// (an empty part behind them), so no part of it commits after another process took the id,
    /// and only while no later incarnation holds the id.
    @inlinable
    func remove(_ instance: HostedInstance<M>) {
        let id = instance.id
        lock.withLock {
            if instances[id] === instance { instances[id] = nil }
        }
        pipeline.enqueue(HostBatchPart(machine: id), on: CommitPipeline.Chain()) { [weak self] _ in
            // Off the writer's thread: the release is a write of its own.
            Task { self?.release(id) }
        }
    }

    /// Gives the claim of `id` back unless an incarnation of it is in memory, under `lock`, so that
    /// no incarnation made meanwhile loses its claim.
    @usableFromInline
    func release(_ id: String) {
        lock.withLock {
            guard instances[id] == nil else { return }
            try? store.release(id, by: owner)
        }
    }
}

/// A commit's word that the host's lease is gone (G43), passed on to the host once it is made.
final class Fence: Sendable {
    private let told = NSLock()
    nonisolated(unsafe) private var action: (@Sendable () -> Void)?  // guarded by `told`

    func onFenced(_ action: @escaping @Sendable () -> Void) {
        told.withLock { self.action = action }
    }

    func fenced() {
        told.withLock { action }?()
    }
}

/// Why an incarnation of an instance ended, once it did: what a send whose event it dropped is told.
@usableFromInline
final class Ending: @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    @usableFromInline var stored: HostError?

    @inlinable
    init() {}

    @inlinable
    var reason: HostError? {
        get { lock.withLock { stored } }
        set { lock.withLock { if stored == nil { stored = newValue } } }
    }
}

/// A sender waiting for its event to be durable: answered once, with its receipt or an error; one
/// released unanswered (its event dropped with the queue of an instance that stopped or finished)
/// throws why its instance ended. Answered, it gives its send's slot back (H10).
@usableFromInline
final class Waiter<M: DurableMachine>: @unchecked Sendable {
    @usableFromInline let id: String
    @usableFromInline let lock = NSLock()
    @usableFromInline var continuation: CheckedContinuation<Receipt<M>, any Error>?  // guarded by `lock`
    @usableFromInline let ending: Ending
    @usableFromInline let admission: HostAdmission
    @usableFromInline let tally: HostTally
    /// When the host accepted the send, when it is observed (H59), else 0.
    @usableFromInline let accepted: UInt64

    @inlinable
    init(id: String, continuation: CheckedContinuation<Receipt<M>, any Error>, ending: Ending, admission: HostAdmission, tally: HostTally) {
        self.id = id
        self.continuation = continuation
        self.ending = ending
        self.admission = admission
        self.tally = tally
        accepted = tally.start
    }

    /// Answers the sender, unless it was answered.
    @inlinable
    func answer(_ result: Result<Receipt<M>, any Error>) {
        guard let continuation = lock.withLock({ continuation.take() }) else { return }
        continuation.resume(with: result)
        admission.release()
        if accepted != 0 { told(result) }
    }

    @usableFromInline
    func told(_ result: Result<Receipt<M>, any Error>) {
        switch result {
        case .success: tally.tell(.acknowledged(seconds: HostTally.seconds(since: accepted)))
        case .failure(let error): tally.tell(.dropped((error as? HostError)?.dropReason ?? .failed))
        }
    }

    deinit {
        guard let continuation else { return }
        let reason = ending.reason ?? .notDurable(id, durableThrough: nil, reason: "the instance stopped before the event was reduced")
        continuation.resume(throwing: reason)
        admission.release()
        if accepted != 0 { tally.tell(.dropped(reason.dropReason)) }
    }
}
