// RequestLoop: one optional request -> at most one running effect (or child system).
//
// Invariants:
// - At most one run, for `currentRequest`; a run is started only for a request different from the
//   current one and cancelled before its replacement starts. Touched only by the draining thread.

/// What a ``RequestLoop`` keeps running for its current request: an effect run (`EffectRun`)
/// or a child system (`ChildRun`).
@usableFromInline
protocol CancellableRun: AnyObject {
    /// Stops it for good; whatever it sends afterwards is stale. Called by the draining thread.
    func cancel()
}

/// Keeps one run for the current request: a changed request cancels the old run and starts a
/// new one, an equal request keeps the running one (also once it has returned: it is not
/// started again), `nil` stops it.
///
/// `start` is called synchronously, on the draining thread, as the state that carries a new
/// request is delivered. So whatever it takes (a timer's deadline) is taken when the request is
/// observed, not when a task runs, and a child system starts before the next event (E49).
@usableFromInline
final class RequestLoop<State, Request: Equatable, Run: CancellableRun> {
    @usableFromInline let request: (State) -> Request?
    @usableFromInline let start: (Request) -> Run
    // Touched only by the draining thread; see SystemCore for why the checks are off.
    @usableFromInline @exclusivity(unchecked) var currentRequest: Request?
    @usableFromInline @exclusivity(unchecked) var currentRun: Run?

    @inlinable
    init(request: @escaping (State) -> Request?, start: @escaping (Request) -> Run) {
        self.request = request
        self.start = start
    }

    @inlinable
    func observe(_ state: State) {
        let next = request(state)
        if let run = currentRun {
            if let next, next == currentRequest { return }
            run.cancel()
            currentRun = nil
            currentRequest = nil
        }
        guard let next else { return }
        currentRequest = next
        currentRun = start(next)
    }

    @inlinable
    func stop() {
        currentRun?.cancel()
        currentRun = nil
        currentRequest = nil
    }
}
