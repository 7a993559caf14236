// Store: the main-actor view of a running system for UI.

import StateLoop
import Testing

#if canImport(Observation)
import Observation

/// Suspends until `store.state` changes (as Observation reports it).
@MainActor
private func stateChange(of store: Store<Model, Action>) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        withObservationTracking {
            _ = store.state
        } onChange: {
            continuation.resume()
        }
    }
}

@MainActor
@Suite(.bothStartModes) struct StoreTests {
    @Test func storeFollowsTheStateObservablyAndSendsEvents() async {
        let store = Store(System<Model, Action>(initial: Model(), reduce: reduceModel, feedbacks: []))
        #expect(store.state.count == 0)

        store.send(.increment)
        store.send(.increment)
        while store.state.count < 2 { await stateChange(of: store) }

        #expect(store.state.count == 2)
    }

    @Test func releasingTheStoreStopsTheSystem() async {
        let probe = EffectProbe()
        let system = System<Model, Action>(
            initial: Model(), reduce: reduceModel,
            feedbacks: [.react(request: { $0.query }, effect: { await probe.runUntilCancelled($0) })])
        var store: Store<Model, Action>? = Store(system)
        store?.send(.query(1))
        #expect(await probe.reports.next(1) == [.started(1)])

        store = nil

        #expect(await probe.reports.next(1) == [.cancelled(1)])
    }
}
#endif
