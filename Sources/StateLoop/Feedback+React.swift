// Feedback+React: the query-triggered effects, `react(request:...)` and `react(requests:...)`.

extension Feedback {
    /// Runs `effect` for the request that `request` derives from the current state, and feeds
    /// its event back into the system.
    ///
    /// - `nil`: no effect runs (a running one is cancelled);
    /// - a value different (`!=`) from the running one: the old run is cancelled and its late
    ///   event dropped, even if already queued; a new run starts;
    /// - an equal value: the running effect is kept.
    @inlinable
    public static func react<Request: Equatable & Sendable>(
        request: @escaping @Sendable (State) -> Request?,
        effect: @escaping @Sendable (Request) async -> Event
    ) -> Feedback {
        single(request: request) { request, send in
            let event = await effect(request)
            // A cancelled run's event would be dropped anyway; save the trip through the queue.
            if !Task.isCancelled { send(event) }
        }
    }

    /// Like ``react(request:effect:)``, for an effect that can fail: `onError` turns the error
    /// into the event to send, or `nil` to send none. A failure never stops the system.
    ///
    /// A run that was cancelled (its request changed or went away) sends nothing, whatever
    /// its effect threw.
    @inlinable
    public static func react<Request: Equatable & Sendable>(
        request: @escaping @Sendable (State) -> Request?,
        effect: @escaping @Sendable (Request) async throws -> Event,
        onError: @escaping @Sendable (any Error) -> Event?
    ) -> Feedback {
        single(request: request) { request, send in
            await sendOutcome(of: { try await effect(request) }, onError: onError, to: send)
        }
    }

    /// Like ``react(request:effect:)``, for an effect that sends several events over time
    /// (progress, partial results). Each element is fed back as it comes; a changed or `nil`
    /// request cancels the iteration and drops its late elements.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
    @inlinable
    public static func react<Request: Equatable & Sendable, Events: AsyncSequence & Sendable>(
        request: @escaping @Sendable (State) -> Request?,
        effects: @escaping @Sendable (Request) -> Events
    ) -> Feedback where Events.Element == Event, Events.Failure == Never {
        single(request: request) { request, send in
            for await event in effects(request) {
                if Task.isCancelled { return }
                send(event)
            }
        }
    }

    /// Like ``react(request:effects:)``, for a sequence that can fail: the events before the
    /// failure are fed back, then `onError` turns the error into a last event, or `nil` for none.
    @inlinable
    public static func react<Request: Equatable & Sendable, Events: AsyncSequence & Sendable>(
        request: @escaping @Sendable (State) -> Request?,
        effects: @escaping @Sendable (Request) -> Events,
        onError: @escaping @Sendable (any Error) -> Event?
    ) -> Feedback where Events.Element == Event {
        single(request: request) { request, send in
            await sendOutcome(
                of: {
                    for try await event in effects(request) {
                        if Task.isCancelled { return nil }
                        send(event)
                    }
                    return nil
                },
                onError: onError, to: send)
        }
    }

    /// Runs one `effect` per element of the requested set: elements that appear start a run,
    /// elements that disappear cancel theirs (late events dropped), elements that stay keep
    /// running.
    @inlinable
    public static func react<Request: Hashable & Sendable>(
        requests: @escaping @Sendable (State) -> Set<Request>,
        effect: @escaping @Sendable (Request) async -> Event
    ) -> Feedback {
        many(requests: requests) { request, send in
            let event = await effect(request)
            if !Task.isCancelled { send(event) }
        }
    }

    /// Like ``react(requests:effect:)``, for an effect that can fail: `onError` turns the error
    /// into the event to send, or `nil` to send none.
    @inlinable
    public static func react<Request: Hashable & Sendable>(
        requests: @escaping @Sendable (State) -> Set<Request>,
        effect: @escaping @Sendable (Request) async throws -> Event,
        onError: @escaping @Sendable (any Error) -> Event?
    ) -> Feedback {
        many(requests: requests) { request, send in
            await sendOutcome(of: { try await effect(request) }, onError: onError, to: send)
        }
    }

    /// Runs a failable operation and sends its event, or the event `onError` makes of its error,
    /// unless the run has been cancelled meanwhile.
    @inlinable
    static func sendOutcome(
        of operation: @Sendable () async throws -> Event?,
        onError: @Sendable (any Error) -> Event?,
        to send: @Sendable (Event) -> Void
    ) async {
        let event: Event?
        do {
            event = try await operation()
        } catch {
            event = Task.isCancelled ? nil : onError(error)
        }
        if let event, !Task.isCancelled { send(event) }
    }
}
