// RequestSetLoop: a set of requests -> one running effect per element, diffed.
//
// Invariants:
// - `running` has exactly one run per element of the last set seen (a run that has returned stays
//   until its element leaves); the runs of the elements that leave are cancelled before the
//   arrivals start. Touched only by the draining thread.

/// A run a ``RequestSetLoop`` keeps for one element: cancellable, and marked by the last set
/// that kept it.
@usableFromInline
protocol SetMemberRun: CancellableRun {
    /// The last state (by the loop's count) whose set kept this run.
    var keptAt: Int { get set }
}

extension EffectRun: SetMemberRun {}

/// Runs one effect per element of the requested set: elements that appear start a run,
/// elements that disappear cancel theirs, elements that stay keep running.
///
/// `start` is called synchronously, on the draining thread, as the state that carries a new
/// element is observed: an effect's task, or a timer's arming, whose deadline is read then.
@usableFromInline
final class RequestSetLoop<State, Request: Hashable & Sendable, Run: SetMemberRun> {
    @usableFromInline let requests: (State) -> Set<Request>
    @usableFromInline let start: (Request) -> Run
    // Touched only by the draining thread; see SystemCore for why the checks are off.
    @usableFromInline @exclusivity(unchecked) var running: [Request: Run] = [:]
    /// How many non-empty states (or states with runs) this loop has diffed: the mark of the
    /// runs the latest one kept.
    @usableFromInline @exclusivity(unchecked) var observed = 0

    @inlinable
    init(requests: @escaping (State) -> Set<Request>, start: @escaping (Request) -> Run) {
        self.requests = requests
        self.start = start
    }

    @inlinable
    func observe(_ state: State) {
        let next = requests(state)
        // The common case in a quiet system: nothing requested, nothing running.
        if next.isEmpty && running.isEmpty { return }
        // One lookup per element of the new set: an element that runs is marked as kept by this
        // state, the others are arrivals. Then the leavers are the runs not marked, found without
        // hashing; they are cancelled first, then the arrivals start.
        observed &+= 1
        let mark = observed
        // The arrivals and leavers are kept in stack buffers: no allocation per state.
        withUnsafeTemporaryAllocation(of: Request.self, capacity: next.count) { arrivals in
            var arrived = 0
            var staying = 0
            for request in next {
                if let run = running[request] {
                    run.keptAt = mark
                    staying += 1
                } else {
                    (arrivals.baseAddress! + arrived).initialize(to: request)
                    arrived += 1
                }
            }
            if staying < running.count {
                // Collected before they are removed: removing while iterating `running` would
                // copy the whole dictionary.
                let leaving = running.count - staying
                withUnsafeTemporaryAllocation(of: Request.self, capacity: leaving) { leavers in
                    var left = 0
                    for (request, run) in running where run.keptAt != mark {
                        (leavers.baseAddress! + left).initialize(to: request)
                        left += 1
                    }
                    for index in 0..<left {
                        running.removeValue(forKey: (leavers.baseAddress! + index).move())?.cancel()
                    }
                }
            }
            for index in 0..<arrived {
                let request = (arrivals.baseAddress! + index).move()
                running[request] = start(request)
            }
        }
    }

    @inlinable
    func stop() {
        for run in running.values { run.cancel() }
        running = [:]
    }
}
