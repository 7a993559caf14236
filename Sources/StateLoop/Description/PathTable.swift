// PathTable: the generated `Machine.paths` table (Docs/Testing.md, "Paths"): for every state
// and every branch of a spec, a shortest sequence of steps from the initial state, found from
// the spec by the generator (`StateLoopSpec.MachinePaths`), so that a test can walk each with
// `MachineTest`, filling in the payloads and making the guards hold.
//
// Invariants:
// - The table is data the generator computed; nothing here searches or runs the machine.
// - A step's `transitions` are ids into `StateMachine.transitions`; a state is a `StateName`.

/// Shortest paths from the initial state to every state and every branch of a machine.
public struct PathTable<StateName: Hashable & Sendable & CaseIterable>: Sendable {
    /// One step of a path.
    public struct Step: Hashable, Sendable, CustomStringConvertible {
        /// What the step is.
        public enum Trigger: Hashable, Sendable {
            /// The event of this name is sent (or, with `effect`, answered by that effect).
            case event(String)
            /// Timer `index` of the `after:` of this state fires.
            case timer(StateName, index: Int)
            /// An `always:` microstep.
            case always
            /// An `onDone:` microstep.
            case onDone
            /// The step of an event a step before it raised (S121): `reduce` takes it, nothing is sent.
            case raised(String)
            /// The delivery of a pending `send:` of this event (S150): the clock moves by its delay
            /// and `._send(n)` is received, nothing is sent.
            case sent(String)
        }

        public var trigger: Trigger
        /// The branches the step takes, by id (`StateMachine.transitions`): one, or one per region.
        public var transitions: [Int]
        /// The guards that must hold, as written in the spec.
        public var holding: [String]
        /// The guards that must fail: earlier branches the step passes over.
        public var failing: [String]
        /// For an event only effects send: the effect that must answer with it.
        public var effect: String?
        /// `searchChanged [!event.search.isEmpty]`, `loaded (answer of loadNextPage)`, as `stateloop paths` prints it.
        public var description: String

        public init(trigger: Trigger, transitions: [Int], holding: [String] = [], failing: [String] = [], effect: String? = nil, description: String) {
            self.trigger = trigger
            self.transitions = transitions
            self.holding = holding
            self.failing = failing
            self.effect = effect
            self.description = description
        }
    }

    /// For every state a path reaches, the steps that enter it (empty: the initial state).
    public var states: [StateName: [Step]]
    /// For every branch a path takes, by id, the steps whose last takes it.
    public var transitions: [Int: [Step]]
    /// Why no path reaches a state or a branch: `stateloop paths` prints the same reasons.
    public var unreachable: [String]
    /// Why the table is incomplete (the search stopped, or the table was too large to generate);
    /// `nil` when it is complete. `stateloop paths` then prints the rest.
    public var truncation: String?

    public init(states: [StateName: [Step]], transitions: [Int: [Step]], unreachable: [String] = [], truncation: String? = nil) {
        self.states = states
        self.transitions = transitions
        self.unreachable = unreachable
        self.truncation = truncation
    }

    /// The table a generated machine declares as one string, parsed at first use: swiftc
    /// compiles a string in no time, and the literals of a thousand paths in many seconds.
    ///
    /// One record a line, its fields separated by U+001F and list items by U+001E: `P` a step
    /// (`e` event name, `r` raised and `s` sent event name, `t` state index and timer index, `a` always,
    /// `d` onDone; the branch ids;
    /// the guards that hold; those that fail; the effect; the description), then `S` a state
    /// (its index in `StateName.allCases`) and `T` a branch id, each with the indexes of its
    /// steps; `U` a reason something is unreachable; `X` the truncation.
    public init(table: String) {
        let names = Array(StateName.allCases)
        var steps: [Step] = []
        self.init(states: [:], transitions: [:])
        for record in table.split(separator: "\n") {
            let fields = record.dropFirst(2).split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
            func items(_ field: Int) -> [String] {
                fields.count > field ? fields[field].split(separator: "\u{1E}").map(String.init) : []
            }
            func numbers(_ field: Int) -> [Int] { items(field).compactMap { Int($0) } }
            switch record.first {
            case "P":
                let trigger: Step.Trigger = switch fields.first {
                case "e": .event(fields[1])
                case "t": .timer(names[Int(fields[1]) ?? 0], index: Int(fields[2]) ?? 0)
                case "a": .always
                case "r": .raised(fields[1])
                case "s": .sent(fields[1])
                default: .onDone
                }
                steps.append(Step(
                    trigger: trigger, transitions: numbers(3), holding: items(4), failing: items(5),
                    effect: fields[6].isEmpty ? nil : fields[6], description: fields[7]))
            case "S": states[names[Int(fields[0]) ?? 0]] = numbers(1).map { steps[$0] }
            case "T": transitions[Int(fields[0]) ?? 0] = numbers(1).map { steps[$0] }
            case "U": unreachable.append(fields[0])
            default: truncation = fields[0]
            }
        }
    }
}
