// CombinationLock: a hand-written machine whose planted bug lies 8 steps deep (Docs/Testing.md
// V16): the digits 1 to 8 in order open it, which its invariant says never happens; a wrong digit
// starts again. Random sends almost never find it; sends that prefer a branch not yet taken do.

import StateLoop

/// A lock that opens on 1, 2, ..., 8.
enum CombinationLock: StateMachine {
    enum StateName: Hashable, Sendable { case locked }

    struct State: Equatable, Sendable {
        /// How many digits of the combination were entered in order.
        var stage = 0
        var opened = false
    }

    enum Event: Equatable, Sendable { case digit(Int) }
    typealias Call = NoCall

    static let specFile = "CombinationLock.machine.yml"

    /// One branch per digit of the combination, then the wrong digit's.
    static let transitions = (0..<8).map { stage in
        TransitionInfo(id: stage, line: 5 + stage, column: 7, description: "stage \(stage) --digit(\(stage + 1))--> stage \(stage + 1)")
    } + [TransitionInfo(id: 8, line: 13, column: 7, description: "* --wrong digit--> stage 0")]

    static let invariants = [InvariantInfo(name: "neverOpened", expression: "!opened", state: nil, file: specFile, line: 3, column: 3)]

    static func brokenInvariants(_ state: State) -> [InvariantInfo] {
        state.opened ? invariants : []
    }

    static func reduce(_ state: inout State, _ event: Event, trace: inout TransitionTrace) {
        guard case .digit(let digit) = event else { return }
        if digit == state.stage + 1 {
            trace.take(state.stage)
            state.stage += 1
            state.opened = state.stage == 8
        } else {
            trace.take(8)
            state.stage = 0
        }
    }

    static func runs(in state: State) -> [EffectRequest<Call>] { [] }
    static func result(_ event: Event, of call: Call) -> EffectResultKind? { nil }
    static func timers(in state: State) -> [ArmedTimer<StateName, Event>] { [] }
    static func copyBookkeeping(from source: State, to state: inout State) {}
    static func isDone(_ state: State) -> Bool { false }
}
