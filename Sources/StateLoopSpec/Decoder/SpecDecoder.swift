/// Turns a `YAMLNode` tree into a `MachineSpec`, per the spec format (DESIGN §3, Docs/Statecharts.md).
///
/// Decoding is about shape: the keys, what kind of node each key takes, durations. Whether the
/// names refer to anything is the job of `SpecChecker`. Every problem of the file is collected;
/// a part that cannot be decoded is left out so the rest can still be looked at.
struct SpecDecoder: Sendable {
    /// A decoder; it holds no state between calls.
    init() {}

    /// What `decode` found: the spec when the required parts could be decoded, and the problems.
    struct Result: Sendable {
        /// The spec; `nil` when `machine:`, `initial:` or `states:` is missing or malformed. Parts
        /// with errors are left out, so check `diagnostics` before trusting it.
        var spec: MachineSpec?
        /// Every decoding problem, in the order found.
        var diagnostics: [Diagnostic]
    }

    /// Decodes the root of a spec document (`nil` for an empty file).
    func decode(_ root: YAMLNode?, path: String) -> Result {
        var session = DecodingSession(path: path)
        var spec = session.machine(root)
        spec?.keys = root?.mapping?.map(\.key.located) ?? []
        return Result(spec: spec, diagnostics: session.diagnostics.finished())
    }

    /// The keys of each part of a spec, in the order they are usually written (for suggestions).
    enum Keys {
        /// Top-level keys.
        static let machine = ["machine", "imports", "persist", "input", "context", "events", "groups", "on", "ignore", "delays", "initial", "states", "effects", "invariants"]
        /// Keys of `persist:` written as a mapping.
        static let persist = ["version", "migrations"]
        /// Keys of a context field.
        static let contextField = ["type", "default", "redact"]
        /// Keys of a state.
        static let state = ["type", "history", "target", "default", "initial", "states", "entry", "exit", "on", "ignore", "after", "always", "onDone", "output", "doneEvent", "invariants"]
        /// Values of a state's `type:`.
        static let stateTypes = ["parallel", "final", "history"]
        /// Keys of a transition.
        static let transition = ["guard", "target", "set", "do", "reenter"]
        /// Keys of an action.
        static let action = ["set", "run", "request", "if", "then", "else", "raise", "send", "cancel", "foreach"]
        /// XState's spellings of what we spell otherwise: the key, and the advice.
        static let xstate: [String: String] = [
            "final": "did you mean 'type: final'?",
            "parallel": "did you mean 'type: parallel'?",
            "actions": "did you mean 'do:'? a transition's actions are a list under 'do:'",
            "cond": "did you mean 'guard:'?",
            "invoke": "did you mean an effect? write it under 'effects:' with 'in: [this state]'",
            "src": "did you mean 'machine:'? a child machine is an effect with 'machine: Name'",
            "onSnapshot": "a parent does not see its child's state; map the child's final states to events with 'onDone:'",
        ]
        /// Keys of an effect.
        static let effect = ["in", "request", "requests", "stream", "emits", "onError", "afterRestart", "machine", "input", "forward", "events", "onDone"]
        /// Keys of a final state's output field.
        static let outputField = ["type", "value"]
        /// Keys of an effect's request.
        static let request = ["type", "value"]
        /// The key of an event that says who may send it (`from: effects`); never a payload field.
        static let eventSource = "from"
    }
}

/// One `decode` call: the diagnostics so far and the decoding of each part.
struct DecodingSession {
    let path: String
    var diagnostics = DiagnosticList()

    init(path: String) { self.path = path }

    mutating func error(
        _ message: @autoclosure () -> String, at location: SourceLocation,
        notes: @autoclosure () -> [Diagnostic.Note] = [], fixIt: @autoclosure () -> String? = nil
    ) {
        diagnostics.append(.error, message(), at: location, notes: notes(), fixIt: fixIt())
    }

    // MARK: Top level

    mutating func machine(_ root: YAMLNode?) -> MachineSpec? {
        let start = SourceLocation(file: path, line: 1, column: 1)
        guard let root else {
            error("the spec is empty", at: start, fixIt: "start with 'machine: Name', then 'events:', 'initial:' and 'states:'")
            return nil
        }
        guard let entries = mapping(
            root, expected: "a mapping with 'machine:', 'events:', 'initial:', 'states:' at the top level",
            fixIt: "start the file with 'machine: Name' on its own line")
        else { return nil }

        var name: Located<String>?
        var imports: [Located<String>] = []
        var context: [ContextField] = []
        var events: [EventSpec] = []
        var on: [EventHandler] = []
        var ignore: [Located<String>] = []
        var initial: Located<String>?
        var initialTargets: [Located<String>]?
        var states: [StateSpec]?
        var effects: [EffectSpec] = []
        var input: [PayloadField] = []
        var delays: [Assignment] = []
        var persist: PersistSpec?
        var groups: [EventGroup] = []
        var invariants: [InvariantSpec] = []
        for entry in known(entries, keys: SpecDecoder.Keys.machine, in: "at the top level of a spec") {
            switch entry.key.value {
            case "machine": name = text(entry.value, expected: "the machine's name", fixIt: "write 'machine: MyMachine'")
            case "imports": imports = names(entry.value, expected: "a list of module names", fixIt: "write 'imports: [Foundation]'")
            case "context": context = contextFields(entry.value)
            case "events": events = eventSpecs(entry.value)
            case "on": on = handlers(entry.value)
            case "ignore": ignore = names(entry.value, expected: "a list of events", fixIt: "write 'ignore: [event, ...]'")
            case "groups":
                guard let entries = mapping(entry.value, expected: "a mapping from group names to lists of events", fixIt: "write 'groups: {segments: [syn, ack, fin]}'") else { continue }
                groups = entries.map { group in
                    EventGroup(name: group.key.located, events: names(group.value, expected: "a list of events", fixIt: "write '\(group.key.value): [event, ...]'"))
                }
            case "initial":
                if entry.value.mapping != nil {
                    // S144: SCXML's `<scxml>` has no `<initial>` element with content either.
                    error(
                        "the machine's 'initial:' takes no actions", at: entry.value.location,
                        fixIt: "write 'initial: idle', and put the actions in the 'entry:' of the initial state")
                    continue
                }
                initialTargets = initialList(entry.value)
                initial = initialTargets.map(\.first) ?? text(entry.value, expected: "the name of the initial state", fixIt: "write 'initial: idle'")
            case "states": states = stateSpecs(entry.value)
            case "invariants": invariants = self.invariants(entry.value)
            case "input": input = inputFields(entry.value)
            case "persist": persist = persistSpec(entry)
            case "delays":
                guard let entries = mapping(entry.value, expected: "a mapping from delay names to Duration expressions", fixIt: "write 'delays: {backoff: \".seconds(1 << attempt)\"}'") else { continue }
                delays = entries.compactMap { delay in
                    expression(delay.value, of: "delay '\(delay.key.value)'").map { Assignment(field: delay.key.located, expression: $0) }
                }
            default: effects = effectSpecs(entry.value)
            }
        }
        // A misspelt key ('stats:') is reported as unknown; do not also report the key as missing.
        func written(_ key: String) -> Bool {
            entries.contains { $0.key.value == key || SpellingSuggestion.closest(to: $0.key.value, among: SpecDecoder.Keys.machine) == key }
        }
        if name == nil, !written("machine") {
            error("the spec has no 'machine:' name", at: root.location, fixIt: "add 'machine: MyMachine' at the top level; it names the generated Swift namespace")
        }
        if initial == nil, !written("initial") {
            error("the spec has no 'initial:' state", at: root.location, fixIt: "add 'initial: <state>' naming the state the machine starts in")
        }
        if states == nil, !written("states") {
            error("the spec has no 'states:'", at: root.location, fixIt: "add 'states:' with one entry per state, each with its 'on:' and 'ignore:'")
        }
        guard let name, let initial, let states else { return nil }
        var spec = MachineSpec(
            file: path, name: name, imports: imports, context: context, events: events, on: on, ignore: ignore,
            initial: initial, states: states, effects: effects, input: input, delays: delays, groups: groups, persist: persist)
        spec.initialTargets = initialTargets
        spec.invariants = invariants
        return spec
    }

    /// `invariants: {name: "Swift Bool expression"}`, at the top level or on a state (V1, V2): a
    /// mapping of non-empty names to expressions; a name twice in the machine is the checker's.
    mutating func invariants(_ node: YAMLNode) -> [InvariantSpec] {
        let fixIt = "write 'invariants: {withinTotal: \"sent <= total\"}', one name and Swift Bool expression an entry"
        guard let entries = mapping(node, expected: "a mapping from invariant names to Swift Bool expressions", fixIt: fixIt) else { return [] }
        return entries.compactMap { entry in
            guard !entry.key.value.isEmpty else {
                error("an invariant needs a name", at: entry.key.location, fixIt: "name the invariant: 'withinTotal: \"sent <= total\"'; failures say it")
                return nil
            }
            guard entry.value.scalar != nil else {
                error(
                    "expected a Swift Bool expression for invariant '\(entry.key.value)', found \(Self.found(entry.value))",
                    at: entry.value.location, fixIt: "quote the expression so YAML reads it as text: '\(entry.key.value): \"sent <= total\"'")
                return nil
            }
            return expression(entry.value, of: "invariant '\(entry.key.value)'").map { InvariantSpec(name: entry.key.located, expression: $0) }
        }
    }

    /// `persist: true` (version 1) or `persist: {version: N}` with N an integer of 1 or more (D20),
    /// and its `migrations:` (D55).
    mutating func persistSpec(_ entry: YAMLMappingEntry) -> PersistSpec? {
        let fixIt = "write 'persist: true' (version 1), or 'persist: {version: 2}' with the version as a whole number of 1 or more"
        if let scalar = entry.value.scalar {
            guard scalar.value == "true" else {
                error("expected 'true' or '{version: N}' for 'persist:', found \(Self.found(entry.value))", at: entry.value.location, fixIt: fixIt)
                return nil
            }
            return PersistSpec(version: 1, location: entry.key.location, versionLocation: entry.value.location)
        }
        guard let body = mapping(entry.value, expected: "'true' or '{version: N}' for 'persist:'", fixIt: fixIt) else { return nil }
        let valid = known(body, keys: SpecDecoder.Keys.persist, in: "in 'persist:'")
        guard let versionEntry = valid.first(where: { $0.key.value == "version" }) else {
            // A misspelt 'version' is reported as unknown; do not also report it as missing.
            if valid.count == body.count { error("'persist:' has no 'version:'", at: entry.value.location, fixIt: fixIt) }
            return nil
        }
        guard let text = versionEntry.value.scalar?.value, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
              let version = Int(text), version >= 1
        else {
            error("the persisted version must be a whole number of 1 or more, found \(Self.found(versionEntry.value))", at: versionEntry.value.location, fixIt: fixIt)
            return nil
        }
        let migrations = valid.first { $0.key.value == "migrations" }.map { self.migrations($0.value) } ?? []
        return PersistSpec(version: version, location: entry.key.location, versionLocation: versionEntry.value.location, migrations: migrations)
    }

    /// `input: {field: Type}` (E21).
    mutating func inputFields(_ node: YAMLNode) -> [PayloadField] {
        guard let entries = mapping(node, expected: "a mapping from input fields to types", fixIt: "write 'input: {amount: Int}'") else { return [] }
        return entries.compactMap { entry in swiftType(entry.value).map { PayloadField(name: entry.key.located, type: $0) } }
    }

    // MARK: Context and events

    mutating func contextFields(_ node: YAMLNode) -> [ContextField] {
        guard let entries = mapping(node, expected: "a mapping of context fields", fixIt: "write each field as 'name: {type: Type, default: value}'", allowEmpty: true) else { return [] }
        var fields: [ContextField] = []
        for entry in entries {
            let fieldName = entry.key.located
            guard let body = mapping(
                entry.value, expected: "'{type: ..., default: ...}' for context field '\(fieldName.value)'",
                fixIt: "write '\(fieldName.value): {type: Type, default: value}'")
            else { continue }
            var type: Located<String>?
            var defaultValue: Located<String>?
            var typeWritten = false
            var redact = false
            for item in known(body, keys: SpecDecoder.Keys.contextField, in: "in a context field") {
                switch item.key.value {
                case "type":
                    typeWritten = true
                    type = swiftType(item.value)
                case "redact":
                    switch item.value.scalar?.value {
                    case "true": redact = true
                    case "false": break
                    default:
                        error(
                            "'redact:' takes 'true' or 'false', found \(Self.found(item.value))", at: item.value.location,
                            fixIt: "write 'redact: true' to keep '\(fieldName.value)' out of the inspector's dumps")
                    }
                default:
                    defaultValue = expression(item.value, of: "'default:'")
                }
            }
            guard let type else {
                if !typeWritten {
                    error("context field '\(fieldName.value)' has no 'type:'", at: fieldName.location, fixIt: "write '\(fieldName.value): {type: Type, default: value}'")
                }
                continue
            }
            if defaultValue == nil, !body.contains(where: { $0.key.value == "default" }), !type.value.hasSuffix("?") {
                error(
                    "context field '\(fieldName.value)' of non-optional type '\(type.value)' needs a 'default:'",
                    at: fieldName.location, fixIt: "add 'default: <Swift expression>', or make the type optional ('\(type.value)?') to start as nil")
            }
            fields.append(ContextField(name: fieldName, type: type, defaultValue: defaultValue, redact: redact))
        }
        return fields
    }

    mutating func eventSpecs(_ node: YAMLNode) -> [EventSpec] {
        guard let entries = mapping(node, expected: "a mapping of events", fixIt: "write each event as 'name: {field: Type}', or 'name: {}' without payload", allowEmpty: true) else { return [] }
        var events: [EventSpec] = []
        for entry in entries {
            let eventName = entry.key.located
            guard let body = mapping(
                entry.value, expected: "the payload of event '\(eventName.value)' as a mapping",
                fixIt: "write '\(eventName.value): {field: Type}', or '\(eventName.value): {}' without payload", allowEmpty: true)
            else { continue }
            var event = EventSpec(name: eventName)
            for item in body {
                if item.key.value == SpecDecoder.Keys.eventSource {
                    guard let source = text(item.value, expected: "'effects'", fixIt: "write 'from: effects'") else { continue }
                    if source.value == "effects" {
                        event.source = .effects
                    } else {
                        error(
                            "'from' in an event says who may send it and takes only 'effects', found '\(source.value)'",
                            at: source.location,
                            fixIt: "write 'from: effects' for an event only effects send; 'from' cannot be a payload field, so rename that field")
                    }
                    continue
                }
                guard let type = swiftType(item.value) else { continue }
                event.payload.append(PayloadField(name: item.key.located, type: type))
            }
            events.append(event)
        }
        return events
    }

    // MARK: States and handlers

    mutating func stateSpecs(_ node: YAMLNode) -> [StateSpec] {
        guard let entries = mapping(node, expected: "a mapping of states", fixIt: "write each state as a key ('idle:') followed by its 'on:' and 'ignore:'") else { return [] }
        var states: [StateSpec] = []
        for entry in entries {
            let stateName = entry.key.located
            guard let body = mapping(
                entry.value, expected: "the body of state '\(stateName.value)' as a mapping",
                fixIt: "write 'on:', 'ignore:' and 'after:' under '\(stateName.value):'", allowEmpty: true)
            else { continue }
            var state = StateSpec(name: stateName, keys: body.map(\.key.located))
            var deep: Located<String>?
            for item in known(body, keys: SpecDecoder.Keys.state, in: "in a state") {
                switch item.key.value {
                case "type":
                    guard let type = text(item.value, expected: "a state type", fixIt: "write 'type: parallel', 'type: final' or 'type: history'") else { continue }
                    state.type = type
                    switch type.value {
                    case "parallel": state.kind = .parallel
                    case "final": state.kind = .final
                    case "history": state.kind = .history(deep: false)
                    default:
                        let advice = SpellingSuggestion.closest(to: type.value, among: SpecDecoder.Keys.stateTypes).map { "did you mean '\($0)'?" }
                        error(
                            "'\(type.value)' is not a state type", at: type.location,
                            fixIt: advice ?? "write 'type: parallel', 'type: final' or 'type: history', or leave 'type:' out for an ordinary state")
                    }
                case "history":
                    guard let value = text(item.value, expected: "'shallow' or 'deep'", fixIt: "write 'history: shallow' or 'history: deep'") else { continue }
                    if value.value == "deep" || value.value == "shallow" {
                        deep = value
                    } else {
                        error("'history:' takes 'shallow' or 'deep', found '\(value.value)'", at: value.location, fixIt: "write 'history: shallow' (the last child) or 'history: deep' (the last leaves)")
                    }
                case "target": state.historyTarget = text(item.value, expected: "a state", fixIt: "write 'target: stateName'")
                case "default":
                    guard let entries = defaultEntry(item.value, of: "'default:'", fixIt: "write 'default: {target: stateName, do: [actions]}'") else { continue }
                    state.historyTarget = entries.target.flatMap { text($0, expected: "a state", fixIt: "write 'default: {target: stateName, do: [actions]}'") }
                    state.defaultActions = entries.actions
                case "initial":
                    var node = item.value
                    if node.mapping != nil {
                        guard let entries = defaultEntry(node, of: "'initial:'", fixIt: "write 'initial: {target: childState, do: [actions]}'") else { continue }
                        guard let target = entries.target else {
                            error("'initial:' with actions needs a 'target:'", at: node.location, fixIt: "write 'initial: {target: childState, do: [actions]}'")
                            continue
                        }
                        node = target
                        state.defaultActions = entries.actions
                    }
                    state.initialTargets = initialList(node)
                    state.initial = state.initialTargets.map(\.first) ?? text(node, expected: "the name of a child state", fixIt: "write 'initial: childState'")
                case "states": state.states = stateSpecs(item.value)
                case "entry": state.entry = actions(item.value, of: "'entry:'")
                case "exit": state.exit = actions(item.value, of: "'exit:'")
                case "on": state.on = handlers(item.value)
                case "ignore": state.ignore = names(item.value, expected: "a list of events", fixIt: "write 'ignore: [event, ...]'")
                case "after": state.after = timers(item.value)
                case "always": state.always = branches(item.value, of: "'always:'") ?? []
                case "output": state.output = outputFields(item.value)
                case "doneEvent": state.doneEvent = text(item.value, expected: "the name of a declared event", fixIt: "write 'doneEvent: eventName'")
                case "invariants": state.invariants = invariants(item.value)
                default: state.onDone = branches(item.value, of: "'onDone:'") ?? []
                }
            }
            if state.isHistory {
                state.kind = .history(deep: deep?.value == "deep")
            } else if let key = state.key("history") {
                error("'history:' belongs to a history state", at: key.location, fixIt: "add 'type: history', or remove 'history:'")
            }
            if let key = state.key("default"), !state.isHistory || state.key("target") != nil {
                error(
                    state.isHistory ? "a history state takes 'target:' or 'default:', not both" : "'default:' belongs to a history state",
                    at: key.location,
                    fixIt: state.isHistory ? "move 'target:' into 'default: {target: stateName, do: [actions]}'" : "add 'type: history', or remove 'default:'")
                if !state.isHistory { state.defaultActions = [] }
            }
            if !state.isHistory, let key = state.key("target") {
                error(
                    "'target:' in a state belongs to a history state (its default)", at: key.location,
                    fixIt: "add 'type: history', or move the transition under 'on:', 'always:' or 'after:'")
                state.historyTarget = nil
            }
            states.append(state)
        }
        return states
    }

    /// `entry:`, `exit:` or `do:`: a list of `{set: {...}}` and `{run: effect, request: ...}`.
    /// `{if: condition, then: [actions], else: [actions]}` (S106, S109): `nil` when the item has
    /// none of its keys, or when they are wrong (reported here).
    mutating func conditional(_ item: YAMLNode, _ entries: [YAMLMappingEntry], others: YAMLMappingEntry?) -> Action? {
        let condition = entries.first { $0.key.value == "if" }
        let then = entries.first { $0.key.value == "then" }
        let otherwise = entries.first { $0.key.value == "else" }
        guard let condition else {
            for key in [then, otherwise].compactMap({ $0 }) {
                error(
                    "'\(key.key.value):' belongs to a conditional action", at: key.key.location,
                    fixIt: "write '{if: condition, then: [actions], else: [actions]}'")
            }
            return nil
        }
        if let others {
            error(
                "a conditional action has no '\(others.key.value):' of its own", at: others.key.location,
                fixIt: "move it into 'then:' or 'else:': {if: condition, then: [{\(others.key.value): ...}]}")
            return nil
        }
        guard let then else {
            error("the conditional action has no 'then:'", at: item.location, fixIt: "write '{if: condition, then: [actions], else: [actions]}'")
            return nil
        }
        guard let expression = expression(condition.value, of: "'if:'") else { return nil }
        return .conditional(ConditionalAction(
            condition: expression, then: actions(then.value, of: "'then:'"),
            otherwise: otherwise.map { actions($0.value, of: "'else:'") } ?? [], at: item.location))
    }

    /// `raise: event` or `raise: {event: name, field: expression, ...}` (S120, S124): the event
    /// and its payload, checked against `events:` later.
    mutating func raised(_ node: YAMLNode, at location: SourceLocation) -> Action? {
        let fixIt = "write 'raise: event', or 'raise: {event: name, field: expression}' for an event with a payload"
        if node.scalar != nil {
            guard let event = text(node, expected: "the name of an event", fixIt: fixIt) else { return nil }
            return .raise(event: event, payload: [], at: location)
        }
        guard let entries = mapping(node, expected: "an event to raise", fixIt: fixIt) else { return nil }
        guard let name = entries.first(where: { $0.key.value == "event" }) else {
            error("'raise:' names no 'event:'", at: node.location, fixIt: fixIt)
            return nil
        }
        guard let event = text(name.value, expected: "the name of an event", fixIt: fixIt) else { return nil }
        let payload = entries.filter { $0.key.value != "event" }.compactMap { entry in
            expression(entry.value, of: "'\(entry.key.value)'").map { Assignment(field: entry.key.located, expression: $0) }
        }
        return .raise(event: event, payload: payload, at: location)
    }

    /// `send: event` or `send: {event: name, delay: 5s, id: retry, field: expression, ...}`
    /// (S126, S131): the event, its payload (checked against `events:` later, as a raise's), the
    /// delay (a duration or a name of `delays:`; none is zero) and the id.
    mutating func sent(_ node: YAMLNode, at location: SourceLocation) -> Action? {
        let fixIt = "write 'send: event', or 'send: {event: name, delay: 5s, id: name, field: expression}'"
        if node.scalar != nil {
            guard let event = text(node, expected: "the name of an event", fixIt: fixIt) else { return nil }
            return .send(SendAction(event: event, payload: [], delay: nil, milliseconds: 0, id: nil, at: location))
        }
        guard let entries = mapping(node, expected: "an event to send", fixIt: fixIt) else { return nil }
        guard let name = entries.first(where: { $0.key.value == "event" }) else {
            error("'send:' names no 'event:'", at: node.location, fixIt: fixIt)
            return nil
        }
        guard let event = text(name.value, expected: "the name of an event", fixIt: fixIt) else { return nil }
        if let to = entries.first(where: { $0.key.value == "to" }) {
            return sentToParent(event, to: to, entries: entries, at: location)
        }
        var delay: Located<String>?
        var milliseconds: Int64? = 0
        if let written = entries.first(where: { $0.key.value == "delay" }) {
            guard let value = text(written.value, expected: "a delay", fixIt: "write a duration (\(DurationParser.acceptedForms)) or the name of one of 'delays:'") else { return nil }
            delay = value
            milliseconds = DurationParser.milliseconds(value.value)
            if milliseconds == nil, value.value.first?.isNumber ?? false {
                error("'delay: \(value.value)' is not a duration", at: value.location, fixIt: "write \(DurationParser.acceptedForms), or the name of one of 'delays:'")
                return nil
            }
        }
        var id: Located<String>?
        if let written = entries.first(where: { $0.key.value == "id" }) {
            guard let value = text(written.value, expected: "the id of the send", fixIt: "write 'id: name', the name 'cancel:' gives") else { return nil }
            id = value
        }
        let payload = entries.filter { !["event", "delay", "id"].contains($0.key.value) }.compactMap { entry in
            expression(entry.value, of: "'\(entry.key.value)'").map { Assignment(field: entry.key.located, expression: $0) }
        }
        return .send(SendAction(event: event, payload: payload, delay: delay, milliseconds: milliseconds, id: id, at: location))
    }

    /// `send: {event: name, to: parent, field: expression, ...}` (E70): `to:` takes only `parent`,
    /// and such a send has no `delay:` nor `id:`.
    private mutating func sentToParent(_ event: Located<String>, to: YAMLMappingEntry, entries: [YAMLMappingEntry], at location: SourceLocation) -> Action? {
        guard let target = text(to.value, expected: "'parent'", fixIt: "write 'to: parent', or leave 'to:' out to send the event to this machine") else { return nil }
        guard target.value == "parent" else {
            error(
                "'to:' of a 'send:' takes only 'parent', found '\(target.value)'", at: target.location,
                fixIt: "write 'to: parent' to send the event to the machine that runs this one, or leave 'to:' out to send it to this machine")
            return nil
        }
        for key in ["delay", "id"] {
            guard let extra = entries.first(where: { $0.key.value == key }) else { continue }
            error(
                "a 'send:' to the parent takes no '\(key):'", at: extra.key.location,
                fixIt: "remove '\(key):': the event goes to the parent at once, and the parent may delay it with a 'send:' of its own")
            return nil
        }
        let payload = entries.filter { !["event", "to"].contains($0.key.value) }.compactMap { entry in
            expression(entry.value, of: "'\(entry.key.value)'").map { Assignment(field: entry.key.located, expression: $0) }
        }
        return .sendToParent(event: event, payload: payload, at: location)
    }

    /// `foreach: {in: array, item: field, index: field, do: [actions]}` (S170, S173): the array
    /// expression, the fields (checked against `context:` later) and the actions; `index:` and
    /// `do:` may be left out.
    mutating func loop(_ node: YAMLNode, at location: SourceLocation) -> Action? {
        let fixIt = "write 'foreach: {in: array, item: field, index: field, do: [actions]}'"
        guard let entries = mapping(node, expected: "a loop", fixIt: fixIt) else { return nil }
        let valid = known(entries, keys: ["in", "item", "index", "do"], in: "in 'foreach:'")
        guard valid.count == entries.count else { return nil }
        guard let array = valid.first(where: { $0.key.value == "in" }) else {
            error("'foreach:' has no 'in:'", at: node.location, fixIt: fixIt)
            return nil
        }
        guard let itemKey = valid.first(where: { $0.key.value == "item" }) else {
            error("'foreach:' has no 'item:'", at: node.location, fixIt: fixIt)
            return nil
        }
        guard let expression = expression(array.value, of: "'in:'"),
              let item = text(itemKey.value, expected: "the name of a context field", fixIt: fixIt)
        else { return nil }
        var index: Located<String>?
        if let indexKey = valid.first(where: { $0.key.value == "index" }) {
            guard let name = text(indexKey.value, expected: "the name of an Int context field", fixIt: fixIt) else { return nil }
            if name.value == item.value {
                error("'index:' names '\(name.value)', the field 'item:' names", at: name.location, fixIt: "name two different context fields")
                return nil
            }
            index = name
        }
        let body = valid.first { $0.key.value == "do" }.map { actions($0.value, of: "'do:'") } ?? []
        return .foreach(ForeachAction(array: expression, item: item, index: index, actions: body, at: location))
    }

    mutating func actions(_ node: YAMLNode, of owner: String) -> [Action] {
        let items: [YAMLNode]
        if let sequence = node.sequence {
            items = sequence
        } else if node.mapping != nil {
            items = [node]
        } else if let scalar = node.scalar, scalar.value.isEmpty, scalar.style == .plain {
            return []
        } else {
            error(
                "expected a list of actions for \(owner), found \(Self.found(node))", at: node.location,
                fixIt: "write \(owner) [{set: {field: expression}}, {run: effect, request: expression}]")
            return []
        }
        var actions: [Action] = []
        for item in items {
            guard let entries = mapping(
                item, expected: "an action ('{set: {...}}' or '{run: effect, request: ...}')",
                fixIt: "write '{set: {field: expression}}' or '{run: effect, request: expression}'")
            else { continue }
            let valid = known(entries, keys: SpecDecoder.Keys.action, in: "in an action")
            let set = valid.first { $0.key.value == "set" }
            let run = valid.first { $0.key.value == "run" }
            let request = valid.first { $0.key.value == "request" }
            if let conditional = conditional(item, valid, others: set ?? run) {
                actions.append(conditional)
                continue
            }
            if valid.contains(where: { ["if", "then", "else"].contains($0.key.value) }) { continue }
            // `raise:`, `send:`, `cancel:` and `foreach:` each make an action of their own (S124, S131, S173).
            let alone = ["raise", "send", "cancel", "foreach"]
            if let own = valid.first(where: { alone.contains($0.key.value) }) {
                let keyword = own.key.value
                if let other = set ?? run ?? request ?? valid.first(where: { alone.contains($0.key.value) && $0.key.value != keyword }) {
                    error(
                        "a '\(keyword):' action does nothing else; '\(other.key.value):' belongs to an action of its own", at: other.key.location,
                        fixIt: "write them as two actions: [{\(keyword): ...}, {\(other.key.value): ...}]")
                    continue
                }
                switch keyword {
                case "raise": if let raised = raised(own.value, at: item.location) { actions.append(raised) }
                case "send": if let sent = sent(own.value, at: item.location) { actions.append(sent) }
                case "foreach": if let loop = loop(own.value, at: item.location) { actions.append(loop) }
                default:
                    if let id = text(own.value, expected: "the id of a send", fixIt: "write 'cancel: id', the 'id:' of a 'send:'") {
                        actions.append(.cancel(id: id, at: item.location))
                    }
                }
                continue
            }
            switch (set, run) {
            case (let set?, nil):
                if let request {
                    error("'request:' belongs to a 'run:' action", at: request.key.location, fixIt: "remove it, or write a separate '{run: effect, request: ...}'")
                }
                actions.append(.set(assignments(set.value), at: item.location))
            case (nil, let run?):
                guard let effect = text(run.value, expected: "the name of an effect", fixIt: "write '{run: effect, request: expression}'") else { continue }
                actions.append(.run(effect: effect, request: request.flatMap { expression($0.value, of: "'request:'") }, at: item.location))
            case (_?, let run?):
                error("an action either sets fields or runs an effect, not both", at: run.key.location, fixIt: "write them as two actions: [{set: {...}}, {run: ...}]")
            case (nil, nil):
                if valid.count == entries.count {
                    error("the action has neither 'set:' nor 'run:'", at: item.location, fixIt: "write '{set: {field: expression}}' or '{run: effect, request: expression}'")
                }
            }
        }
        return actions
    }

    mutating func handlers(_ node: YAMLNode) -> [EventHandler] {
        guard let entries = mapping(
            node, expected: "a mapping from events to transitions",
            fixIt: "write 'event: target', 'event: {target: state, set: {...}}' or 'event: ignore'", allowEmpty: true)
        else { return [] }
        return entries.compactMap { entry in
            branches(entry.value, of: "'\(entry.key.value)'").map { EventHandler(event: entry.key.located, branches: $0) }
        }
    }

    mutating func timers(_ node: YAMLNode) -> [TimerSpec] {
        guard let entries = mapping(node, expected: "a mapping from delays to transitions", fixIt: "write '5s: {target: state}'", allowEmpty: true) else { return [] }
        var timers: [TimerSpec] = []
        for entry in entries {
            let delay = entry.key.located
            // A name (E36) starts with a letter, a literal with a digit.
            let isName = delay.value.first.map { $0.isLetter || $0 == "_" } ?? false
            let milliseconds = isName ? nil : DurationParser.milliseconds(delay.value)
            if !isName, milliseconds == nil {
                error("'\(delay.value)' is not a duration", at: delay.location, fixIt: "write \(DurationParser.acceptedForms), or the name of a delay under 'delays:'")
            }
            guard let branches = branches(entry.value, of: "the timer '\(delay.value)'"), isName || milliseconds != nil else { continue }
            timers.append(TimerSpec(delay: delay, milliseconds: milliseconds, branches: branches))
        }
        return timers
    }

    /// A handler's value: one transition (a mapping, or a target name), `ignore`, or a list of them.
    mutating func branches(_ node: YAMLNode, of owner: String) -> [Branch]? {
        switch node.content {
        case .scalar, .mapping:
            return branch(node, of: owner).map { [$0] }
        case .sequence(let items):
            if items.isEmpty {
                error("the list of branches for \(owner) is empty", at: node.location, fixIt: "write 'ignore' to do nothing, or add '- {target: state}'")
                return nil
            }
            let branches = items.compactMap { branch($0, of: owner) }
            return branches.count == items.count ? branches : nil
        }
    }

    mutating func branch(_ node: YAMLNode, of owner: String) -> Branch? {
        switch node.content {
        case .scalar(let scalar):
            if scalar.value.isEmpty {
                error("\(owner) has no transition", at: node.location, fixIt: "write a target state, '{target: state, set: {...}}', or 'ignore'")
                return nil
            }
            if scalar.value == "ignore", scalar.style == .plain { return .ignore(scalar.contentLocation) }
            // `searchChanged: loading` is short for `{target: loading}`.
            return .transition(Transition(location: node.location, target: scalar.located))
        case .mapping(let entries):
            var transition = Transition(location: node.location)
            for entry in known(entries, keys: SpecDecoder.Keys.transition, in: "in a transition") {
                switch entry.key.value {
                case "guard": transition.guardExpression = expression(entry.value, of: "'guard:'")
                case "target": transition.target = text(entry.value, expected: "a target state", fixIt: "write 'target: stateName'")
                case "set": transition.assignments = assignments(entry.value)
                case "reenter":
                    switch entry.value.scalar?.value {
                    case "true": transition.reenter = entry.key.location
                    case "false": break
                    default:
                        error(
                            "'reenter:' takes 'true' or 'false', found \(Self.found(entry.value))", at: entry.value.location,
                            fixIt: "write 'reenter: true' to exit and re-enter the source even when the target lies inside it")
                    }
                default: transition.actions = actions(entry.value, of: "'do:'")
                }
            }
            if let reenter = transition.reenter, transition.target == nil {
                error(
                    "'reenter: true' needs a 'target:': a transition without one exits and enters nothing", at: reenter,
                    fixIt: "add 'target:' naming the state to re-enter (the source itself re-enters it, S23), or remove 'reenter:'")
                transition.reenter = nil
            }
            return .transition(transition)
        case .sequence:
            error(
                "expected a transition or 'ignore' for \(owner), found a list inside the list", at: node.location,
                fixIt: "write each branch as '- {guard: ..., target: ...}' or '- ignore'")
            return nil
        }
    }

    mutating func assignments(_ node: YAMLNode) -> [Assignment] {
        guard let entries = mapping(node, expected: "a mapping from context fields to expressions", fixIt: "write 'set: {field: expression}'", allowEmpty: true) else { return [] }
        return entries.compactMap { entry in
            expression(entry.value, of: "'\(entry.key.value)'").map { Assignment(field: entry.key.located, expression: $0) }
        }
    }

    // MARK: Effects

    mutating func effectSpecs(_ node: YAMLNode) -> [EffectSpec] {
        guard let entries = mapping(
            node, expected: "a mapping of effects",
            fixIt: "write each effect as 'name: {in: [states], request: {type: T, value: expression}, emits: [events]}'", allowEmpty: true)
        else { return [] }
        return entries.compactMap { effectSpec($0) }
    }

    /// One effect; its keys fix its shape (E1), and combinations that mean nothing are errors at
    /// the second key (E2).
    mutating func effectSpec(_ entry: YAMLMappingEntry) -> EffectSpec? {
        let effectName = entry.key.located
        guard let body = mapping(
            entry.value, expected: "the body of effect '\(effectName.value)' as a mapping",
            fixIt: "write 'in:', 'request:' and 'emits:' under '\(effectName.value):'")
        else { return nil }
        let valid = known(body, keys: SpecDecoder.Keys.effect, in: "in an effect")
        func key(_ name: String) -> YAMLMappingEntry? { valid.first { $0.key.value == name } }
        let errorsBefore = diagnostics.errorCount
        var effect = EffectSpec(name: effectName, states: nil, request: nil, emits: [])
        if let item = key("in") {
            effect.states = names(item.value, expected: "a list of states", fixIt: "write 'in: [state, ...]': the states in which the effect may run")
        }
        let single = key("request"), set = key("requests")
        if let single, let set {
            let second = single.key.location < set.key.location ? set : single
            error("an effect has either 'request:' or 'requests:', not both", at: second.key.location,
                  fixIt: "keep 'request:' for one run at a time, or 'requests:' for one run per element of a set")
        } else if let item = single ?? set {
            effect.isSet = set != nil
            effect.request = requestSpec(item.value)
        }
        if let item = key("emits") {
            effect.emits = names(item.value, expected: "a list of events", fixIt: "write 'emits: [event, ...]': the events the effect answers with")
        }
        if let item = key("stream") {
            switch item.value.scalar?.value {
            case "true": effect.isStream = true
            case "false": break
            default: error("'stream:' takes 'true' or 'false', found \(Self.found(item.value))", at: item.value.location, fixIt: "write 'stream: true' for an effect that answers with any number of events")
            }
        }
        if let item = key("onError") {
            effect.onError = text(item.value, expected: "the event a failure becomes", fixIt: "write 'onError: failed', an event with optional fields 'error: String' and 'request: T'")
        }
        let inWritten = key("in") != nil
        if let item = key("afterRestart") {
            effect.afterRestart = afterRestart(item, of: effectName.value, inWritten: inWritten)
        }
        let childKeys = valid.filter { ["input", "forward", "events", "onDone"].contains($0.key.value) }
        if let item = key("machine") {
            if let machine = text(item.value, expected: "the name of a machine", fixIt: "write 'machine: Payment', the 'machine:' name of another spec") {
                effect.child = childMachine(machine, body: valid)
            }
            for other in ["request", "requests", "stream", "emits", "onError"] {
                if let clash = key(other) {
                    error("'\(other):' does not belong to a child machine", at: clash.key.location,
                          fixIt: "remove it: a child machine's request is its 'input:', and its results are the events of 'onDone:' and 'events:'")
                }
            }
        } else if let extra = childKeys.first {
            error("'\(extra.key.value):' belongs to a child machine", at: extra.key.location, fixIt: "add 'machine: Name', or remove '\(extra.key.value):'")
        }
        if !inWritten {
            for (name, reason) in [("requests", "a set"), ("stream", "a stream"), ("machine", "a child machine")] {
                if let item = key(name), name != "stream" || effect.isStream {
                    error("\(reason) needs 'in:', the states it runs in", at: item.key.location,
                          fixIt: "add 'in: [state, ...]'; a one-shot effect started by 'run:' has no lifetime that could end \(reason)")
                }
            }
        }
        if effect.isStream, key("emits") == nil || effect.emits.isEmpty, let item = key("stream") {
            error("a stream without results has nothing to send", at: item.key.location,
                  fixIt: "add 'emits: [event, ...]', or remove 'stream: true': a fire-and-forget effect already runs until its request changes")
        }
        if effect.child == nil, key("machine") == nil, inWritten {
            if let request = effect.request, request.value == nil {
                error(
                    "effect '\(effectName.value)' runs in states, so its request needs a 'value:'", at: effectName.location,
                    fixIt: "add 'value: expression' to 'request:' (the effect runs while it is not nil), or remove 'in:' to start the effect with 'run:' actions")
            } else if single == nil, set == nil {
                error("effect '\(effectName.value)' has no 'request:'", at: effectName.location, fixIt: "add 'request: {type: T, value: expression}'; the effect runs while the value is not nil")
            }
        }
        return diagnostics.errorCount == errorsBefore ? effect : nil
    }

    /// `afterRestart: rerun` or `drop` of a one-shot effect (Docs/Durability.md D44), at its key;
    /// whether the spec persists is the checker's.
    mutating func afterRestart(_ item: YAMLMappingEntry, of effect: String, inWritten: Bool) -> Located<AfterRestart>? {
        if inWritten {
            error("'afterRestart:' belongs to a one-shot effect, and effect '\(effect)' has 'in:'", at: item.key.location,
                  fixIt: "remove 'afterRestart:': an effect with 'in:' starts again when the restored state asks for it (Docs/Durability.md D41)")
        }
        guard let value = item.value.scalar?.value, let afterRestart = AfterRestart(rawValue: value) else {
            error("'afterRestart:' takes 'rerun' or 'drop', found \(Self.found(item.value))", at: item.value.location,
                  fixIt: "write 'afterRestart: drop' for an effect that must not run twice (a run not known finished at a restart is dropped), or 'afterRestart: rerun', the default (it runs again with its key)")
            return nil
        }
        return Located(afterRestart, at: item.key.location)
    }

    /// `machine:` with `input:`, `forward:`, `events:` and `onDone:` (E23–E31, E71).
    mutating func childMachine(_ machine: Located<String>, body: [YAMLMappingEntry]) -> ChildMachine {
        var child = ChildMachine(machine: machine)
        for item in body {
            switch item.key.value {
            case "input":
                child.inputKey = item.key.located
                guard let entries = mapping(item.value, expected: "a mapping from the child's input fields to expressions", fixIt: "write 'input: {amount: cart.total}'") else { continue }
                child.input = entries.compactMap { entry in
                    expression(entry.value, of: "input '\(entry.key.value)'").map { Assignment(field: entry.key.located, expression: $0) }
                }
            case "forward":
                if let list = item.value.sequence {
                    child.forward = list.compactMap { text($0, expected: "an event", fixIt: "write 'forward: [cancel]' or 'forward: {cancel: abort}'") }.map { NameMapping(from: $0, to: $0) }
                } else {
                    child.forward = nameMappings(item.value, expected: "a mapping from parent events to child events", fixIt: "write 'forward: {cancel: abort}', or 'forward: [cancel]' to keep the name")
                }
            case "events":
                child.eventsKey = item.key.located
                if let list = item.value.sequence {
                    child.events = list.compactMap { text($0, expected: "an event", fixIt: "write 'events: [progress]' or 'events: {progress: uploadProgressed}'") }.map { NameMapping(from: $0, to: $0) }
                } else {
                    child.events = nameMappings(item.value, expected: "a mapping from the child's events to parent events", fixIt: "write 'events: {progress: uploadProgressed}', or 'events: [progress]' to keep the name")
                }
            case "onDone":
                child.onDoneKey = item.key.located
                child.onDone = nameMappings(item.value, expected: "a mapping from the child's final states to events", fixIt: "write 'onDone: {paid: paid, declined: declined}'")
            default: continue
            }
        }
        return child
    }

    mutating func nameMappings(_ node: YAMLNode, expected: String, fixIt: String) -> [NameMapping] {
        guard let entries = mapping(node, expected: expected, fixIt: fixIt) else { return [] }
        return entries.compactMap { entry in text(entry.value, expected: "a name", fixIt: fixIt).map { NameMapping(from: entry.key.located, to: $0) } }
    }

    /// `output: {field: {type: T, value: expression}}` of a final state (E22).
    mutating func outputFields(_ node: YAMLNode) -> [OutputField] {
        guard let entries = mapping(node, expected: "a mapping of output fields", fixIt: "write 'output: {receipt: {type: String, value: receipt}}'") else { return [] }
        return entries.compactMap { entry in
            guard let body = mapping(entry.value, expected: "'{type: T, value: expression}' for output field '\(entry.key.value)'", fixIt: "write '\(entry.key.value): {type: T, value: expression}'") else { return nil }
            var type: Located<String>?, value: Located<String>?
            for item in known(body, keys: SpecDecoder.Keys.outputField, in: "in an output field") {
                if item.key.value == "type" { type = swiftType(item.value) } else { value = expression(item.value, of: "'value:'") }
            }
            guard let type, let value else {
                if !body.contains(where: { $0.key.value == "type" }) || !body.contains(where: { $0.key.value == "value" }) {
                    error("output field '\(entry.key.value)' needs 'type:' and 'value:'", at: entry.key.location, fixIt: "write '\(entry.key.value): {type: T, value: expression}'")
                }
                return nil
            }
            return OutputField(name: entry.key.located, type: type, value: value)
        }
    }

    mutating func requestSpec(_ node: YAMLNode) -> RequestSpec? {
        guard let entries = mapping(node, expected: "'{type: T, value: expression}'", fixIt: "write 'request: {type: URL, value: nextPageURL}'") else { return nil }
        var type: Located<String>?
        var value: Located<String>?
        for entry in known(entries, keys: SpecDecoder.Keys.request, in: "in a request") {
            if entry.key.value == "type" { type = swiftType(entry.value) } else { value = expression(entry.value, of: "'value:'") }
        }
        if !entries.contains(where: { $0.key.value == "type" }) {
            error("the request has no 'type:'", at: node.location, fixIt: "write 'request: {type: T, value: expression}'")
        }
        let valueWritten = entries.contains { $0.key.value == "value" }
        guard let type, value != nil || !valueWritten else { return nil }
        return RequestSpec(type: type, value: value)
    }

    // MARK: Node kinds

    /// The entries of a mapping; an empty plain value counts as an empty mapping when allowed.
    mutating func mapping(_ node: YAMLNode, expected: String, fixIt: String, allowEmpty: Bool = false) -> [YAMLMappingEntry]? {
        if let entries = node.mapping { return entries }
        if allowEmpty, let scalar = node.scalar, scalar.value.isEmpty, scalar.style == .plain { return [] }
        error("expected \(expected), found \(Self.found(node))", at: node.location, fixIt: fixIt)
        return nil
    }

    /// A non-empty scalar used as a name.
    mutating func text(_ node: YAMLNode, expected: String, fixIt: String) -> Located<String>? {
        if let scalar = node.scalar, !scalar.value.isEmpty { return scalar.located }
        error("expected \(expected), found \(Self.found(node))", at: node.location, fixIt: fixIt)
        return nil
    }

    /// The mapping of a default entry with actions (S144): `{target: ..., do: [...]}`, each key
    /// optional here; `nil` (reported) for another key or a value that is no mapping.
    mutating func defaultEntry(_ node: YAMLNode, of owner: String, fixIt: String) -> (target: YAMLNode?, actions: [Action])? {
        guard let entries = mapping(node, expected: "a mapping with 'target:' and 'do:' for \(owner)", fixIt: fixIt) else { return nil }
        var target: YAMLNode?
        var actions: [Action] = []
        for entry in known(entries, keys: ["target", "do"], in: "in \(owner)") {
            if entry.key.value == "target" {
                target = entry.value
            } else {
                actions = self.actions(entry.value, of: "'do:'")
            }
        }
        return (target, actions)
    }

    /// The list form of `initial:` (S140): `nil` for a single name; an empty list is an error.
    mutating func initialList(_ node: YAMLNode) -> [Located<String>]? {
        guard let items = node.sequence else { return nil }
        if items.isEmpty {
            error("'initial:' lists no state", at: node.location, fixIt: "name the state entered first, or one state per region: 'initial: [a1, b1]'")
        }
        return items.compactMap { text($0, expected: "the name of a state", fixIt: "write 'initial: [stateInOneRegion, stateInAnother]'") }
    }

    /// A list of names; a single name stands for a list of one, and an empty value for none.
    mutating func names(_ node: YAMLNode, expected: String, fixIt: String) -> [Located<String>] {
        if let scalar = node.scalar {
            if scalar.value.isEmpty && scalar.style == .plain { return [] }
            return [scalar.located]
        }
        guard let items = node.sequence else {
            error("expected \(expected), found \(Self.found(node))", at: node.location, fixIt: fixIt)
            return []
        }
        return items.compactMap { text($0, expected: "a name", fixIt: fixIt) }
    }

    /// A Swift type, verbatim.
    mutating func swiftType(_ node: YAMLNode) -> Located<String>? {
        text(node, expected: "a Swift type", fixIt: "write the type as text; quote types with brackets or braces: \"[Repository]\"")
    }

    /// A Swift expression, verbatim, located at its first character.
    mutating func expression(_ node: YAMLNode, of owner: String) -> Located<String>? {
        let example = node.mapping != nil ? "\"[key: value]\"" : "\"[]\""
        return text(
            node, expected: "a Swift expression for \(owner)",
            fixIt: "quote the expression so YAML reads it as text, e.g. \(example); quote any expression that starts with [, {, !, & or *, or contains ': ' or ' #'")
    }

    /// What was found instead, for "expected ..., found ..."; long values are shortened.
    static func found(_ node: YAMLNode) -> String {
        guard let scalar = node.scalar, !scalar.value.isEmpty else { return node.kindDescription }
        let text = scalar.value.count > 40 ? String(scalar.value.prefix(40)) + "..." : scalar.value
        return "'\(text)'"
    }

    /// The entries whose keys are known; unknown and reserved keys are reported and left out.
    mutating func known(_ entries: [YAMLMappingEntry], keys: [String], in place: String) -> [YAMLMappingEntry] {
        entries.filter { entry in
            let key = entry.key.value
            if keys.contains(key) { return true }
            if let advice = SpecDecoder.Keys.xstate[key] {
                error("unknown key '\(key)' \(place)", at: entry.key.location, fixIt: advice)
            } else if let suggestion = SpellingSuggestion.closest(to: key, among: keys) {
                error("unknown key '\(key)' \(place)", at: entry.key.location, fixIt: "did you mean '\(suggestion)'?")
            } else {
                error("unknown key '\(key)' \(place)", at: entry.key.location, fixIt: "use one of \(keys.joined(separator: ", "))")
            }
            return false
        }
    }
}
