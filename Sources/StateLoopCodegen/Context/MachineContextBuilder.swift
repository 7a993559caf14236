import StateLoopSpec

// Owns the translation of a `CheckedMachineSpec` into a `MachineContext`: every decision about the
// generated Swift that is not pure layout. The checks have run (only the loader makes a checked
// spec), so nothing here is checked again: names are identifiers that clash with nothing
// generated, every reference resolves, every event is covered. One file per part of the output:
//
//   MachineContextBuilder+Types             an alias per type written in the spec (`SpecTypeNames`), at its YAML position
//   MachineContextBuilder+Events            `Event` cases, payload structs, case patterns
//   MachineContextBuilder+ModeTypes         `Mode` and its nested types, `StateName`, `isIn`, `isDone`
//   MachineContextBuilder+Configuration     how a configuration is named, built, tested and stored
//   MachineContextBuilder+LeafDecisions     which branches decide each event in each leaf
//   MachineContextBuilder+Reducer           the reducer's method per leaf and its dispatch
//   MachineContextBuilder+Transitions       a transition's code, the `if` / `else if` chain of branches
//   MachineContextBuilder+ExitAndEntry      the exit and entry functions, history
//   MachineContextBuilder+Settle            `always:`, `onDone:` and the settle loop
//   MachineContextBuilder+Parallel          selectors and the microstep below parallel states
//   MachineContextBuilder+InitialAndReduce  `State.initial` and `reduce`
//   MachineContextBuilder+Effects           effects and `after:` timers: request members, feedbacks
//   MachineContextBuilder+Testing           the `StateMachine` conformance tests and coverage read
//   MachineContextBuilder+Invariants        `invariants:`: their members of `State`, `invariants`, `brokenInvariants`
//   MachineContextBuilder+Descriptions      how `Mode` and its nested types, `Event`, `Call` and `Run` print
//   MachineContextBuilder+Journal           a persisted machine's journal coding and `DurableMachine` conformance
//   MachineContextBuilder+Migration         the readers of its older locked versions, which migrate what they read
//
// A flat spec is a statechart of one level and takes the same path (S78, S79). Names the
// generated code declares or derives come from `GeneratedNames`; every line is printed by
// `SwiftPrinter`, which lays out text from the spec through `SourcePlacement`.

/// Turns a `CheckedMachineSpec` into the `MachineContext` the templates print.
public struct MachineContextBuilder {
    /// The checked spec's contents (read directly: the checks are behind us).
    let spec: MachineSpec
    /// The statechart rules decided for this machine: chains, domains, conflicts, `onDone:`.
    let semantics: MachineSemantics
    /// Every branch numbered: the reducer records these ids as it takes them.
    var transitions: TransitionList { semantics.transitions }
    /// The fields of `State` only the reducer writes, which `copyBookkeeping` copies.
    var bookkeeping: [String] = []
    let access: AccessLevel
    let placement: SourcePlacement
    /// The spec's file name as comment text, computed once: every doc comment points at it.
    let fileComment: String
    /// How many members of each kind have been numbered (`_default0`, `_value0`, ...).
    private var memberCounts: [String: Int] = [:]
    /// The type aliases declared so far, in order.
    var typeAliases: [MachineContext.TypeAlias] = []
    /// The alias of each context field's type, in `context:` order.
    var fieldTypes: [String] = []
    /// The alias of each payload field's type, by event name, in payload order.
    var payloadTypes: [String: [String]] = [:]
    /// The alias of each effect's request type, by effect name (none: a one-shot effect without request).
    var requestTypes: [String: String] = [:]
    /// The alias of each `input:` field's type, in order.
    var inputTypes: [String] = []
    /// The aliases of each top-level final state's `output:` types, by state name.
    var outputTypes: [String: [String]] = [:]
    /// The member that evaluates each of `delays:`, by delay name.
    var delayMembers: [String: String] = [:]
    /// The specs of the child machines the effects run, by `machine:` name.
    let children: [String: MachineSpec]
    /// The lock the spec was checked against: the layouts of its older versions (D92).
    let lock: LockFile?
    /// True when some state has `after:` timers.
    let hasTimers: Bool
    /// The position of each context field in `context:`, by name.
    let fieldIndex: [String: Int]
    /// The members of `State` made so far, in order.
    var members: [MachineContext.Member] = []
    /// Each event's case patterns, in `events:` order (see `makeEventCaseSpellings`).
    var eventCaseSpellings: [EventCaseSpelling] = []
    /// What the statechart generator derives from the state tree: which states have entry or exit
    /// work, and which statechart features the machine uses.
    let flags: StatechartFlags
    /// Each state's escaped name, by position: every pattern and value of a configuration spells them.
    let caseNames: [String]
    /// The member each inherited transition was written into, by its YAML position.
    var sharedTakes: [String: String] = [:]
    /// The member that runs each action block, by the action's YAML position and the payload it
    /// takes: a history's default actions are called from two places, and each expression is
    /// printed (and so reported by swiftc) once.
    var actionMembers: [String: String] = [:]
    /// Branches taken below parallel states: their numbers by YAML position, and per number the
    /// lines of each phase and the branch's id.
    var parallelNumbers: [String: Int] = [:]
    var parallelPhases: [[SwiftPrinter]] = []
    var parallelIds: [Int] = []
    /// The layout of the journal coding `conformance` prints (`nil` unless the spec persists).
    private(set) var journal: JournalLayout?

    /// Translates `spec` into what the templates print, declaring `access` on the generated API.
    public static func build(_ spec: CheckedMachineSpec, access: AccessLevel = .public) -> MachineContext {
        var builder = MachineContextBuilder(spec: spec, access: access)
        return builder.makeContext()
    }

    /// How the journal coding generated for `spec` lays out its values (Docs/Durability.md D84):
    /// the model the generated `JournalCodable` conformances are printed from, so a tool that
    /// reads a journal with it reads what the generated code wrote; `nil` unless the spec persists.
    public static func journalLayout(_ spec: CheckedMachineSpec) -> JournalLayout? {
        var builder = MachineContextBuilder(spec: spec, access: .public)
        _ = builder.makeContext()
        return builder.journal
    }

    private init(spec: CheckedMachineSpec, access: AccessLevel) {
        self.spec = spec.spec
        self.semantics = spec.semantics
        self.children = spec.children
        self.lock = spec.lock
        self.access = access
        let tree = semantics.tree
        self.flags = StatechartFlags(semantics)
        self.hasTimers = flags.hasTimers
        self.caseNames = tree.nodes.map { SwiftName.escaped($0.name) }
        self.fieldIndex = Dictionary(spec.context.enumerated().map { ($1.name.value, $0) }, uniquingKeysWith: { first, _ in first })
        self.placement = SourcePlacement(fileLiteral: SwiftLiteral.sourceLocationFile(spec.file))
        self.fileComment = SwiftLiteral.comment(Self.fileName(spec.file))
    }

    /// `Event` has no case: every function that takes one gets an empty body (S93).
    var eventless: Bool { spec.events.isEmpty && !hasTimers && !flags.sends }

    static func fileName(_ path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }

    // MARK: - The whole context

    private mutating func makeContext() -> MachineContext {
        makeTypeAliases()
        eventCaseSpellings = makeEventCaseSpellings()
        let initialArguments = makeDefaults()
        makeDelayMembers()
        makeInvariantMembers()
        let tree = semantics.tree
        // A flat spec is a statechart of one level: the same writer prints it (S78, S79).
        let reducerModes = eventless ? [] : tree.leaves.filter { outermostParallel($0) == nil }.map { makeLeafReducer($0) }
        let dispatch = dispatchLines()
        makeParallelMembers()
        makeExitAndEntryMembers()
        if flags.settles { makeSettleMembers() }
        let effects = spec.effects.map { makeEffect($0) }
        let timers = makeTimers()
        let oneShots = spec.effects.filter(\.isOneShot)
        if flags.hasRuns {
            var body = memberPrinter()
            body.line("runs.append(run)")
            body.line("_runsQueued &+= 1")
            addMember(doc: "Queues a one-shot run for the system to start (S38).", declaration: "fileprivate mutating func _queue(_ run: Run)", body: body)
        }
        var ownFields = effectFields()
        for (position, node) in tree.nodes.enumerated() where flags.stampsEntry[position] {
            ownFields.append(.init(doc: "`_entries` when `\(node.name)` was last entered: its timers' request.", name: "_entered_\(node.name)", declaration: "Swift.Int = 0", journal: .standard("Int")))
        }
        for node in tree.nodes where node.spec.isHistory {
            ownFields.append(.init(doc: "What history state `\(node.name)` restores, recorded when its parent is exited (S32).", name: "_history_\(node.name)", declaration: "\(contentType(node.parent!))? = nil", journal: .optional(.generated(contentType(node.parent!)))))
        }
        if flags.hasOnDone {
            ownFields.append(.init(doc: "The states whose `onDone:` is due, in order (S55).", name: "_done", declaration: "[StateName] = []", journal: .array(.generated(GeneratedNames.stateName))))
        }
        if flags.hasRuns {
            ownFields.append(.init(doc: "The one-shot runs the last step queued, in order (S39); the system starts each once.", name: "runs", declaration: "[Run] = []", journal: .array(.generated(GeneratedNames.run))))
            ownFields.append(.init(doc: "How many runs have been queued since the start: the sequence number after the last of `runs`.", name: "_runsQueued", declaration: "Swift.Int = 0", journal: .standard("Int")))
        }
        if readsTrigger {
            ownFields.append(.init(doc: "The event of the step that is running, `nil` at rest and while `initial` is entered (S111, S112).", name: GeneratedNames.triggerField, declaration: "Event? = nil", journal: .optional(.generated(GeneratedNames.event))))
        }
        if flags.sends {
            makeSendMember()
            ownFields.append(.init(doc: "The `send:`s not yet delivered nor cancelled, in the order they were sent (S127).", name: "pendingSends", declaration: "StateLoop.PendingSends<Event.Send> = []", journal: .array(.generated(GeneratedNames.sendType))))
            ownFields.append(.init(doc: "How many `send:`s have run since the start: the number of the next one.", name: "_sends", declaration: "Swift.Int = 0", journal: .standard("Int")))
        }
        if flags.raises {
            ownFields.append(.init(doc: "The raised events not yet taken, oldest first; empty between steps (S121).", name: "_raised", declaration: "[Event] = []", journal: .array(.generated(GeneratedNames.event))))
        }
        if flags.settles {
            let raised = flags.raises ? ", or more than 1,000 events were raised (S122)" : ""
            ownFields.append(.init(doc: "False when `always:` transitions were still enabled after 1,000 microsteps (S51)\(raised).", name: "isSettled", declaration: "Swift.Bool = true", journal: .standard("Bool")))
        }
        bookkeeping = (hasTimers ? ["_entries"] : []) + ownFields.map(\.name)
        // Every stored property of `State`, in declaration order, with how it is journaled.
        let stateFields = journalStateFields(ownFields: ownFields)
        let stateProperties = stateFields.map { SwiftName.escaped($0.name) }
        journal = journalLayout(stateFields: stateFields)
        let stateEquality = spec.context.isEmpty ? [] : structEquality(GeneratedNames.state, properties: stateProperties)
        var internalFields = SwiftPrinter(placement: placement, level: 2)
        for field in ownFields {
            internalFields.line("/// \(field.doc)")
            internalFields.line("\(access.readOnlyPrefix)var \(field.name): \(field.declaration)")
        }
        let initialBody = initialLines(initialArguments)
        let reduceBody = eventless ? [] : reduceLines(stateFields: stateFields)
        let runFeedback = runFeedbackLines(oneShots)
        var feedbacksParameters: [String] = []
        var systemParameters = [spec.input.isEmpty ? "initial: State = .initial" : "initial: State"]
        var feedbacksArguments: [String] = []
        // No `Effects` when no effect has a method (only children without effects, E34).
        let hasEffects = spec.effects.contains(where: hasMethod)
        if hasEffects {
            feedbacksParameters.append("_ effects: some Effects")
            systemParameters.append("effects: some Effects")
            feedbacksArguments.append("effects")
        }
        if Self.needsClock(spec) {
            feedbacksParameters.append("clock: some Swift.Clock<Swift.Duration>")
            systemParameters.append("clock: some Swift.Clock<Swift.Duration> = Swift.ContinuousClock()")
            feedbacksArguments.append("clock: clock")
        }
        systemParameters.append("onTransition: (@Sendable (StateLoop.TransitionInfo) -> Swift.Void)? = nil")
        let effectQueries = effectQueryLines()
        return MachineContext(
            header: "// Generated by stateloop from \(fileComment). Do not edit.",
            imports: makeImports(),
            machine: SwiftName.escaped(spec.name.value),
            access: access.prefix,
            readOnlyAccess: access.readOnlyPrefix,
            machineDoc: "The `\(SwiftLiteral.comment(spec.name.value))` state machine of \(fileComment): "
                + "its states, events, reducer, effects and feedback loops.",
            typeAliases: typeAliases,
            modeLines: modeLines(),
            modeConformances: "Swift.Hashable, Swift.Sendable" + (tree.nodes.contains { $0.spec.kind == .parallel } ? "" : ", Swift.CaseIterable"),
            stateNames: stateNameCases(),
            queryLines: queryLines() + effectQueries,
            internalFields: forwardedFieldLines() + toParentFieldLines() + internalFields.finished(),
            initialBody: initialBody,
            stateEquality: stateEquality,
            eventEquality: enumEquality(
                GeneratedNames.event, events: spec.events,
                extra: (hasTimers ? [(name: GeneratedNames.timerCase, arity: 1)] : []) + (flags.sends ? [(name: GeneratedNames.sendCase, arity: 1)] : [])),
            reduceBody: reduceBody,
            eventless: eventless,
            dispatch: dispatch,
            reducerReturn: flags.settles ? " -> Swift.Bool" : "",
            timerModes: timerModeLines(),
            runCases: oneShots.map { effect in
                let name = SwiftName.escaped(effect.name.value)
                return requestTypes[effect.name.value].map { "\(name)(\($0))" } ?? name
            },
            runEquality: enumEquality(GeneratedNames.run, cases: oneShots.map { (SwiftName.escaped($0.name.value), requestTypes[$0.name.value] == nil ? 0 : 1) }, level: 2),
            runFeedback: runFeedback,
            sendLines: sendLines(),
            sendFeedback: sendFeedbackLines(),
            typeLines: typeLines(),
            initialDeclaration: spec.input.isEmpty
                ? "\(access.prefix)static var initial: Self"
                : "\(access.prefix)static func initial(_ input: Input) -> Self",
            recordingLines: recordingLines(),
            conformance: (conformanceLines() + descriptionLines() + journalLines(journal) + migrationLines(journal)).joined(separator: "\n"),
            systemLines: systemLines(systemParameters: systemParameters, feedbacksArguments: feedbacksArguments),
            systemFinish: flags.hasTopLevelFinal ? ", isFinished: { $0.isDone }" : "",
            fields: zip(spec.context, fieldTypes).map { field, type in
                MachineContext.Field(
                    name: SwiftName.escaped(field.name.value),
                    type: type,
                    doc: "`\(field.name.value)` from `context:` (\(position(field.name.location))).",
                    parameter: Self.parameterName(field.name.value)
                )
            },
            hasTimers: hasTimers,
            hasEffects: hasEffects,
            initParameters: Self.commaSeparated(
                ["mode: Mode"] + zip(spec.context, fieldTypes).map(Self.initParameter)
                    + (hasTimers ? ["_entries: Swift.Int = 0"] : [])
            ),
            members: members,
            events: spec.events.map { MachineContext.EventCase(doc: eventDoc($0), declaration: caseDeclaration($0)) },
            payloads: makePayloads(),
            reducerModes: reducerModes,
            effects: effects,
            timers: timers,
            hasFeedbacks: !spec.effects.isEmpty || hasTimers || flags.sends,
            feedbacksParameters: feedbacksParameters.joined(separator: ", "),
            systemParameters: systemParameters.joined(separator: ", "),
            feedbacksArguments: feedbacksArguments.joined(separator: ", ")
        )
    }

    /// `import StateLoop`, then the spec's modules, each where the spec names it.
    private func makeImports() -> [String] {
        var lines = ["import StateLoop"]
        var seen: Set<String> = ["StateLoop"]
        for module in spec.imports.sorted(by: { $0.value < $1.value }) where seen.insert(module.value).inserted {
            lines += placement.lines(module, after: "import ", indent: "") + [SourcePlacement.end]
        }
        return lines
    }

    /// The members that compute `default:` values; returns what `State.initial` passes for each field.
    private mutating func makeDefaults() -> [String] {
        zip(spec.context, fieldTypes).map { field, type in
            let label = Self.argumentLabel(field.name.value)
            guard let value = field.defaultValue else { return "\(label): nil" }
            let name = nextMember("default")
            // Only `default:` sees the input (E21): anywhere else `input` is not in scope.
            let input = spec.input.isEmpty ? "" : "_ input: Input"
            addMember(
                doc: "`default:` of `\(field.name.value)` (\(position(value.location))).",
                declaration: "fileprivate static func \(name)(\(input)) -> \(type)",
                body: placement.lines(value, indent: "") + [SourcePlacement.end]
            )
            return "\(label): \(name)(\(input.isEmpty ? "" : "input"))"
        }
    }

    /// `system(input:effects:clock:)` for a machine with `input:` (E21).
    private func systemLines(systemParameters: [String], feedbacksArguments: [String]) -> [String] {
        guard !spec.input.isEmpty else { return [] }
        let parameters = ["input: Input"] + systemParameters.dropFirst()
        let arguments = ["initial: .initial(input)"] + feedbacksArguments.map { $0 == "effects" ? "effects: effects" : $0 } + ["onTransition: onTransition"]
        var out = SwiftPrinter(placement: placement, level: 1)
        out.line("")
        out.line("/// The machine, ready to run from its input: `system(initial: .initial(input), ...)`.")
        out.block("\(access.prefix)static func system(\(parameters.joined(separator: ", "))) -> StateLoop.System<State, Event> {") { out in
            out.line("system(\(arguments.joined(separator: ", ")))")
        }
        return out.finished()
    }

    // MARK: - Shared helpers

    /// `file:line`, for doc comments that point back at the spec.
    func position(_ location: SourceLocation) -> String {
        "\(fileComment):\(location.line)"
    }

    /// The next free name for a generated member of `kind`: `_default0`, `_default1`, ...
    mutating func nextMember(_ kind: String) -> String {
        let count = memberCounts[kind, default: 0]
        memberCounts[kind] = count + 1
        return GeneratedNames.member(kind, count)
    }

    /// A printer for the body of a member of `State` (machine, `State`, member: level 3).
    func memberPrinter() -> SwiftPrinter {
        SwiftPrinter(placement: placement, level: 3)
    }

    /// Adds a member of `State` with the body `body` printed.
    mutating func addMember(doc: String, declaration: String, body: SwiftPrinter) {
        members.append(.init(doc: doc, declaration: declaration, body: body.text))
    }

    /// Adds a member of `State` whose body is spec text laid out at its YAML line and column.
    mutating func addMember(doc: String, declaration: String, body: [String]) {
        members.append(.init(doc: doc, declaration: declaration, body: body.joined(separator: "\n")))
    }

    /// A name as the label of a parameter or an enum case's associated value, where it is
    /// declared: labels may be keywords, except the three that start a parameter's own syntax
    /// (backticking the others draws a warning).
    static func label(_ name: String) -> String {
        ["inout", "var", "let"].contains(name) ? "`\(name)`" : name
    }

    /// A name as an argument label in a call: only `inout` needs backticks there (a backticked
    /// `let` or `var` draws "keyword does not need to be escaped in argument list").
    static func argumentLabel(_ name: String) -> String {
        name == "inout" ? "`inout`" : name
    }

    /// The parameter name of a field in `State.init`: a keyword gets `_` in front, since the body
    /// assigns it bare and a backticked parameter name as label draws a warning.
    static func parameterName(_ name: String) -> String {
        SwiftName.keywords.contains(name) ? "_\(name)" : name
    }

    /// `count: Count`, or `default _default: Default` for a keyword.
    private static func initParameter(_ field: ContextField, type: String) -> String {
        let name = field.name.value
        let parameter = parameterName(name)
        return (parameter == name ? name : "\(label(name)) \(parameter)") + ": \(type)"
    }

    /// `["a,", "b,", "c"]`: one line per item, commas between.
    static func commaSeparated(_ items: [String]) -> [String] {
        items.enumerated().map { $0 == items.count - 1 ? $1 : $1 + "," }
    }
}
