// RequestLoop: one optional request -> at most one running effect.

/// Runs the effect of the current request: a changed request cancels the old run and starts a
/// new one, an equal request keeps the running one, `nil` stops it.
///
/// `start` is called synchronously, on the draining thread, as the state that carries a new
/// request is delivered; the operation it returns runs in the effect's task. So whatever `start`
/// takes (a timer's deadline) is taken when the request is observed, not when the task runs.
@usableFromInline
final class RequestLoop<State, Event: Sendable, Request: Equatable & Sendable> {
    @usableFromInline let request: (State) -> Request?
    @usableFromInline let start: (Request) -> @Sendable (_ send: @escaping @Sendable (Event) -> Void) async -> Void
    @usableFromInline let launcher: EffectLauncher<Event>
    // Touched only by the draining thread; see SystemCore for why the checks are off.
    @usableFromInline @exclusivity(unchecked) var currentRequest: Request?
    @usableFromInline @exclusivity(unchecked) var currentRun: EffectRun?

    @inlinable
    init(
        request: @escaping (State) -> Request?,
        start: @escaping (Request) -> @Sendable (_ send: @escaping @Sendable (Event) -> Void) async -> Void,
        launcher: EffectLauncher<Event>
    ) {
        self.request = request
        self.start = start
        self.launcher = launcher
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
        currentRun = launcher.launch(start(next))
    }

    @inlinable
    func stop() {
        currentRun?.cancel()
        currentRun = nil
        currentRequest = nil
    }
}
