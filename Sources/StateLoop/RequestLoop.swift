// RequestLoop: one optional request -> at most one running effect.

/// Runs the effect of the current request: a changed request cancels the old run and starts a
/// new one, an equal request keeps the running one, `nil` stops it.
@usableFromInline
final class RequestLoop<State, Event: Sendable, Request: Equatable & Sendable> {
    @usableFromInline let request: (State) -> Request?
    @usableFromInline let operation: @Sendable (Request, @escaping @Sendable (Event) -> Void) async -> Void
    @usableFromInline let launcher: EffectLauncher<Event>
    // Touched only by the draining thread; see SystemCore for why the checks are off.
    @usableFromInline @exclusivity(unchecked) var currentRequest: Request?
    @usableFromInline @exclusivity(unchecked) var currentRun: EffectRun?

    @inlinable
    init(
        request: @escaping (State) -> Request?,
        operation: @escaping @Sendable (Request, @escaping @Sendable (Event) -> Void) async -> Void,
        launcher: EffectLauncher<Event>
    ) {
        self.request = request
        self.operation = operation
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
        let operation = self.operation
        currentRequest = next
        currentRun = launcher.launch { send in await operation(next, send) }
    }

    @inlinable
    func stop() {
        currentRun?.cancel()
        currentRun = nil
        currentRequest = nil
    }
}
