// Feedback+React: the query-triggered effects, `react(request:...)` and `react(requests:...)`.
//
// Invariants:
// - One primitive underlies every form: a run gets a `send` function and may call it any number
//   of times until it returns (E46-E48). `effect:` is the run that sends the one event its effect
//   returns; `onError:` wraps a run in `catching`, so cancellation and failure are handled in one
//   place.
// - Six forms, each with a meaning of its own: one request or a set of them (`request:`,
//   `requests:`), times one answer (`effect:`), any number of events (`run:`), or any number of
//   events and a failure (`run:onError:`). A sequence is a `run:` that iterates it; a failing
//   one-answer effect is a `run:onError:` that sends its answer.
// - A request's run is cancelled when the request changes or goes, and its later events are
//   dropped as stale (EffectRun), whatever the form.

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
