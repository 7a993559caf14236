// HostedInstance: one incarnation of one instance in a MachineHost (Docs/Hosting.md H1-H25) - its
// load, its running system (a SystemCore whose records are pending until the host's commit), and
// the senders waiting for their events to be durable.
//
// Invariants:
// - The phase is one value under `lock`: loading (events sent meanwhile wait, in order), flushing
//   (the restored system takes those, and those sent meanwhile wait behind them), running,
//   passivating (its last part commits; events sent meanwhile wait for the next incarnation, H43),
//   passivated (a send that still reaches it goes to the host's current incarnation), ended.
//   No user code and no call into the system runs under `lock`.
// - `queued` counts the deliveries in the system's queue and `committing` the parts in the
//   pipeline: a passivation is decided under `lock` only while both are zero (H40, H42), and no
//   step is taken once it was.
// - `steps` follows the system's reduced states: `record` runs on its drainer, one at a time, and
//   queues each step's writes in the order it reduced them, so the writer commits them in order.
// - A sender is answered once: by its record's commit, or, when its event is dropped unreduced
//   (the instance stopped or finished), by the waiter's release with the instance's end reason.
// - A timer row's delivery is taken only while its timer is armed, unfired and due in the state
//   it follows (H31), and once: while one is in the system's queue, a step that fires or disarms
//   its timer makes it stale, and a second delivery of the same row is dropped.
// - `writing` orders the steps' writes: a step and the queueing of its writes happen under it, so
//   the writer gets them in the order they were numbered, whichever thread made them (the drainer,
//   a one-shot run's task, a rewrite of the rows).

import Foundation
import StateLoop

@usableFromInline
final class HostedInstance<M: DurableMachine>: @unchecked Sendable {
    @usableFromInline typealias Run = SystemRun<M.State, M.Event>

    @usableFromInline
    enum Phase {
        case loading([Delivery])
        case flushing([Delivery])
        case running
        case passivating([Delivery])
        case passivated
        case ended(HostError)
    }

    /// An event for the instance: a send from outside, or a timer row's event from the scheduler.
    @usableFromInline
    enum Delivery {
        case sent(M.Event, Waiter<M>)
        case timer(M.Event, TimerDelivery)
    }

    /// A timer row's delivery in the system's queue: its event's bytes (its row's key) and its token.
    @usableFromInline
    struct TimerInQueue {
        @usableFromInline let bytes: [UInt8]
        @usableFromInline let token: SentToken

        @inlinable
        init(bytes: [UInt8], token: SentToken) {
            self.bytes = bytes
            self.token = token
        }
    }

    @usableFromInline let id: String
    /// Why this incarnation ended, for the sends it dropped unreduced.
    @usableFromInline let ending = Ending()
    /// The chain of this incarnation's parts in the host's pipeline: once one fails, its later ones
    /// fail unwritten, whichever incarnation loads next (H22).
    @usableFromInline let chain = CommitPipeline.Chain()
    @usableFromInline weak var host: MachineHost<M>?
    @usableFromInline let lock = NSLock()
    /// Held while a step is taken and its writes queued (the order of the writes).
    @usableFromInline let writing = NSLock()
    // Guarded by `lock`.
    @usableFromInline var phase: Phase
    @usableFromInline var run: Run?
    @usableFromInline var steps: JournalSteps<M>?
    /// The state after the last durable step (H7): what a send that returned has made true, and
    /// its sequence number.
    @usableFromInline var durable: M.State?
    @usableFromInline var durableSequence: Int64 = 0
    @usableFromInline var opening: Result<Void, any Error>?
    @usableFromInline var openWaiters: [CheckedContinuation<Void, any Error>] = []
    @usableFromInline var timersInQueue: [TimerInQueue] = []
    /// The deliveries sent into the system and not yet reduced or dropped as stale.
    @usableFromInline var queued = 0
    /// The parts enqueued in the host's pipeline and not yet committed or failed.
    @usableFromInline var committing = 0
    /// When the instance last reduced an event or finished loading, by the host's clock (H41).
    @usableFromInline var lastActive: Int64 = 0
    /// Whether the last state stepped pins the instance by a child or a query effect (H40), and
    /// whether its row says it is awake (that, or a one-shot run not known finished, H48).
    @usableFromInline var statePinned = false
    @usableFromInline var awake = false
    /// Whether the row says the instance finished: written by its finishing step, never changed
    /// after it (H46), whatever its runs' ends journal.
    @usableFromInline var rowFinished = false
    /// Why the incarnation passivates, once it does (told once it left memory, H59).
    @usableFromInline var leaving = HostActivity.PassivationReason.idle

    /// An incarnation of `id` that loads, then takes `waiting` before any later delivery (H43).
    @inlinable
    init(id: String, host: MachineHost<M>, waiting: [Delivery] = []) {
        self.id = id
        self.host = host
        phase = .loading(waiting)
    }

    /// The state after the last durable step, once the instance is open (H7).
    @inlinable
    var durableState: M.State? { lock.withLock { durable } }

    /// When the running instance last reduced an event or loaded (H41); `nil` while it is not running.
    @inlinable
    var activeSince: Int64? {
        lock.withLock {
            guard case .running = phase else { return nil }
            return lastActive
        }
    }

    /// Whether the instance is pinned (H40): by its state, or by a one-shot run not known finished.
    var isPinned: Bool {
        lock.withLock { statePinned || !(steps?.book.runs.isEmpty ?? true) }
    }

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
        take(.sent(event, waiter))
    }

    /// A timer row's event, from the scheduler (H30): taken as a send is, and reduced only while
    /// its timer is armed, unfired and due in the state it follows (H31).
    @inlinable
    func deliver(timer event: M.Event, _ delivery: TimerDelivery) {
        take(.timer(event, delivery))
    }

    @inlinable
    func take(_ delivery: Delivery) {
        lock.lock()
        switch phase {
        case .loading(var waiting):
            waiting.append(delivery)
            phase = .loading(waiting)
            lock.unlock()
        case .flushing(var waiting):
            waiting.append(delivery)
            phase = .flushing(waiting)
            lock.unlock()
        case .running:
            let run = run
            let token = tokenLocked(delivery)
            lock.unlock()
            send(delivery, token, into: run)
        case .passivating(var waiting):
            waiting.append(delivery)
            phase = .passivating(waiting)
            lock.unlock()
        case .passivated:
            lock.unlock()
            if let host { host.redeliver(delivery, to: id) } else { delivery.fail(.shuttingDown) }
        case .ended(let reason):
            lock.unlock()
            delivery.fail(reason)
        }
    }

    /// The token `delivery`'s event goes into the system with; `nil` for a timer's delivery that
    /// is not taken: its timer is not armed, has fired or is not due in the last state stepped, or
    /// a delivery of it is already queued (H31).
    @inlinable
    func tokenLocked(_ delivery: Delivery) -> SentToken? {
        switch delivery {
        case .sent(_, let waiter):
            queued += 1
            return SentToken(waiter: waiter)
        case .timer(let event, let timer):
            guard let steps, let host, let deadline = steps.deadline(ofArmed: event), deadline <= host.options.clock.now() else { return nil }
            let bytes = JournalSteps<M>.bytes(of: event)
            guard !timersInQueue.contains(where: { $0.bytes == bytes }) else { return nil }
            let token = SentToken(waiter: timer)
            timersInQueue.append(TimerInQueue(bytes: bytes, token: token))
            queued += 1
            return token
        }
    }

    /// Sends `delivery`'s event into `run` with `token`, or answers a timer's delivery that was
    /// not taken (nothing to do: its row went with the step that fired or disarmed it).
    @inlinable
    func send(_ delivery: Delivery, _ token: SentToken?, into run: Run?) {
        switch delivery {
        case .sent(let event, _): if let token { run?.send(event, token: token) }
        case .timer(let event, let timer):
            if let token { run?.send(event, token: token) } else {
                timer.answer(retry: false)
                host?.tally.tell(.dropped(.timerStale))
            }
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
    func load(creating: M.State?, adopting: Bool = false) async {
        guard let host else { return }
        let start = host.tally.start
        do {
            // A finished instance is not loaded (H46): its row says so, read before the claim.
            let row = creating == nil ? try await host.store.hostedInstance(id) : nil
            if let row, row.checksumMatches, row.row.finished { throw HostError.finished(id) }
            if let other = try host.store.claim(id, for: host.owner) { throw HostError.claimed(id, by: other) }
            let recovery = try await host.store.load(id)
            if creating != nil, recovery.lastSequence != nil { throw HostError.instanceExists(id) }
            // A journal without a row, once the store is indexed, is a durable system's (H68).
            if creating == nil, row == nil, !adopting, recovery.lastSequence != nil, host.lock.withLock({ host.indexed }) {
                throw HostError.notHosted(id)
            }
            let now = host.options.clock.now()
            let restored = try RestoredMachine<M>(id, recovery: recovery, initial: try host.initialState(of: id, creating: creating), now: now)
            if M.isDone(restored.state) { throw HostError.finished(id) }
            if let child = M.childRequests(in: restored.state).first { throw HostError.childMachine(id, effect: child.effect) }
            var steps = JournalSteps(restored, snapshotEvery: host.options.snapshotEvery, tracksTimerRows: true)
            let writes = steps.opening(at: now)
            let pinned = Self.pins(restored.state, host.options)
            let awake = pinned || !steps.book.runs.isEmpty
            try await commit(Self.part(id, writes, instance: HostedInstanceRow(host: M.journalName, awake: awake, finished: false)), through: host)
            let system = host.attach(id, System<M.State, M.Event>(
                initial: restored.state, reduce: M.reduce, feedbacks: host.feedbacks(id), isFinished: { M.isDone($0) }))
            let resume = Resumption<M.Event>(
                timers: { _ in nil }, runs: steps.book.runs.map { ($0.key, $0.run) }, runsQueued: steps.book.runsQueued,
                hostsTimers: true)
            lock.withLock {
                self.steps = steps
                durable = restored.state
                durableSequence = steps.sequence
                statePinned = pinned
                self.awake = awake
            }
            let journal = SystemJournal<M.State, M.Event>(
                recordRun: { [weak self] event, run, state in self?.record(event, run, state) ?? .refused },
                runReturnedNothing: { [weak self] key in self?.runReturnedNothing(key) },
                resume: resume)
            let run = system.start(journal: journal, onState: { [weak self] state in self?.show(state) }, onStop: { [weak self] in self?.systemEnded() })
            if start != 0 { host.tally.tell(.loaded(instance: id, recovery.lastSequence == nil ? .created : .recovered, seconds: HostTally.seconds(since: start))) }
            flush(into: run)
        } catch {
            let reason = error as? HostError ?? .loadFailed(id, reason: "\(error)")
            if start != 0 { host.tally.tell(.loaded(instance: id, .failed, seconds: HostTally.seconds(since: start))) }
            end(reason, openingFailed: error)
        }
    }

    /// Hands `run` the sends that waited while the instance loaded, then those sent meanwhile,
    /// in order, then lets sends go to it directly.
    @inlinable
    func flush(into run: Run) {
        let flushing = lock.withLock { () -> [Delivery]? in
            // Ended while it loaded (the host stopped): the system it started stops at once.
            if case .ended = phase { return nil }
            self.run = run
            guard case .loading(let waiting) = phase else { return [] }
            phase = .flushing([])
            lastActive = host?.options.clock.now() ?? 0
            if opening == nil { opening = .success(()) }
            return waiting
        }
        guard var waiting = flushing else {
            Task.detached { run.stop() }
            return
        }
        resumeOpenWaiters()
        host?.loaded()
        while true {
            for delivery in waiting { send(delivery, lock.withLock { tokenLocked(delivery) }, into: run) }
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
        let token = run as? SentToken
        let waiter = token?.waiter as? Waiter<M>
        let timer = waiter == nil ? token?.waiter as? TimerDelivery : nil
        // A child machine would run unjournaled: the step is refused, and the instance ends (H75).
        if let child = M.childRequests(in: stateAfter).first {
            let refusal = HostError.childMachine(id, effect: child.effect)
            waiter?.answer(.failure(refusal))
            timer?.answer(refusal)
            end(refusal, openingFailed: nil)
            return .refused
        }
        let now = host.options.clock.now()
        let pinned = Self.pins(stateAfter, host.options)
        let finished = M.isDone(stateAfter)
        writing.lock()
        defer { writing.unlock() }
        var stale = 0
        let step = lock.withLock { () -> (JournalWrites, Int64, HostedInstanceRow?)? in
            // A passivating instance takes no step: the late event of an effect its stop cancelled.
            guard steps != nil, isTakingSteps else { return nil }
            let writes = steps!.step(event, origin: EventOrigin(run), to: stateAfter, at: now)
            if token != nil { queued -= 1 }
            if !timersInQueue.isEmpty { stale = dequeueTimers(writes.deletedTimers, reduced: token) }
            committing += 1
            lastActive = now
            statePinned = pinned
            if finished {
                rowFinished = true
                return (writes, steps!.sequence, HostedInstanceRow(host: M.journalName, awake: false, finished: true))
            }
            return (writes, steps!.sequence, awakeRowLocked())
        }
        for _ in 0..<stale { host.tally.tell(.dropped(.timerStale)) }
        guard let (writes, sequence, row) = step else { return .refused }
        // Every event queued behind a finished state is dropped: its sender learns why (H8).
        if finished { ending.reason = .finished(id) }
        let part = Self.part(id, writes, instance: row)
        host.pipeline.enqueue(part, on: chain) { [weak self] error in
            guard let self else { return }
            if let error {
                let failure = notDurable("\(error)")
                waiter?.answer(.failure(failure))
                timer?.answer(failure)
                lock.withLock { committing -= 1 }
                end(failure, openingFailed: nil)
                return
            }
            lock.withLock { () -> Run? in
                durable = stateAfter
                durableSequence = sequence
                committing -= 1
                return self.run
            }?.durable(1)
            waiter?.answer(.success(Receipt(sequence: sequence, state: stateAfter)))
            if let timer {
                timer.answer(retry: false)
                host.tally.timerFired(id, deadline: timer.deadline)
            }
        }
        return .pending
    }

    /// A step fired or disarmed the timers of `rows`: their deliveries still queued are stale
    /// (dropped unreduced, H31), but for the one it reduced; returns how many. On the drainer,
    /// under `lock`.
    @inlinable
    func dequeueTimers(_ rows: [[UInt8]], reduced: SentToken?) -> Int {
        var stale = 0
        for bytes in rows {
            guard let index = timersInQueue.firstIndex(where: { $0.bytes == bytes }) else { continue }
            let taken = timersInQueue.remove(at: index)
            if taken.token !== reduced {
                taken.token.makeStale()
                queued -= 1
                stale += 1
            }
        }
        return stale
    }

    /// The instance's row when whether it is awake changed with the step just taken (H48): awake
    /// while its state pins it or a one-shot run is not known finished; none once the instance
    /// finished (H46). Under `lock`.
    @inlinable
    func awakeRowLocked() -> HostedInstanceRow? {
        let now = statePinned || !(steps?.book.runs.isEmpty ?? true)
        guard !rowFinished, now != awake else { return nil }
        awake = now
        return HostedInstanceRow(host: M.journalName, awake: now, finished: false)
    }

    /// A one-shot run returned nothing: its record joins the next transaction (D37).
    @inlinable
    func runReturnedNothing(_ key: Int) {
        guard let host else { return }
        let now = host.options.clock.now()
        writing.lock()
        defer { writing.unlock() }
        let writes = lock.withLock { () -> (JournalWrites, HostedInstanceRow?)? in
            guard steps != nil, isTakingSteps else { return nil }
            committing += 1
            return (steps!.runReturnedNothing(key, at: now), awakeRowLocked())
        }
        guard let (writes, awakeRow) = writes else { return }
        enqueue(Self.part(id, writes, instance: awakeRow), through: host)
    }

    /// A row of the instance was found damaged (H37): every row is written again from its
    /// bookkeeping (H38), unless it still loads (its opening writes them).
    @inlinable
    func rewriteTimerRows() {
        guard let host else { return }
        writing.lock()
        defer { writing.unlock() }
        let writes = lock.withLock { () -> JournalWrites? in
            guard case .running = phase, steps != nil else { return nil }
            committing += 1
            return steps!.allTimerRows()
        }
        guard let writes else { return }
        enqueue(Self.part(id, writes, instance: nil), through: host)
    }

    /// Queues `part`, which answers no sender, under `writing`; the caller counted it in
    /// `committing` under `lock` with the step that made it, so no passivation comes in between.
    @inlinable
    func enqueue(_ part: HostBatchPart, through host: MachineHost<M>) {
        host.pipeline.enqueue(part, on: chain) { [weak self] error in
            guard let self else { return }
            lock.withLock { committing -= 1 }
            if let error { end(notDurable("\(error)"), openingFailed: nil) }
        }
    }

    /// Whether the system's steps are journaled: from its start (a one-shot run resumed by it
    /// answers while the sends that waited are still being handed on) until it passivates or ends.
    @inlinable
    var isTakingSteps: Bool {
        switch phase {
        case .loading, .flushing, .running: true
        case .passivating, .passivated, .ended: false
        }
    }

    @inlinable
    func show(_ state: M.State) {
        host?.onState(id, state)
    }

    /// The system ended by itself (it finished, H8) or was stopped.
    @inlinable
    func systemEnded() {
        let (finished, passivating) = lock.withLock { () -> (Bool, Bool) in
            switch phase {
            case .passivating, .passivated: return (false, true)
            default: return (durable.map { M.isDone($0) } ?? false, false)
            }
        }
        // A passivation stopped it: the passivation ends the incarnation.
        if passivating { return }
        end(finished ? .finished(id) : notDurable("the instance stopped"), openingFailed: nil)
    }

    /// Why the instance's events after its last durable one are not durable: `reason`.
    @inlinable
    func notDurable(_ reason: String) -> HostError {
        .notDurable(id, durableThrough: lock.withLock { durableSequence }, reason: reason)
    }

    // MARK: Passivation

    /// Passivates the instance unless it is pinned (H40): it stops taking steps (sends made now
    /// wait for its next incarnation, H43), stops its system (its effects cancelled), and writes in
    /// one part its snapshot when records followed the latest, its instance row and the release of
    /// its claim (H42); once that committed it leaves memory. Returns whether it passivates.
    @inlinable
    func passivate(_ reason: HostActivity.PassivationReason) -> Bool {
        guard let host else { return false }
        let now = host.options.clock.now()
        let decided = lock.withLock { () -> (Run?, JournalSnapshot?)? in
            guard case .running = phase, queued == 0, committing == 0, !statePinned, steps?.book.runs.isEmpty == true else { return nil }
            phase = .passivating([])
            leaving = reason
            return (run, steps!.closingSnapshot(at: now))
        }
        guard let (run, snapshot) = decided else { return false }
        run?.stop()
        let part = HostBatchPart(
            machine: id, snapshot: snapshot, instance: HostedInstanceRow(host: M.journalName, awake: false, finished: false),
            releasedBy: host.owner)
        // Committed or not, its records are: the next incarnation recovers from what committed.
        host.pipeline.enqueue(part, on: chain) { [weak self] _ in self?.passivated() }
        return true
    }

    /// Closes the instance at a graceful shutdown (H55), once every delivery it took is reduced:
    /// its system stops (effects cancelled, their later events dropped), and one part, behind its
    /// steps' parts, writes its closing snapshot and the release of its claim; its row stays as it
    /// is, so an awake instance loads again at the next start (H56). Does nothing before then, or
    /// once it is closing.
    @inlinable
    func close() {
        guard let host else { return }
        let now = host.options.clock.now()
        let decided = lock.withLock { () -> (Run?, JournalSnapshot?)? in
            guard case .running = phase, queued == 0, steps != nil else { return nil }
            phase = .passivating([])
            leaving = .shutdown
            return (run, steps!.closingSnapshot(at: now))
        }
        guard let (run, snapshot) = decided else { return }
        run?.stop()
        host.pipeline.enqueue(HostBatchPart(machine: id, snapshot: snapshot, releasedBy: host.owner), on: chain) { [weak self] _ in
            self?.passivated()
        }
    }

    /// Whether `state` keeps its instance in memory (H40, H50): a child machine runs, or, unless
    /// `queryEffects` is `.restartOnLoad`, a query effect, a set's element or a stream. Asked of
    /// each state stepped, outside `lock` (it runs the machine's code).
    @inlinable
    static func pins(_ state: M.State, _ options: HostOptions) -> Bool {
        if !M.childRequests(in: state).isEmpty { return true }
        return options.queryEffects == .pin && M.runs(in: state).contains { !$0.isOneShot }
    }

    /// The passivation's part committed: the instance leaves memory, and the sends that waited go,
    /// in order, to a new incarnation, which recovers from the snapshot just written (H43, H44).
    @inlinable
    func passivated() {
        guard let host else { return }
        var refused: (HostError, [Delivery])?
        var left: HostActivity.PassivationReason?
        let successor = host.lock.withLock { () -> HostedInstance<M>? in
            let waiting = lock.withLock { () -> [Delivery]? in
                guard case .passivating(let waiting) = phase else { return nil }
                phase = .passivated
                left = leaving
                return waiting
            }
            // Ended meanwhile (the host stopped): nothing is left to hand on.
            guard let waiting, host.instances[id] === self else { return nil }
            guard !waiting.isEmpty, host.refusal == nil else {
                host.instances[id] = nil
                // The host shuts down (H55): the sends that waited are refused.
                if let refusal = host.refusal { refused = (refusal, waiting) }
                return nil
            }
            let next = HostedInstance(id: id, host: host, waiting: waiting)
            host.instances[id] = next
            return next
        }
        if let left { host.tally.tell(.passivated(instance: id, left)) }
        if let (reason, waiting) = refused { for delivery in waiting { delivery.fail(reason) } }
        if let successor { Task { await successor.load(creating: nil) } }
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
        let (waiting, stopping, first) = lock.withLock { () -> ([Delivery], Run?, Bool) in
            var waiting: [Delivery] = []
            switch phase {
            case .ended, .passivated: return ([], nil, false)
            case .loading(let queued), .flushing(let queued), .passivating(let queued): waiting = queued
            case .running: break
            }
            phase = .ended(reason)
            ending.reason = reason
            timersInQueue = []
            if opening == nil { opening = .failure(openingFailed ?? reason) }
            return (waiting, self.run, true)
        }
        guard first else { return }
        if case .finished = reason { host?.tally.tell(.passivated(instance: id, .finished)) }
        if reason.isFailure { host?.tally.tell(.failed(instance: id, reason)) }
        resumeOpenWaiters()
        for delivery in waiting { delivery.fail(reason) }
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
            host.pipeline.enqueue(part, on: chain) { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    @inlinable
    static func part(_ id: String, _ writes: JournalWrites, instance: HostedInstanceRow?) -> HostBatchPart {
        HostBatchPart(
            machine: id, records: writes.records, snapshot: writes.snapshot, replacesTimers: writes.replacesTimers,
            deletedTimers: writes.deletedTimers,
            armedTimers: writes.armedTimers, instance: instance)
    }
}

extension HostedInstance.Delivery {
    /// Tells the sender, or the scheduler, that the delivery could not be taken, for `reason`.
    @inlinable
    func fail(_ reason: HostError) {
        switch self {
        case .sent(_, let waiter): waiter.answer(.failure(reason))
        case .timer(_, let timer): timer.answer(reason)
        }
    }
}

/// A timer row's delivery from the scheduler: answered once, when its event's record committed
/// (or was not taken: nothing to do) or its instance could not take it (the scheduler tries the row
/// again after a back-off, H39); one released unanswered (its event dropped with the queue of an
/// instance that ended, or stale) answers by why its instance ended.
@usableFromInline
final class TimerDelivery: @unchecked Sendable {
    @usableFromInline let ending: Ending
    /// The deadline of the row delivered, by the host's clock (its lag, H59).
    @usableFromInline let deadline: Int64
    @usableFromInline let lock = NSLock()
    @usableFromInline var ended: (@Sendable (_ retry: Bool) -> Void)?  // guarded by `lock`

    @inlinable
    init(ending: Ending, deadline: Int64, ended: @escaping @Sendable (_ retry: Bool) -> Void) {
        self.ending = ending
        self.deadline = deadline
        self.ended = ended
    }

    /// Tells the scheduler the delivery ended: `retry` when the row must be tried again.
    @inlinable
    func answer(retry: Bool) {
        lock.withLock { ended.take() }?(retry)
    }

    /// The instance could not take the delivery for `reason`.
    @inlinable
    func answer(_ reason: HostError) {
        answer(retry: reason.retriesTimer)
    }

    deinit {
        ended?(ending.reason?.retriesTimer ?? false)
    }
}

extension HostError {
    /// Whether a timer's delivery that failed for this is tried again (H39): its instance could
    /// not be loaded or its record committed, or another process held it; not when it finished or
    /// the host stops.
    @inlinable
    var retriesTimer: Bool {
        switch self {
        case .notDurable, .loadFailed, .claimed: true
        case .invalidID, .unknownInstance, .instanceExists, .finished, .shuttingDown, .hostTaken, .alreadyRun, .notHosted, .childMachine, .leaseLost: false
        }
    }
}
