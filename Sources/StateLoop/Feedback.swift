// Feedback: a description of one feedback loop; it runs once per started system instance.
//
// Invariants:
// - A `Feedback` is an immutable description: `makeLoop` makes a fresh loop for each instance, so
//   one value serves any number of instances.

/// One feedback loop of a ``System``: a query on the state that says which effect should run,
/// and the effect that turns a request into events.
///
/// A `Feedback` is only a description. Each ``System/start(onState:)-((State)->Void)`` creates its own running
/// loop from it, so one `Feedback` value can serve any number of independent instances.
/// Make one with ``react(request:effect:)``, ``react(request:run:)``,
/// ``react(request:run:onError:)``, their set forms (``react(requests:effect:)``, ...),
/// ``child(request:start:forwarded:output:sent:)``, ``timer(request:clock:delay:event:)`` or
/// ``runs(pending:effect:)``.
public struct Feedback<State: Sendable, Event: Sendable>: Sendable {
    /// Creates the running loop of one instance.
    @usableFromInline let makeLoop: @Sendable (EffectLauncher<Event>) -> FeedbackLoop<State>

    @inlinable
    init(makeLoop: @escaping @Sendable (EffectLauncher<Event>) -> FeedbackLoop<State>) {
        self.makeLoop = makeLoop
    }

    /// A loop with at most one running effect, for the current non-`nil` request.
    @inlinable
    static func single<Request: Equatable & Sendable>(
        request: @escaping @Sendable (State) -> Request?,
        operation: @escaping @Sendable (Request, @escaping @Sendable (Event) -> Void) async -> Void
    ) -> Feedback {
        Feedback { launcher in
            let loop = RequestLoop<State, Request, EffectRun>(
                request: request, start: { request in launcher.launch(request, operation) })
            return FeedbackLoop(observe: loop.observe, stop: loop.stop)
        }
    }

    /// A loop with at most one running effect, for the current non-`nil` request; `starting` is
    /// called synchronously when a new request is observed, with what a restored instance
    /// resumes with (`nil` in any other), and returns the effect's operation.
    @inlinable
    static func single<Request: Equatable & Sendable>(
        request: @escaping @Sendable (State) -> Request?,
        starting: @escaping @Sendable (Request, Resumption<Event>?) -> @Sendable (_ send: @escaping @Sendable (Event) -> Void) async -> Void
    ) -> Feedback {
        Feedback { launcher in
            let resume = launcher.resume
            let loop = RequestLoop<State, Request, EffectRun>(
                request: request,
                start: { request in
                    launcher.launch(starting(request, resume)) { operation, send in await operation(send) }
                })
            return FeedbackLoop(observe: loop.observe, stop: loop.stop)
        }
    }

    /// A loop with one running effect per element of the requested set.
    @inlinable
    static func many<Request: Hashable & Sendable>(
        requests: @escaping @Sendable (State) -> Set<Request>,
        operation: @escaping @Sendable (Request, @escaping @Sendable (Event) -> Void) async -> Void
    ) -> Feedback {
        Feedback { launcher in
            let loop = RequestSetLoop(requests: requests, start: { launcher.launch($0, operation) })
            return FeedbackLoop(observe: loop.observe, stop: loop.stop)
        }
    }
}
