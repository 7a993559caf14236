// Semantics 8: one-shot runs - every run the state queues starts exactly once; a state without
// new runs starts nothing; no state change cancels a run or makes its event stale; runs run
// concurrently; stopping cancels them.

import StateLoop
import StateLoopTestSupport
import Testing

@Suite(.bothStartModes) struct OneShotRunTests {
    private func system(_ clock: ManualClock, _ log: JobLog) -> System<Jobs, JobStep> {
        System(
            initial: Jobs(), reduce: reduceJobs, feedbacks: [log.feedback(clock)],
            isFinished: { $0.isDone })
    }

    @Test("S40: every queued run starts exactly once")
    func everyQueuedRunStartsExactlyOnce() async {
        let log = JobLog()
        let (run, states) = system(ManualClock(), log).start()

        run.send(.queue([Job(id: 1), Job(id: 2)]))  // two in one step
        run.send(.queue([Job(id: 3)]))
        run.send(.queue([]))
        run.send(.queue([Job(id: 4), Job(id: 5), Job(id: 6)]))
        run.send(.finish([Job(id: 7)]))
        // Finishing waits for every started run: when the states end, no run is left to begin.
        _ = await states.all()

        #expect(log.started.all.sorted() == [1, 2, 3, 4, 5, 6, 7])
        withExtendedLifetime(run) {}
    }

    @Test func aStateWithoutNewRunsStartsNothing() async {
        let log = JobLog()
        let (run, states) = system(ManualClock(), log).start()

        run.send(.queue([Job(id: 1), Job(id: 2)]))  // numbers 0 and 1
        run.send(.tick)  // the same runs, seen again
        run.send(.show(queued: 2, runs: [Job(id: 20)]))  // an equal count
        run.send(.show(queued: 1, runs: [Job(id: 10)]))  // a lower count
        run.send(.show(queued: 3, runs: [Job(id: 2), Job(id: 3)]))  // only number 2 is new
        run.send(.finish([]))
        _ = await states.all()

        #expect(log.started.all.sorted() == [1, 2, 3])
        withExtendedLifetime(run) {}
    }

    @Test("S41: a run outlives the state that queued it, and its event is never stale")
    func aRunOutlivesItsStateAndItsEventIsReduced() async {
        let clock = ManualClock()
        let log = JobLog()
        let reduced = Recorder<JobStep>()
        let system = System<Jobs, JobStep>(
            initial: Jobs(), reduce: { state, step in
                reduced.append(step)
                reduceJobs(&state, step)
            },
            feedbacks: [log.feedback(clock)], isFinished: { $0.isDone })
        let (run, states) = system.start()
        run.send(.queue([Job(id: 1, delay: 5), Job(id: 2, emits: false)]))
        await clock.waitForSleepers(count: 1)

        // The state that queued the runs is long gone when run 1 returns.
        run.send(.queue([]))
        run.send(.query(3))
        run.send(.tick)
        clock.advance(by: .seconds(5))
        let fed = await states.firstMatch { !$0.results.isEmpty }

        #expect(fed?.results == [1])
        run.send(.finish([]))
        _ = await states.all()
        // Run 2 returned nil and sent nothing; no run was cancelled.
        #expect(log.started.all.sorted() == [1, 2])
        #expect(reduced.all.filter { if case .result = $0 { true } else { false } } == [.result(1)])
        #expect(log.cancelled.all == [])
    }

    @Test func runsRunConcurrently() async {
        let clock = ManualClock()
        let log = JobLog()
        let (run, states) = system(clock, log).start()
        run.send(.queue([Job(id: 1, delay: 2)]))
        run.send(.queue([Job(id: 2, delay: 1)]))

        // Both are in flight at once; the later one returns first.
        await clock.waitForSleepers(count: 2)
        clock.advance(by: .seconds(1))
        let first = await states.firstMatch { !$0.results.isEmpty }
        #expect(first?.results == [2])
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        let both = await states.firstMatch { $0.results.count == 2 }

        #expect(both?.results == [2, 1])
        withExtendedLifetime(run) {}
    }

    @Test func stoppingCancelsEveryRun() async {
        let clock = ManualClock()
        let log = JobLog()
        let states = Recorder<Jobs>()
        let run = system(clock, log).start { states.append($0) }
        run.send(.queue([Job(id: 1, delay: 1), Job(id: 2, delay: 1)]))
        await clock.waitForSleepers(count: 2)

        run.stop()

        #expect(clock.sleeperCount == 0)
        #expect(Set(await log.cancellations.next(2)) == [1, 2])
        #expect(states.all.allSatisfy { $0.results.isEmpty })
    }
}
