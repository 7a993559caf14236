/// `initial` after `reduce` took each of `events` in turn: how the reducer tests drive a machine.
func reduced<State, Event>(_ initial: State, _ events: [Event], by reduce: (inout State, Event) -> Void) -> State {
    var state = initial
    for event in events { reduce(&state, event) }
    return state
}
