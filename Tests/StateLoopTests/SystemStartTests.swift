// Semantics 1 and 2: every start is a fresh instance; the initial state comes first and every
// loop is started before any event is reduced.

import Dispatch
import StateLoop
import StateLoopTestSupport
import Testing

@Suite(.bothStartModes) struct SystemStartTests {
    @Test func everyStartIsAFreshIndependentSystem() {
        let system = System<Model, Action>(initial: Model(), reduce: reduceModel, feedbacks: [])
        let first = Recorder<Int>()
        let second = Recorder<Int>()
        let runA = system.start { first.append($0.count) }
        let runB = system.start { second.append($0.count) }

        runA.send(.increment)
        runA.send(.increment)
        runB.send(.increment)
        runA.stop()
        // Stopping one instance leaves the other running.
        runB.send(.increment)

        #expect(first.all == [0, 1, 2])
        #expect(second.all == [0, 1, 2])
        withExtendedLifetime((runA, runB)) {}
    }

    @Test func initialStateIsDeliveredFirst() async {
        // An effect that answers at once for the initial state cannot overtake it.
        let system = System<Model, Action>(
            initial: Model(count: 7), reduce: reduceModel,
            feedbacks: [.react(request: { $0.count == 7 ? 7 : nil }, effect: { _ in .increment })])
        let (run, states) = system.start()

        #expect(await states.next(2).map(\.count) == [7, 8])
        withExtendedLifetime(run) {}
    }

    @Test func everyFeedbackIsStartedBeforeAnyEventIsReduced() async {
        // Loop 0 answers the initial state with an event; loop 1, while being started, blocks
        // until that event is certainly queued. Loop 2 must still see the initial state before
        // the event is reduced.
        let log = Recorder<String>()
        let queued = DispatchSemaphore(value: 0)
        let system = System<Model, Action>(
            initial: Model(), reduce: { state, action in
                log.append("reduce \(action)")
                reduceModel(&state, action)
            },
            feedbacks: [
                .react(
                    request: { state in state.count == 0 ? 0 : nil },
                    run: { _, send in
                        for try await event in oneEventThen(.increment, afterFirst: { queued.signal() }) { send(event) }
                    },
                    onError: { _, _ in nil }),
                .react(
                    request: { (state: Model) -> Int? in
                        log.append("loop 1 sees \(state.count)")
                        if state.count == 0 { queued.wait() }
                        return nil
                    },
                    effect: { _ in .increment }),
                .react(
                    request: { (state: Model) -> Int? in
                        log.append("loop 2 sees \(state.count)")
                        return nil
                    },
                    effect: { _ in .increment }),
            ])
        // Started on a thread of its own, because loop 1 blocks it.
        let started = Box<(run: SystemRun<Model, Action>, states: AsyncStream<Model>)?>(nil)
        await onOwnThread { started.value = system.start() }
        let (run, states) = started.value!

        _ = await states.firstMatch { $0.count == 1 }
        #expect(
            log.all == [
                "loop 1 sees 0", "loop 2 sees 0", "reduce increment", "loop 1 sees 1", "loop 2 sees 1",
            ])
        withExtendedLifetime(run) {}
    }
}
