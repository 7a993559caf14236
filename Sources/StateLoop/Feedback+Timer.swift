// Feedback+Timer: a timer encoded in state, as one more query-triggered effect.

extension Feedback {
    /// A timer as an effect: while `request` is non-`nil`, sends `event(request)` once, `delay`
    /// after the request appeared, as measured by `clock`.
    ///
    /// A different request value restarts the timer from zero; an equal one keeps it running;
    /// `nil` cancels it. Tests pass a manual clock and advance it instead of waiting.
    @inlinable
    public static func timer<Request: Equatable & Sendable, C: Clock>(
        request: @escaping @Sendable (State) -> Request?,
        clock: C,
        delay: @escaping @Sendable (Request) -> C.Duration,
        event: @escaping @Sendable (Request) -> Event
    ) -> Feedback {
        single(request: request) { request, send in
            do {
                try await clock.sleep(for: delay(request))
            } catch {
                return  // Cancelled: the request changed or went away.
            }
            if !Task.isCancelled { send(event(request)) }
        }
    }
}
