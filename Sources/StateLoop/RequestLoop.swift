// RequestLoop: one optional request -> at most one running effect.

/// Runs the effect of the current request: a changed request cancels the old run and starts a
/// new one, an equal request keeps the running one, `nil` stops it.
final class RequestLoop<State, Event: Sendable, Request: Equatable & Sendable>: FeedbackLoop {
    private let request: (State) -> Request?
    private let operation: @Sendable (Request, @escaping @Sendable (Event) -> Void) async -> Void
    private let launcher: EffectLauncher<Event>
    private var current: (request: Request, run: EffectRun)?

    init(
        request: @escaping (State) -> Request?,
        operation: @escaping @Sendable (Request, @escaping @Sendable (Event) -> Void) async -> Void,
        launcher: EffectLauncher<Event>
    ) {
        self.request = request
        self.operation = operation
        self.launcher = launcher
    }

    func observe(_ state: State) {
        let next = request(state)
        if let running = current {
            if let next, next == running.request { return }
            running.run.cancel()
            current = nil
        }
        guard let next else { return }
        let operation = self.operation
        current = (next, launcher.launch { send in await operation(next, send) })
    }

    func stop() {
        current?.run.cancel()
        current = nil
    }
}
