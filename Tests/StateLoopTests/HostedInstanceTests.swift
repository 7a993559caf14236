// The runtime's side of a hosted instance (Docs/Hosting.md H8, H13, H20, H29): a journal that
// answers `pending`, as a host's group commit does, holds each state until it says the state is
// durable; events from outside run on meanwhile, an effect's event waits for the states before it,
// nothing follows a finished state, and the timer feedbacks arm nothing.

import Foundation
@testable import StateLoop
import StateLoopTestSupport
import Testing

/// A journal whose every record is pending, as a host's are: it keeps what it was given, and the
/// test says when records are durable (`SystemRun.durable(_:)`).
final class PendingJournal<State: Sendable, Event: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [(event: Event, stateAfter: State, shownBefore: Int)] = []
    /// The states shown (the `onState` of `start`): a record notes how many were shown before it.
    let shown = Recorder<State>()

    var records: [(event: Event, stateAfter: State, shownBefore: Int)] { lock.withLock { kept } }

    func journal(hostsTimers: Bool = false) -> SystemJournal<State, Event> {
        SystemJournal(
            record: { event, _, state in
                let shownBefore = self.shown.all.count
                self.lock.withLock { self.kept.append((event, state, shownBefore)) }
                return .pending
            },
            runReturnedNothing: { _ in },
            resume: Resumption(timers: { _ in nil }, runs: [], runsQueued: 0, hostsTimers: hostsTimers))
    }

    func start(_ system: System<State, Event>, hostsTimers: Bool = false) -> SystemRun<State, Event> {
        system.start(journal: journal(hostsTimers: hostsTimers), onState: shown.append, onStop: {})
    }
}

/// A gate an effect waits at until the test opens it.
final class Gate: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() { (stream, continuation) = AsyncStream.makeStream(of: Void.self) }
    func open() { continuation.yield() }
    func wait() async { for await _ in stream { return } }
}

@Suite struct HostedInstanceTests {
    @Test("H20: while an instance's states wait for their commit, events sent from outside are reduced at once, and the states are shown once durable, in order")
    func h20EventsFromOutsideRunOnBehindACommit() async {
        let journal = PendingJournal<Model, Action>()
        let run = journal.start(System(initial: Model(), reduce: reduceModel, feedbacks: []))
        for _ in 1...3 { run.send(.increment) }
        #expect(journal.records.map(\.stateAfter.count) == [1, 2, 3], "reduced at once, each on the state before it")
        #expect(journal.shown.all.map(\.count) == [0], "no state shown before it is durable")

        run.durable(2)
        let twoShown = await journal.shown.eventually { $0.count == 3 }
        #expect(twoShown.map(\.count) == [0, 1, 2])
        run.durable(1)
        let allShown = await journal.shown.eventually { $0.count == 4 }
        #expect(allShown.map(\.count) == [0, 1, 2, 3])
        run.stop()
    }

    @Test("H20: a record the journal makes durable before its record call returns (a writer faster than the drainer) is shown all the same, once")
    func h20ADurableMarkBeforeTheHoldIsKept() async {
        let handle = Box<SystemRun<Model, Action>?>(nil)
        let shown = Recorder<Model>()
        let journal = SystemJournal<Model, Action>(
            record: { _, _, _ in
                handle.value?.durable(1)
                return .pending
            },
            runReturnedNothing: { _ in },
            resume: Resumption(timers: { _ in nil }, runs: [], runsQueued: 0))
        let run = System<Model, Action>(initial: Model(), reduce: reduceModel, feedbacks: [])
            .start(journal: journal, onState: shown.append, onStop: {})
        handle.value = run
        for _ in 1...3 { run.send(.increment) }
        let all = await shown.eventually { $0.count == 4 }
        #expect(all.map(\.count) == [0, 1, 2, 3])
        try? await Task.sleep(for: .milliseconds(50))
        #expect(shown.all.count == 4, "a state was shown twice")
        run.stop()
    }

    @Test("H13: a state made durable from a writer's thread is shown on another thread")
    func h13StatesAreShownOffTheWritersThread() async {
        let threads = Recorder<String>()
        let ran = DispatchSemaphore(value: 0)
        let journal = PendingJournal<Model, Action>()
        let system = System<Model, Action>(initial: Model(), reduce: reduceModel, feedbacks: [
            .react(request: { $0.count > 0 ? $0.count : nil }, run: { _, _ in
                threads.append("\(pthread_self())")
                ran.signal()
            }),
        ])
        let run = journal.start(system)
        run.send(.increment)
        let writer = Box<String>("")
        await onOwnThread {
            writer.value = "\(pthread_self())"
            run.durable(1)
            // The writer's thread lives until the effect ran: a thread that ended may have its
            // pthread_t given to a new thread of the pool, which would look like the writer's.
            _ = ran.wait(timeout: .now() + 60)
        }
        let seen = await threads.eventually { !$0.isEmpty }
        #expect(seen.count == 1 && seen.first != writer.value)
        run.stop()
    }

    @Test("H20: an event from an effect waits until every state before it has been shown, then is checked for staleness: kept when its run is still current, dropped when a held state cancelled it")
    func h20AnEffectsEventWaitsForTheStatesBeforeIt() async {
        for cancels in [false, true] {
            let gate = Gate()
            let sent = Box(false)
            let journal = PendingJournal<Model, Action>()
            var initial = Model()
            initial.query = 1
            let system = System<Model, Action>(initial: initial, reduce: reduceModel, feedbacks: [
                .react(request: { $0.query }, run: { query, send in
                    await gate.wait()
                    send(.loaded(query))
                    sent.value = true
                }),
            ])
            let run = journal.start(system)
            // Held: the loops have not seen it, so the effect of query 1 runs on.
            run.send(cancels ? .query(nil) : .increment)
            gate.open()
            while !sent.value { await Task.yield() }
            run.send(.progress(7))  // from outside, behind the effect's event: it waits too (H5)
            #expect(journal.records.count == 1, "the effect's event, and the event behind it, wait for the held state")
            run.durable(1)
            let records = await eventually { journal.records.count == (cancels ? 2 : 3) ? journal.records : nil }
            if cancels {
                #expect(records?.map(\.event) == [.query(nil), .progress(7)], "stale: its run was cancelled by the held state")
            } else {
                #expect(records?.map(\.event) == [.increment, .loaded(1), .progress(7)])
                #expect(records?[1].shownBefore == 2, "reduced once the state before it was shown")
            }
            run.stop()
        }
    }

    @Test("H8: nothing is reduced behind a finished state whose record is pending; once it is durable the instance finishes and drops what waited")
    func h8NothingIsReducedBehindAFinishedState() async {
        let journal = PendingJournal<Model, Action>()
        let ended = Box(false)
        let system = System<Model, Action>(initial: Model(), reduce: reduceModel, feedbacks: [], isFinished: { $0.count >= 2 })
        let run = system.start(journal: journal.journal(), onState: journal.shown.append, onStop: { ended.value = true })
        run.send(.increment)
        run.send(.increment)  // finished
        run.send(.increment)
        run.send(.progress(1))
        #expect(journal.records.map(\.stateAfter.count) == [1, 2], "nothing reduced after the finished state")
        run.durable(2)
        _ = await eventually { ended.value ? true : nil }
        #expect(ended.value)
        #expect(journal.records.count == 2)
        #expect(journal.shown.all.map(\.count) == [0, 1, 2])
    }

    @Test("H29: a hosted instance's timer feedbacks arm no wait and start no task, on any clock")
    func h29AHostedInstanceArmsNoTimerWait() async {
        let counts = TimerWait.Counts()
        let fired = Box(0)
        let clock = ManualClock()
        let system = System<Model, Action>(initial: Model(), reduce: reduceModel, feedbacks: [
            .timer(request: { $0.query }, clock: ContinuousClock(), delay: { _ in .zero }, event: { .loaded($0) }),
            .timers(requests: { $0.queries }, clock: ContinuousClock(), delay: { _ in .zero }, event: { .loaded($0) }),
            .timer(request: { $0.query }, clock: clock, delay: { _ in .zero }, event: { .loaded($0) }),
            .timers(requests: { $0.queries }, clock: clock, delay: { _ in .zero }, event: { _ in .loaded(-1) }),
        ])
        let journal = PendingJournal<Model, Action>()
        let run = TimerWait.$counts.withValue(counts) {
            system.start(journal: journal.journal(hostsTimers: true), onState: { state in
                if !state.loaded.isEmpty { fired.value += 1 }
                journal.shown.append(state)
            }, onStop: {})
        }
        run.send(.query(1))
        run.send(.queries([1, 2]))
        run.durable(2)
        _ = await journal.shown.eventually { $0.count == 3 }
        clock.advance(by: .seconds(60))
        try? await Task.sleep(for: .milliseconds(100))
        #expect(counts.sources.value == 0 && counts.armings.value == 0)
        #expect(journal.records.count == 2, "no timer event was sent: \(journal.records.map(\.event))")
        #expect(fired.value == 0)
        run.stop()

        // The same system without a host arms its waits (the check above can fail).
        let plain = TimerWait.$counts.withValue(counts) { system.start() }
        plain.0.send(.query(1))
        // Armed on its system clock's wait (the arming itself may have fired already: no delay).
        #expect(counts.sources.value >= 1)
        plain.0.stop()
    }
}
