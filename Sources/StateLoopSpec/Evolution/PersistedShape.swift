// PersistedShape: what a journal of one version of a spec holds, by name and type: the state tree,
// the context fields, the events with their payloads and the one-shot runs (Docs/Durability.md,
// D50–D52). The lock file keeps one per shipped version; the evolution check compares the
// latest one with the spec's own.

/// The persisted shape of one version of a machine: every name a journal record can hold, with
/// the kind or type it was saved with, in the order of the spec.
public struct PersistedShape: Equatable, Sendable {
    /// A state, with its kind and its parent (`nil` at the top level).
    public struct State: Equatable, Sendable {
        public var name: String
        public var kind: Kind
        public var parent: String?

        public init(name: String, kind: Kind, parent: String?) {
            self.name = name
            self.kind = kind
            self.parent = parent
        }
    }

    /// What a state is; a journal saves a configuration of states, so a changed kind changes what
    /// a saved configuration means.
    public enum Kind: String, CaseIterable, Sendable {
        case leaf
        case composite
        case parallel
        case final
        case shallowHistory = "shallow history"
        case deepHistory = "deep history"
    }

    /// A named Swift type: a context field, or a payload field of an event.
    public struct Field: Equatable, Sendable {
        public var name: String
        /// The type as written, with spaces only where Swift needs them (`[String: Int]` ->
        /// `[String:Int]`), so that respacing a type is no change.
        public var type: String

        public init(name: String, type: String) {
            self.name = name
            self.type = PersistedShape.normalized(type)
        }
    }

    /// An event and its payload, in order.
    public struct Event: Equatable, Sendable {
        public var name: String
        public var payload: [Field]

        public init(name: String, payload: [Field]) {
            self.name = name
            self.payload = payload
        }
    }

    /// A one-shot effect (no `in:`): a saved state holds the runs it queued, with their requests.
    public struct Run: Equatable, Sendable {
        public var name: String
        /// The request's type; `nil` for an effect without a request.
        public var request: String?

        public init(name: String, request: String?) {
            self.name = name
            self.request = request.map(PersistedShape.normalized)
        }
    }

    public var states: [State]
    public var context: [Field]
    public var events: [Event]
    public var runs: [Run]

    public init(states: [State], context: [Field], events: [Event], runs: [Run]) {
        self.states = states
        self.context = context
        self.events = events
        self.runs = runs
    }

    /// The shape of `spec` as it is written now.
    public init(_ spec: MachineSpec) {
        var states: [State] = []
        func add(_ state: StateSpec, parent: String?) {
            let kind: Kind = switch state.kind {
            case .parallel: .parallel
            case .final: .final
            case .history(let deep): deep ? .deepHistory : .shallowHistory
            case .normal: state.states.isEmpty ? .leaf : .composite
            }
            states.append(State(name: state.name.value, kind: kind, parent: parent))
            for child in state.states { add(child, parent: state.name.value) }
        }
        // Nesting is bounded by the reader's depth limit, so recursion is safe here.
        for state in spec.states { add(state, parent: nil) }
        self.init(
            states: states,
            context: spec.context.map { Field(name: $0.name.value, type: $0.type.value) },
            events: spec.events.map { event in
                Event(name: event.name.value, payload: event.payload.map { Field(name: $0.name.value, type: $0.type.value) })
            },
            runs: spec.effects.filter(\.isOneShot).map { Run(name: $0.name.value, request: $0.request?.type.value) })
    }

    /// `type` with every run of spaces made one, and none beside punctuation: `[ String : Int ]`
    /// and `[String: Int]` are one type, `any Error` keeps its space.
    static func normalized(_ type: String) -> String {
        var result = ""
        var pendingSpace = false
        for character in type {
            if character.isWhitespace {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace, let last = result.last, isWordCharacter(last), isWordCharacter(character) {
                result.append(" ")
            }
            pendingSpace = false
            result.append(character)
        }
        return result
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }
}

extension PersistedShape.Kind {
    /// "a leaf", "a composite state", ... for messages.
    var described: String {
        switch self {
        case .leaf: "a leaf"
        case .composite: "a composite state"
        case .parallel: "a parallel state"
        case .final: "a final state"
        case .shallowHistory: "a shallow history state"
        case .deepHistory: "a deep history state"
        }
    }
}
