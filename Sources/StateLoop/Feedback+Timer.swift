// Feedback+Timer: a timer encoded in state, as one more query-triggered effect.

extension Feedback {
    /// A timer as an effect: while `request` is non-`nil`, sends `event(request)` once, `delay`
    /// after the request appeared, as measured by `clock`.
    ///
    /// The deadline is read from `clock` when the request is observed: synchronously, as the
    /// state that carries it is delivered to this feedback, before any later event is reduced.
    /// The timer's task then sleeps until that deadline, so a task that starts late (a busy
    /// thread pool) does not make the timer late, and a manual clock may be advanced as soon as
    /// `send` returns.
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
        single(request: request, starting: { request in
            // Now: the request is being observed.
            let deadline = clock.now.advanced(by: delay(request))
            return { send in
                do {
                    try await clock.sleep(until: deadline, tolerance: nil)
                } catch {
                    return  // Cancelled: the request changed or went away.
                }
                if !Task.isCancelled { send(event(request)) }
            }
        })
    }
}
