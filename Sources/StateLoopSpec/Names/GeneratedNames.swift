// The one table of names the generated Swift declares or refers to. The checks read it to reject
// spec names that would clash; the translator reads it to spell the generated code. A name the
// generated code refers to and a spec name could shadow is qualified in the generated code
// (`Swift.Int`, `StateLoop.System`), so such spec names work; only what cannot be qualified is
// reserved here.

/// Every name the generated code owns, and the names it derives from spec names.
public enum GeneratedNames {
    // MARK: - Fixed names

    /// The types nested in the machine's namespace. A machine of the same name would be shadowed
    /// by its own nested type.
    public static let nestedTypes: Set<String> = [
        mode, state, event, effects, stateName, run, requests, input, output, forwarded, recordingEffects, call,
    ]

    /// `enum Mode`: the states of the machine.
    public static let mode = "Mode"
    /// `struct State`: the whole state.
    public static let state = "State"
    /// `enum Event`: the ways to change state.
    public static let event = "Event"
    /// `enum StateName`: a case per state, for `isIn(_:)` and timers.
    public static let stateName = "StateName"
    /// `enum Run`: a one-shot effect queued by a `run:` action, with its request.
    public static let run = "Run"
    /// `protocol Effects`: the effects the user implements.
    public static let effects = "Effects"
    /// `State.Requests`: what each effect would run for in a state (Docs/Effects.md E42).
    public static let requests = "Requests"
    /// `struct Input`: what a machine with `input:` is started with (E21).
    public static let input = "Input"
    /// `enum Output`: how a machine with top-level final states ended (E22).
    public static let output = "Output"
    /// `enum Forwarded`: an event forwarded to a child machine (E43).
    public static let forwarded = "Forwarded"
    /// `class RecordingEffects`: the generated test double of `Effects` (E44).
    public static let recordingEffects = "RecordingEffects"
    /// `enum Call`: a run of an effect with its request, as tests name it and `RecordingEffects` records it (E44).
    public static let call = "Call"
    /// `Event.Timer`: which `after:` timer fired (declared only when a state has `after:`).
    public static let timer = "Timer"
    /// `Event._timer(...)`: the case timer feedbacks send.
    public static let timerCase = "_timer"
    /// `Event._send(n)`: the case that delivers the pending send numbered `n` (S133).
    public static let sendCase = "_send"
    /// `Event.Send`: a pending send, as `State.pendingSends` holds it (S127).
    public static let sendType = event + "." + sendTypeName
    /// `Send`, nested in `Event`.
    public static let sendTypeName = "Send"
    /// `Mode.description`: the active states as `print` shows them (Docs/Statecharts.md S90).
    public static let description = "description"
    /// The request of a timer with a named delay (E38).
    public static let delayedEntry = "_DelayedEntry"

    /// Modules the generated file refers to by name (`StateLoop.System`, `Swift.Int`): a machine of
    /// the same name would shadow them.
    public static let qualifyingModules: Set<String> = ["StateLoop", "Swift"]

    /// Names a type nested in `Mode` (`modeType(ofState:)`) cannot take, and why (Docs/Statecharts.md
    /// S82). Inside `Mode`, the generated code names its sibling types `Mode.<Name>` and the
    /// protocols `Swift.Hashable`, `Swift.Sendable`, so a nested `Mode` or `Swift` hides them;
    /// `StateLoop` is kept for the same reason. Swift itself refuses the rest as type members. Other
    /// names are safe there: nothing else is named unqualified inside `Mode`, so `Mode.State`,
    /// `Mode.Int` or a type named like the machine compile.
    public static let reservedModeTypes: [String: String] = [
        mode: "would hide 'Mode' inside it, where the generated code names every state type 'Mode.<Name>'",
        "Swift": "would hide the module 'Swift' inside 'Mode', where the generated code names 'Swift.Hashable' and 'Swift.Sendable'",
        "StateLoop": "would hide the module 'StateLoop' inside 'Mode', where the generated code may name the runtime's types",
        "Type": "is the metatype's name in Swift: a nested type cannot take it",
        "Protocol": "is the protocol metatype's name in Swift: a nested type cannot take it",
        "Any": "is a Swift keyword: a type cannot take it",
        "Self": "is a Swift keyword: a type cannot take it",
    ]

    /// Context fields the generated code already uses, and why.
    /// `State.trigger`: the event whose step is running, which expressions read (S111).
    public static let triggerField = "trigger"

    public static let reservedFields: [String: String] = [
        "mode": "the generated 'State.mode', which holds the current state",
        "event": "the name expressions use for the event's payload ('event.x')",
        "runs": "the generated 'State.runs', the one-shot effects the last step queued",
        "isDone": "the generated 'State.isDone', true once a top-level final state is entered",
        "isSettled": "the generated 'State.isSettled', false when 'always:' transitions did not settle",
        "isIn": "the generated 'State.isIn(_:)', which tells whether a state is active",
        "requests": "the generated 'State.requests', what each effect would run for in the state",
        "forwarded": "the generated 'State.forwarded', the events the last step forwarded to child machines",
        "toParent": "the generated 'State.toParent', the events the last step sent to the parent machine",
        "output": "the generated 'State.output', how the machine ended once it is done",
        "pendingSends": "the generated 'State.pendingSends', the sends not yet delivered nor cancelled (S127)",
        triggerField: "the generated 'State.trigger', the event of the running step (S114)",
    ]

    // MARK: - Derived names

    /// `loadNextPage` -> `LoadNextPageResult`: what an effect answers with, in the machine's namespace.
    public static func resultType(ofEffect effect: String) -> String {
        SwiftName.upperCamel(effect) + "Result"
    }

    /// `active` -> `Active`: the type of a composite state's children (an enum) or of a parallel
    /// state's regions (a struct), nested in `Mode`.
    public static func modeType(ofState state: String) -> String {
        SwiftName.upperCamel(state)
    }

    /// `searchChanged` -> `SearchChangedPayload`: an event's payload by name (`event.x` in
    /// expressions), nested in `Event`.
    public static func payloadType(ofEvent event: String) -> String {
        SwiftName.upperCamel(event) + "Payload"
    }

    /// `idle` -> `_reduce_idle`: the reducer's function for one state.
    public static func reducerFunction(ofState state: String) -> String {
        "_reduce_" + state
    }

    /// `loadNextPage` -> `_request_loadNextPage`: the `State` member that computes an effect's request.
    public static func requestMember(ofEffect effect: String) -> String {
        "_request_" + effect
    }

    /// `Total` -> `_CodableTotal`: the alias that requires a persisted spec's type to be `Codable`
    /// (Docs/Durability.md D28), at the machine's level beside the type's own alias. Spec names
    /// cannot start with `_`, so no alias of a spec type takes it.
    public static func codableCheck(ofAlias alias: String) -> String {
        "_Codable" + alias
    }

    /// `_default1`, `_value2`, `_timerRequest0`: the n-th generated member of a kind. Numbered,
    /// so that no two spec names can produce the same member.
    public static func member(_ kind: String, _ number: Int) -> String {
        "_\(kind)\(number)"
    }
}
