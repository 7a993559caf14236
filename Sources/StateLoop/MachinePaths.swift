// MachinePaths: the generated `Machine.paths` table (Docs/Testing.md, "Paths"): for every state
// and every branch of a spec, a shortest sequence of steps from the initial state, found from
// the spec by the generator, so that a test can walk each with `MachineTest`, filling in the
// payloads and making the guards hold.

/// Shortest paths from the initial state to every state and every branch of a machine.
public struct MachinePaths<StateName: Hashable & Sendable>: Sendable {
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
}
