import StateLoopSpec

// The journal coding of a machine whose spec persists (`persist:`, Docs/Durability.md D27–D29):
// `JournalCodable` conformances of everything `State` stores and of `Event`, and the machine's
// conformance to `StateLoop.DurableMachine`. Nothing here is printed for a spec that does not
// persist. An enum is written as its case number, in declaration order, then its payload; a
// struct as its stored properties in declaration order. Each value is written with
// `writer.write(_:)` and read with `reader.read()`: Swift picks the journal's own encoding for a
// `JournalCodable` type and the `Codable` fallback otherwise (D23). A value of a type the spec
// wrote is named by its `Codable` check (`total as _CodableTotal`, MachineContextBuilder+Types),
// so that a type that is not `Codable` is reported once, at its YAML line.

extension MachineContextBuilder {
    /// The extensions after the machine's enum; none when the spec does not persist.
    /// `stateProperties` are `State`'s stored properties in declaration order.
    func journalLines(stateProperties: [String]) -> [String] {
        guard let persist = spec.persist else { return [] }
        let machine = SwiftName.escaped(spec.name.value)
        let tree = layout.tree
        var out = SwiftPrinter(placement: placement, level: 0)
        let mode = "\(machine).\(GeneratedNames.mode)"
        /// `.name` or, for a composite, `.name(content)`: a case of `Mode` or of a nested enum.
        func modeCase(_ position: Int) -> JournalCase {
            let name = caseName(position)
            return tree[position].isComposite
                ? JournalCase(pattern: ".\(name)(let _c)", written: [write("_c")], value: ".\(name)(\(read()))")
                : JournalCase(pattern: ".\(name)", written: [], value: ".\(name)")
        }
        journalEnum(mode, doc: "the active states: the case of each level, outermost first.", cases: tree.roots.filter { !tree[$0].spec.isHistory }.map(modeCase), into: &out)
        for (position, node) in tree.nodes.enumerated() where node.isComposite {
            let type = "\(mode).\(GeneratedNames.modeType(ofState: node.name))"
            if node.spec.kind == .parallel {
                journalStruct(type, doc: "the regions of `\(node.name)`, in order.", properties: tree.regions(of: position).map { (caseName($0), nil) }, into: &out)
            } else {
                let children = node.children.filter { !tree[$0].spec.isHistory }
                journalEnum(type, doc: "the active child of `\(node.name)`.", cases: children.map(modeCase), into: &out)
            }
        }
        journalEnum(
            "\(machine).\(GeneratedNames.stateName)", doc: "a state's name, by its position in the spec.",
            cases: stateNameCases().map { JournalCase(pattern: ".\($0)", written: [], value: ".\($0)") }, into: &out)
        if hasTimers {
            journalStruct(
                "\(machine).\(GeneratedNames.event).\(GeneratedNames.timer)", doc: "a timer: its state, its position in `after:`, the entry that armed it.",
                properties: [("state", nil), ("index", nil), ("entry", nil)], into: &out)
        }
        let oneShots = spec.effects.filter(\.isOneShot)
        if !oneShots.isEmpty {
            journalEnum("\(machine).\(GeneratedNames.run)", doc: "a queued one-shot run: its effect, then its request.", cases: oneShots.map(effectCase), into: &out)
        }
        let forwarding = spec.effects.filter { !($0.child?.forward.isEmpty ?? true) }
        if !forwarding.isEmpty {
            journalEnum("\(machine).\(GeneratedNames.forwarded)", doc: "a forwarded event: the effect that runs the child, then the child's event.", cases: forwarding.map(effectCase), into: &out)
        }
        // The context fields follow `mode`, in `context:` order; the other properties are the generated code's own.
        let fieldAliases = Dictionary(uniqueKeysWithValues: zip(spec.context.map { SwiftName.escaped($0.name.value) }, fieldTypes))
        journalStruct(
            "\(machine).\(GeneratedNames.state)", doc: "every stored property, bookkeeping included, in declaration order.",
            properties: stateProperties.map { ($0, fieldAliases[$0]) }, into: &out)
        var events = spec.events.map { event in
            let aliases = payloadTypes[event.name.value] ?? []
            let reads = zip(event.payload, aliases).map { "\(Self.argumentLabel($0.name.value)): \(read($1))" }
            return JournalCase(
                pattern: bindingPattern(event), written: aliases.enumerated().map { write("_\($0)", $1) },
                value: ".\(SwiftName.escaped(event.name.value))" + (reads.isEmpty ? "" : "(\(reads.joined(separator: ", ")))"))
        }
        if hasTimers {
            events.append(JournalCase(pattern: ".\(GeneratedNames.timerCase)(let _t)", written: [write("_t")], value: ".\(GeneratedNames.timerCase)(\(read()))"))
        }
        journalEnum("\(machine).\(GeneratedNames.event)", doc: "an event: its position in `events:` (timers last), then its payload.", cases: events, into: &out)
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
        }
        return out.finished()
    }

    /// `.name(request)` or `.name` of `Run`, `Forwarded`: the effect, then what it carries.
    private func effectCase(_ effect: EffectSpec) -> JournalCase {
        let name = SwiftName.escaped(effect.name.value)
        if effect.child.map({ !$0.forward.isEmpty }) ?? false {
            return JournalCase(pattern: ".\(name)(let _r)", written: [write("_r")], value: ".\(name)(\(read()))")
        }
        guard let alias = requestTypes[effect.name.value] else { return JournalCase(pattern: ".\(name)", written: [], value: ".\(name)") }
        return JournalCase(pattern: ".\(name)(let _r)", written: [write("_r", alias)], value: ".\(name)(\(read(alias)))")
    }

    /// `writer.write(value)`, or `writer.write(value as Machine._CodableX)` for a value of spec type `X`.
    private func write(_ value: String, _ alias: String? = nil) -> String {
        "writer.write(" + value + (alias.map { " as " + codableCheck($0) } ?? "") + ")"
    }

    /// `try reader.read()`, or `try reader.read(Machine._CodableX.self)` for a value of spec type `X`.
    private func read(_ alias: String? = nil) -> String {
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
    private func journalStruct(_ type: String, doc: String, properties: [(name: String, alias: String?)], into out: inout SwiftPrinter) {
        journalExtension(type, doc: doc, into: &out, encode: { out in
            // `self.`: a property may be named `writer` or `reader`.
            for property in properties { out.line(write("self.\(property.name)", property.alias)) }
        }, decode: { out in
            for property in properties { out.line("self.\(property.name) = \(read(property.alias))") }
        })
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
private struct JournalCase {
    let pattern: String
    let written: [String]
    let value: String
}
