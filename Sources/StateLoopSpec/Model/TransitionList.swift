// TransitionList: every branch of a spec, numbered once, so that the generated reducer's trace
// (`_trace.take(id)`), the generated `transitions` table, `stateloop coverage` and
// `stateloop paths` all name a branch the same way: by its id, its YAML line and its text.

/// One branch of a spec: a guarded or plain transition of an `on:` handler, an `ignore` (a bare
/// branch or an entry of an `ignore:` list, one for a whole group), or a branch of `after:`, `always:` or `onDone:`.
public struct TransitionEntry: Sendable {
    /// The handler of the spec the branch is written under, which says what makes it apply: an
    /// `on:` event, an `ignore:` group, an `after:` timer, `always:` or `onDone:`.
    public enum Handler: Hashable, Sendable {
        case event(String)
        /// An `ignore:` entry naming a group of `groups:`: one branch for all its events (S100).
        case group(name: String, events: [String])
        /// `after:`: the timer's position in its state's `after:`, and its delay as written.
        case timer(index: Int, delay: String)
        case always
        case done
    }

    /// Its index in `TransitionList.entries`.
    public var id: Int
    /// Where it is written: the branch, or the entry of an `ignore:` list.
    public var location: SourceLocation
    /// The state that owns it; `nil` for the machine's own `on:` and `ignore:`.
    public var state: String?
    /// What makes the branch apply: the handler it is written under.
    public var trigger: Handler
    /// The branch, or `.ignore` for an entry of an `ignore:` list.
    public var branch: Branch

    /// `paused --play--> playing`, `ready --scrolledNearBottom [nextPageURL != nil]--> loading`,
    /// `idle --scrolledNearBottom--> (ignored)`, `failed --after 5s--> loading`,
    /// `counting --tick--> (stays)`, `(any) --reset--> idle`.
    public var description: String {
        let trigger = switch self.trigger {
        case .event(let name), .group(let name, _): name
        case .timer(_, let delay): "after \(delay)"
        case .always: "always"
        case .done: "onDone"
        }
        let condition = branch.transition?.guardExpression.map { " [\($0.value)]" } ?? ""
        let outcome = switch branch {
        case .ignore: "(ignored)"
        case .transition(let transition): transition.target?.value ?? "(stays)"
        }
        // One line, whatever the guard's YAML did: warnings and tables hold one description a line.
        return "\(state ?? "(any)") --\(trigger)\(condition)--> \(outcome)".onOneLine
    }
}

/// Every branch of a spec in document order: the machine's `on:` and `ignore:`, then each state
/// depth first with its `on:`, `ignore:`, `after:`, `always:` and `onDone:` in that order.
public struct TransitionList: Sendable {
    public let entries: [TransitionEntry]
    /// Ids by line and column (`line << 32 | column`): one file, and an `Int` hashes faster than a path.
    private let idsByPlace: [Int: Int]

    public init(_ spec: MachineSpec) {
        var entries: [TransitionEntry] = []
        let groups = spec.groupsByName
        func add(_ state: String?, _ trigger: TransitionEntry.Handler, _ branch: Branch, at location: SourceLocation? = nil) {
            entries.append(.init(id: entries.count, location: location ?? branch.location, state: state, trigger: trigger, branch: branch))
        }
        func addOwn(_ state: String?, on: [EventHandler], ignore: [Located<String>]) {
            for handler in on {
                for branch in handler.branches { add(state, .event(handler.event.value), branch) }
            }
            for event in ignore {
                let group = groups[event.value].map { TransitionEntry.Handler.group(name: event.value, events: $0.events.map(\.value)) }
                add(state, group ?? .event(event.value), .ignore(event.location))
            }
        }
        func visit(_ state: StateSpec) {
            let name = state.name.value
            addOwn(name, on: state.on, ignore: state.ignore)
            for (index, timer) in state.after.enumerated() {
                for branch in timer.branches { add(name, .timer(index: index, delay: timer.delay.value), branch) }
            }
            for branch in state.always { add(name, .always, branch) }
            for branch in state.onDone { add(name, .done, branch) }
            state.states.forEach(visit)
        }
        addOwn(nil, on: spec.on, ignore: spec.ignore)
        spec.states.forEach(visit)
        self.entries = entries
        idsByPlace = Dictionary(entries.map { (Self.place($0.location), $0.id) }, uniquingKeysWith: { first, _ in first })
    }

    /// The id of the branch (or `ignore:` entry) written at `location`.
    public func id(at location: SourceLocation) -> Int? {
        idsByPlace[Self.place(location)]
    }

    private static func place(_ location: SourceLocation) -> Int {
        location.line << 32 | location.column
    }
}

extension String {
    /// The text with every whitespace character (line breaks included) as a space.
    public var onOneLine: String {
        // Most text is printable ASCII: nothing to change, and no walk over Unicode scalars,
        // which costs the generator seconds on a spec with tens of thousands of branches.
        if utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return self }
        return String(String.UnicodeScalarView(unicodeScalars.map { $0.properties.isWhitespace ? " " : $0 }))
    }
}
