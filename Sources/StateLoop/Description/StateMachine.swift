// StateMachine: what tests and tools know about a machine beyond running it. Generated machines
// conform; `StateLoopTesting`'s `MachineTest` drives any conforming type (a hand-written reducer
// may conform too), and transition coverage reads `transitions`. See Docs/Testing.md.
//
// Invariants:
// - Nothing in Description/ runs effects or holds a running system: these types describe a
//   machine (its branches, the runs and timers a state asks for, its paths) as plain values.
// - A branch's id is its index in `transitions`, the same in a trace, in coverage and in the
//   path table.

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

    /// Every `send:` pending in `state`, in the order they were sent (S127). A machine without
    /// `send:` has none (the default).
    static func sends(in state: State) -> [ArmedSend<Event>]

    /// Copies what only the reducer writes and no test states (entry counts, history records,
    /// queues, the one-shot runs, evaluated delays) from `source` into `state`.
    static func copyBookkeeping(from source: State, to state: inout State)

    /// Every branch of the spec, each with its YAML line: `transitions[id]` for an id of a trace.
    static var transitions: [TransitionInfo] { get }

    /// True once `state` is finished (a top-level final state): `reduce` changes nothing, and
    /// the harness fails a `send` to it (T4). Generated machines return `state.isDone`.
    static func isDone(_ state: State) -> Bool

    /// False when the last step did not settle: `always:` transitions were still enabled after
    /// 1,000 microsteps (Docs/Statecharts.md S51), which the harness fails (Docs/Testing.md V18).
    /// A machine without `always:` always settles (the default).
    static func isSettled(_ state: State) -> Bool

    /// The `context:` fields the spec marks `redact: true`: what leaves the process (the
    /// inspector's dumps) prints `<redacted>` for them (Docs/Inspector.md I21, I22).
    static var redactedFields: Set<String> { get }

    /// Every entry of the spec's `invariants:`, the machine's own first, then each state's in
    /// document order (Docs/Testing.md V4). A machine without any has none (the default).
    static var invariants: [InvariantInfo] { get }

    /// The invariants `state` breaks, in `invariants` order: the machine's own, and those of the
    /// states active in it (V4). A machine without invariants breaks none (the default).
    static func brokenInvariants(_ state: State) -> [InvariantInfo]
}

extension StateMachine {
    /// No field is redacted unless the spec says so.
    public static var redactedFields: Set<String> { [] }
}

extension StateMachine {
    /// No `always:`: every step settles.
    public static func isSettled(_ state: State) -> Bool { true }
}

extension StateMachine {
    /// No `send:`: nothing is ever pending.
    public static func sends(in state: State) -> [ArmedSend<Event>] { [] }
}
