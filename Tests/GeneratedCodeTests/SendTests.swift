import Foundation
import StateLoop
@_spi(Internals) import StateLoopTesting
import StateLoopDurable
import StateLoopTestSupport
import Testing

/// `send:` and `cancel:` on the generated Reminder fixture (Docs/Statecharts.md S126–S135,
/// Docs/Testing.md T16): the pending sends in the state, their delivery by `reduce`, by the
/// harness's clock and by the system's clock, and their journal coding.
@Suite(.timeLimit(.minutes(1)))
struct SendTests {
    /// Reminder after `arm`: a nag and a ping pending.
    private static var armed: Reminder.State {
        var state = Reminder.State.initial
        Reminder.reduce(&state, .arm)
        return state
    }

    @Test("S126, S127: a send queues its event with its payload computed when it runs, its id and delay, in the state, numbered in order")
    func s127SendsArePendingInTheState() {
        let state = Self.armed
        #expect(state.mode == .armed)
        #expect(state.pendingSends == [
            .init(number: 0, id: "reminder", event: .nag(count: 1), delay: .seconds(5)),
            .init(number: 1, id: nil, event: .ping, delay: .seconds(5)),
        ])
        #expect(Reminder.sends(in: state).map(\.delivery) == [._send(0), ._send(1)])
    }

    @Test("S128, S129: a named delay is evaluated when the send runs; an id that is pending is replaced")
    func s129AnIdReusedReplacesThePendingSend() {
        var state = Self.armed
        state.snooze = 3
        Reminder.reduce(&state, .arm)
        #expect(state.pendingSends == [
            .init(number: 1, id: nil, event: .ping, delay: .seconds(5)),
            .init(number: 2, id: "reminder", event: .nag(count: 100), delay: .seconds(3)),
        ])
    }

    @Test("S130: cancel drops the pending sends with its id; the others stay")
    func s130CancelDropsTheSendsWithItsId() {
        var state = Self.armed
        Reminder.reduce(&state, .dismiss)
        #expect(state.mode == .idle)
        #expect(state.pendingSends.map(\.number) == [1])
    }

    @Test("S133: a delivery takes its event's step and leaves the pending sends; a delivery of a send no longer pending changes nothing")
    func s133ADeliveryTakesItsEventsStep() {
        var state = Self.armed
        state.snooze = 9
        Reminder.reduce(&state, .arm)  // nag #2 replaces #0
        var stale = state
        Reminder.reduce(&stale, ._send(0))
        #expect(stale == state)
        Reminder.reduce(&state, ._send(2))
        #expect(state.nags == 100)
        // The ping (5 s, sent before it) came first (S134); the nag's step sent the next nag.
        #expect(state.pings == 1)
        #expect(state.pendingSends.map(\.number) == [3])
        #expect(state.pendingSends.last?.event == .nag(count: 101))
    }

    @Test("S134: a send due no later than the one delivered, sent before it, is delivered first")
    func s134AnEarlierSendDueNoLaterIsDeliveredFirst() {
        var state = Self.armed
        var trace = TransitionTrace()
        Reminder.reduce(&state, ._send(1), trace: &trace)
        #expect(state.nags == 1)
        #expect(state.pings == 1)
        #expect(trace.taken.map { Reminder.transitions[$0].line } == [30, 31])  // nag, then ping
        #expect(state.pendingSends.map(\.number) == [2])
    }

    @Test("S135: a finished machine has no pending sends, those of its last step included")
    func s135AFinishedMachineHasNoPendingSends() {
        var state = Self.armed
        Reminder.reduce(&state, .stop)
        #expect(state.isDone)
        #expect(state.pendingSends.isEmpty)
    }

    @Test("T16: advance(by:) queues the sends due, in the order they were sent; receive takes their deliveries; timeUntilNextDue says when the next is due")
    func t16TheHarnessFiresSendsOnItsClock() {
        let test = MachineTest(Reminder.self, state: .initial, coverage: TransitionCoverage())
        test.send(.arm) { $0.mode = .armed }
        #expect(test.armedSends.map(\.number) == [0, 1])
        #expect(test.timeUntilNextDue == .seconds(5))
        test.advance(by: .seconds(4))
        #expect(test.queuedEvents.isEmpty)
        #expect(test.timeUntilNextDue == .seconds(1))
        test.advance(by: .seconds(1))
        #expect(test.queuedEvents == [._send(0), ._send(1)])
        test.receive(._send(0)) { $0.nags = 1 }
        test.receive(._send(1)) { $0.pings = 1 }
        #expect(test.armedSends.map(\.event) == [.nag(count: 2)])
        #expect(test.timeUntilNextDue == .seconds(5))
        test.send(.dismiss) { $0.mode = .idle }
        #expect(test.timeUntilNextDue == nil)
        test.finish()

        let pending = MachineTest(Reminder.self, state: Self.armed, coverage: TransitionCoverage())
        var finishLine: UInt = 0
        let failures = withRecordedFailures { finishLine = #line; pending.finish() }
        #expect(failures == [
            RecordedFailure(message: "The send #0 .nag(count: 1) after 5.0 seconds, id reminder is still pending at the end of the test: advance(by:) and receive its event, or skipTimers().", line: finishLine),
            RecordedFailure(message: "The send #1 .ping after 5.0 seconds is still pending at the end of the test: advance(by:) and receive its event, or skipTimers().", line: finishLine),
        ])
    }

    @Test("S150: Machine.paths reaches the nag through the delivery of its pending send, which a walking test receives")
    func s150TheGeneratedPathsDeliverPendingSends() throws {
        let nag = try #require(Reminder.transitions.indices.first { Reminder.transitions[$0].line == 30 })
        let steps = try #require(Reminder.paths.transitions[nag])
        #expect(steps.map(\.trigger) == [.event("arm"), .sent("nag")])
        #expect(steps.map(\.description) == ["arm", "nag (sent after 5s)"])
        let coverage = TransitionCoverage()
        let test = MachineTest(Reminder.self, state: .initial, coverage: coverage)
        test.checksState = false
        test.send(.arm)
        test.advance(by: try #require(test.timeUntilNextDue))
        test.receive(._send(0))
        #expect(coverage.taken(Reminder.self).contains(nag))
        test.skipReceivedEvents()
        test.skipTimers()
        test.finish()
    }

    @Test("S133: the system delivers a due send through its clock, after the state that sent it is gone")
    func s133TheSystemDeliversThroughItsClock() async throws {
        let clock = ManualClock()
        let (run, states) = Reminder.system(clock: clock).start()
        run.send(.arm)
        await clock.waitForSleepers(count: 2)
        clock.advance(by: .seconds(5))
        let nagged = try #require(await firstState(in: states) { $0.nags == 1 && $0.pings == 1 })
        #expect(nagged.pendingSends.map(\.number) == [2])
        run.send(.dismiss)
        let idle = try #require(await firstState(in: states) { $0.mode == .idle })
        #expect(idle.pendingSends.isEmpty)
        run.stop()
    }

    @Test("S133: a restarted durable machine keeps its pending sends' wall-clock deadlines, as D38 keeps a timer's")
    func s133ARestartKeepsTheSendsDeadlines() async throws {
        let store = InMemoryJournalStore()
        let wall = StateRecorder<Int64>()
        wall.record(0)
        let options = DurableOptions(wallClock: WallClock(now: { wall.states.last! }))
        do {
            let clock = ManualClock()
            let states = StateRecorder<Reminder.State>()
            let system = Reminder.durable(id: "r", store: store, initial: .initial, feedbacks: Reminder.feedbacks(clock: clock), options: options, onState: states.record)
            try await system.recovered()
            system.send(.arm)
            await clock.waitForSleepers(count: 2)
            system.stop()
        }
        // 3 s later (wall clock) the machine comes back: its two sends have 2 s left.
        wall.record(3_000_000_000)
        let clock = ManualClock()
        let states = StateRecorder<Reminder.State>()
        let system = Reminder.durable(id: "r", store: store, initial: .initial, feedbacks: Reminder.feedbacks(clock: clock), options: options, onState: states.record)
        try await system.recovered()
        await clock.waitForSleepers(count: 2)
        clock.advance(by: .milliseconds(1_990))
        try await Task.sleep(for: .milliseconds(50))
        #expect(states.states.allSatisfy { $0.nags == 0 })
        clock.advance(by: .milliseconds(10))
        for _ in 0..<200 where !(states.states.last.map { $0.nags == 1 && $0.pings == 1 } ?? false) {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(states.states.last?.nags == 1)
        #expect(states.states.last?.pings == 1)
        system.stop()
    }

    @Test("D27: the pending sends and their count are journaled with the state")
    func d27PendingSendsRoundTrip() throws {
        let states = try JournalRoundTrip.walk(Reminder.self, from: .initial, events: [.arm, .dismiss, ._send(0), ._send(1), ._send(2), .stop], seed: 7, steps: 60)
        #expect(states.contains { $0.pendingSends.count == 2 })
        try JournalRoundTrip.expect(Reminder.Event._send(3))
    }
}
