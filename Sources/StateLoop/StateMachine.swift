// StateMachine: what tests and tools know about a machine beyond running it. Generated machines
// conform; `StateLoopTesting`'s `MachineTest` drives any conforming type (a hand-written reducer
// may conform too), and transition coverage reads `transitions`. See Docs/Testing.md.

/// A machine described for tests and tools: its reducer with a trace of the spec's branches it
/// takes, the effect runs and timers a state asks for, and every branch of its spec.
///
/// Nothing here runs effects: a state *asks* for runs (effects are data in the state), and a
/// test harness decides what each run answers.
public protocol StateMachine {
    associatedtype State: Equatable & Sendable
    associatedtype Event: Equatable & Sendable
    /// One run of an effect with its request, as the generated `Call` spells it: `.load(url)`.
    associatedtype Call: Equatable & Sendable
    /// The name of every state, as `State.isIn(_:)` takes it.
    associatedtype StateName: Hashable & Sendable

    /// The spec's file name and machine name, for messages: `GitHubSearch.machine.yml`.
    static var specFile: String { get }

    /// `reduce`, telling `trace` the index (into `transitions`) of every branch it takes.
    static func reduce(_ state: inout State, _ event: Event, trace: inout TransitionTrace)

    /// Every run `state` asks for, in `effects:` order: one per effect that runs with its
    /// request, one per element of a set, and the one-shot runs the last step started.
    static func runs(in state: State) -> [EffectRequest<Call>]

    /// What `event` is to `call`'s run: one of its results or not.
    static func result(_ event: Event, of call: Call) -> EffectResultKind?

    /// Every `after:` timer armed in `state`.
    static func timers(in state: State) -> [ArmedTimer<StateName, Event>]

    /// Copies what only the reducer writes and no test states (entry counts, history records,
    /// queues, the one-shot runs, evaluated delays) from `source` into `state`.
    static func copyBookkeeping(from source: State, to state: inout State)

    /// Every branch of the spec, each with its YAML line: `transitions[id]` for an id of a trace.
    static var transitions: [TransitionInfo] { get }

    /// True once `state` is finished (a top-level final state): `reduce` changes nothing, and
    /// the harness fails a `send` to it (T4). Generated machines return `state.isDone`.
    static func isDone(_ state: State) -> Bool
}

/// The ids of the branches a step took, in the order taken, or handed on one by one.
public struct TransitionTrace: Sendable {
    /// The ids taken so far (empty when the trace hands them on).
    public private(set) var taken: [Int] = []
    private let handOn: (@Sendable (Int) -> Void)?

    /// A trace that collects the ids in `taken`.
    public init() { handOn = nil }

    /// A trace that calls `handOn` with each id as it is taken and keeps none: a running
    /// system's hook, which then allocates nothing per step.
    public init(handingOn handOn: @escaping @Sendable (Int) -> Void) { self.handOn = handOn }

    /// Records branch `id` as taken (what a hand-written `reduce(_:_:trace:)` calls).
    public mutating func take(_ id: Int) {
        if let handOn { handOn(id) } else { taken.append(id) }
    }
}

/// What a generated reducer tells, as it takes each branch, the id of the branch: every method of
/// the reducer is generic over it. `reduce(_:_:)` passes `_NoTrace`, whose `take` is empty, so
/// that once specialised the reducer is the code it was without tracing; `reduce(_:_:trace:)`
/// passes a `TransitionTrace`.
public protocol _TransitionRecorder {
    mutating func take(_ id: Int)
}

extension TransitionTrace: _TransitionRecorder {}

/// The recorder of an untraced `reduce`: records nothing, costs nothing.
///
/// It stores one byte it never reads. A zero-sized value has no address of its own, and
/// ThreadSanitizer instruments the `inout` access of a generic reducer to one at whatever address
/// it is given: two reducers on two threads then "race" on that address, or TSan dies reading it
/// (swiftlang/swift#35579 skips only types known to be empty where the access is compiled). A
/// stored byte gives every `_NoTrace` its own stack slot; once specialised it costs nothing.
@frozen public struct _NoTrace: _TransitionRecorder {
    @usableFromInline var _slot: Swift.UInt8 = 0
    @inlinable public init() {}
    @inlinable @inline(__always) public mutating func take(_ id: Int) {}
}

/// One branch of a spec: a guarded or plain transition, an `ignore`, an `always:`, `after:` or
/// `onDone:` branch, with where it is written.
public struct TransitionInfo: Hashable, Sendable, CustomStringConvertible {
    /// Its index in `StateMachine.transitions`.
    public var id: Int
    /// Where the branch is written in the spec, 1-based.
    public var line: Int
    public var column: Int
    /// `paused --play--> playing`, `idle --scrolledNearBottom--> (ignored)`, `failed --after 5s--> loading`.
    public var description: String

    public init(id: Int, line: Int, column: Int, description: String) {
        self.id = id
        self.line = line
        self.column = column
        self.description = description
    }

    /// The table a generated machine declares as one string, `LINE:COLUMN description` a line,
    /// ids counted from 0: swiftc compiles a string in no time, and an array literal of thousands
    /// of values in minutes.
    public static func table(_ text: String) -> [TransitionInfo] {
        text.split(separator: "\n").enumerated().map { id, line in
            let place = line.prefix { $0 != " " }
            let numbers = place.split(separator: ":").map { Int($0) ?? 0 }
            return TransitionInfo(
                id: id, line: numbers.first ?? 0, column: numbers.dropFirst().first ?? 0,
                description: String(line.dropFirst(place.count + 1)))
        }
    }
}

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
