// Feedback.timer: while the request is non-nil, send the event once after the delay on the
// given clock; a new request value restarts the timer; nil cancels it.

@testable import StateLoop
import StateLoopTestSupport
import Testing

// Serialized: the system-clock tests count timer sources, those of their own system (TimerWait.$counts).
@Suite(.bothStartModes, .serialized) struct TimerTests {
    private func system(_ clock: ManualClock) -> System<Model, Action> {
        System(
            initial: Model(), reduce: reduceModel,
            feedbacks: [
                .timer(request: { $0.query }, clock: clock, delay: { .seconds($0) }, event: { .loaded($0) })
            ])
    }

    @Test func timerSendsItsEventOnceAfterTheDelay() async {
        let clock = ManualClock()
        let (run, states) = system(clock).start()
        run.send(.query(5))
        await clock.waitForSleepers(count: 1)

        clock.advance(by: .seconds(4))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        let fired = await states.firstMatch { !$0.loaded.isEmpty }

        #expect(fired?.loaded == [5])
        // Once: the request is still 5, but no new timer was started.
        #expect(clock.sleeperCount == 0)
        withExtendedLifetime(run) {}
    }

    @Test func timerCountsItsDelayFromWhenTheRequestWasObserved() async throws {
        // The clock moves right after `send` returns, without waiting for the timer's task: the
        // deadline (request observed at 0 s + 5 s) must not depend on when that task first runs.
        // Several rounds, because the task may also happen to run before the clock moves.
        for _ in 0..<10 {
            let clock = ManualClock()
            let (run, states) = system(clock).start()
            run.send(.query(5))
            clock.advance(by: .seconds(2))
            await clock.waitForSleepers(count: 1)

            clock.advance(by: .seconds(3))
            try #require(clock.sleeperCount == 0, "the timer still sleeps at 5 s: its delay was counted from later than the request")
            let fired = await states.firstMatch { !$0.loaded.isEmpty }

            #expect(fired?.loaded == [5])
            withExtendedLifetime(run) {}
        }
    }

    @Test func newTimerRequestRestartsTheTimer() async {
        let clock = ManualClock()
        let (run, states) = system(clock).start()
        run.send(.query(5))
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(3))

        run.send(.query(6))
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(5))  // past the old deadline (5), before the new one (3 + 6)
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        let fired = await states.firstMatch { !$0.loaded.isEmpty }

        #expect(fired?.loaded == [6])
        withExtendedLifetime(run) {}
    }

    @Test func nilTimerRequestCancelsTheTimer() async {
        let clock = ManualClock()
        let states = Recorder<Model>()
        let run = system(clock).start { states.append($0) }
        run.send(.query(5))
        await clock.waitForSleepers(count: 1)

        run.send(.query(nil))
        #expect(clock.sleeperCount == 0)
        clock.advance(by: .seconds(10))
        run.send(.increment)

        #expect(states.all.last == Model(count: 1))
        #expect(states.all.allSatisfy { $0.loaded.isEmpty })
    }

    @Test("E40: a delay of zero or less fires without the clock moving, as an event after the step that armed it")
    func zeroOrNegativeDelayFiresAfterTheStep() async {
        let clock = ManualClock()
        let states = Recorder<Model>()
        let run = system(clock).start { states.append($0) }
        run.send(.query(0))
        let zero = await states.eventually { $0.last?.loaded == [0] }
        run.send(.query(-3))
        let negative = await states.eventually { $0.last?.loaded == [0, -3] }

        // Each arming step is delivered without its timer's event; the event is a step of its own.
        #expect(zero == [Model(), Model(query: 0), Model(query: 0, loaded: [0])])
        #expect(negative.suffix(2) == [Model(query: -3, loaded: [0]), Model(query: -3, loaded: [0, -3])])
        #expect(clock.now == ManualClock().now)
        withExtendedLifetime(run) {}
    }

    // E40 speaks of computed delays: `.seconds(Int64.max)` is the natural "never". Its deadline
    // cannot be represented (ContinuousClock's sleep traps on it), so the timer never fires.

    @Test("E58: a delay too long to be a deadline never fires on the manual clock")
    func unrepresentableDelayNeverFiresOnTheManualClock() async {
        let clock = ManualClock()
        let system = System<Model, Action>(
            initial: Model(), reduce: reduceModel,
            feedbacks: [
                .timer(request: { $0.query }, clock: clock, delay: { _ in .seconds(Int64.max) }, event: { .loaded($0) })
            ])
        let states = Recorder<Model>()
        let run = system.start { states.append($0) }
        run.send(.query(5))
        #expect(clock.sleeperCount == 0, "a timer that never fires holds no sleep")

        clock.advance(by: .seconds(Int64.max))
        run.send(.increment)  // reduced after anything the timer could have sent by now
        #expect(states.all.last == Model(count: 1, query: 5))
        #expect(states.all.allSatisfy { $0.loaded.isEmpty })

        run.send(.query(6))  // a new request with a representable delay is still never: same closure
        run.send(.query(nil))
        #expect(clock.sleeperCount == 0)
        withExtendedLifetime(run) {}
    }

    @Test("E58: a delay too long to be a deadline never fires, and never traps, on the continuous clock")
    func unrepresentableDelayNeverFiresOnTheContinuousClock() async {
        let fired = Box(false)
        let system = System<Model, Action>(
            initial: Model(), reduce: reduceModel,
            feedbacks: [
                .timer(request: { $0.query }, clock: ContinuousClock(),
                       delay: { $0 == 0 ? .zero : .seconds(Int64.max) }, event: { .loaded($0) })
            ])
        let run = system.start { if !$0.loaded.isEmpty { fired.value = true } }
        run.send(.query(5))   // never
        run.send(.query(7))   // never, re-armed
        run.send(.increment)
        // A zero delay afterwards still fires (E40), so the clock and the loop are alive.
        let (probe, stream) = system.start()
        probe.send(.query(0))
        let zero = await stream.firstMatch { !$0.loaded.isEmpty }
        #expect(zero?.loaded == [0])
        #expect(fired.value == false)
        run.stop()
        probe.stop()
    }

    // On a system clock a timer waits on one Dispatch source per feedback, re-armed in place: a
    // cancelled `clock.sleep(until:)` keeps its sleep until the old deadline on Linux, so one
    // sleep per arming grew by ~730 bytes per re-arm.

    @Test("E59: re-arming a timer on a system clock keeps one wait")
    func reArmingATimerOnASystemClockKeepsOneWait() async {
        let system = System<Model, Action>(
            initial: Model(), reduce: reduceModel,
            feedbacks: [
                .timer(request: { $0.query }, clock: ContinuousClock(),
                       delay: { $0 == 0 ? .zero : .seconds(60) }, event: { .loaded($0) })
            ])
        // The waits this system makes count here, not those of the suites running beside it.
        let counts = TimerWait.Counts()
        let (run, states) = TimerWait.$counts.withValue(counts) { system.start() }
        var most = 0
        for query in 1...100_000 {
            run.send(.query(query))  // a new request: re-arms the 60 s timer from now
            if query % 1_000 == 0 { most = max(most, counts.sources.value) }
        }
        #expect(most == 1, "live timer waits while re-arming: \(most)")

        run.send(.query(nil))  // exiting disarms; the source stays for the next arming
        run.send(.query(0))    // a zero delay fires at once, on the same source
        let fired = await states.firstMatch { !$0.loaded.isEmpty }
        // Only the last arming fired: none of the 100,000 replaced ones, and it fired once.
        #expect(fired?.loaded == [0])
        #expect(counts.sources.value == 1)
        run.stop()
        #expect(counts.sources.value == 0, "stopping releases the wait")
    }

    @Test("E59, S129: replacing an element of a timer set on a system clock (a send replaced by its id) keeps one wait and one arming")
    func replacingATimerSetElementOnASystemClockKeepsOneArming() async {
        let system = System<Model, Action>(
            initial: Model(), reduce: reduceModel,
            feedbacks: [
                .timers(requests: { $0.queries }, clock: ContinuousClock(),
                        delay: { $0 == 0 ? .zero : .seconds(60) }, event: { .loaded($0) })
            ])
        let counts = TimerWait.Counts()
        let (run, states) = TimerWait.$counts.withValue(counts) { system.start() }
        var most = (waits: 0, armings: 0)
        for key in 1...100_000 {
            run.send(.queries([key]))  // the debounce: the new send replaces the pending one
            if key % 1_000 == 0 { most = (max(most.waits, counts.sources.value), max(most.armings, counts.armings.value)) }
        }
        #expect(most.waits == 1 && most.armings == 1, "live waits and armings while replacing: \(most)")

        run.send(.queries([0, 100_001]))  // a zero delay fires at once beside one still armed
        let fired = await states.firstMatch { !$0.loaded.isEmpty }
        #expect(fired?.loaded == [0])
        #expect(counts.armings.value == 1)
        run.stop()
        #expect(counts.sources.value == 0, "stopping releases the wait")
        #expect(counts.armings.value == 0, "stopping drops every arming")
    }
}

