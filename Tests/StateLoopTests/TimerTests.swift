// Feedback.timer: while the request is non-nil, send the event once after the delay on the
// given clock; a new request value restarts the timer; nil cancels it.

import StateLoop
import StateLoopTestSupport
import Testing

@Suite(.bothStartModes) struct TimerTests {
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
}
