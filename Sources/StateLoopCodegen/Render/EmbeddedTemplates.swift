// Generated from Templates/*.mustache by EmbeddedTemplatesTests. Do not edit:
// STATELOOP_UPDATE_GOLDEN=1 swift test --filter EmbeddedTemplatesTests rewrites it.

/// The built-in templates, compiled in (see Templates/README.md).
enum EmbeddedTemplates {
    /// Template name (file name without `.mustache`) -> template text.
    static let all: [String: String] = [
        "Machine.swift": #"""
{{%CONTENT_TYPE:TEXT}}
{{! The Swift file generated for one machine. Every value is computed by MachineContextBuilder; }}
{{! this template only places it. The partials StateMembers and Reducer print the large parts. }}
{{{header}}}
{{#imports}}
{{{.}}}
{{/imports}}

/// {{{machineDoc}}}
{{{access}}}enum {{{machine}}} {
{{#typeAliases}}
    /// {{{doc}}}
{{#lines}}
{{{.}}}
{{/lines}}

{{/typeAliases}}
    /// The states of the machine, from `states:`.
    {{{access}}}enum Mode: {{{modeConformances}}} {
{{#modeLines}}
{{{.}}}
{{/modeLines}}
    }

    /// The name of every state, for `State.isIn(_:)`.
    {{{access}}}enum StateName: Swift.Hashable, Swift.Sendable, Swift.CaseIterable {
{{#stateNames}}
        case {{{.}}}
{{/stateNames}}
    }
{{#hasRuns}}

    /// A one-shot effect queued by a `run:` action, with its request; the system starts each once.
    {{{access}}}enum Run: Swift.Equatable, Swift.Sendable {
{{#runCases}}
        case {{{.}}}
{{/runCases}}
{{#runEquality}}
{{{.}}}
{{/runEquality}}
    }
{{/hasRuns}}
{{#typeLines}}
{{{.}}}
{{/typeLines}}

    /// The whole state of the machine: the current mode and the fields of `context:`.
    {{{access}}}struct State: Swift.Equatable, Swift.Sendable {
        /// The current state of the machine: `reduce` changes it; a test states it.
        {{{access}}}var mode: Mode
{{#fields}}
        /// {{{doc}}}
        {{{access}}}var {{{name}}}: {{{type}}}
{{/fields}}
{{#hasTimers}}
        /// How many times the machine has entered a state. Timer requests carry it, so that
        /// entering a state again (even by a transition to itself) restarts its `after:` timers.
        {{{readOnlyAccess}}}var _entries: Swift.Int
{{/hasTimers}}
{{#internalFields}}
{{{.}}}
{{/internalFields}}

        /// A state with every field given: for tests, previews and restoring a saved state.
        {{{access}}}init(
{{#initParameters}}
            {{{.}}}
{{/initParameters}}
        ) {
            self.mode = mode
{{#fields}}
            self.{{{name}}} = {{{parameter}}}
{{/fields}}
{{#hasTimers}}
            self._entries = _entries
{{/hasTimers}}
        }

        /// The state the machine starts in: `initial:`, every field at its `default:`.
        {{{initialDeclaration}}} {
{{#initialBody}}
{{{.}}}
{{/initialBody}}
        }
{{#stateEquality}}
{{{.}}}
{{/stateEquality}}
{{#queryLines}}
{{{.}}}
{{/queryLines}}
{{>StateMembers}}
{{#effects}}
{{#requestMember}}
{{{.}}}
{{/requestMember}}
{{/effects}}
{{#timers}}

        /// The request of {{{doc}}}
        fileprivate var {{{requestMember}}}: {{{requestType}}}? {
            {{{request}}}
        }
{{/timers}}
{{>Reducer}}
    }

    /// The ways to change state, from `events:`. Send them to the system; `reduce` applies them.
    {{{access}}}enum Event: Swift.Equatable, Swift.Sendable {
{{#events}}
        /// {{{doc}}}
        case {{{declaration}}}
{{/events}}
{{#hasTimers}}
        /// An `after:` timer fired. Sent by the machine's own timer feedbacks, not by you.
        case _timer(Timer)

        /// Which `after:` timer fired, and during which entry into its state (an earlier one is ignored).
        {{{access}}}struct Timer: Swift.Equatable, Swift.Sendable, Swift.CustomStringConvertible {
            /// The state whose `after:` armed the timer.
            {{{access}}}var state: StateName
            /// The timer's position in that state's `after:`.
            {{{access}}}var index: Swift.Int
            /// `State._entries` when the timer was armed.
            {{{access}}}var entry: Swift.Int

            /// A timer event, for tests that drive `reduce` directly; the feedbacks make their own.
            {{{access}}}init(state: StateName, index: Swift.Int, entry: Swift.Int) {
                self.state = state
                self.index = index
                self.entry = entry
            }
{{#timerModes}}
{{{.}}}
{{/timerModes}}

            /// `after #0 in failed`: the timer's position in the `after:` of its state, for traces and logs.
            {{{access}}}var description: Swift.String { "after #\(index) in \(state)" }
        }
{{/hasTimers}}
{{#sendLines}}
{{{.}}}
{{/sendLines}}
{{#eventEquality}}
{{{.}}}
{{/eventEquality}}
{{#payloads}}

        /// {{{doc}}}
        fileprivate struct {{{name}}} {
{{#fields}}
            let {{{name}}}: {{{type}}}
{{/fields}}
        }
{{/payloads}}
    }

    /// The reducer: the transition the current state takes on `event`. Pure; switches on the
    /// mode, then on the event, without `default:`, so a missing case does not compile.
    {{{access}}}static func reduce(_ state: inout State, _ event: Event) {
{{^eventless}}
        var trace = StateLoop._NoTrace()
        _reduceRecording(&state, event, &trace)
{{/eventless}}
{{#eventless}}
        // `Event` has no case: nothing can call this.
{{/eventless}}
    }

    /// `reduce`, telling `trace` the id of each branch it takes (`transitions`).
    fileprivate static func _reduceRecording<_R: StateLoop._TransitionRecorder>(_ state: inout State, _ event: Event, _ trace: inout _R) {
{{#reduceBody}}
{{{.}}}
{{/reduceBody}}
{{#eventless}}
        // `Event` has no case: nothing can call this.
{{/eventless}}
    }
{{#hasEffects}}

    /// The effects of the machine, from `effects:`. Implement it and pass it to `system(...)`.
    {{{access}}}protocol Effects: Swift.Sendable {
{{#effects}}
{{#method}}
{{{.}}}
{{/method}}
{{/effects}}
    }
{{/hasEffects}}
{{#effects}}
{{#hasResults}}

    /// What `{{{name}}}` answers with: the events of its `emits:`.
    {{{access}}}enum {{{resultType}}}: Swift.Equatable, Swift.Sendable {
{{#results}}
        /// {{{doc}}}
        case {{{declaration}}}
{{/results}}

        /// The event this result is fed back as.
        fileprivate var _event: Event {
            switch self {
{{#conversions}}
            {{{.}}}
{{/conversions}}
            }
        }
{{#resultEquality}}
{{{.}}}
{{/resultEquality}}
    }
{{/hasResults}}
{{/effects}}
{{#recordingLines}}
{{{.}}}
{{/recordingLines}}

    /// The feedback loops: one `react` per effect, one `timer` per `after:`.
    {{{access}}}static func feedbacks({{{feedbacksParameters}}}) -> [StateLoop.Feedback<State, Event>] {
{{^hasFeedbacks}}
        []
{{/hasFeedbacks}}
{{#hasFeedbacks}}
        [
{{#effects}}
{{#feedback}}
{{{.}}}
{{/feedback}}
{{/effects}}
{{#runFeedback}}
{{{.}}}
{{/runFeedback}}
{{#timers}}
            .timer(
                request: { state in state.{{{requestMember}}} },
                clock: clock,
                delay: { {{{delay}}} },
                event: { {{{fireEvent}}} }
            ),
{{/timers}}
{{#sendFeedback}}
{{{.}}}
{{/sendFeedback}}
        ]
{{/hasFeedbacks}}
    }

    /// The machine, ready to run: `reduce` with the `feedbacks`, starting from `initial`.
    {{{access}}}static func system({{{systemParameters}}}) -> StateLoop.System<State, Event> {
        StateLoop.System(initial: initial, reduce: _reducer(onTransition), feedbacks: feedbacks({{{feedbacksArguments}}}){{{systemFinish}}})
    }
{{#systemLines}}
{{{.}}}
{{/systemLines}}
}
{{{conformance}}}

"""#,
        "Reducer": #"""
{{%CONTENT_TYPE:TEXT}}
{{! The reducer's methods of State: a switch on the configuration, then a method per leaf. The }}
{{! statements are printed by SwiftPrinter (#sourceLocation blocks put each expression at its YAML }}
{{! line and column), so print each body as it is, at the start of a line. }}

        /// One step of `reduce`: `self` is the state before `event`, `_next` the state after it, so
        /// the spec's expressions, which name fields bare, read the old state. `_trace` is told each
        /// branch taken; untraced, it is `_NoTrace` and the specialised code does not mention it.
        // One method per leaf: swiftc's mandatory passes take more than linear time in the size
        // of a function, so one switch over every (state, event) pair compiles slowly on large machines.
        fileprivate func _reduce<_R: StateLoop._TransitionRecorder>(_ _event: Event, _ _next: inout State, _ _trace: inout _R){{{reducerReturn}}} {
{{^eventless}}
            switch mode {
{{#dispatch}}
{{{.}}}
{{/dispatch}}
            }
{{/eventless}}
{{#eventless}}
            // `Event` has no case: nothing can call this.
{{/eventless}}
        }
{{#reducerModes}}

        /// `reduce` in state `{{{mode}}}`.
        private func {{{function}}}<_R: StateLoop._TransitionRecorder>(_ _event: Event, _ _next: inout State, _ _trace: inout _R){{{reducerReturn}}} {
{{{body}}}
        }
{{/reducerModes}}

"""#,
        "StateMembers": #"""
{{%CONTENT_TYPE:TEXT}}
{{! The members of State: the spec's expressions (default:, request.value, actions) and the }}
{{! statechart's helpers. Bodies are printed by SwiftPrinter (#sourceLocation blocks put each }}
{{! expression at its YAML line and column), so print each body as it is, at the start of a line. }}
{{#members}}

        /// {{{doc}}}
        {{{declaration}}} {
{{{body}}}
        }
{{/members}}

"""#,
    ]
}
