// ArmedSend: a `send:` of a generated machine waiting for its delay (Docs/Statecharts.md
// S126-S135), as tests and the durable system see it, and the request of the feedback that
// delivers it.

/// A pending `send:` of a machine's state: the event it carries, its delay counted from the step
/// that sent it, and the event that delivers it (`._send(number)`), which the system's clock, or
/// a test's `advance(by:)`, feeds back when the delay has passed.
public struct ArmedSend<Event: Equatable & Sendable>: Equatable, Sendable {
    /// Its number: how many sends ran before it since the start.
    public var number: Int
    /// Its `id:`, which `cancel:` names.
    public var id: String?
    public var delay: Duration
    /// The event it carries.
    public var event: Event
    /// The event that delivers it: `reduce` takes the carried event's step.
    public var delivery: Event

    public init(number: Int, id: String?, delay: Duration, event: Event, delivery: Event) {
        self.number = number
        self.id = id
        self.delay = delay
        self.event = event
        self.delivery = delivery
    }
}

/// What the feedback of a machine's pending sends keys its timers by
/// (``Feedback/timers(requests:clock:delay:event:)``): a send's number and delay.
public struct SendTimer: Hashable, Sendable {
    public var number: Int
    public var delay: Duration

    public init(number: Int, delay: Duration) {
        self.number = number
        self.delay = delay
    }
}
