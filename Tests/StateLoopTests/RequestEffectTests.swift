// Semantics 4: a changed request cancels the old effect and starts the new one; an equal request
// keeps the running effect; nil stops it; the set form runs one effect per element, diffed.

import StateLoop
import Testing

@Suite(.bothStartModes) struct RequestEffectTests {
    private func system(_ probe: EffectProbe) -> System<Model, Action> {
        System(
            initial: Model(), reduce: reduceModel,
            feedbacks: [.react(request: { $0.query }, effect: { await probe.runUntilCancelled($0) })])
    }

    @Test func changedRequestCancelsTheOldEffectAndStartsTheNewOne() async {
        let probe = EffectProbe()
        let run = system(probe).start { _ in }

        run.send(.query(1))
        #expect(await probe.reports.next(1) == [.started(1)])
        run.send(.query(2))
        #expect(Set(await probe.reports.next(2)) == [.cancelled(1), .started(2)])
        withExtendedLifetime(run) {}
    }

    @Test func equalRequestKeepsTheRunningEffect() async {
        let probe = EffectProbe()
        let run = system(probe).start { _ in }

        run.send(.query(1))
        #expect(await probe.reports.next(1) == [.started(1)])
        // Other state changes, and the same request again, leave the effect alone...
        run.send(.increment)
        run.send(.query(1))
        run.send(.increment)
        // ...so the next report is the cancellation caused by nil, not a restart.
        run.send(.query(nil))
        #expect(await probe.reports.next(1) == [.cancelled(1)])
        withExtendedLifetime(run) {}
    }

    @Test func nilRequestStopsTheEffect() async {
        let probe = EffectProbe()
        let states = Recorder<Model>()
        let run = system(probe).start { states.append($0) }

        run.send(.query(3))
        #expect(await probe.reports.next(1) == [.started(3)])
        run.send(.query(nil))
        #expect(await probe.reports.next(1) == [.cancelled(3)])
        // The cancelled effect's event never arrives.
        #expect(states.all.allSatisfy { $0.loaded.isEmpty })
        withExtendedLifetime(run) {}
    }

    @Test("E13: the set form runs one effect per element, concurrently, and diffs the set")
    func setFormRunsOneEffectPerElementAndDiffsTheSet() async {
        let probe = EffectProbe()
        let system = System<Model, Action>(
            initial: Model(), reduce: reduceModel,
            feedbacks: [.react(requests: { $0.queries }, effect: { await probe.runUntilCancelled($0) })])
        let run = system.start { _ in }

        run.send(.queries([1, 2]))
        #expect(Set(await probe.reports.next(2)) == [.started(1), .started(2)])
        // 2 stays and keeps running; 1 goes; 3 comes.
        run.send(.queries([2, 3]))
        #expect(Set(await probe.reports.next(2)) == [.cancelled(1), .started(3)])
        run.send(.queries([]))
        #expect(Set(await probe.reports.next(2)) == [.cancelled(2), .cancelled(3)])
        withExtendedLifetime(run) {}
    }

    @Test func setFormFeedsBackTheEventOfEveryElement() async {
        let system = System<Model, Action>(
            initial: Model(), reduce: reduceModel,
            feedbacks: [.react(requests: { $0.queries }, effect: { .loaded($0 * 10) })])
        let (run, states) = system.start()

        run.send(.queries([1, 2, 3]))
        let done = await states.firstMatch { $0.loaded.count == 3 }

        #expect(done.map { Set($0.loaded) } == [10, 20, 30])
        withExtendedLifetime(run) {}
    }

    @Test func sequenceEffectFeedsBackEveryElementInOrder() async {
        let system = System<Model, Action>(
            initial: Model(), reduce: reduceModel,
            feedbacks: [
                .react(
                    request: { $0.query },
                    run: { request, send in
                        let events = AsyncStream { continuation in
                            for step in 1...3 { continuation.yield(Action.progress(request * step)) }
                            continuation.yield(.loaded(request))
                            continuation.finish()
                        }
                        for await event in events { send(event) }
                    })
            ])
        let (run, states) = system.start()

        run.send(.query(5))
        let done = await states.firstMatch { !$0.loaded.isEmpty }

        #expect(done?.progress == [5, 10, 15])
        #expect(done?.loaded == [5])
        withExtendedLifetime(run) {}
    }
}
