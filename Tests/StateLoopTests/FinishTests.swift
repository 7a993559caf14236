// Semantics 9: finishing - once the system delivers a state for which `isFinished` holds, the
// runs that state queued start, every other effect is cancelled and every later event dropped,
// and the states finish once the runs already started have returned (a stop cancels them).

import StateLoop
import StateLoopTestSupport
import Testing

@Suite(.bothStartModes) struct FinishTests {
    @Test("S58: the finished state still reaches every feedback, so the runs it queued start")
    func theFinishedStateStartsTheRunsItQueued() async {
        let clock = ManualClock()
        let log = JobLog()
        let system = System<Jobs, JobStep>(
            initial: Jobs(), reduce: reduceJobs, feedbacks: [log.feedback(clock)],
            isFinished: { $0.isDone })
        let (run, states) = system.start()

        run.send(.finish([Job(id: 1, delay: 1), Job(id: 2, delay: 1)]))

        await clock.waitForSleepers(count: 2)
        #expect(log.started.all.sorted() == [1, 2])
        clock.advance(by: .seconds(1))
        #expect(await states.all().map(\.isDone) == [false, true])
        withExtendedLifetime(run) {}
    }

    @Test("S58: finishing cancels every other effect and drops every later event")
    func finishingCancelsEveryOtherEffectAndDropsEveryLaterEvent() async {
        let clock = ManualClock()
        let probe = EffectProbe()
        let reduced = Recorder<JobStep>()
        let seen = Recorder<Jobs>()
        let handle = Box<SystemRun<Jobs, JobStep>?>(nil)
        let system = System<Jobs, JobStep>(
            initial: Jobs(query: 1), reduce: { state, step in
                reduced.append(step)
                reduceJobs(&state, step)
            },
            feedbacks: [
                .react(request: { $0.query }, effect: { query in
                    probe.report(.started(query))
                    await untilCancelled()
                    probe.report(.cancelled(query))
                    return .result(query)
                }),
                .timer(request: { $0.query }, clock: clock, delay: { _ in .seconds(1) }, event: { _ in .tick }),
            ],
            isFinished: { $0.isDone })
        let run = system.start { state in
            seen.append(state)
            // Both queued behind the event being reduced: `.tick` comes after the finish.
            if state.count == 1 && !state.isDone {
                handle.value?.send(.finish([]))
                handle.value?.send(.tick)
            }
        }
        handle.value = run
        #expect(await probe.reports.next(1) == [.started(1)])
        await clock.waitForSleepers(count: 1)

        run.send(.tick)

        #expect(clock.sleeperCount == 0)
        #expect(await probe.reports.next(1) == [.cancelled(1)])
        run.send(.tick)
        run.send(.query(2))
        #expect(reduced.all == [.tick, .finish([])])
        #expect(seen.all.map(\.count) == [0, 1, 1])
        #expect(seen.all.last?.isDone == true)
        handle.value = nil
    }

    @Test("S58: the states finish once the runs already started have returned")
    func statesFinishOnceTheStartedRunsHaveReturned() async {
        let clock = ManualClock()
        let log = JobLog()
        let order = Recorder<String>()
        let system = System<Jobs, JobStep>(
            initial: Jobs(), reduce: reduceJobs,
            feedbacks: [log.feedback(clock, onReturn: { order.append("run \($0.id) returns") })],
            isFinished: { $0.isDone })
        let (run, states) = system.start()
        run.send(.queue([Job(id: 1, delay: 2)]))  // started before the finish
        await clock.waitForSleepers(count: 1)
        run.send(.finish([Job(id: 2, delay: 1)]))
        await clock.waitForSleepers(count: 2)

        let ending = Task {
            let all = await states.all()
            order.append("states end")
            return all
        }
        clock.advance(by: .seconds(1))
        await clock.waitForSleepers(count: 1)  // run 2 woke; run 1 still sleeps
        clock.advance(by: .seconds(1))
        let all = await ending.value

        #expect(order.all.last == "states end")
        #expect(Set(order.all.dropLast()) == ["run 1 returns", "run 2 returns"])
        // Their events were dropped: the finished state is the last one.
        #expect(all.map(\.results) == [[], [], []])
        #expect(all.last?.isDone == true)
        withExtendedLifetime(run) {}
    }

    @Test func aFinishedInitialStateFinishesTheSystem() async {
        let clock = ManualClock()
        let log = JobLog()
        let initial = Jobs(_runsQueued: 1, runs: [Job(id: 1, delay: 1)], isDone: true)
        let system = System<Jobs, JobStep>(
            initial: initial, reduce: reduceJobs, feedbacks: [log.feedback(clock)],
            isFinished: { $0.isDone })
        let (run, states) = system.start()
        await clock.waitForSleepers(count: 1)

        run.send(.tick)
        clock.advance(by: .seconds(1))

        #expect(await states.all() == [initial])
        #expect(log.started.all == [1])
        withExtendedLifetime(run) {}
    }

    @Test("S58: stop() while the system waits for its runs cancels them at once")
    func stoppingWhileFinishingCancelsTheRunsAtOnce() async {
        let clock = ManualClock()
        let log = JobLog()
        let system = System<Jobs, JobStep>(
            initial: Jobs(), reduce: reduceJobs, feedbacks: [log.feedback(clock)],
            isFinished: { $0.isDone })
        let (run, states) = system.start()
        run.send(.finish([Job(id: 1, delay: 1)]))
        await clock.waitForSleepers(count: 1)

        run.stop()

        #expect(clock.sleeperCount == 0)
        // The states end although the clock never moved.
        #expect(await states.all().map(\.isDone) == [false, true])
        #expect(await log.cancellations.next(1) == [1])
    }

    @Test func observingEventsKeepsTheFinishCheck() async {
        let events = Recorder<JobStep>()
        let system = System<Jobs, JobStep>(
            initial: Jobs(), reduce: reduceJobs, feedbacks: [], isFinished: { $0.isDone }
        ).observingEvents { step, _ in events.append(step) }
        let (run, states) = system.start()

        run.send(.finish([]))
        run.send(.tick)

        #expect(await states.all().map(\.isDone) == [false, true])
        #expect(events.all == [.finish([])])
        withExtendedLifetime(run) {}
    }

    @Test("E53: onFinished is called once, when the system finishes, and never after a stop")
    func onFinishedIsCalledOnlyWhenTheSystemFinishes() async {
        let clock = ManualClock()
        let log = JobLog()
        let finished = Recorder<Jobs>()
        let system = System<Jobs, JobStep>(
            initial: Jobs(), reduce: reduceJobs, feedbacks: [log.feedback(clock)],
            isFinished: { $0.isDone })

        // Finishes, after its run has returned.
        let run = system.start(onState: { _ in }, onFinished: { finished.append($0) })
        run.send(.tick)
        run.send(.finish([Job(id: 1, delay: 1)]))
        await clock.waitForSleepers(count: 1)
        #expect(finished.all == [])
        clock.advance(by: .seconds(1))
        let ended = await finished.eventually { $0.count == 1 }
        #expect(ended.map(\.count) == [1])
        #expect(ended.first?.isDone == true)
        run.send(.tick)
        run.stop()
        #expect(finished.all.count == 1)

        // Stopped before it finished, and stopped while it waited for its runs: never called.
        let stopped = system.start(onState: { _ in }, onFinished: { finished.append($0) })
        stopped.send(.tick)
        stopped.stop()
        stopped.send(.finish([]))
        let waiting = system.start(onState: { _ in }, onFinished: { finished.append($0) })
        waiting.send(.finish([Job(id: 2, delay: 1)]))
        await clock.waitForSleepers(count: 1)
        waiting.stop()
        #expect(await log.cancellations.next(1) == [2])
        #expect(finished.all.count == 1)

        // A system without isFinished never calls it.
        let endless = System<Jobs, JobStep>(initial: Jobs(), reduce: reduceJobs, feedbacks: [])
            .start(onState: { _ in }, onFinished: { finished.append($0) })
        endless.send(.finish([]))
        endless.stop()
        #expect(finished.all.count == 1)
    }
}
