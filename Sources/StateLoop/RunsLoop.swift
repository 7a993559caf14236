// RunsLoop: the one-shot runs a state queues -> one run per sequence number, started once.
//
// Invariants:
// - `started` only grows: a run numbered below it is never started again.

/// Starts every run the state has queued and this loop has not started yet, in queue order.
///
/// The state says how many runs it has ever queued (`queued`) and keeps the latest ones
/// (`runs`, numbered `queued - runs.count ..< queued`); the loop remembers how many it started.
/// Runs go to the instance's ``OneShotRuns``: no later state cancels them.
@usableFromInline
final class RunsLoop<State, Event: Sendable, Run: Sendable> {
    @usableFromInline let pending: (State) -> (queued: Int, runs: [Run])
    @usableFromInline let effect: @Sendable (Run) async -> Event?
    @usableFromInline let launcher: EffectLauncher<Event>
    /// How many runs were started: the sequence number of the next one.
    /// (Touched only by the draining thread; see SystemCore for why the checks are off.)
    @usableFromInline @exclusivity(unchecked) var started = 0

    @inlinable
    init(
        pending: @escaping (State) -> (queued: Int, runs: [Run]),
        effect: @escaping @Sendable (Run) async -> Event?,
        launcher: EffectLauncher<Event>
    ) {
        self.pending = pending
        self.effect = effect
        self.launcher = launcher
    }

    @inlinable
    func observe(_ state: State) {
        let (queued, runs) = pending(state)
        // Seen already, or an older count: nothing new.
        guard queued > started else { return }
        // The runs numbered `started ..< queued` are the last `queued - started` of `runs` (all
        // of them if `runs` is shorter: the older ones were never shown to this loop).
        let fresh = runs.suffix(queued - started)
        started = queued
        let effect = self.effect
        for run in fresh {
            launcher.launchOneShot { send in
                if let event = await effect(run), !Task.isCancelled { send(event) }
            }
        }
    }
}
