// Semantics 3: no reentrancy - events are queued, reduced first in first out, one at a time,
// and every feedback sees a state before any event caused by that state is reduced.

import Dispatch
import StateLoop
import Synchronization
import StateLoopTestSupport
import Testing

/// Counts how many reductions are in progress at once, and the most ever seen.
private final class Overlap: Sendable {
    private let counts = Mutex((now: 0, most: 0))

    func enter() { counts.withLock { $0.now += 1; $0.most = max($0.most, $0.now) } }
    func leave() { counts.withLock { $0.now -= 1 } }
    var most: Int { counts.withLock { $0.most } }
}

@Suite(.bothStartModes) struct NoReentrancyTests {
    @Test func eventSentWhileReducingIsQueuedAndReducedAfterInOrder() {
        let overlap = Overlap()
        let reduced = Recorder<Action>()
        let handle = Box<SystemRun<Model, Action>?>(nil)
        let system = System<Model, Action>(
            initial: Model(), reduce: { state, action in
                overlap.enter()
                reduced.append(action)
                reduceModel(&state, action)
                overlap.leave()
            }, feedbacks: [])
        // The observer runs inside the drain; what it sends must wait for the current event.
        let run = system.start { state in
            if state.count == 1 && state.query == nil {
                handle.value?.send(.query(1))
                handle.value?.send(.query(2))
                reduced.append(.failed("observer done"))
            }
        }
        handle.value = run

        run.send(.increment)

        #expect(reduced.all == [.increment, .failed("observer done"), .query(1), .query(2)])
        #expect(overlap.most == 1)
        handle.value = nil
    }

    @Test func eventsFromManyThreadsAndInstantEffectsAreReducedOneAtATime() async {
        // Four senders at once, and an effect that answers at once (a cache hit) for every
        // count: nothing may overlap, and nothing may be lost.
        let overlap = Overlap()
        let system = System<Model, Action>(
            initial: Model(), reduce: { state, action in
                overlap.enter()
                reduceModel(&state, action)
                overlap.leave()
            },
            feedbacks: [.react(request: { $0.count }, effect: { count in .loaded(count) })])
        let (run, states) = system.start(bufferingPolicy: .bufferingNewest(1))

        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { for _ in 0..<500 { run.send(.increment) } }
            }
        }
        let final = await states.firstMatch { $0.count == 2000 }

        #expect(final?.count == 2000)
        #expect(overlap.most == 1)
        withExtendedLifetime(run) {}
    }

    @Test func everyFeedbackSeesAStateBeforeAnEventItCausedIsReduced() async {
        // Loop A answers count 1 at once; loop B blocks on count 1 until A's event is queued.
        // Loop B must still see count 1 before A's event is reduced.
        let log = Recorder<String>()
        let queued = DispatchSemaphore(value: 0)
        let system = System<Model, Action>(
            initial: Model(), reduce: { state, action in
                log.append("reduce \(action)")
                reduceModel(&state, action)
            },
            feedbacks: [
                .react(
                    request: { state in state.count == 1 ? 1 : nil },
                    run: { _, send in
                        for try await event in oneEventThen(.loaded(1), afterFirst: { queued.signal() }) { send(event) }
                    },
                    onError: { _, _ in nil }),
                .react(
                    request: { (state: Model) -> Int? in
                        if state.count == 1 && state.loaded.isEmpty {
                            queued.wait()
                            log.append("B sees count 1")
                        }
                        return nil
                    },
                    effect: { _ in .increment }),
            ])
        let (run, states) = system.start()

        await onOwnThread { run.send(.increment) }
        _ = await states.firstMatch { $0.loaded == [1] }

        #expect(log.all == ["reduce increment", "B sees count 1", "reduce loaded(1)"])
        withExtendedLifetime(run) {}
    }
}
