// Store: a main-actor view of one running system for UI, observable (Observation ships with every
// platform the package supports: macOS 14, iOS 17, Linux).
//
// Invariants:
// - `state` changes only on the main actor, to a state the instance delivered, in order (with
//   intermediate ones possibly skipped); the store's release stops the instance.

import Observation

/// A running instance of a ``System`` for UI: the current `state` on the main actor, and
/// ``send(_:)``. SwiftUI views that read `state` update when it changes (`@Observable`).
///
/// The store shows the latest state: if the system produces states faster than the main actor
/// takes them, intermediate states are skipped. Releasing the store stops the instance.
@MainActor
@Observable
public final class Store<State: Sendable, Event: Sendable> {
    /// The latest state of the instance, as seen on the main actor.
    public private(set) var state: State

    @ObservationIgnored private let run: SystemRun<State, Event>

    /// Starts a fresh instance of `system` and follows its states on the main actor.
    public init(_ system: System<State, Event>) {
        // Latest-only: a UI renders the newest state, a backlog would only delay it.
        let (run, states) = system.start(bufferingPolicy: .bufferingNewest(1))
        self.run = run
        self.state = system.initial
        Task { @MainActor [weak self] in
            for await state in states {
                guard let self else { return }
                self.state = state
            }
        }
    }

    /// Sends an event to the instance, from any thread.
    public nonisolated func send(_ event: Event) {
        run.send(event)
    }
}
