// Feedback+React: the query-triggered effects, `react(request:...)` and `react(requests:...)`.
//
// One primitive underlies them all: a run gets a `send` function and may call it any number of
// times until it returns (E46-E48). The `effect:` forms send the one event the effect returns,
// the `effects:` forms every element of a sequence, and the `onError:` forms wrap the run in
// `catching`, so cancellation and failure are handled in one place for every shape.

extension Feedback {
    // MARK: One request

    /// Runs `run` for the request that `request` derives from the current state, and feeds back
    /// every event it sends, in order, while the request stays equal (E46).
    ///
    /// - `nil`: nothing runs (a running run is cancelled);
    /// - a value different (`!=`) from the running one: the old run is cancelled and its later
    ///   events dropped, even those already queued; a new run starts;
    /// - an equal value: the run is kept, and once it has returned it is not started again.
    ///
    /// ```swift
    /// .react(request: { $0.receipt }, run: { receipt, send in
    ///     for await status in courier.track(receipt) { send(.delivery(status)) }
    /// })
    /// ```
    @inlinable
    public static func react<Request: Equatable & Sendable>(
        request: @escaping @Sendable (State) -> Request?,
        run: @escaping @Sendable (Request, _ send: @escaping @Sendable (Event) -> Void) async -> Void
    ) -> Feedback {
        single(request: request, operation: run)
    }

    /// Like ``react(request:run:)``, for a run that can fail (E47): the events it sent before the
    /// failure are fed back, then the event `onError` makes of the run's request and the error,
    /// or none for `nil`. A failure never stops the system. A cancelled run sends nothing,
    /// whatever it threw.
    @inlinable
    public static func react<Request: Equatable & Sendable>(
        request: @escaping @Sendable (State) -> Request?,
        run: @escaping @Sendable (Request, _ send: @escaping @Sendable (Event) -> Void) async throws -> Void,
        onError: @escaping @Sendable (Request, any Error) -> Event?
    ) -> Feedback {
        react(request: request, run: catching(run, onError: onError))
    }

    /// Runs `effect` for the request that `request` derives from the current state, and feeds
    /// its event back into the system: ``react(request:run:)`` for an effect with one event.
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
        react(request: request, run: answering(effect))
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
        react(request: request, run: answering(effect), onError: { _, error in onError(error) })
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
        react(request: request, run: iterating(effects))
    }

    /// Like ``react(request:effects:)``, for a sequence that can fail: the events before the
    /// failure are fed back, then `onError` turns the error into a last event, or `nil` for none.
    @inlinable
    public static func react<Request: Equatable & Sendable, Events: AsyncSequence & Sendable>(
        request: @escaping @Sendable (State) -> Request?,
        effects: @escaping @Sendable (Request) -> Events,
        onError: @escaping @Sendable (any Error) -> Event?
    ) -> Feedback where Events.Element == Event {
        react(request: request, run: iterating(effects), onError: { _, error in onError(error) })
    }

    // MARK: A set of requests

    /// Runs one `run` per element of the requested set, and feeds back every event each sends
    /// (E48): elements that appear start a run, elements that disappear cancel theirs (their
    /// later events dropped, even those already queued), elements that stay keep their run, and
    /// an element whose run has returned is not run again while it stays in the set.
    @inlinable
    public static func react<Request: Hashable & Sendable>(
        requests: @escaping @Sendable (State) -> Set<Request>,
        run: @escaping @Sendable (Request, _ send: @escaping @Sendable (Event) -> Void) async -> Void
    ) -> Feedback {
        many(requests: requests, operation: run)
    }

    /// Like ``react(requests:run:)``, for a run that can fail (E48): per element, the events sent
    /// before the failure, then the event `onError` makes of that element and the error, or none
    /// for `nil`. A cancelled run sends nothing, whatever it threw.
    @inlinable
    public static func react<Request: Hashable & Sendable>(
        requests: @escaping @Sendable (State) -> Set<Request>,
        run: @escaping @Sendable (Request, _ send: @escaping @Sendable (Event) -> Void) async throws -> Void,
        onError: @escaping @Sendable (Request, any Error) -> Event?
    ) -> Feedback {
        react(requests: requests, run: catching(run, onError: onError))
    }

    /// Runs one `effect` per element of the requested set: elements that appear start a run,
    /// elements that disappear cancel theirs (late events dropped), elements that stay keep
    /// running.
    @inlinable
    public static func react<Request: Hashable & Sendable>(
        requests: @escaping @Sendable (State) -> Set<Request>,
        effect: @escaping @Sendable (Request) async -> Event
    ) -> Feedback {
        react(requests: requests, run: answering(effect))
    }

    /// Like ``react(requests:effect:)``, for an effect that can fail: `onError` turns the error
    /// into the event to send, or `nil` to send none.
    @inlinable
    public static func react<Request: Hashable & Sendable>(
        requests: @escaping @Sendable (State) -> Set<Request>,
        effect: @escaping @Sendable (Request) async throws -> Event,
        onError: @escaping @Sendable (any Error) -> Event?
    ) -> Feedback {
        react(requests: requests, run: answering(effect), onError: { _, error in onError(error) })
    }

    /// Like ``react(requests:effect:)``, with a sequence of events per element, each fed back as
    /// it comes, as ``react(request:effects:)`` does for one request (E48).
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
    @inlinable
    public static func react<Request: Hashable & Sendable, Events: AsyncSequence & Sendable>(
        requests: @escaping @Sendable (State) -> Set<Request>,
        effects: @escaping @Sendable (Request) -> Events
    ) -> Feedback where Events.Element == Event, Events.Failure == Never {
        react(requests: requests, run: iterating(effects))
    }

    /// Like ``react(requests:effects:)``, for sequences that can fail: per element, the events
    /// before the failure, then `onError` turns the error into a last event, or `nil` for none.
    @inlinable
    public static func react<Request: Hashable & Sendable, Events: AsyncSequence & Sendable>(
        requests: @escaping @Sendable (State) -> Set<Request>,
        effects: @escaping @Sendable (Request) -> Events,
        onError: @escaping @Sendable (any Error) -> Event?
    ) -> Feedback where Events.Element == Event {
        react(requests: requests, run: iterating(effects), onError: { _, error in onError(error) })
    }

    // MARK: The shapes, as runs

    /// A run that sends the one event `effect` returns. (No check for cancellation: the event
    /// of a cancelled run is dropped as stale, and asking the task costs more than the rare trip
    /// through the queue.)
    @inlinable
    static func answering<Request>(
        _ effect: @escaping @Sendable (Request) async -> Event
    ) -> @Sendable (Request, _ send: @escaping @Sendable (Event) -> Void) async -> Void {
        { request, send in send(await effect(request)) }
    }

    /// ``answering(_:)`` for an effect that can fail; the error goes to the caller.
    @inlinable
    static func answering<Request>(
        _ effect: @escaping @Sendable (Request) async throws -> Event
    ) -> @Sendable (Request, _ send: @escaping @Sendable (Event) -> Void) async throws -> Void {
        { request, send in send(try await effect(request)) }
    }

    /// A run that sends every element of the sequence `effects` makes, in order, until it ends
    /// or the run is cancelled.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
    @inlinable
    static func iterating<Request, Events: AsyncSequence & Sendable>(
        _ effects: @escaping @Sendable (Request) -> Events
    ) -> @Sendable (Request, _ send: @escaping @Sendable (Event) -> Void) async -> Void
    where Events.Element == Event, Events.Failure == Never {
        { request, send in
            for await event in effects(request) {
                if Task.isCancelled { return }
                send(event)
            }
        }
    }

    /// ``iterating(_:)`` for a sequence that can fail; the error goes to the caller.
    @inlinable
    static func iterating<Request, Events: AsyncSequence & Sendable>(
        _ effects: @escaping @Sendable (Request) -> Events
    ) -> @Sendable (Request, _ send: @escaping @Sendable (Event) -> Void) async throws -> Void
    where Events.Element == Event {
        { request, send in
            for try await event in effects(request) {
                if Task.isCancelled { return }
                send(event)
            }
        }
    }

    /// A run that never fails: after a failure of `run`, it sends the event `onError` makes of
    /// the request and the error, unless the run was cancelled (then it sends nothing, E18).
    @inlinable
    static func catching<Request>(
        _ run: @escaping @Sendable (Request, _ send: @escaping @Sendable (Event) -> Void) async throws -> Void,
        onError: @escaping @Sendable (Request, any Error) -> Event?
    ) -> @Sendable (Request, _ send: @escaping @Sendable (Event) -> Void) async -> Void {
        { request, send in
            do {
                try await run(request, send)
            } catch {
                if Task.isCancelled { return }
                if let event = onError(request, error) { send(event) }
            }
        }
    }
}
