/// How much of a machine a diagram shows.
///
/// Every level shows every state, every transition, the initial state, timers and the effects on
/// the states where they run. The levels differ in how much of each transition's label they draw
/// and whether the events a state ignores appear at all.
public enum DiagramDetail: String, CaseIterable, Sendable {
    /// Labels carry the trigger and its guard, `event [guard]`, without `set:` assignments
    /// (on arrows and in `entry:` and `exit:`) and without the request of a `run:`
    /// (`▶ saveSession`): the shape of the machine for a README or a large machine.
    case compact
    /// Labels carry the whole transition, `event [guard] / field = expression`. Ignored events
    /// are left out, as they change nothing. The default.
    case standard
    /// Everything in `standard`, plus the events each state ignores (from its `ignore:` list, the
    /// machine-wide `ignore:` list and the `ignore` else branches of guarded handlers), listed
    /// on the state, so every event's fate in every state can be read off the picture; and the
    /// expressions behind the effects and timers (Docs/Effects.md, "Diagrams"): each effect's
    /// request (`⟳ loadNextPage(nextPageURL)`), a child machine's input and forwarded events,
    /// and a named delay's expression (`after backoff = .seconds(…)`).
    case full
}
