// Semantics 6: stopping the system cancels all effects and releases everything - whether it is
// stopped, its handle released, or its observer gone.

import StateLoop
import StateLoopTestSupport
import Testing

/// A value whose release the test can see.
private final class Token: Sendable {
    let freed: Recorder<String>
    init(freed: Recorder<String>) { self.freed = freed }
    deinit { freed.append("freed") }
}

/// A state that owns a `Token` once `.increment` was reduced.
private struct Holding: Sendable {
    var token: Token?
}

@Suite struct StopTests {
    @Test func stoppingCancelsEveryEffect() async {
        let probe = EffectProbe()
        let clock = ManualClock()
        let system = System<Model, Action>(
            initial: Model(query: 1, queries: [10, 11]), reduce: reduceModel,
            feedbacks: [
                .react(request: { $0.query }, effect: { await probe.runUntilCancelled($0) }),
                .react(requests: { $0.queries }, effect: { await probe.runUntilCancelled($0) }),
                .timer(request: { $0.query }, clock: clock, delay: { _ in .seconds(1) }, event: { _ in .increment }),
            ])
        let states = Recorder<Model>()
        let run = system.start { states.append($0) }
        #expect(Set(await probe.reports.next(3)) == [.started(1), .started(10), .started(11)])
        await clock.waitForSleepers(count: 1)

        run.stop()

        #expect(Set(await probe.reports.next(3)) == [.cancelled(1), .cancelled(10), .cancelled(11)])
        #expect(clock.sleeperCount == 0)
        // A stopped system ignores events.
        run.send(.increment)
        #expect(states.all.map(\.count) == [0])
    }

    @Test func stoppingFinishesTheStateSequence() async {
        let system = System<Model, Action>(initial: Model(), reduce: reduceModel, feedbacks: [])
        let (run, states) = system.start()
        run.send(.increment)

        run.stop()
        var seen: [Int] = []
        for await state in states { seen.append(state.count) }

        #expect(seen == [0, 1])
    }

    @Test func releasingTheHandleStopsTheSystemAndFreesItsState() async {
        let probe = EffectProbe()
        let freed = Recorder<String>()
        let system = System<Holding, Action>(
            initial: Holding(), reduce: { state, _ in state.token = Token(freed: freed) },
            feedbacks: [.react(request: { _ in 1 }, effect: { await probe.runUntilCancelled($0) })])
        do {
            let run = system.start { _ in }
            run.send(.increment)
            #expect(await probe.reports.next(1) == [.started(1)])
            #expect(freed.all == [])
        }
        // The handle is gone: the instance, its state and its effects go with it.
        #expect(freed.all == ["freed"])
        #expect(await probe.reports.next(1) == [.cancelled(1)])
    }

    @Test func endingTheObservationStopsTheSystem() async {
        let probe = EffectProbe()
        let system = System<Model, Action>(
            initial: Model(query: 1), reduce: reduceModel,
            feedbacks: [.react(request: { $0.query }, effect: { await probe.runUntilCancelled($0) })])
        let (run, states) = system.start()
        let observer = Task {
            for await _ in states {}
        }
        #expect(await probe.reports.next(1) == [.started(1)])

        observer.cancel()

        #expect(await probe.reports.next(1) == [.cancelled(1)])
        withExtendedLifetime(run) {}
    }
}
