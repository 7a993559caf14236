// RequestSetLoop: a set of requests -> one running effect per element, diffed.

/// Runs one effect per element of the requested set: elements that appear start a run,
/// elements that disappear cancel theirs, elements that stay keep running.
@usableFromInline
final class RequestSetLoop<State, Event: Sendable, Request: Hashable & Sendable> {
    @usableFromInline let requests: (State) -> Set<Request>
    @usableFromInline let operation: @Sendable (Request, @escaping @Sendable (Event) -> Void) async -> Void
    @usableFromInline let launcher: EffectLauncher<Event>
    // Touched only by the draining thread; see SystemCore for why the checks are off.
    @usableFromInline @exclusivity(unchecked) var running: [Request: EffectRun] = [:]

    @inlinable
    init(
        requests: @escaping (State) -> Set<Request>,
        operation: @escaping @Sendable (Request, @escaping @Sendable (Event) -> Void) async -> Void,
        launcher: EffectLauncher<Event>
    ) {
        self.requests = requests
        self.operation = operation
        self.launcher = launcher
    }

    @inlinable
    func observe(_ state: State) {
        let next = requests(state)
        // The common case in a quiet system: nothing requested, nothing running.
        if next.isEmpty && running.isEmpty { return }
        // Leavers first, then arrivals. Leavers are collected before they are removed: removing
        // while iterating `running` would copy the whole dictionary.
        var staying = 0
        for request in next where running[request] != nil { staying += 1 }
        if staying < running.count {
            var leavers: [Request] = []
            leavers.reserveCapacity(running.count - staying)
            for request in running.keys where !next.contains(request) { leavers.append(request) }
            for request in leavers { running.removeValue(forKey: request)?.cancel() }
        }
        guard staying < next.count else { return }
        for request in next where running[request] == nil {
            running[request] = launcher.launch(request, operation)
        }
    }

    @inlinable
    func stop() {
        for run in running.values { run.cancel() }
        running = [:]
    }
}
