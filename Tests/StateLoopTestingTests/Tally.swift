// Tally: a hand-written machine with invariants (Docs/Testing.md V4, V5), as a generated machine
// declares them: one of the machine's own and one of a state, which the harness checks after every
// step. Nothing guards `add`, so a test can break either.

import StateLoop

/// A counter that may ask an effect for a new count.
enum Tally: StateMachine {
    enum Mode: Hashable, Sendable { case counting, asking }
    typealias StateName = Mode

    struct State: Equatable, Sendable {
        var mode: Mode = .counting
        var count = 0
    }

    enum Event: Equatable, Sendable {
        case add(Int)
        case ask
        case answered(Int)
    }

    enum Call: Equatable, Sendable { case ask }

    static let specFile = "Tally.machine.yml"
    static let transitions = [
        TransitionInfo(id: 0, line: 10, column: 7, description: "counting --add--> (stays)"),
        TransitionInfo(id: 1, line: 11, column: 7, description: "counting --ask--> asking"),
        TransitionInfo(id: 2, line: 13, column: 7, description: "asking --answered--> counting"),
    ]

    static let invariants = [
        InvariantInfo(name: "neverNegative", expression: "count >= 0", state: nil, file: specFile, line: 3, column: 3),
        InvariantInfo(name: "smallWhileAsking", expression: "count < 10", state: "asking", file: specFile, line: 12, column: 18),
    ]

    static func brokenInvariants(_ state: State) -> [InvariantInfo] {
        var broken: [InvariantInfo] = []
        if !(state.count >= 0) { broken.append(invariants[0]) }
        if state.mode == .asking, !(state.count < 10) { broken.append(invariants[1]) }
        return broken
    }

    static func reduce(_ state: inout State, _ event: Event, trace: inout TransitionTrace) {
        switch (state.mode, event) {
        case (.counting, .add(let n)):
            trace.take(0)
            state.count += n
        case (.counting, .ask):
            trace.take(1)
            state.mode = .asking
        case (.asking, .answered(let n)):
            trace.take(2)
            state.count = n
            state.mode = .counting
        default: break
        }
    }

    static func runs(in state: State) -> [EffectRequest<Call>] {
        state.mode == .asking ? [.init(call: .ask, shape: .answer)] : []
    }

    static func result(_ event: Event, of call: Call) -> EffectResultKind? {
        if case .answered = event { .result } else { nil }
    }

    static func timers(in state: State) -> [ArmedTimer<StateName, Event>] { [] }
    static func copyBookkeeping(from source: State, to state: inout State) {}
    static func isDone(_ state: State) -> Bool { false }
}
