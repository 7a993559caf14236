// HostedInstance: one incarnation of one instance in a MachineHost (Docs/Hosting.md H1-H25) - its
// load, its running system (a SystemCore whose records are pending until the host's commit), and
// the senders waiting for their events to be durable.
//
// Invariants:
// - The phase is one value under `lock`: loading (events sent meanwhile wait, in order), flushing
//   (the restored system takes those, and those sent meanwhile wait behind them), running, ended.
//   No user code and no call into the system runs under `lock`.
// - `steps` follows the system's reduced states: `record` runs on its drainer, one at a time, and
//   queues each step's writes in the order it reduced them, so the writer commits them in order.
// - A sender is answered once: by its record's commit, or, when its event is dropped unreduced
//   (the instance stopped or finished), by the waiter's release with the instance's end reason.

import Foundation
import StateLoop

@usableFromInline
final class HostedInstance<M: DurableMachine>: @unchecked Sendable {
    @usableFromInline typealias Run = SystemRun<M.State, M.Event>

    @usableFromInline
    enum Phase {
        case loading([(M.Event, Waiter<M>)])
        case flushing([(M.Event, Waiter<M>)])
        case running
        case ended(HostError)
    }

    @usableFromInline let id: String
    /// Why this incarnation ended, for the sends it dropped unreduced.
    @usableFromInline let ending = Ending()
    @usableFromInline weak var host: MachineHost<M>?
    @usableFromInline let lock = NSLock()
    // Guarded by `lock`.
    @usableFromInline var phase = Phase.loading([])
    @usableFromInline var run: Run?
    @usableFromInline var steps: JournalSteps<M>?
    /// The state after the last durable step (H7): what a send that returned has made true.
    @usableFromInline var durable: M.State?
    @usableFromInline var opening: Result<Void, any Error>?
    @usableFromInline var openWaiters: [CheckedContinuation<Void, any Error>] = []

    @inlinable
    init(id: String, host: MachineHost<M>) {
        self.id = id
        self.host = host
    }

    /// The state after the last durable step, once the instance is open (H7).
    @inlinable
    var durableState: M.State? { lock.withLock { durable } }

    /// Why a send to this instance fails now that it ended, or `nil` while it may take events.
    @inlinable
    var endReason: HostError? {
        lock.withLock {
            guard case .ended(let reason) = phase else { return nil }
            return reason
        }
    }

    /// A send from outside: it waits while the instance loads and is reduced after what waited
    /// before it (H2, H5); to an ended instance it fails with why it ended.
    @inlinable
    func accept(_ event: M.Event, _ waiter: Waiter<M>) {
        lock.lock()
        switch phase {
        case .loading(var waiting):
            waiting.append((event, waiter))
            phase = .loading(waiting)
            lock.unlock()
        case .flushing(var waiting):
            waiting.append((event, waiter))
            phase = .flushing(waiting)
            lock.unlock()
        case .running:
            let run = run
            lock.unlock()
            run?.send(event, token: SentToken(waiter: waiter))
        case .ended(let reason):
            lock.unlock()
            waiter.answer(.failure(reason))
        }
    }

    /// Returns once the instance's opening committed, or throws why it could not load.
    @inlinable
    func opened() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let result = lock.withLock { () -> Result<Void, any Error>? in
                if opening == nil { openWaiters.append(continuation) }
                return opening
            }
            if let result { continuation.resume(with: result) }
        }
    }

    // MARK: Loading

    /// Claims the id (D117), reads its journal through a read connection (H11), restores it (or
    /// starts it in `creating`, or `initial(id)`, when it has none, H3, H4), commits its opening
    /// (a new instance's snapshot 0 and row, a restored one's dropped runs and rows) before
    /// anything of it is shown, then starts it and hands it the sends that waited (H2).
    @inlinable
    func load(creating: M.State?) async {
        guard let host else { return }
        do {
            if let other = try host.store.claim(id, for: host.owner) { throw HostError.claimed(id, by: other) }
            let recovery = try await host.store.load(id)
            if creating != nil, recovery.lastSequence != nil { throw HostError.instanceExists(id) }
            let now = host.options.wallClock.now()
            let restored = try RestoredMachine<M>(id, recovery: recovery, initial: try host.initialState(of: id, creating: creating), now: now)
            if M.isDone(restored.state) { throw HostError.finished(id) }
            var steps = JournalSteps(restored, snapshotEvery: host.options.snapshotEvery, tracksTimerRows: true)
            let writes = steps.opening(at: now)
            host.pipeline.forget(id)
            try await commit(Self.part(id, writes, instance: HostedInstanceRow(host: M.journalName, awake: false, finished: false)), through: host)
            let system = System<M.State, M.Event>(
                initial: restored.state, reduce: M.reduce, feedbacks: host.feedbacks(id), isFinished: { M.isDone($0) })
            let resume = Resumption<M.Event>(
                timers: { _ in nil }, runs: steps.book.runs.map { ($0.key, $0.run) }, runsQueued: steps.book.runsQueued,
                hostsTimers: true)
            lock.withLock {
                self.steps = steps
                durable = restored.state
            }
            let journal = SystemJournal<M.State, M.Event>(
                recordRun: { [weak self] event, run, state in self?.record(event, run, state) ?? .refused },
                runReturnedNothing: { [weak self] key in self?.runReturnedNothing(key) },
                resume: resume)
            let run = system.start(journal: journal, onState: { [weak self] state in self?.show(state) }, onStop: { [weak self] in self?.systemEnded() })
            flush(into: run)
        } catch {
            let reason = error as? HostError ?? .loadFailed(id, reason: "\(error)")
            end(reason, openingFailed: error)
        }
    }

    /// Hands `run` the sends that waited while the instance loaded, then those sent meanwhile,
    /// in order, then lets sends go to it directly.
    @inlinable
    func flush(into run: Run) {
        let flushing = lock.withLock { () -> [(M.Event, Waiter<M>)]? in
            // Ended while it loaded (the host stopped): the system it started stops at once.
            if case .ended = phase { return nil }
            self.run = run
            guard case .loading(let waiting) = phase else { return [] }
            phase = .flushing([])
            if opening == nil { opening = .success(()) }
            return waiting
        }
        guard var waiting = flushing else {
            Task.detached { run.stop() }
            return
        }
        resumeOpenWaiters()
        while true {
            for (event, waiter) in waiting { run.send(event, token: SentToken(waiter: waiter)) }
            waiting = lock.withLock {
                guard case .flushing(let more) = phase else { return [] }
                if more.isEmpty { phase = .running }
                else { phase = .flushing([]) }
                return more
            }
            if waiting.isEmpty { return }
        }
    }

    // MARK: Running (the system's drainer)

    /// The write-ahead of a hosted step: its writes join the host's next transaction, and its
    /// state is held until they commit (H12, H20).
    @inlinable
    func record(_ event: M.Event, _ run: EffectRun?, _ stateAfter: M.State) -> RecordOutcome {
        guard let host else { return .refused }
        let waiter = (run as? SentToken)?.waiter as? Waiter<M>
        let now = host.options.wallClock.now()
        let step = lock.withLock { () -> (JournalWrites, Int64)? in
            guard steps != nil else { return nil }
            let writes = steps!.step(event, origin: EventOrigin(run), to: stateAfter, at: now)
            return (writes, steps!.sequence)
        }
        guard let (writes, sequence) = step else { return .refused }
        let finished = M.isDone(stateAfter)
        // Every event queued behind a finished state is dropped: its sender learns why (H8).
        if finished { ending.reason = .finished(id) }
        let part = Self.part(id, writes, instance: finished ? HostedInstanceRow(host: M.journalName, awake: false, finished: true) : nil)
        host.pipeline.enqueue(part) { [weak self] error in
            guard let self else { return }
            if let error {
                let failure = HostError.notDurable(id, reason: "\(error)")
                waiter?.answer(.failure(failure))
                end(failure, openingFailed: nil)
                return
            }
            lock.withLock { () -> Run? in
                durable = stateAfter
                return self.run
            }?.durable(1)
            waiter?.answer(.success(Receipt(sequence: sequence, state: stateAfter)))
        }
        return .pending
    }

    /// A one-shot run returned nothing: its record joins the next transaction (D37).
    @inlinable
    func runReturnedNothing(_ key: Int) {
        guard let host else { return }
        let now = host.options.wallClock.now()
        guard let writes = lock.withLock({ steps == nil ? nil : steps!.runReturnedNothing(key, at: now) }) else { return }
        host.pipeline.enqueue(Self.part(id, writes, instance: nil)) { [weak self] error in
            if let error, let self { end(.notDurable(id, reason: "\(error)"), openingFailed: nil) }
        }
    }

    @inlinable
    func show(_ state: M.State) {
        host?.onState(id, state)
    }

    /// The system ended by itself (it finished, H8) or was stopped.
    @inlinable
    func systemEnded() {
        let finished = lock.withLock { durable.map { M.isDone($0) } ?? false }
        end(finished ? .finished(id) : .notDurable(id, reason: "the instance stopped"), openingFailed: nil)
    }

    // MARK: Ending

    /// The host stops: the instance stops, and the sends still waiting fail.
    @inlinable
    func stop() {
        end(.shuttingDown, openingFailed: nil)
    }

    /// Ends the incarnation with `reason`: waiting sends fail with it, later ones too, the system
    /// stops (on a task: this may run on the writer's thread), and the instance leaves memory, so
    /// the next send loads it again from what its journal holds (H23).
    @inlinable
    func end(_ reason: HostError, openingFailed: (any Error)?) {
        let (waiting, stopping, first) = lock.withLock { () -> ([(M.Event, Waiter<M>)], Run?, Bool) in
            var waiting: [(M.Event, Waiter<M>)] = []
            switch phase {
            case .ended: return ([], nil, false)
            case .loading(let queued), .flushing(let queued): waiting = queued
            case .running: break
            }
            phase = .ended(reason)
            ending.reason = reason
            if opening == nil { opening = .failure(openingFailed ?? reason) }
            return (waiting, self.run, true)
        }
        guard first else { return }
        resumeOpenWaiters()
        for (_, waiter) in waiting { waiter.answer(.failure(reason)) }
        host?.remove(self)
        if let stopping { Task.detached { stopping.stop() } }
    }

    @inlinable
    func resumeOpenWaiters() {
        let (waiters, result) = lock.withLock { () -> ([CheckedContinuation<Void, any Error>], Result<Void, any Error>?) in
            defer { openWaiters = [] }
            return (openWaiters, opening)
        }
        if let result { for waiter in waiters { waiter.resume(with: result) } }
    }

    // MARK: Parts

    /// Commits `part` through the host's writer and returns once it did (or throws its error).
    @inlinable
    func commit(_ part: HostBatchPart, through host: MachineHost<M>) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            host.pipeline.enqueue(part) { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    @inlinable
    static func part(_ id: String, _ writes: JournalWrites, instance: HostedInstanceRow?) -> HostBatchPart {
        HostBatchPart(
            machine: id, records: writes.records, snapshot: writes.snapshot, deletedTimers: writes.deletedTimers,
            armedTimers: writes.armedTimers, instance: instance)
    }
}
