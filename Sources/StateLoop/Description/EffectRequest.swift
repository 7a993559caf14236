// EffectRequest: the runs and timers a state asks for, as data a test harness answers.
//
// Invariants:
// - These are descriptions: making one starts nothing. A running system starts effects through
//   its feedbacks; a harness (`MachineTest`) compares what a state asks for with what a test says.

/// A run a state asks for: the call (effect and request) and how its run answers.
public struct EffectRequest<Call: Equatable & Sendable>: Equatable, Sendable {
    /// How a run of an effect ends.
    public enum Shape: Equatable, Sendable {
        /// One result (or its failure) ends the run: a request, an element of a set, a child machine.
        case answer
        /// Results until the stream finishes or fails.
        case stream
        /// Sends nothing; the run ends when it returns.
        case fireAndForget
    }

    public var call: Call
    public var shape: Shape
    /// True for a one-shot run (an effect without `in:`), which no state change stops.
    public var isOneShot: Bool

    public init(call: Call, shape: Shape, isOneShot: Bool = false) {
        self.call = call
        self.shape = shape
        self.isOneShot = isOneShot
    }
}

/// What an event is to the run of an effect.
public enum EffectResultKind: Equatable, Sendable {
    /// A result (`emits:`, `onDone:`); the run ends after it unless it is a stream.
    case result
    /// Its `onError:` event: the run ends.
    case failure
    /// An event a child machine sends its parent while it runs (`events:`, Docs/Effects.md E76):
    /// the run goes on.
    case message
}

/// An `after:` timer armed in a state: where, its delay, and the event it sends when it fires.
/// Two arming are the same timer when their events are equal (the event carries the entry count).
public struct ArmedTimer<StateName: Hashable & Sendable, Event: Equatable & Sendable>: Equatable, Sendable {
    public var state: StateName
    /// Its position in the state's `after:`.
    public var index: Int
    public var delay: Duration
    public var event: Event

    public init(state: StateName, index: Int, delay: Duration, event: Event) {
        self.state = state
        self.index = index
        self.delay = delay
        self.event = event
    }
}

/// The `Call` of a machine without effects: a type no one can make a value of, so no run exists.
/// (Not `Never`: a function taking `Never` draws "will never be executed" on its body.)
public struct NoCall: Equatable, Sendable {
    private init() {}
}
