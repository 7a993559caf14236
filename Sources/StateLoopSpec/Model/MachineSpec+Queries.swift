/// Questions about a spec that the checks, the code generator and the diagrams all ask, answered
/// once so they cannot disagree (above all: which events need an answer in which state).
extension MachineSpec {
    /// The effects that may run in `state` (those whose `in:` lists it), in file order.
    public func effects(runningIn state: String) -> [EffectSpec] {
        effects.filter { effect in effect.states.contains { $0.value == state } }
    }

    /// True when `event` can reach the reducer while the machine is in `state`: always for
    /// events anyone may send, and for `from: effects` events only where an effect that emits
    /// them may run. Where this is false the generated reducer ignores the event implicitly.
    public func event(_ event: EventSpec, canArriveIn state: String) -> Bool {
        guard event.source == .effects else { return true }
        return effects(runningIn: state).contains { effect in effect.emits.contains { $0.value == event.name.value } }
    }
}
