// Kettle: a hand-written machine with a run, a timer and invariants, for exploration (Docs/Testing.md
// V8-V17): switched on, it heats (a run answers with the temperature); boiled, it cools after 3
// seconds back to idle. Nothing stops it boiling twice, which breaks `cooledOnce`.

import StateLoop

/// A kettle that boils when its heater answers and cools on a timer.
enum Kettle: StateMachine {
    enum Mode: Hashable, Sendable { case idle, heating, boiled }
    typealias StateName = Mode

    struct State: Equatable, Sendable {
        var mode: Mode = .idle
        var temperature = 20
        var cooled = 0
        /// Bookkeeping: how many times a state was entered (the timer's event carries it).
        var _entries = 0
    }

    enum Event: Equatable, Sendable {
        case switchOn
        case switchOff
        case heated(Int)
        case failed
        case _timer(entry: Int)
    }

    enum Call: Equatable, Sendable { case heat }

    static let specFile = "Kettle.machine.yml"

    static let transitions = [
        "idle --switchOn--> heating", "idle --switchOff--> (ignored)", "heating --heated--> boiled",
        "heating --failed--> idle", "heating --switchOff--> idle", "boiled --after 3s--> idle",
        "boiled --switchOff--> idle",
    ].enumerated().map { id, description in
        TransitionInfo(id: id, line: 10 + 2 * id, column: 7, description: description)
    }

    static let invariants = [
        InvariantInfo(name: "cooledOnce", expression: "cooled <= 1", state: nil, file: specFile, line: 4, column: 3),
        InvariantInfo(name: "hotWhenBoiled", expression: "temperature >= 100", state: "boiled", file: specFile, line: 20, column: 18),
    ]

    static func brokenInvariants(_ state: State) -> [InvariantInfo] {
        var broken: [InvariantInfo] = []
        if !(state.cooled <= 1) { broken.append(invariants[0]) }
        if state.mode == .boiled, !(state.temperature >= 100) { broken.append(invariants[1]) }
        return broken
    }

    static func reduce(_ state: inout State, _ event: Event, trace: inout TransitionTrace) {
        func enter(_ mode: Mode, by id: Int) {
            trace.take(id)
            state.mode = mode
            state._entries += 1
        }
        switch (state.mode, event) {
        case (.idle, .switchOn): enter(.heating, by: 0)
        case (.idle, .switchOff): trace.take(1)
        case (.heating, .heated(let temperature)):
            state.temperature = temperature
            enter(.boiled, by: 2)
        case (.heating, .failed): enter(.idle, by: 3)
        case (.heating, .switchOff): enter(.idle, by: 4)
        case (.boiled, ._timer(let entry)) where entry == state._entries:
            state.cooled += 1
            state.temperature = 20
            enter(.idle, by: 5)
        case (.boiled, .switchOff): enter(.idle, by: 6)
        default: break
        }
    }

    static func runs(in state: State) -> [EffectRequest<Call>] {
        state.mode == .heating ? [.init(call: .heat, shape: .answer)] : []
    }

    static func result(_ event: Event, of call: Call) -> EffectResultKind? {
        switch event {
        case .heated: .result
        case .failed: .failure
        default: nil
        }
    }

    static func timers(in state: State) -> [ArmedTimer<StateName, Event>] {
        guard state.mode == .boiled else { return [] }
        return [ArmedTimer(state: .boiled, index: 0, delay: .seconds(3), event: ._timer(entry: state._entries))]
    }

    static func copyBookkeeping(from source: State, to state: inout State) {
        state._entries = source._entries
    }

    static func isDone(_ state: State) -> Bool { false }
}
