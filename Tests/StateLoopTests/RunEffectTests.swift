// Effects that send (Docs/Runtime.md E46-E48): a run gets a `send` function and may call it any
// number of times until it returns; a changed request cancels it and drops its later events.

import StateLoop
import StateLoopTestSupport
import Testing

private struct Boom: Error, CustomStringConvertible {
    let request: Int
    var description: String { "boom \(request)" }
}

@Suite(.bothStartModes) struct RunEffectTests {
    @Test("E6, E46: a run's events are fed back in order until its request changes; later ones are dropped")
    func runSendsEveryEventUntilItsRequestChanges() async {
        let probe = EffectProbe()
        let system = System<Model, Action>(
            initial: Model(), reduce: reduceModel,
            feedbacks: [
                .react(request: { $0.query }, run: { query, send in
                    send(.progress(query * 10 + 1))
                    send(.progress(query * 10 + 2))
                    probe.report(.started(query))
                    await untilCancelled()
                    send(.progress(query * 10 + 9))  // cancelled: dropped
                    probe.report(.cancelled(query))
                })
            ])
        let (run, states) = system.start()

        run.send(.query(1))
        #expect(await probe.reports.next(1) == [.started(1)])
        run.send(.query(2))
        #expect(Set(await probe.reports.next(2)) == [.cancelled(1), .started(2)])
        // Behind everything the cancelled run sent before it reported its cancellation.
        run.send(.increment)
        let last = await states.firstMatch { $0.count == 1 }

        #expect(last?.progress == [11, 12, 21, 22])
        withExtendedLifetime(run) {}
    }

    @Test("E18, E47: a failing run feeds back its events, then the event onError chooses; a cancelled one sends nothing")
    func failingRunFeedsItsEventsThenTheChosenEvent() async {
        let probe = EffectProbe()
        let asked = Recorder<Int>()
        let system = System<Model, Action>(
            initial: Model(), reduce: reduceModel,
            feedbacks: [
                .react(
                    request: { $0.query },
                    run: { query, send in
                        send(.progress(query))
                        if query == 3 {  // runs until cancelled, then throws
                            probe.report(.started(query))
                            await untilCancelled()
                            probe.report(.cancelled(query))
                        }
                        throw Boom(request: query)
                    },
                    onError: { query, error in
                        asked.append(query)
                        return query < 0 ? nil : .failed("\(query): \(error)")
                    })
            ])
        let (run, states) = system.start()

        run.send(.query(7))
        _ = await states.firstMatch { $0.errors.count == 1 }
        run.send(.query(-1))  // onError chooses no event
        _ = await asked.eventually { $0.count == 2 }
        run.send(.query(3))
        #expect(await probe.reports.next(1) == [.started(3)])
        run.send(.query(nil))  // cancelled: sends nothing, whatever it throws
        #expect(await probe.reports.next(1) == [.cancelled(3)])
        run.send(.increment)
        let last = await states.firstMatch { $0.count == 1 }

        #expect(last?.progress == [7, -1, 3])
        #expect(last?.errors == ["7: boom 7"])
        #expect(asked.all == [7, -1])
        withExtendedLifetime(run) {}
    }

    @Test("E10, E48: a set of runs sends per element and drops the events of elements that left")
    func setOfRunsSendsPerElementAndDropsLeavers() async {
        let probe = EffectProbe()
        let system = System<Model, Action>(
            initial: Model(), reduce: reduceModel,
            feedbacks: [
                .react(
                    requests: { $0.queries },
                    run: { query, send in
                        send(.progress(query))
                        if query < 0 { throw Boom(request: query) }
                        probe.report(.started(query))
                        await untilCancelled()
                        send(.loaded(query))  // cancelled: dropped
                        probe.report(.cancelled(query))
                    },
                    onError: { query, error in .failed("\(query): \(error)") })
            ])
        let (run, states) = system.start()

        run.send(.queries([1, 2]))
        #expect(Set(await probe.reports.next(2)) == [.started(1), .started(2)])
        run.send(.queries([2, 3, -4]))
        #expect(Set(await probe.reports.next(2)) == [.cancelled(1), .started(3)])
        run.send(.queries([]))
        #expect(Set(await probe.reports.next(2)) == [.cancelled(2), .cancelled(3)])
        run.send(.increment)
        let last = await states.firstMatch { $0.count == 1 }

        #expect(last.map { Set($0.progress) } == [1, 2, 3, -4])
        #expect(last?.progress.count == 4)  // 2 stayed in the set: it was not run again
        #expect(last?.errors == ["-4: boom -4"])
        #expect(last?.loaded == [])
        withExtendedLifetime(run) {}
    }

    @Test("E48: the set form takes a sequence of events per element")
    func setOfSequencesFeedsBackEveryElementOfEach() async {
        let system = System<Model, Action>(
            initial: Model(), reduce: reduceModel,
            feedbacks: [
                .react(
                    requests: { $0.queries },
                    run: { query, send in
                        let events = AsyncStream { continuation in
                            continuation.yield(Action.progress(query))
                            continuation.yield(.loaded(query))
                            continuation.finish()
                        }
                        for await event in events { send(event) }
                    })
            ])
        let (run, states) = system.start()

        run.send(.queries([1, 2]))
        let last = await states.firstMatch { $0.loaded.count == 2 }

        #expect(last.map { Set($0.progress) } == [1, 2])
        #expect(last.map { Set($0.loaded) } == [1, 2])
        withExtendedLifetime(run) {}
    }
}
