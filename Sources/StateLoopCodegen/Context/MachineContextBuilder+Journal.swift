import StateLoopSpec

// The journal coding of a machine whose spec persists (`persist:`, Docs/Durability.md D27–D29):
// `JournalCodable` conformances of everything `State` stores and of `Event`, and the machine's
// conformance to `StateLoop.DurableMachine`. Nothing here is printed for a spec that does not
// persist, `rerunsAfterRestart(_:)` only for one with `afterRestart: drop` (D45), and
// `childRequests(in:)` only for one with child machines (D101). An enum is
// written as its case number, in declaration order, then its payload; a struct as its stored
// properties in declaration order. Each value is written with
// `writer.write(_:)` and read with `reader.read()`: Swift picks the journal's own encoding for a
// `JournalCodable` type and the `Codable` fallback otherwise (D23). A value of a type the spec
// wrote is named by its `Codable` check (`total as _CodableTotal`, MachineContextBuilder+Types),
// so that a type that is not `Codable` is reported once, at its YAML line.
//
// The layout comes first (`JournalLayout`: each type's cases or properties and how each value is
// written); the conformances are printed from it, and `stateloop journal` reads journals with the
// same layout (D84), so the tool and the generated code cannot read a byte differently.

extension MachineContextBuilder {
    /// The layout of the journal coding (D27): every type it writes, in the order they are
    /// printed; `nil` when the spec does not persist. `stateFields` are `State`'s stored
    /// properties in declaration order, each with how it is written.
    func journalLayout(stateFields: [JournalLayout.Field]) -> JournalLayout? {
        guard let persist = spec.persist else { return nil }
        let tree = semantics.tree
        let mode = GeneratedNames.mode
        var types: [JournalLayout.CodedType] = []
        func add(_ name: String, _ doc: String, _ shape: JournalLayout.Shape) {
            types.append(.init(name: name, doc: doc, shape: shape))
        }
        /// A case of `Mode` or of a nested enum: a composite holds what is active inside it.
        func modeCase(_ position: Int) -> JournalLayout.Case {
            let node = tree[position]
            return .init(name: node.name, payload: node.isComposite ? [.init(name: "", value: .generated(contentType(position)))] : [])
        }
        add(mode, "the active states: the case of each level, outermost first.", .enumeration(tree.roots.filter { !tree[$0].spec.isHistory }.map(modeCase)))
        for (position, node) in tree.nodes.enumerated() where node.isComposite {
            if node.spec.kind == .parallel {
                add(contentType(position), "the regions of `\(node.name)`, in order.", .structure(tree.regions(of: position).map { region in
                    .init(name: tree[region].name, value: .generated(contentType(region)))
                }))
            } else {
                let children = node.children.filter { !tree[$0].spec.isHistory }
                add(contentType(position), "the active child of `\(node.name)`.", .enumeration(children.map(modeCase)))
            }
        }
        add(GeneratedNames.stateName, "a state's name, by its position in the spec.", .enumeration(
            stateNamePositions().map { .init(name: tree[$0].name, payload: []) }))
        let timer = GeneratedNames.event + "." + GeneratedNames.timer
        if hasTimers {
            add(timer, "a timer: its state, its position in `after:`, the entry that armed it.", .structure([
                .init(name: "state", value: .generated(GeneratedNames.stateName)),
                .init(name: "index", value: .standard("Int")), .init(name: "entry", value: .standard("Int")),
            ]))
        }
        if flags.sends {
            add(GeneratedNames.sendType, "a pending send: its number, id, event and delay.", .structure([
                .init(name: "number", value: .standard("Int")), .init(name: "id", value: .optional(.standard("String"))),
                .init(name: "event", value: .generated(GeneratedNames.event)), .init(name: "delay", value: .standard("Duration")),
            ]))
        }
        let oneShots = spec.effects.filter(\.isOneShot)
        if !oneShots.isEmpty {
            add(GeneratedNames.run, "a queued one-shot run: its effect, then its request.", .enumeration(oneShots.map(effectCase)))
        }
        let forwarding = spec.effects.filter { !($0.child?.forward.isEmpty ?? true) }
        if !forwarding.isEmpty {
            add(GeneratedNames.forwarded, "a forwarded event: the effect that runs the child, then the child's event.", .enumeration(forwarding.map(effectCase)))
        }
        add(GeneratedNames.state, "every stored property, bookkeeping included, in declaration order.", .structure(stateFields))
        var events = spec.events.map { event in
            JournalLayout.Case(name: event.name.value, payload: zip(event.payload, payloadTypes[event.name.value] ?? []).map { field, alias in
                .init(name: field.name.value, value: .spec(field.type.value, alias: alias))
            })
        }
        if hasTimers { events.append(.init(name: GeneratedNames.timerCase, payload: [.init(name: "", value: .generated(timer))])) }
        if flags.sends { events.append(.init(name: GeneratedNames.sendCase, payload: [.init(name: "", value: .standard("Int"))])) }
        add(GeneratedNames.event, "an event: its position in `events:` (timers last), then its payload.", .enumeration(events))
        return JournalLayout(machine: spec.name.value, version: persist.version, types: types)
    }

    /// How each stored property of `State` is written: `mode`, the context fields in `context:`
    /// order, then the generated code's own (`ownFields`, with `_entries`, `forwarded` and `toParent` before them).
    func journalStateFields(ownFields: [InternalField]) -> [JournalLayout.Field] {
        [.init(name: "mode", value: .generated(GeneratedNames.mode))]
            + zip(spec.context, fieldTypes).map { field, alias in .init(name: field.name.value, value: .spec(field.type.value, alias: alias)) }
            + (hasTimers ? [.init(name: "_entries", value: .standard("Int"))] : [])
            + (hasForwarding ? [.init(name: "forwarded", value: .array(.generated(GeneratedNames.forwarded)))] : [])
            + (flags.sendsToParent ? [.init(name: "toParent", value: .array(.generated(GeneratedNames.event)))] : [])
            + ownFields.map { .init(name: $0.name, value: $0.journal) }
    }

    /// The extensions after the machine's enum, printed from `journal`; none when the spec does
    /// not persist.
    func journalLines(_ journal: JournalLayout?) -> [String] {
        guard let journal, let persist = spec.persist else { return [] }
        let machine = SwiftName.escaped(spec.name.value)
        var out = SwiftPrinter(placement: placement, level: 0)
        for type in journal.types {
            let name = "\(machine).\(type.name)"
            switch type.shape {
            case .structure(let fields):
                journalStruct(name, doc: type.doc, properties: fields.map { (SwiftName.escaped($0.name), alias($0.value)) },
                              checks: type.name == GeneratedNames.event + "." + GeneratedNames.timer ? timerChecks : nil, into: &out)
            case .enumeration(let cases):
                // The binding of an unlabeled payload: `_r` for an effect's, `_t` for a timer's, `_c` for what a state holds.
                let binding = [GeneratedNames.run, GeneratedNames.forwarded].contains(type.name) ? "_r" : type.name == GeneratedNames.event ? "_t" : "_c"
                journalEnum(name, doc: type.doc, cases: cases.map { journalCase($0, binding: binding) }, into: &out)
            }
        }
        let oneShots = spec.effects.filter(\.isOneShot)
        let p = access.prefix
        out.line("")
        out.line("/// What the durable system needs beyond running the machine (Docs/Durability.md).")
        out.block("extension \(machine): StateLoop.DurableMachine {") { out in
            if oneShots.isEmpty {
                out.line("/// No `run:` action: no one-shot run is ever queued.")
                out.line("\(p)typealias Run = StateLoop.NoRun")
                out.line("")
            }
            out.line("/// `persist:` of \(fileComment) (\(position(persist.location))).")
            out.line("\(p)static var journalVersion: Swift.Int { \(persist.version) }")
            out.line("")
            out.line("/// The runs queued since the start, and those the last step queued.")
            out.block("\(p)static func pendingRuns(in state: State) -> (queued: Swift.Int, runs: [Run]) {") { out in
                out.line(oneShots.isEmpty ? "(queued: 0, runs: [])" : "(queued: state._runsQueued, runs: state.runs)")
            }
            // D101: only a spec with child machines differs from the protocol's default (none).
            let children = spec.effects.filter { $0.child != nil }
            if !children.isEmpty {
                out.line("")
                out.line("/// The child machines the state runs, with their requests: the durable system names")
                out.line("/// each child's journal by the step since which its request is the same (Docs/Durability.md D101).")
                out.block("\(p)static func childRequests(in state: State) -> [(effect: Swift.String, request: any Swift.Equatable & Swift.Sendable)] {") { out in
                    out.line("var children: [(effect: Swift.String, request: any Swift.Equatable & Swift.Sendable)] = []")
                    for effect in children {
                        let member = GeneratedNames.requestMember(ofEffect: effect.name.value)
                        out.line("if let request = state.\(member) { children.append((\(SwiftLiteral.string(effect.name.value)), request)) }")
                    }
                    out.line("return children")
                }
            }
            // D45: only a spec with `afterRestart: drop` differs from the protocol's default (true).
            guard oneShots.contains(where: { $0.afterRestart?.value == .drop }) else { return }
            out.line("")
            out.line("/// Whether a run not known finished at a restart runs again: false for an effect whose")
            out.line("/// `afterRestart:` is `drop` (Docs/Durability.md D45).")
            out.block("\(p)static func rerunsAfterRestart(_ run: Run) -> Swift.Bool {") { out in
                out.switchBlock("run") { out in
                    for effect in oneShots {
                        out.line("case .\(SwiftName.escaped(effect.name.value)): \(effect.afterRestart?.value != .drop)")
                    }
                }
            }
        }
        return out.finished()
    }

    /// A case of `Run` or `Forwarded`: the effect, then what it carries (its request, or the child's event).
    private func effectCase(_ effect: EffectSpec) -> JournalLayout.Case {
        if let child = effect.child, !child.forward.isEmpty {
            return .init(name: effect.name.value, payload: [.init(name: "", value: .childEvent(child.machine.value))])
        }
        guard let alias = requestTypes[effect.name.value], let request = effect.request else { return .init(name: effect.name.value, payload: []) }
        return .init(name: effect.name.value, payload: [.init(name: "", value: .spec(request.type.value, alias: alias))])
    }

    /// The alias a value of a spec type is written as; `nil` for the generated code's own types.
    func alias(_ value: JournalLayout.Value) -> String? {
        if case .spec(_, let alias) = value { return alias }
        return nil
    }

    /// How a case is matched, written and read: a labeled payload (an event's) bound as `_0`, `_1`
    /// and read by label, a single unlabeled one bound as `binding`.
    func journalCase(_ journalCase: JournalLayout.Case, binding: String) -> JournalCase {
        let name = "." + SwiftName.escaped(journalCase.name)
        guard !journalCase.payload.isEmpty else { return JournalCase(pattern: name, written: [], value: name) }
        let bindings = journalCase.payload.enumerated().map { $1.name.isEmpty ? binding : "_\($0)" }
        let reads = journalCase.payload.map { field in
            (field.name.isEmpty ? "" : "\(Self.argumentLabel(field.name)): ") + read(alias(field.value))
        }
        return JournalCase(
            pattern: name + "(" + bindings.map { "let " + $0 }.joined(separator: ", ") + ")",
            written: zip(bindings, journalCase.payload).map { write($0, alias($1.value)) },
            value: name + "(" + reads.joined(separator: ", ") + ")")
    }

    /// `writer.write(value)`, or `writer.write(value as Machine._CodableX)` for a value of spec type `X`.
    private func write(_ value: String, _ alias: String? = nil) -> String {
        "writer.write(" + value + (alias.map { " as " + codableCheck($0) } ?? "") + ")"
    }

    /// `try reader.read()`, or `try reader.read(Machine._CodableX.self)` for a value of spec type `X`.
    func read(_ alias: String? = nil) -> String {
        "try reader.read(" + (alias.map { codableCheck($0) + ".self" } ?? "") + ")"
    }

    /// `Machine._CodableX`: the extensions stand outside the machine's namespace.
    private func codableCheck(_ alias: String) -> String {
        SwiftName.escaped(spec.name.value) + "." + GeneratedNames.codableCheck(ofAlias: alias)
    }

    /// `extension type: StateLoop.JournalCodable` for an enum: the case number, then the payload.
    private func journalEnum(_ type: String, doc: String, cases: [JournalCase], into out: inout SwiftPrinter) {
        journalExtension(type, doc: doc, into: &out, encode: { out in
            out.switchBlock("self") { out in
                for (index, journalCase) in cases.enumerated() {
                    out.block("case \(journalCase.pattern):", closing: nil) { out in
                        out.line("writer.writeVarint(\(index))")
                        for write in journalCase.written { out.line(write) }
                    }
                }
            }
        }, decode: { out in
            guard cases.count > 1 else {
                guard let only = cases.first else {
                    return out.line("throw .invalid(offset: reader.offset, reason: \"a value of a type that has none\")")
                }
                out.line("_ = try reader.readCase(below: 1)")
                return out.line("self = \(only.value)")
            }
            // `readCase(below:)` throws above the last case, so the last one is `default:`.
            out.switchBlock("try reader.readCase(below: \(cases.count))") { out in
                for (index, journalCase) in cases.enumerated() {
                    out.line((index == cases.count - 1 ? "default" : "case \(index)") + ": self = \(journalCase.value)")
                }
            }
        })
    }

    /// `extension type: StateLoop.JournalCodable` for a struct: each stored property in order,
    /// with the alias of its spec type when it has one.
    /// `checks`: statements after the properties are read that refuse a value the machine cannot
    /// have written (D125).
    private func journalStruct(
        _ type: String, doc: String, properties: [(name: String, alias: String?)], checks: ((inout SwiftPrinter) -> Void)? = nil,
        into out: inout SwiftPrinter
    ) {
        journalExtension(type, doc: doc, into: &out, encode: { out in
            // `self.`: a property may be named `writer` or `reader`.
            for property in properties { out.line(write("self.\(property.name)", property.alias)) }
        }, decode: { out in
            for property in properties { out.line("self.\(property.name) = \(read(property.alias))") }
            checks?(&out)
        })
    }

    /// D125: a timer is one of the spec's `after:` entries, armed at an entry count that can be.
    /// A damaged record that still decodes (a checksum recomputed, a journal of another spec of
    /// the same layout) must not fire a timer no state has, which the reducer would ignore.
    private func timerChecks(_ out: inout SwiftPrinter) {
        let tree = semantics.tree
        let timed = tree.nodes.indices.filter { !tree[$0].spec.after.isEmpty }
        out.switchBlock("(self.state, self.index)") { out in
            for state in timed {
                let count = tree[state].spec.after.count
                out.line("case (.\(caseName(state)), \(count == 1 ? "0" : "0..<\(count)")): break")
            }
            out.line("default: throw .invalid(offset: reader.offset, reason: \"a timer the machine does not have: after #\\(self.index) in \\(self.state)\")")
        }
        out.line("if self.entry < 0 { throw .invalid(offset: reader.offset, reason: \"a timer armed at entry \\(self.entry), below the first\") }")
    }

    private func journalExtension(
        _ type: String, doc: String, into out: inout SwiftPrinter,
        encode: (inout SwiftPrinter) -> Void, decode: (inout SwiftPrinter) -> Void
    ) {
        let p = access.prefix
        out.line("")
        out.line("/// The journal's bytes of a value (Docs/Durability.md D27): \(doc)")
        out.block("extension \(type): StateLoop.JournalCodable {") { out in
            out.block("\(p)func encode(to writer: inout StateLoop.JournalWriter) {", encode)
            out.line("")
            out.block("\(p)init(from reader: inout StateLoop.JournalReader) throws(StateLoop.JournalDecodingError) {", decode)
        }
    }
}

/// One case of a journal-coded enum: the pattern that binds what it carries, the statements that
/// write what it bound, in order, and the expression that makes it from a reader.
struct JournalCase {
    let pattern: String
    let written: [String]
    let value: String
}
