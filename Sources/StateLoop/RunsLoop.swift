// RunsLoop: the one-shot runs a state queues -> one run per sequence number, started once.
//
// Invariants:
// - `started` only grows: a run numbered below it is never started again.
// - A run's number is its place in the queue (`queued` before it was queued), the same in every
//   process; the effect sees it as `OneShotRun.key`. A restored instance starts at the restored
//   count and starts, once, the runs its journal does not know finished (D37).

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

    /// A restored instance's runs not known finished, started when the loop first sees a state
    /// (D37); empty otherwise.
    @usableFromInline @exclusivity(unchecked) var resumed: [(key: Int, run: Run)]

    @inlinable
    init(
        pending: @escaping (State) -> (queued: Int, runs: [Run]),
        effect: @escaping @Sendable (Run) async -> Event?,
        launcher: EffectLauncher<Event>
    ) {
        self.pending = pending
        self.effect = effect
        self.launcher = launcher
        // Restored: the runs numbered below the restored count were started before the restart;
        // those not known finished start again, once, with their numbers.
        started = launcher.resume?.runsQueued ?? 0
        resumed = (launcher.resume?.takeRuns() ?? []).map { resumed in
            guard let run = resumed.run as? Run else {
                preconditionFailure("StateLoop: a resumed one-shot run of type \(type(of: resumed.run)), not \(Run.self): `DurableMachine.Run` must be the type of the machine's `runs(pending:effect:)`")
            }
            return (resumed.key, run)
        }
    }

    @inlinable
    func observe(_ state: State) {
        if !resumed.isEmpty {
            for (key, run) in resumed { launch(run, key: key) }
            resumed = []
        }
        let (queued, runs) = pending(state)
        // Seen already, or an older count: nothing new.
        guard queued > started else { return }
        // The runs numbered `started ..< queued` are the last `queued - started` of `runs` (all
        // of them if `runs` is shorter: the older ones were never shown to this loop).
        let fresh = runs.suffix(queued - started)
        started = queued
        for (offset, run) in fresh.enumerated() { launch(run, key: queued - fresh.count + offset) }
    }

    /// Starts the run numbered `key` in the instance's one-shot runs.
    @inlinable
    func launch(_ run: Run, key: Int) {
        let effect = self.effect
        launcher.launchOneShot(key: key) { await effect(run) }
    }
}
