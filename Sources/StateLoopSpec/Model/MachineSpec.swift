/// A decoded `.machine.yml`: the machine as the spec author wrote it, every element with its
/// source location. Produced by `SpecLoader`, consumed by the checks, the code generator and the
/// diagram renderers. Order is the order of the YAML file (the renderers sort where order is free).
public struct MachineSpec: Sendable {
    /// The path of the spec file, as given to the loader.
    public var file: String
    /// `machine:` — the Swift namespace (an enum) the generated code lives in.
    public var name: Located<String>
    /// `imports:` — modules the generated file imports besides `StateLoop`.
    public var imports: [Located<String>]
    /// `context:` — the data of the machine; fields of the generated `State`.
    public var context: [ContextField]
    /// `events:` — the ways to change state; cases of the generated `Event`.
    public var events: [EventSpec]
    /// Machine-wide `ignore:` — events that do nothing in every state that does not handle them.
    public var ignore: [Located<String>]
    /// `initial:` — the state the machine starts in.
    public var initial: Located<String>
    /// `states:` — the modes of the machine.
    public var states: [StateSpec]
    /// `effects:` — query-triggered effects; each becomes a feedback loop and a protocol method.
    public var effects: [EffectSpec]

    public init(
        file: String, name: Located<String>, imports: [Located<String>] = [],
        context: [ContextField] = [], events: [EventSpec] = [], ignore: [Located<String>] = [],
        initial: Located<String>, states: [StateSpec] = [], effects: [EffectSpec] = []
    ) {
        self.file = file
        self.name = name
        self.imports = imports
        self.context = context
        self.events = events
        self.ignore = ignore
        self.initial = initial
        self.states = states
        self.effects = effects
    }
}

/// A field of the machine's context: `search: {type: String, default: '""'}`.
public struct ContextField: Sendable {
    public var name: Located<String>
    /// A Swift type, verbatim (`[Repository]`, `URL?`).
    public var type: Located<String>
    /// A Swift expression, verbatim. `nil` only when the type is optional (the default is `nil`).
    public var defaultValue: Located<String>?

    public init(name: Located<String>, type: Located<String>, defaultValue: Located<String>?) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
    }
}

/// An event: `loaded: {repositories: "[Repository]", nextURL: URL?}`.
public struct EventSpec: Sendable {
    /// Who may send the event.
    public enum Source: Hashable, Sendable {
        /// Anyone: the user interface, the caller, an effect. Must be handled or ignored in every state.
        case anyone
        /// Only effects that list it in `emits` (`from: effects`). Must be handled wherever an
        /// emitting effect can run, and is ignored elsewhere without being written down.
        case effects
    }

    public var name: Located<String>
    /// Payload fields in declaration order; they become the associated values of the enum case.
    public var payload: [PayloadField]
    public var source: Source

    public init(name: Located<String>, payload: [PayloadField] = [], source: Source = .anyone) {
        self.name = name
        self.payload = payload
        self.source = source
    }
}

/// A payload field of an event: a label and a Swift type.
public struct PayloadField: Sendable {
    public var name: Located<String>
    public var type: Located<String>

    public init(name: Located<String>, type: Located<String>) {
        self.name = name
        self.type = type
    }
}

/// A state of the machine (a case of the generated `Mode`).
public struct StateSpec: Sendable {
    public var name: Located<String>
    /// `on:` — one handler per event, in YAML order.
    public var on: [EventHandler]
    /// `ignore:` — events that do nothing in this state, said out loud.
    public var ignore: [Located<String>]
    /// `after:` — timers that run while the state is active.
    public var after: [TimerSpec]
    /// `final: true` — the machine stops reacting here (reserved; v1 rejects it with a diagnostic
    /// until final states are implemented).
    public var isFinal: Bool
    /// Nested states (reserved for a later version; v1 rejects them with a diagnostic). Kept in
    /// the model so the grammar stays open.
    public var initial: Located<String>?
    public var states: [StateSpec]

    public init(
        name: Located<String>, on: [EventHandler] = [], ignore: [Located<String>] = [],
        after: [TimerSpec] = [], isFinal: Bool = false, initial: Located<String>? = nil,
        states: [StateSpec] = []
    ) {
        self.name = name
        self.on = on
        self.ignore = ignore
        self.after = after
        self.isFinal = isFinal
        self.initial = initial
        self.states = states
    }
}

/// `on: {event: transition}` or `on: {event: [guarded transitions..., ignore]}`.
public struct EventHandler: Sendable {
    /// The event name, at the key's location.
    public var event: Located<String>
    /// Tried in order; the first branch whose guard holds wins. A handler written as a single
    /// transition has one branch.
    public var branches: [Branch]

    public init(event: Located<String>, branches: [Branch]) {
        self.event = event
        self.branches = branches
    }
}

/// One branch of a handler or a timer.
public enum Branch: Sendable {
    /// A transition, possibly guarded.
    case transition(Transition)
    /// A bare `ignore`: the else branch that does nothing, at its location.
    case ignore(SourceLocation)

    /// Where the branch was written.
    public var location: SourceLocation {
        switch self {
        case .transition(let transition): transition.location
        case .ignore(let location): location
        }
    }

    /// True for a branch that always applies (an `ignore`, or a transition without `guard:`).
    public var isUnconditional: Bool {
        switch self {
        case .transition(let transition): transition.guardExpression == nil
        case .ignore: true
        }
    }
}

/// `{guard: "...", target: loading, set: {field: expression}}`.
public struct Transition: Sendable {
    /// Where the transition starts (the mapping, or the scalar for the short forms).
    public var location: SourceLocation
    /// A Swift `Bool` expression over the old state's fields and `event.x`.
    public var guardExpression: Located<String>?
    /// The state to go to; `nil` stays in the current state (an internal transition).
    public var target: Located<String>?
    /// `set:` assignments in YAML order, each evaluated against the old state.
    public var assignments: [Assignment]

    public init(
        location: SourceLocation, guardExpression: Located<String>? = nil,
        target: Located<String>? = nil, assignments: [Assignment] = []
    ) {
        self.location = location
        self.guardExpression = guardExpression
        self.target = target
        self.assignments = assignments
    }
}

/// `field: expression` inside `set:`.
public struct Assignment: Sendable {
    public var field: Located<String>
    /// A Swift expression over the old state's fields and `event.x`, verbatim.
    public var expression: Located<String>

    public init(field: Located<String>, expression: Located<String>) {
        self.field = field
        self.expression = expression
    }
}

/// `after: {5s: transition}` — a timer that fires once the state has been active that long.
public struct TimerSpec: Sendable {
    /// The delay as written (`5s`, `250ms`, `1.5s`, `2m`), at the key's location.
    public var delay: Located<String>
    /// The delay in milliseconds, parsed by the decoder.
    public var milliseconds: Int64
    /// Tried in order when the timer fires, like an event handler's branches.
    public var branches: [Branch]

    public init(delay: Located<String>, milliseconds: Int64, branches: [Branch]) {
        self.delay = delay
        self.milliseconds = milliseconds
        self.branches = branches
    }
}

/// A query-triggered effect: runs while the machine is in one of `states` and `request.value` is
/// not `nil`; a new request value restarts it; its results are the events in `emits`.
public struct EffectSpec: Sendable {
    public var name: Located<String>
    /// `in:` — the states in which the effect may run.
    public var states: [Located<String>]
    public var request: RequestSpec
    /// `emits:` — the events the effect may answer with.
    public var emits: [Located<String>]

    public init(name: Located<String>, states: [Located<String>], request: RequestSpec, emits: [Located<String>]) {
        self.name = name
        self.states = states
        self.request = request
        self.emits = emits
    }
}

/// `request: {type: URL, value: nextPageURL}`.
public struct RequestSpec: Sendable {
    /// The Swift type of a request (must be `Equatable & Sendable`).
    public var type: Located<String>
    /// A Swift expression over the state's fields, of type `type` or `type?` (`nil`: not running).
    public var value: Located<String>

    public init(type: Located<String>, value: Located<String>) {
        self.type = type
        self.value = value
    }
}
