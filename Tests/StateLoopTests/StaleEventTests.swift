// Semantics 5: no stale events - an event from an effect run that is no longer current is
// dropped, even if it was already queued.

import Dispatch
import StateLoop
import StateLoopTestSupport
import Testing

/// Waits a random number of scheduler turns: effects finish in a random order.
private func jitter() async {
    for _ in 0..<Int.random(in: 0..<8) { await Task.yield() }
}

@Suite(.bothStartModes) struct StaleEventTests {
    @Test func eventOfAReplacedRunIsDroppedEvenIfAlreadyQueued() async {
        // While count 1 is being shown to loop B, B queues query(2) and then waits until the
        // effect for query 1 has queued loaded(1) behind it. Reducing query(2) replaces the
        // run for 1, so the already-queued loaded(1) must be dropped. The effect suspends before
        // it waits for B (a run may start on the draining thread, E54).
        let reduced = Recorder<Action>()
        let sent = DispatchSemaphore(value: 0)
        let queued = DispatchSemaphore(value: 0)
        let handle = Box<SystemRun<Model, Action>?>(nil)
        let system = System<Model, Action>(
            initial: Model(), reduce: { state, action in
                reduced.append(action)
                reduceModel(&state, action)
            },
            feedbacks: [
                .react(
                    request: { $0.query },
                    run: { query, send in
                        let events = oneEventThen(
                            .loaded(query),
                            before: {
                                await Task.yield()
                                if query == 1 { sent.wait() }
                            },
                            afterFirst: { if query == 1 { queued.signal() } })
                        for try await event in events { send(event) }
                    },
                    onError: { _, _ in nil }),
                .react(
                    request: { (state: Model) -> Int? in
                        if state.query == 1 && state.count == 0 {
                            handle.value?.send(.query(2))
                            sent.signal()
                            queued.wait()
                        }
                        return nil
                    },
                    effect: { _ in .increment }),
            ])
        let (run, states) = system.start()
        handle.value = run

        await onOwnThread { run.send(.query(1)) }
        let done = await states.firstMatch { !$0.loaded.isEmpty }

        #expect(done?.loaded == [2])
        #expect(reduced.all == [.query(1), .query(2), .loaded(2)])
        handle.value = nil
    }

    @Test(arguments: 1...5)
    func noStaleEventIsReducedUnderManyRestarts(round: Int) async {
        let stale = Recorder<String>()
        let system = System<Model, Action>(
            initial: Model(), reduce: { state, action in
                if case .loaded(let value) = action, value != state.query {
                    stale.append("loaded(\(value)) while query is \(String(describing: state.query))")
                }
                reduceModel(&state, action)
            },
            feedbacks: [
                .react(request: { $0.query }, effect: { query in
                    await jitter()
                    return .loaded(query)
                })
            ])
        let (run, states) = system.start(bufferingPolicy: .bufferingNewest(1))

        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<2 {
                group.addTask {
                    for step in 0..<1000 {
                        run.send(.query(sender * 1000 + step))
                        await jitter()
                    }
                }
            }
        }
        run.send(.query(-round))
        _ = await states.firstMatch { $0.loaded.last == -round }

        #expect(stale.all == [])
        withExtendedLifetime(run) {}
    }

    @Test(arguments: 1...5)
    func noStaleEventIsReducedUnderManySetChanges(round: Int) async {
        let stale = Recorder<String>()
        let system = System<Model, Action>(
            initial: Model(), reduce: { state, action in
                if case .loaded(let value) = action, !state.queries.contains(value) {
                    stale.append("loaded(\(value)) while queries are \(state.queries.sorted())")
                }
                reduceModel(&state, action)
            },
            feedbacks: [
                .react(requests: { $0.queries }, effect: { query in
                    await jitter()
                    return .loaded(query)
                })
            ])
        let (run, states) = system.start(bufferingPolicy: .bufferingNewest(1))

        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<2 {
                group.addTask {
                    for step in 0..<1000 {
                        let base = sender * 1000 + step
                        run.send(.queries([base, base + 1, Int.random(in: 0..<50)]))
                        await jitter()
                    }
                }
            }
        }
        run.send(.queries([-round]))
        _ = await states.firstMatch { $0.loaded.last == -round }

        #expect(stale.all == [])
        withExtendedLifetime(run) {}
    }
}
