// RequestSetLoop: a set of requests -> one running effect per element, diffed.

/// Runs one effect per element of the requested set: elements that appear start a run,
/// elements that disappear cancel theirs, elements that stay keep running.
final class RequestSetLoop<State, Event: Sendable, Request: Hashable & Sendable>: FeedbackLoop {
    private let requests: (State) -> Set<Request>
    private let operation: @Sendable (Request, @escaping @Sendable (Event) -> Void) async -> Void
    private let launcher: EffectLauncher<Event>
    private var running: [Request: EffectRun] = [:]

    init(
        requests: @escaping (State) -> Set<Request>,
        operation: @escaping @Sendable (Request, @escaping @Sendable (Event) -> Void) async -> Void,
        launcher: EffectLauncher<Event>
    ) {
        self.requests = requests
        self.operation = operation
        self.launcher = launcher
    }

    func observe(_ state: State) {
        let next = requests(state)
        // The common case in a quiet system: nothing requested, nothing running.
        if next.isEmpty && running.isEmpty { return }
        for (request, run) in running where !next.contains(request) {
            run.cancel()
            running[request] = nil
        }
        let operation = self.operation
        for request in next where running[request] == nil {
            running[request] = launcher.launch { send in await operation(request, send) }
        }
    }

    func stop() {
        for run in running.values { run.cancel() }
        running = [:]
    }
}
