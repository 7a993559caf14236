/// A decoded `.machine.yml`: the machine as the spec author wrote it, every element with its
/// source location. Produced by `SpecLoader`, consumed by the checks, the code generator and the
/// diagram renderers. Order is the order of the YAML file (the renderers sort where order is free).
public struct MachineSpec: Sendable {
    /// The path of the spec file, as given to the loader.
    public var file: String
    /// Every top-level key written (`context:`, `states:`, ...), for errors "at the key".
    public var keys: [Located<String>] = []
    /// `machine:` — the Swift namespace (an enum) the generated code lives in.
    public var name: Located<String>
    /// `imports:` — modules the generated file imports besides `StateLoop`.
    public var imports: [Located<String>]
    /// `context:` — the data of the machine; fields of the generated `State`.
    public var context: [ContextField]
    /// `events:` — the ways to change state; cases of the generated `Event`.
    public var events: [EventSpec]
    /// Machine-wide `on:` — handlers every state inherits (the outermost ones).
    public var on: [EventHandler]
    /// Machine-wide `ignore:` — events that do nothing in every state that does not handle them.
    /// An entry may name a group of `groups:` (S100).
    public var ignore: [Located<String>]
    /// `groups:` — named groups of events, which `ignore:` lists may name (S100–S104).
    public var groups: [EventGroup]
    /// `initial:` — the state the machine starts in (the first of a list).
    public var initial: Located<String>
    /// `initial:` written as a list (S140): every state it names, one per region of the parallel
    /// states they lie in; `nil` for a single name.
    public var initialTargets: [Located<String>]?
    /// `states:` — the top-level states of the machine; nested states are in each state's `states`.
    public var states: [StateSpec]
    /// `effects:` — query-triggered and one-shot effects; each becomes a protocol method.
    public var effects: [EffectSpec]
    /// `input:` — what the machine is started with (E21); only `default:` expressions read it.
    public var input: [PayloadField]
    /// `delays:` — named timer delays, Swift `Duration` expressions of the state (E35).
    public var delays: [Assignment]
    /// `persist:` — the machine is durable: its states and events are journaled (Docs/Durability.md);
    /// `nil` when the spec does not persist.
    public var persist: PersistSpec?
    /// `invariants:` at the top level — what must hold after every step (Docs/Testing.md V1).
    public var invariants: [InvariantSpec] = []

    public init(
        file: String, name: Located<String>, imports: [Located<String>] = [],
        context: [ContextField] = [], events: [EventSpec] = [], on: [EventHandler] = [], ignore: [Located<String>] = [],
        initial: Located<String>, states: [StateSpec] = [], effects: [EffectSpec] = [],
        input: [PayloadField] = [], delays: [Assignment] = [], groups: [EventGroup] = [], persist: PersistSpec? = nil
    ) {
        self.groups = groups
        self.input = input
        self.delays = delays
        self.persist = persist
        self.file = file
        self.name = name
        self.imports = imports
        self.context = context
        self.events = events
        self.on = on
        self.ignore = ignore
        self.initial = initial
        self.states = states
        self.effects = effects
    }
}

/// `persist: true` or `persist: {version: N}`: the machine's states and events are journaled, and
/// read back by a later run of the same or a newer version (Docs/Durability.md, D20).
public struct PersistSpec: Hashable, Sendable {
    /// The persisted version, 1 or more (`persist: true` is version 1); it is written with every
    /// journal record.
    public var version: Int
    /// Where the `persist:` key is written.
    public var location: SourceLocation
    /// Where the version is written (`true`, or the value of `version:`): D52 reports there.
    public var versionLocation: SourceLocation
    /// `migrations:`: how a journal of each older locked version is read (D55), in YAML order.
    public var migrations: [Migration]

    public init(version: Int, location: SourceLocation, versionLocation: SourceLocation? = nil, migrations: [Migration] = []) {
        self.version = version
        self.location = location
        self.versionLocation = versionLocation ?? location
        self.migrations = migrations
    }
}

/// A group of `groups:`: `segments: [syn, ack, fin]`. An `ignore:` that names it ignores each of
/// its events (S100).
public struct EventGroup: Sendable {
    public var name: Located<String>
    /// The events of the group, as written.
    public var events: [Located<String>]

    public init(name: Located<String>, events: [Located<String>]) {
        self.name = name
        self.events = events
    }
}

/// A field of the machine's context: `search: {type: String, default: '""'}`.
public struct ContextField: Sendable {
    public var name: Located<String>
    /// A Swift type, verbatim (`[Repository]`, `URL?`).
    public var type: Located<String>
    /// A Swift expression, verbatim. `nil` only when the type is optional (the default is `nil`).
    public var defaultValue: Located<String>?
    /// `redact: true`: a secret that no dump leaving the process shows (Docs/Inspector.md I21).
    public var redact: Bool

    public init(name: Located<String>, type: Located<String>, defaultValue: Located<String>?, redact: Bool = false) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.redact = redact
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

/// A state of the machine: a leaf, a composite (it has `states:`), a parallel state, a final
/// state or a history pseudo-state (Docs/Statecharts.md).
public struct StateSpec: Sendable {
    /// What kind of state `type:` made it.
    public enum Kind: Hashable, Sendable {
        /// No `type:`: a leaf, or a composite when it has `states:`.
        case normal
        /// `type: parallel`: its children are regions, all active at once.
        case parallel
        /// `type: final`: entering it completes its parent (or, at the top level, the machine).
        case final
        /// `type: history`: targeting it re-enters its parent's last configuration.
        case history(deep: Bool)
    }

    public var name: Located<String>
    public var kind: Kind
    /// The `type:` value, where one is written.
    public var type: Located<String>?
    /// Every key written in the state's body, for errors "at the key".
    public var keys: [Located<String>]
    /// `on:` — one handler per event, in YAML order.
    public var on: [EventHandler]
    /// `ignore:` — events that do nothing in this state, said out loud; an entry may name a group
    /// of `groups:` (S100).
    public var ignore: [Located<String>]
    /// `after:` — timers that run while the state is active.
    public var after: [TimerSpec]
    /// `initial:` — the child entered when the state is entered (composites); the first state of a list.
    public var initial: Located<String>?
    /// `initial:` written as a list (S140): descendants entered together, one per region of the
    /// parallel states they lie in; `nil` for a single name.
    public var initialTargets: [Located<String>]?
    /// `states:` — the children, in YAML order.
    public var states: [StateSpec]
    /// `entry:` and `exit:` — actions run when the state is entered and exited.
    public var entry: [Action]
    public var exit: [Action]
    /// `always:` — eventless branches, tried after every step that took a branch.
    public var always: [Branch]
    /// `onDone:` — branches tried when the state's final child (every region's) is entered.
    public var onDone: [Branch]
    /// `target:` of a history state: the default when nothing is recorded yet.
    public var historyTarget: Located<String>?
    /// `output:` of a top-level final state: what the machine ends with (E22); of a final state
    /// inside a composite, the payload of its `doneEvent:` (S160).
    public var output: [OutputField]
    /// `doneEvent:` of a final state inside a composite: the declared event its parent's `onDone:`
    /// reads as `trigger`, its fields copied by name from `output:` (S160, S161).
    public var doneEvent: Located<String>?
    /// The actions of the state's default entry (S144): `do:` of a composite's `initial: {target:,
    /// do:}`, run when its `initial:` is read, or of a history state's `default: {target:, do:}`,
    /// run when nothing recorded is restored (S145, S146).
    public var defaultActions: [Action] = []
    /// `invariants:` — what must hold after every step while the state is active (Docs/Testing.md V1).
    public var invariants: [InvariantSpec] = []

    public init(
        name: Located<String>, kind: Kind = .normal, type: Located<String>? = nil, keys: [Located<String>] = [],
        on: [EventHandler] = [], ignore: [Located<String>] = [], after: [TimerSpec] = [],
        initial: Located<String>? = nil, states: [StateSpec] = [], entry: [Action] = [], exit: [Action] = [],
        always: [Branch] = [], onDone: [Branch] = [], historyTarget: Located<String>? = nil, output: [OutputField] = []
    ) {
        self.output = output
        self.name = name
        self.kind = kind
        self.type = type
        self.keys = keys
        self.on = on
        self.ignore = ignore
        self.after = after
        self.initial = initial
        self.states = states
        self.entry = entry
        self.exit = exit
        self.always = always
        self.onDone = onDone
        self.historyTarget = historyTarget
    }

    /// True for `type: final`.
    public var isFinal: Bool { kind == .final }
    /// True for `type: history`.
    public var isHistory: Bool {
        if case .history = kind { return true }
        return false
    }

    /// Where key `name` is written in the body, if it is.
    public func key(_ name: String) -> Located<String>? {
        keys.first { $0.value == name }
    }
}

/// An action of `entry:`, `exit:` or a transition's `do:`.
public enum Action: Sendable {
    /// `{set: {field: expression}}`: all values computed first, then assigned.
    case set([Assignment], at: SourceLocation)
    /// `{run: effect, request: expression}`: queues one run of a one-shot effect.
    case run(effect: Located<String>, request: Located<String>?, at: SourceLocation)
    /// `{if: condition, then: [actions], else: [actions]}` (S106).
    case conditional(ConditionalAction)
    /// `{raise: event}` or `{raise: {event: name, field: expression}}`: puts the event on the
    /// machine's internal queue (S120); `payload` gives each payload field of the event.
    case raise(event: Located<String>, payload: [Assignment], at: SourceLocation)
    /// `{send: {event: name, delay: 5s, id: retry, field: expression}}`: the event comes back to
    /// the machine as an external event after the delay (S126).
    case send(SendAction)
    /// `{cancel: id}`: drops the pending sends with that id (S130).
    case cancel(id: Located<String>, at: SourceLocation)
    /// `{send: {event: name, to: parent, field: expression}}`: the event goes to the machine that
    /// runs this one as a child (Docs/Effects.md E70); `payload` gives each payload field.
    case sendToParent(event: Located<String>, payload: [Assignment], at: SourceLocation)
    /// `{foreach: {in: array, item: field, index: field, do: [actions]}}`: runs the actions once
    /// per element (S170).
    case foreach(ForeachAction)

    /// Where the action was written.
    public var location: SourceLocation {
        switch self {
        case .set(_, let location), .run(_, _, let location), .raise(_, _, let location), .cancel(_, let location), .sendToParent(_, _, let location): location
        case .conditional(let conditional): conditional.location
        case .send(let send): send.location
        case .foreach(let loop): loop.location
        }
    }
}

/// `{send: {event: name, delay: 5s, id: retry, field: expression}}` (S126–S131): the event and
/// its payload, computed when the action runs, come back to the machine after the delay.
public struct SendAction: Sendable {
    public var event: Located<String>
    /// Each payload field of the event, as `raise:` gives them (S124).
    public var payload: [Assignment]
    /// `delay:` as written (`5s`, or the name of one of `delays:`); `nil`: no delay.
    public var delay: Located<String>?
    /// The delay in milliseconds, parsed by the decoder; `nil` for a named delay, 0 without `delay:`.
    public var milliseconds: Int64?
    /// `id:`, which `cancel:` names; `nil` when the send has none.
    public var id: Located<String>?
    public var location: SourceLocation

    public init(event: Located<String>, payload: [Assignment], delay: Located<String>?, milliseconds: Int64?, id: Located<String>?, at location: SourceLocation) {
        self.event = event
        self.payload = payload
        self.delay = delay
        self.milliseconds = milliseconds
        self.id = id
        self.location = location
    }
}

/// `{foreach: {in: array, item: field, index: field, do: [actions]}}` (S170–S174): the array is
/// read once when the action runs; for each element, in order, `item` is assigned the element
/// and `index` its position, then `actions` run.
public struct ForeachAction: Sendable {
    /// A Swift expression of an array of the item field's type.
    public var array: Located<String>
    /// The context field each element is assigned to.
    public var item: Located<String>
    /// The `Int` context field each position (from 0) is assigned to; `nil` when left out.
    public var index: Located<String>?
    /// `do:`; empty when it is left out.
    public var actions: [Action]
    /// Where the action starts.
    public var location: SourceLocation

    public init(array: Located<String>, item: Located<String>, index: Located<String>?, actions: [Action], at location: SourceLocation) {
        self.array = array
        self.item = item
        self.index = index
        self.actions = actions
        self.location = location
    }
}

/// `{if: condition, then: [actions], else: [actions]}`: runs `then` when `condition` holds on the
/// state as it is when the action runs, else `otherwise` (S106, S107).
public struct ConditionalAction: Sendable {
    /// A Swift `Bool` expression, like a guard.
    public var condition: Located<String>
    public var then: [Action]
    /// `else:`; empty when it is left out.
    public var otherwise: [Action]
    /// Where the action starts.
    public var location: SourceLocation

    public init(condition: Located<String>, then: [Action], otherwise: [Action] = [], at location: SourceLocation) {
        self.condition = condition
        self.then = then
        self.otherwise = otherwise
        self.location = location
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
    /// `set:` assignments in YAML order, all computed before any is assigned.
    public var assignments: [Assignment]
    /// `do:` actions, run after `set:`.
    public var actions: [Action]
    /// `reenter: true`, where written: the source is exited and re-entered even when the target
    /// lies inside it (S115); `nil` for `reenter: false` or none.
    public var reenter: SourceLocation?

    public init(
        location: SourceLocation, guardExpression: Located<String>? = nil,
        target: Located<String>? = nil, assignments: [Assignment] = [], actions: [Action] = []
    ) {
        self.location = location
        self.guardExpression = guardExpression
        self.target = target
        self.assignments = assignments
        self.actions = actions
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

/// An entry of `invariants:`, `name: "Swift Bool expression"`: what must hold of the state after
/// every step while its state is active (the machine's own: always; Docs/Testing.md V1).
public struct InvariantSpec: Sendable {
    /// The invariant's name, unique in the machine: what a failure names.
    public var name: Located<String>
    /// A Swift `Bool` expression over the state's fields (bare names) and `isIn(...)`, verbatim.
    public var expression: Located<String>

    public init(name: Located<String>, expression: Located<String>) {
        self.name = name
        self.expression = expression
    }
}

/// `after: {5s: transition}` — a timer that fires once the state has been active that long.
public struct TimerSpec: Sendable {
    /// The delay as written (`5s`, `250ms`, `1.5s`, `2m`), or the name of one of `delays:`
    /// (`backoff`), at the key's location.
    public var delay: Located<String>
    /// The delay in milliseconds, parsed by the decoder; `nil` for a named delay (E36).
    public var milliseconds: Int64?
    /// Tried in order when the timer fires, like an event handler's branches.
    public var branches: [Branch]

    public init(delay: Located<String>, milliseconds: Int64?, branches: [Branch]) {
        self.delay = delay
        self.milliseconds = milliseconds
        self.branches = branches
    }
}

/// An effect. A query-triggered one (with `in:`) runs while the machine is in one of `states` and
/// `request.value` is not `nil`, and a new request value restarts it. A one-shot one (no `in:`)
/// runs once per `run:` action. Its results are the events in `emits`.
public struct EffectSpec: Sendable {
    public var name: Located<String>
    /// `in:` — the states in which the effect may run; `nil` for a one-shot effect.
    public var states: [Located<String>]?
    /// `request:`; a one-shot effect may leave it out (its method then takes no argument).
    public var request: RequestSpec?
    /// `emits:` — the events the effect may answer with; none: fire-and-forget.
    public var emits: [Located<String>]
    /// True for `requests:` (one run per element of a set, E8) instead of `request:`.
    public var isSet: Bool
    /// `stream: true`: any number of results per run (E4).
    public var isStream: Bool
    /// `onError:` — the event a failure becomes (E15).
    public var onError: Located<String>?
    /// `machine:` and its keys: the effect is a child machine (E23).
    public var child: ChildMachine?
    /// `afterRestart:` of a one-shot effect, at its key (Docs/Durability.md D44); `nil`: `rerun`.
    public var afterRestart: Located<AfterRestart>?

    public init(
        name: Located<String>, states: [Located<String>]?, request: RequestSpec?, emits: [Located<String>],
        isSet: Bool = false, isStream: Bool = false, onError: Located<String>? = nil, child: ChildMachine? = nil,
        afterRestart: Located<AfterRestart>? = nil
    ) {
        self.name = name
        self.states = states
        self.request = request
        self.emits = emits
        self.isSet = isSet
        self.isStream = isStream
        self.onError = onError
        self.child = child
        self.afterRestart = afterRestart
    }

    /// True for an effect without `in:`, started only by `run:` actions.
    public var isOneShot: Bool { states == nil }
    /// The states of `in:` (none for a one-shot effect).
    public var runningStates: [Located<String>] { states ?? [] }
    /// Every event the effect may feed back: `emits:`, `onError:`, the events of `onDone:` and
    /// those of `events:` (E20, E31, E73), each once, in that order.
    public var results: [Located<String>] {
        var seen: Set<String> = []
        let child = (child?.onDone.map(\.to) ?? []) + (child?.events.map(\.to) ?? [])
        return (emits + (onError.map { [$0] } ?? []) + child).filter { seen.insert($0.value).inserted }
    }
}

/// What a restart does with a run of a one-shot effect that was queued and not known finished
/// (Docs/Durability.md D44–D46).
public enum AfterRestart: String, Sendable {
    /// It runs again, with its number as its key: at least once (the default, D37).
    case rerun
    /// It is dropped and never runs: at most once.
    case drop
}

/// `machine: Payment` with its `input:`, `forward:`, `events:` and `onDone:` (E23–E31, E71).
public struct ChildMachine: Sendable {
    /// The child machine's name (its `machine:`), at the value.
    public var machine: Located<String>
    /// `input:` — one expression of the parent's state per input field of the child.
    public var input: [Assignment]
    /// Where `input:` is written, if it is.
    public var inputKey: Located<String>?
    /// `forward:` — parent event -> child event.
    public var forward: [NameMapping]
    /// `onDone:` — the child's top-level final state -> parent event.
    public var onDone: [NameMapping]
    /// Where `onDone:` is written, if it is.
    public var onDoneKey: Located<String>?
    /// `events:` — the child's event it sends to its parent -> parent event (E71).
    public var events: [NameMapping]
    /// Where `events:` is written, if it is.
    public var eventsKey: Located<String>?

    public init(
        machine: Located<String>, input: [Assignment] = [], inputKey: Located<String>? = nil,
        forward: [NameMapping] = [], onDone: [NameMapping] = [], onDoneKey: Located<String>? = nil,
        events: [NameMapping] = [], eventsKey: Located<String>? = nil
    ) {
        self.machine = machine
        self.input = input
        self.inputKey = inputKey
        self.forward = forward
        self.onDone = onDone
        self.onDoneKey = onDoneKey
        self.events = events
        self.eventsKey = eventsKey
    }
}

/// One entry of `forward:`, `onDone:` or `events:`: `cancel: abort`.
public struct NameMapping: Sendable {
    public var from: Located<String>
    public var to: Located<String>

    public init(from: Located<String>, to: Located<String>) {
        self.from = from
        self.to = to
    }
}

/// A field of a final state's `output:`: `receipt: {type: String, value: receipt}` (E22).
public struct OutputField: Sendable {
    public var name: Located<String>
    public var type: Located<String>
    /// A Swift expression over the finished state's fields.
    public var value: Located<String>

    public init(name: Located<String>, type: Located<String>, value: Located<String>) {
        self.name = name
        self.type = type
        self.value = value
    }
}

/// `request: {type: URL, value: nextPageURL}`.
public struct RequestSpec: Sendable {
    /// The Swift type of a request (must be `Equatable & Sendable`).
    public var type: Located<String>
    /// A Swift expression over the state's fields, of type `type` or `type?` (`nil`: not running).
    /// `nil` for a one-shot effect, whose `run:` actions give the request.
    public var value: Located<String>?

    public init(type: Located<String>, value: Located<String>?) {
        self.type = type
        self.value = value
    }
}
