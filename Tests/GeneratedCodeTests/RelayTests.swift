import StateLoop
import StateLoopTestSupport
import Testing

/// The corners of the event queue on the generated Relay, Nudge and Flash fixtures (issue 30, 1): a
/// delivery that takes the steps of earlier sends first, the state a condition reads after a
/// `send:`, `cancel:`, `run:` or send to the parent, a guard reading `pendingSends` through a
/// helper, an initial entry that finishes the machine, a `foreach:` that sends.
@Suite(.timeLimit(.minutes(1)))
struct RelayTests {
    /// Relay after `start`: two hops pending, due together, `a` sent first.
    private static var started: Relay.State {
        var state = Relay.State.initial
        Relay.reduce(&state, .start)
        return state
    }

    @Test("S134, S39, E70: a delivery of the later of two sends due together takes the earlier one's step first, and reports the runs and the events to the parent of both")
    func s134ADeliveryReportsEveryStepItTakes() {
        var state = Self.started
        #expect(state.pendingSends.map(\.number) == [0, 1])
        Relay.reduce(&state, ._send(1))
        #expect(state.pendingSends.isEmpty)
        #expect(state.runs == [.announce("a"), .announce("b")])
        #expect(state.toParent == [.relayed(label: "a"), .relayed(label: "b")])
        #expect(state.log == ["run 1", "parent 1", "run 2", "parent 2"])
        // The other timer's delivery comes after: that send is no longer pending, nothing changes.
        let delivered = state
        Relay.reduce(&state, ._send(0))
        #expect(state == delivered)
    }

    @Test("S40: a running system starts the run of every send its clock delivers, whichever of two timers due together wakes first")
    func s40TheSystemStartsTheRunsOfSendsDueTogether() async throws {
        for _ in 0..<20 {
            let clock = ManualClock()
            let effects = Relay.RecordingEffects()
            let (run, states) = Relay.system(effects: effects, clock: clock).start()
            run.send(.start)
            await clock.waitForSleepers(count: 2)
            clock.advance(by: .seconds(1))
            _ = try #require(await firstState(in: states) { $0.pendingSends.isEmpty && $0.log.count == 4 })
            for _ in 0..<1_000 where effects.calls.count < 2 { await Task.yield() }
            let calls = effects.calls
            #expect(calls.count == 2 && calls.contains(.announce("a")) && calls.contains(.announce("b")), "\(calls)")
            run.stop()
        }
    }

    @Test("S134: a thousand sends due together are delivered by a loop, each in the order sent, with every run it queued")
    func s134ManySendsDueTogetherAreDeliveredInOrder() {
        var state = Relay.State.initial
        Relay.reduce(&state, .fan(count: 1_000))
        Relay.reduce(&state, .start)
        // Delivered while busy: the fan's thousand hops (sent first, due no later) and then `a`
        // and `b`, each a step that queues its run, all in one `reduce`.
        Relay.reduce(&state, ._send(1_001))
        #expect(state.pendingSends.isEmpty)
        #expect(state.runs == (0..<1_000).map { .announce("f\($0)") } + [.announce("a"), .announce("b")])
        #expect(state.toParent.count == 1_002)
    }

    @Test("S107, S39, E70: a condition after a run: reads the runs the step queued, and one after a send to the parent the events it sent")
    func s107AConditionReadsTheRunsAndParentEventsBeforeIt() {
        var state = Self.started
        Relay.reduce(&state, ._send(0))
        #expect(state.log == ["run 1", "parent 1"])
    }

    @Test("S107, S127, S130: a condition after a send: sees the send pending; one after a cancel: sees it gone")
    func s107AConditionReadsThePendingSendsBeforeIt() {
        var state = Self.started
        Relay.reduce(&state, ._send(1))
        state.log = []
        Relay.reduce(&state, .note(label: "n"))
        #expect(state.log == ["pending after send", "empty after cancel"])
        #expect(state.pendingSends.isEmpty)
    }

    @Test("S36: a guard reads the state reduce was given, pendingSends included, through a helper that the spec's text does not show")
    func s36AGuardReadsThePendingSendsThroughAHelper() {
        var state = Nudge.State.initial
        Nudge.reduce(&state, .check)
        Nudge.reduce(&state, .arm)
        Nudge.reduce(&state, .check)
        Nudge.reduce(&state, ._send(0))
        Nudge.reduce(&state, .check)
        #expect(state.log == ["none", "pending", "nudged", "none"])
    }

    @Test("S170, S127: a foreach: that sends per element sends each, numbered in order, its payload read as the element is assigned")
    func s170AForeachSendsPerElement() {
        var state = Relay.State.initial
        Relay.reduce(&state, .fan(count: 3))
        #expect(state.pendingSends.map(\.event) == [.hop(label: "f0"), .hop(label: "f1"), .hop(label: "f2")])
        #expect(state.pendingSends.map(\.number) == [0, 1, 2])
    }

    @Test("S135: an initial entry that finishes the machine keeps none of the sends it made")
    func s135AnInitialEntryThatFinishesKeepsNoSend() {
        let state = Flash.State.initial
        #expect(state.isDone)
        #expect(state.pendingSends.isEmpty)
    }
}
