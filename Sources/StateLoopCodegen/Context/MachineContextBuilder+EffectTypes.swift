import StateLoopSpec

// What the effect shapes add around the effects themselves (Docs/Effects.md): the machine's
// `Input` and `Output` (E21, E22), the events it forwards to child machines (E26, E43), the
// requests tests can read (E42), the delays of named timers (E38, E41) and the `RecordingEffects`
// test double (E44).

extension MachineContextBuilder {
    /// `struct Input`, `enum Output`, `enum Forwarded` and the request type of named-delay timers.
    func typeLines() -> [String] {
        var lines: [String] = []
        if !spec.input.isEmpty {
            lines += [
                "",
                "    /// `input:` of \(fileComment): what the machine is started with (E21).",
                "    \(access.prefix)struct Input: Swift.Equatable, Swift.Sendable {",
            ]
            for (field, type) in zip(spec.input, inputTypes) {
                lines.append("        /// `\(field.name.value)` (\(position(field.name.location))).")
                lines.append("        \(access.prefix)var \(SwiftName.escaped(field.name.value)): \(type)")
            }
            let parameters = zip(spec.input, inputTypes).map { field, type in
                let name = field.name.value, parameter = Self.parameterName(name)
                return (parameter == name ? name : "\(Self.label(name)) \(parameter)") + ": \(type)"
            }
            lines += ["", "        \(access.prefix)init(\(parameters.joined(separator: ", "))) {"]
            lines += spec.input.map { "            self.\(SwiftName.escaped($0.name.value)) = \(Self.parameterName($0.name.value))" }
            lines.append("        }")
            lines += structEquality(GeneratedNames.input, properties: spec.input.map { SwiftName.escaped($0.name.value) })
            lines.append("    }")
        }
        let finals = spec.states.filter(\.isFinal)
        if !finals.isEmpty {
            lines += [
                "",
                "    /// How the machine ended: a case per top-level final state, with its `output:` (E22).",
                "    \(access.prefix)enum Output: Swift.Equatable, Swift.Sendable {",
            ]
            for final in finals {
                let types = outputTypes[final.name.value] ?? []
                let payload = zip(final.output, types).map { "\(Self.label($0.name.value)): \($1)" }
                lines.append("        /// The machine finished in `\(final.name.value)` (\(position(final.name.location))).")
                lines.append("        case \(SwiftName.escaped(final.name.value))" + (payload.isEmpty ? "" : "(\(payload.joined(separator: ", ")))"))
            }
            lines.append("    }")
        }
        let forwarding = spec.effects.filter { !($0.child?.forward.isEmpty ?? true) }
        if !forwarding.isEmpty {
            lines += [
                "",
                "    /// An event a step forwarded to a child machine (E43), by the effect that runs the child.",
                "    \(access.prefix)enum Forwarded: Swift.Equatable, Swift.Sendable {",
            ]
            for effect in forwarding {
                let child = SwiftName.escaped(effect.child!.machine.value)
                lines.append("        /// To the `\(effect.child!.machine.value)` machine that `\(effect.name.value)` runs.")
                lines.append("        case \(SwiftName.escaped(effect.name.value))(\(child).Event)")
            }
            for effect in forwarding {
                let child = SwiftName.escaped(effect.child!.machine.value)
                lines += [
                    "",
                    "        /// The event, if it is meant for `\(effect.name.value)`'s child.",
                    "        fileprivate var \(forwardedAccessor(effect)): \(child).Event? {",
                    "            if case .\(SwiftName.escaped(effect.name.value))(let event) = self { event } else { nil }",
                    "        }",
                ]
            }
            lines.append("    }")
        }
        if semantics.tree.nodes.contains(where: { $0.spec.after.contains { $0.milliseconds == nil } }) {
            lines += [
                "",
                "    /// The request of a timer with a named delay: the entry that armed it and the delay evaluated then (E38).",
                "    fileprivate struct \(GeneratedNames.delayedEntry): Swift.Equatable, Swift.Sendable {",
                "        var entry: Swift.Int",
                "        var delay: Swift.Duration",
                "    }",
            ]
        }
        return lines
    }

    /// A field of `State` only the reducer writes: entry counts, history, queues, evaluated delays.
    struct InternalField {
        var doc: String
        var name: String
        /// The type and initial value: `Swift.Int = 0`.
        var declaration: String
        /// How the field is journaled (D27): the type of `declaration`.
        var journal: JournalLayout.Value
    }

    /// The internal fields the shapes need: named delays as evaluated.
    func effectFields() -> [InternalField] {
        semantics.tree.nodes.flatMap { node in
            node.spec.after.enumerated().filter { $0.element.milliseconds == nil }.map { index, timer in
                InternalField(
                    doc: "`\(timer.delay.value)` as evaluated when `\(node.name)` was last entered (E38).",
                    name: delayField(node.name, index), declaration: "Swift.Duration = .zero", journal: .standard("Duration"))
            }
        }
    }

    /// The events the last step forwarded to child machines (E43): state a test asserts, so settable.
    func forwardedFieldLines() -> [String] {
        guard hasForwarding else { return [] }
        return [
            "        /// The events the last step forwarded to child machines, in order (E43); the next `reduce` replaces them.",
            "        \(access.prefix)var forwarded: [Forwarded] = []",
        ]
    }

    /// The events the last step sent to the parent machine (E70): state a test asserts, so settable.
    func toParentFieldLines() -> [String] {
        guard flags.sendsToParent else { return [] }
        return [
            "        /// The events the last step sent to the machine that runs this one, in order (E70); the next `reduce` replaces them.",
            "        \(access.prefix)var toParent: [Event] = []",
        ]
    }

    var hasForwarding: Bool { spec.effects.contains { !($0.child?.forward.isEmpty ?? true) } }

    /// The members that evaluate `delays:`, by delay name (E35).
    mutating func makeDelayMembers() {
        for delay in spec.delays {
            let name = nextMember("delay")
            delayMembers[delay.field.value] = name
            addMember(
                doc: "`\(delay.field.value)` of `delays:` (\(position(delay.expression.location))).",
                declaration: "fileprivate func \(name)() -> Swift.Duration",
                body: placement.lines(delay.expression, indent: "") + [SourcePlacement.end])
        }
    }

    /// `_forward(_:after:)`, which `reduce` calls after the step: each `forward:` entry appends
    /// to `forwarded` when the same child runs before and after the step (E26, E27), at the
    /// entry's line, where swiftc reports a payload field of the wrong type (E29).
    mutating func makeForwardingMember() {
        var body: [String] = []
        for effect in spec.effects {
            guard let child = effect.child, let childSpec = children[child.machine.value] else { continue }
            let member = GeneratedNames.requestMember(ofEffect: effect.name.value)
            for entry in child.forward {
                guard let parentEvent = spec.events.first(where: { $0.name.value == entry.from.value }),
                      let childEvent = childSpec.events.first(where: { $0.name.value == entry.to.value }) else { continue }
                let arguments = childEvent.payload.map { field in
                    "\(Self.argumentLabel(field.name.value)): _\(parentEvent.payload.firstIndex { $0.name.value == field.name.value }!)"
                }
                let sent = ".\(SwiftName.escaped(childEvent.name.value))" + (arguments.isEmpty ? "" : "(\(arguments.joined(separator: ", ")))")
                let pattern = childEvent.payload.isEmpty ? ".\(SwiftName.escaped(parentEvent.name.value))" : bindingPattern(parentEvent)
                body.append("            if case \(pattern) = event, let _request = old.\(member), _request == \(member) {")
                body += placement.lines(Located("forwarded.append(.\(SwiftName.escaped(effect.name.value))(\(sent)))", at: entry.to.location), indent: "                ")
                body += [SourcePlacement.end, "            }"]
            }
        }
        addMember(
            doc: "Forwards `event` to the children that run both in `old` and now (E26).",
            declaration: "fileprivate mutating func _forward(_ event: Event, after old: State)",
            body: body)
    }

    /// `state.requests` (E42), `state.output` (E22) and `state.timerDelay(_:index:)` (E41).
    mutating func effectQueryLines() -> [String] {
        var lines: [String] = []
        let queries = spec.effects.filter { !$0.isOneShot }
        if !queries.isEmpty {
            lines += [
                "",
                "        /// What each effect would run for in this state (E42): for tests, nothing runs.",
                "        \(access.prefix)var requests: Requests { Requests(_state: self) }",
                "",
                "        /// The requests of the effects that run in states, read-only (E42).",
                "        \(access.prefix)struct Requests: Swift.Sendable {",
                "            fileprivate let _state: State",
            ]
            for effect in queries {
                let type: String
                if let child = effect.child {
                    type = children[child.machine.value].map { $0.input.isEmpty } == false
                        ? "\(SwiftName.escaped(child.machine.value)).Input?" : "Swift.Bool?"
                } else {
                    type = effect.isSet ? "Swift.Set<\(requestTypes[effect.name.value]!)>" : "\(requestTypes[effect.name.value]!)?"
                }
                let name = SwiftName.escaped(effect.name.value)
                lines.append("            /// `\(effect.name.value)` (\(position(effect.name.location))).")
                lines.append("            \(access.prefix)var \(name): \(type) { _state.\(GeneratedNames.requestMember(ofEffect: effect.name.value)) }")
            }
            lines.append("        }")
        }
        let finals = spec.states.filter(\.isFinal)
        if !finals.isEmpty {
            var body: [String] = []
            for final in finals {
                var values: [String] = []
                for (field, type) in zip(final.output, outputTypes[final.name.value] ?? []) {
                    let name = nextMember("output")
                    addMember(
                        doc: "`output:` `\(field.name.value)` of `\(final.name.value)` (\(position(field.value.location))).",
                        declaration: "fileprivate func \(name)() -> \(type)",
                        body: placement.lines(field.value, indent: "") + [SourcePlacement.end])
                    values.append("\(Self.argumentLabel(field.name.value)): \(name)()")
                }
                let caseName = SwiftName.escaped(final.name.value)
                body.append("            if isIn(.\(caseName)) { return .\(caseName)" + (values.isEmpty ? "" : "(\(values.joined(separator: ", ")))") + " }")
            }
            lines += ["", "        /// How the machine ended, once `isDone`; `nil` before (E22)."]
            lines += ["        \(access.prefix)var output: Output? {"] + body + ["            return nil", "        }"]
        }
        let timed = semantics.tree.nodes.indices.filter { !semantics.tree[$0].spec.after.isEmpty }
        if !timed.isEmpty {
            lines += [
                "",
                "        /// The delay of `after:` timer `index` of `name` while that timer is armed, `nil` otherwise (E41).",
                "        \(access.prefix)func timerDelay(_ name: StateName, index: Swift.Int = 0) -> Swift.Duration? {",
                "            switch (name, index) {",
            ]
            for state in timed {
                let node = semantics.tree[state]
                for (index, timer) in node.spec.after.enumerated() {
                    let value = timer.milliseconds.map { ".milliseconds(\($0))" } ?? delayField(node.name, index)
                    lines.append("            case (.\(caseName(state)), \(index)) where isIn(.\(caseName(state))): \(value)")
                }
            }
            lines += ["            default: nil", "            }", "        }"]
        }
        return lines
    }

    /// `final class RecordingEffects`: a test double that records every call and answers with
    /// the closures it was given (E44).
    func recordingLines() -> [String] {
        let shapes = spec.effects.filter(hasMethod).map(shape)
        guard !shapes.isEmpty else { return [] }
        var lines = [
            "",
            "    /// A test double of `Effects`: records every call in `calls` and answers with the closures",
            "    /// given to `init` (E44). Effects that send nothing do nothing unless given a closure.",
            "    \(access.prefix)final class RecordingEffects: Effects {",
            "        /// Every call so far, in the order the runs started.",
            "        \(access.prefix)var calls: [Call] { _callLog.values }",
            "        private let _callLog = StateLoop.CallLog<Call>()",
        ]
        for shape in shapes {
            lines.append("        private let _effect_\(shape.effect.name.value): \(shape.closureType)")
        }
        lines += ["", "        \(access.prefix)init("]
        let parameters = shapes.map { shape -> String in
            let defaultValue = shape.resultType == nil && shape.effect.child == nil
                ? " = { \(shape.requestType == nil ? "" : "_ in ")}" : ""
            return "            \(Self.label(shape.effect.name.value)): @escaping \(shape.closureType)\(defaultValue)"
        }
        lines += Self.commaSeparated(parameters)
        lines.append("        ) {")
        lines += shapes.map { "            self._effect_\($0.effect.name.value) = \(SwiftName.escaped($0.effect.name.value))" }
        lines.append("        }")
        for shape in shapes {
            let name = SwiftName.escaped(shape.effect.name.value)
            let argument = shape.requestType == nil ? "" : (shape.effect.child == nil ? "request" : "input")
            let call = shape.methodEffects.contains("async")
                ? (shape.effect.onError == nil ? "await " : "try await ") : ""
            lines += [
                "",
                "        \(access.prefix)func \(name)(\(shape.parameters))\(shape.methodEffects) {",
                "            _callLog.append(.\(name)\(argument.isEmpty ? "" : "(\(argument))"))",
                "            return \(call)_effect_\(shape.effect.name.value)(\(argument))",
                "        }",
            ]
        }
        return lines + ["    }"]
    }
}
