// Semantics 7: an effect's failure becomes an event the user chose, never a crash.

import StateLoop
import Testing

private struct Boom: Error, CustomStringConvertible {
    let request: Int
    var description: String { "boom \(request)" }
}

@Suite(.bothStartModes) struct EffectFailureTests {
    @Test func throwingEffectBecomesTheChosenEventAndTheSystemGoesOn() async {
        let system = System<Model, Action>(
            initial: Model(), reduce: reduceModel,
            feedbacks: [
                .react(
                    request: { $0.query },
                    run: { query, send in
                        if query < 0 { throw Boom(request: query) }
                        send(.loaded(query))
                    },
                    onError: { _, error in .failed("\(error)") })
            ])
        let (run, states) = system.start()

        run.send(.query(-1))
        _ = await states.firstMatch { !$0.errors.isEmpty }
        run.send(.query(2))
        let last = await states.firstMatch { !$0.loaded.isEmpty }

        #expect(last?.errors == ["boom -1"])
        #expect(last?.loaded == [2])
        withExtendedLifetime(run) {}
    }

    @Test func failingSequenceFeedsItsElementsThenTheChosenEvent() async {
        let system = System<Model, Action>(
            initial: Model(), reduce: reduceModel,
            feedbacks: [
                .react(
                    request: { $0.query },
                    run: { query, send in
                        let events = AsyncThrowingStream<Action, any Error> { continuation in
                            continuation.yield(.progress(1))
                            continuation.yield(.progress(2))
                            continuation.finish(throwing: Boom(request: query))
                        }
                        for try await event in events { send(event) }
                    },
                    onError: { _, error in .failed("\(error)") })
            ])
        let (run, states) = system.start()

        run.send(.query(7))
        let last = await states.firstMatch { !$0.errors.isEmpty }

        #expect(last?.progress == [1, 2])
        #expect(last?.errors == ["boom 7"])
        withExtendedLifetime(run) {}
    }

    @Test func failingEffectOfTheSetFormBecomesTheChosenEvent() async {
        let system = System<Model, Action>(
            initial: Model(), reduce: reduceModel,
            feedbacks: [
                .react(
                    requests: { $0.queries },
                    run: { query, send in
                        if query.isMultiple(of: 2) { throw Boom(request: query) }
                        send(.loaded(query))
                    },
                    onError: { _, error in .failed("\(error)") })
            ])
        let (run, states) = system.start()

        run.send(.queries([1, 2]))
        let last = await states.firstMatch { $0.errors.count + $0.loaded.count == 2 }

        #expect(last?.errors == ["boom 2"])
        #expect(last?.loaded == [1])
        withExtendedLifetime(run) {}
    }
}
