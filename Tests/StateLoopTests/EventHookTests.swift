// System.observingEvents: a hook that sees every reduced event and the state after it.

import StateLoop
import Testing

@Suite(.bothStartModes) struct EventHookTests {
    @Test func eventHookSeesEveryEventWithTheStateAfterIt() {
        let log = Recorder<String>()
        let system = System<Model, Action>(initial: Model(), reduce: reduceModel, feedbacks: [])
            .observingEvents { event, state in log.append("first: \(event) -> \(state.count)") }
            .observingEvents { event, state in log.append("second: \(event) -> \(state.count)") }
        let run = system.start { _ in }

        run.send(.increment)
        run.send(.query(4))

        #expect(
            log.all == [
                "first: increment -> 1", "second: increment -> 1",
                "first: query(Optional(4)) -> 1", "second: query(Optional(4)) -> 1",
            ])
        withExtendedLifetime(run) {}
    }
}
