import StateLoopSpec

// The readers of the journals that older versions of a persisted spec wrote (Docs/Durability.md
// D92–D95): for each version K below `persist.version` that the lock holds with its layout, the
// functions that read K's State, Event and Run bytes, printed from K's `JournalLayout` as locked
// (the model this version's own coding is printed from), and migrate them through the chain of
// migrations K, K+1, ... (D55) to this version's values. `readState/readEvent/readRun(from:version:)`
// dispatch on the version; this version's bytes are read as before, any other version is refused
// (D59, D91). Nothing is printed for a spec whose lock holds no older version.
//
// A saved configuration is read as the set of its states, each renamed (D93); the current `Mode` is
// built from that set by `_migratedMode`, level by level: the child that holds a saved state, or
// the level's default entry. Context fields are carried by name (renamed, or dropped); a field the
// old version lacks starts at its `default:`. The reducer's bookkeeping is carried when the old
// version wrote it with the same layout, and otherwise starts as a new state's does.

extension MachineContextBuilder {
    /// The readers of every older locked version, and the `DurableMachine` readers that dispatch to
    /// them; none when the lock holds no version below `persist.version`.
    func migrationLines(_ journal: JournalLayout?) -> [String] {
        guard let journal, let persist = spec.persist, let lock else { return [] }
        let older = lock.versions.filter { $0.number < persist.version }
        guard !older.isEmpty else { return [] }
        let machine = SwiftName.escaped(spec.name.value)
        let p = access.prefix
        let lockName = lock.path.split(separator: "/").last.map(String.init) ?? lock.path
        let readings = older.compactMap { version in version.layout.map { VersionReading(version.number, $0, chain: chain(from: version.number)) } }
        var out = SwiftPrinter(placement: placement, level: 0)
        out.line("")
        out.line("/// The readers of the journals older versions wrote, migrated to this version (Docs/Durability.md D92–D95).")
        out.block("extension \(machine) {") { out in
            let reader = "(from reader: inout StateLoop.JournalReader, version: Swift.Int) throws(StateLoop.JournalDecodingError)"
            /// A reader's `switch` on the version: the older versions', then this version's bytes as they are.
            func dispatch(_ kind: String, _ result: String, current: String, has: (VersionReading) -> Bool) {
                out.block("\(p)static func read\(kind)\(reader) -> \(result) {") { out in
                    out.switchBlock("version") { out in
                        for version in older {
                            guard version.layout != nil else {
                                out.line("case \(version.number): throw .invalid(offset: reader.offset, reason: \(SwiftLiteral.string("version \(version.number) is locked in \(lockName) without its journal layout: check out the spec of version \(version.number), run `stateloop lock` on it (which adds the layout, D91), and build again")))")
                                continue
                            }
                            if let reading = readings.first(where: { $0.number == version.number }), has(reading) {
                                out.line("case \(version.number): return try _read\(kind)_v\(version.number)(&reader)")
                            }
                        }
                        out.block("default:", closing: nil) { out in
                            out.line("try requireJournalVersion(version, at: reader.offset)")
                            out.line("return try reader.read(\(current).self)")
                        }
                    }
                }
            }
            out.line("/// Reads a state that version `version` journaled: this version's as it is, an older one's migrated (D92).")
            dispatch("State", "State", current: "State", has: { _ in true })
            out.line("")
            out.line("/// Reads an event that version `version` journaled; `nil` for one a migration drops (D55).")
            dispatch("Event", "Event?", current: "Event", has: { $0.layout[GeneratedNames.event] != nil })
            out.line("")
            out.line("/// Reads a one-shot run that version `version` queued; `nil` for one a migration drops (D55).")
            dispatch("Run", "Run?", current: "Run", has: { $0.layout[GeneratedNames.run] != nil })
            if !readings.isEmpty { printMigratedMode(into: &out) }
            for reading in readings { printReaders(reading, current: journal, into: &out) }
        }
        return out.finished()
    }

    // MARK: The chain of migrations

    /// What a name of version `from` is called in this version, through every migration after it (D55).
    struct NameChain {
        /// The state each state of the old version is saved into now (never dropped, D56).
        var states: [String: String] = [:]
        /// Each context field, event and one-shot run of the old version: its name now, or `nil` when dropped.
        var fields: [String: String?] = [:]
        var events: [String: String?] = [:]
        var runs: [String: String?] = [:]
    }

    /// The names of version `from`'s items in this version: each locked version's migration applied
    /// in turn. A state goes where the innermost state around it (itself included) that the
    /// migration names goes; an item no migration names keeps its name (D57 checked it exists).
    func chain(from number: Int) -> NameChain {
        guard let lock, let start = lock.version(number) else { return NameChain() }
        let migrations = Dictionary((spec.persist?.migrations ?? []).map { ($0.from.value, $0) }, uniquingKeysWith: { first, _ in first })
        var states = Dictionary(start.shape.states.map { ($0.name, $0.name) }, uniquingKeysWith: { first, _ in first })
        var fields = Dictionary(start.shape.context.map { ($0.name, Optional($0.name)) }, uniquingKeysWith: { first, _ in first })
        var events = Dictionary(start.shape.events.map { ($0.name, Optional($0.name)) }, uniquingKeysWith: { first, _ in first })
        var runs = Dictionary(start.shape.runs.map { ($0.name, Optional($0.name)) }, uniquingKeysWith: { first, _ in first })
        for version in lock.versions where version.number >= number && version.number < (spec.persist?.version ?? 0) {
            let migration = migrations[version.number]
            let parents = Dictionary(version.shape.states.map { ($0.name, $0.parent) }, uniquingKeysWith: { first, _ in first })
            let stateMap = Dictionary((migration?.states ?? []).compactMap { entry in entry.to.map { (entry.from.value, $0.value) } }, uniquingKeysWith: { first, _ in first })
            states = states.mapValues { name in
                var current: String? = name
                var seen: Set<String> = []
                while let state = current, seen.insert(state).inserted {
                    if let target = stateMap[state] { return target }
                    current = parents[state] ?? nil
                }
                return name
            }
            func renamed(_ names: [String: String?], _ entries: [Renaming]?) -> [String: String?] {
                let map = Dictionary((entries ?? []).map { ($0.from.value, $0.to?.value) }, uniquingKeysWith: { first, _ in first })
                return names.mapValues { name in name.flatMap { map[$0] ?? $0 } }
            }
            fields = renamed(fields, migration?.fields)
            events = renamed(events, migration?.events)
            runs = renamed(runs, migration?.runs)
        }
        return NameChain(states: states, fields: fields, events: events, runs: runs)
    }

    // MARK: This version's configuration from a set of states

    /// `_migratedMode(_:)` and one function per composite state: the configuration that holds the
    /// saved states of `names`, each level's default entry where none is saved (D93).
    private func printMigratedMode(into out: inout SwiftPrinter) {
        let tree = semantics.tree
        func descendants(_ position: Int) -> [Int] {
            [position] + tree[position].children.filter { !tree[$0].spec.isHistory }.flatMap(descendants)
        }
        func builder(_ container: Int?) -> String { container.map { "_migratedMode_\(tree[$0].name)" } ?? "_migratedMode" }
        func value(of child: Int) -> String {
            tree[child].isComposite ? ".\(caseName(child))(\(builder(child))(names))" : ".\(caseName(child))"
        }
        let containers: [Int?] = [nil] + tree.nodes.indices.filter { tree[$0].isComposite }.map(Optional.some)
        for container in containers {
            out.line("")
            out.line("/// The configuration \(container.map { "inside `\(tree[$0].name)`" } ?? "of the machine") that holds the states of `names`.")
            out.block("fileprivate static func \(builder(container))(_ names: Swift.Set<StateName>) -> \(contentType(container)) {") { out in
                if let container, tree[container].spec.kind == .parallel {
                    let regions = tree.regions(of: container).map { "\(SwiftName.escaped(tree[$0].name)): \(builder($0))(names)" }
                    out.line("\(contentType(container))(\(regions.joined(separator: ", ")))")
                    return
                }
                let children = container.map { tree[$0].children } ?? tree.roots
                for child in children where !tree[child].spec.isHistory {
                    let states = descendants(child).map { "." + caseName($0) }.joined(separator: ", ")
                    out.line("if !names.isDisjoint(with: [\(states)]) { return \(value(of: child)) }")
                }
                if let container {
                    out.line("return " + modeValue(in: container, toward: [], recorded: false))
                } else {
                    out.line("return " + modeValue(in: nil, toward: semantics.initialTargets(of: nil), recorded: false))
                }
            }
        }
    }

    // MARK: One older version's readers

    /// One older version: its number, its layout as locked, and its names now.
    struct VersionReading {
        let number: Int
        let layout: JournalLayout
        let chain: NameChain

        init(_ number: Int, _ layout: JournalLayout, chain: NameChain) {
            self.number = number
            self.layout = layout
            self.chain = chain
        }

        /// The types of the layout that hold states: `Mode` and what its cases hold.
        var modeTypes: Set<String> {
            var found: Set<String> = []
            var pending = [GeneratedNames.mode]
            while let name = pending.popLast() {
                guard found.insert(name).inserted, let shape = layout[name] else { continue }
                pending += shape.fields.flatMap { $0.value.generatedTypes }
            }
            return found
        }
    }

    private func printReaders(_ reading: VersionReading, current: JournalLayout, into out: inout SwiftPrinter) {
        let v = "_v\(reading.number)"
        var walkers: [String] = []
        /// Statements that read a value of the old layout and keep nothing of it but the states it names.
        func skip(_ value: JournalLayout.Value, names: String) -> [String] {
            switch value {
            case .spec(let type, _): return ["_ = try reader.read((\(type)).self)"]
            case .standard(let type): return ["_ = try reader.read(Swift.\(type).self)"]
            case .childEvent(let machine): return ["_ = try reader.read(\(SwiftName.escaped(machine)).Event.self)"]
            case .generated(let type):
                if !walkers.contains(type) { walkers.append(type) }
                return ["try \(v)_\(Self.functionName(type))(&reader, &\(names))"]
            case .optional(let inner): return ["if try reader.readCase(below: 2) == 1 { " + skip(inner, names: names).joined(separator: "; ") + " }"]
            case .array(let inner): return ["for _ in 0..<(try reader.readCount()) { " + skip(inner, names: names).joined(separator: "; ") + " }"]
            }
        }
        let reader = "(_ reader: inout StateLoop.JournalReader) throws(StateLoop.JournalDecodingError)"

        // The state.
        let currentFields: [JournalLayout.Field] = current[GeneratedNames.state]?.fields ?? []
        let contextNames = Set(spec.context.map(\.name.value))
        let oldContext = Set(reading.chain.fields.keys)
        out.line("")
        out.line("/// A state version \(reading.number) journaled, migrated (D93).")
        out.block("fileprivate static func _readState\(v)\(reader) -> State {") { out in
            guard let oldFields = reading.layout[GeneratedNames.state]?.fields, oldFields.first?.name == "mode" else {
                out.line("throw .invalid(offset: reader.offset, reason: \"the lock's layout of version \(reading.number) has no state\")")
                return
            }
            out.line("var _names: Swift.Set<StateName> = []")
            for line in skip(oldFields[0].value, names: "_names") { out.line(line) }
            var body: [String] = []
            for field in oldFields.dropFirst() {
                if oldContext.contains(field.name) {
                    if let now = reading.chain.fields[field.name] ?? nil, let target = currentFields.first(where: { $0.name == now }) {
                        body.append("_state.\(SwiftName.escaped(now)) = \(read(alias(target.value)))")
                    } else {
                        body += skip(field.value, names: "_skipped")
                    }
                } else if !contextNames.contains(field.name), let target = currentFields.first(where: { $0.name == field.name }),
                          sameLayout(field.value, reading.layout, target.value, current) {
                    body.append("_state.\(SwiftName.escaped(field.name)) = try reader.read()")
                } else if field.name == "runs", currentFields.contains(where: { $0.name == "runs" }), reading.layout[GeneratedNames.run] != nil {
                    body.append("for _ in 0..<(try reader.readCount()) { if let _run = try _readRun\(v)(&reader) { _state.runs.append(_run) } }")
                } else {
                    body += skip(field.value, names: "_skipped")
                }
            }
            if !spec.context.isEmpty { out.line("let _initial = State.initial") }
            let arguments = ["mode: _migratedMode(_names)"] + spec.context.map { "\(Self.argumentLabel($0.name.value)): _initial.\(SwiftName.escaped($0.name.value))" }
            let assigns = body.contains { $0.hasPrefix("_state.") || $0.contains("_state.runs") }
            out.line("\(assigns ? "var" : "let") _state = State(\(arguments.joined(separator: ", ")))")
            declareSkipped(body, into: &out)
            for line in body { out.line(line) }
            out.line("return _state")
        }

        // Events: renamed, dropped, or a timer of a state that keeps its name.
        if case .enumeration(let cases)? = reading.layout[GeneratedNames.event] {
            let currentCases = current[GeneratedNames.event]?.cases ?? []
            out.line("")
            out.line("/// An event version \(reading.number) journaled, renamed; `nil` when a migration drops it (D94).")
            let lines: [[String]] = cases.map { oldCase in
                if oldCase.name == GeneratedNames.timerCase {
                    return timerLines(oldCase, reading: reading, skip: { skip($0, names: "_skipped") })
                }
                if let now = reading.chain.events[oldCase.name] ?? nil, let target = currentCases.first(where: { $0.name == now }) {
                    return ["return " + journalCase(target, binding: "_t").value]
                }
                return oldCase.payload.flatMap { skip($0.value, names: "_skipped") } + ["return nil"]
            }
            out.block("fileprivate static func _readEvent\(v)\(reader) -> Event? {") { out in
                declareSkipped(lines.flatMap { $0 }, into: &out)
                printCases(lines, into: &out)
            }
        }

        // One-shot runs: renamed or dropped.
        if case .enumeration(let cases)? = reading.layout[GeneratedNames.run] {
            let currentCases = current[GeneratedNames.run]?.cases ?? []
            out.line("")
            out.line("/// A one-shot run version \(reading.number) queued, renamed; `nil` when a migration drops it (D94).")
            let lines: [[String]] = cases.map { oldCase in
                if let now = reading.chain.runs[oldCase.name] ?? nil, let target = currentCases.first(where: { $0.name == now }) {
                    return ["return " + journalCase(target, binding: "_r").value]
                }
                return oldCase.payload.flatMap { skip($0.value, names: "_skipped") } + ["return nil"]
            }
            out.block("fileprivate static func _readRun\(v)\(reader) -> Run? {") { out in
                declareSkipped(lines.flatMap { $0 }, into: &out)
                printCases(lines, into: &out)
            }
        }

        // The walkers of the old layout's own types, as the readers above need them.
        let modeTypes = reading.modeTypes
        var printed = 0
        while printed < walkers.count {
            let type = walkers[printed]
            printed += 1
            out.line("")
            out.line("/// Reads a `\(type)` of version \(reading.number)\(modeTypes.contains(type) ? ", adding the states it holds, as named now, to `names`" : "").")
            out.block("fileprivate static func \(v)_\(Self.functionName(type))(_ reader: inout StateLoop.JournalReader, _ names: inout Swift.Set<StateName>) throws(StateLoop.JournalDecodingError) {") { out in
                switch reading.layout[type] {
                case .structure(let fields)?:
                    for field in fields { for line in skip(field.value, names: "names") { out.line(line) } }
                case .enumeration(let cases)?:
                    printCases(cases.map { oldCase in
                        var lines: [String] = []
                        if modeTypes.contains(type), let state = reading.chain.states[oldCase.name], let now = currentStateName(state) {
                            lines.append("names.insert(.\(now))")
                        }
                        lines += oldCase.payload.flatMap { skip($0.value, names: "names") }
                        return lines.isEmpty ? ["break"] : lines
                    }, into: &out)
                case nil:
                    out.line("throw .invalid(offset: reader.offset, reason: \"the lock's layout of version \(reading.number) has no type '\(type)'\")")
                }
            }
        }
    }

    /// `switch try reader.readCase(below: n)` with the lines of each old case (the last one `default:`).
    private func printCases(_ cases: [[String]], into out: inout SwiftPrinter) {
        guard !cases.isEmpty else { return out.line("throw .invalid(offset: reader.offset, reason: \"a value of a type that has none\")") }
        out.switchBlock("try reader.readCase(below: \(cases.count))") { out in
            for (index, lines) in cases.enumerated() {
                out.block(index == cases.count - 1 ? "default:" : "case \(index):", closing: nil) { out in
                    for line in lines { out.line(line) }
                }
            }
        }
    }

    /// `var _skipped`, the states of values read only to be stepped over, when `lines` use it.
    private func declareSkipped(_ lines: [String], into out: inout SwiftPrinter) {
        if lines.contains(where: { $0.contains("&_skipped") }) { out.line("var _skipped: Swift.Set<StateName> = []") }
    }

    /// A timer event of an old version: kept when its state keeps its name and has timers now
    /// (its position in `after:` and the entry that armed it carried), else read and dropped (D94).
    private func timerLines(_ oldCase: JournalLayout.Case, reading: VersionReading, skip: (JournalLayout.Value) -> [String]) -> [String] {
        let tree = semantics.tree
        let expected: [JournalLayout.Field] = [
            .init(name: "state", value: .generated(GeneratedNames.stateName)),
            .init(name: "index", value: .standard("Int")), .init(name: "entry", value: .standard("Int")),
        ]
        guard hasTimers, oldCase.payload.count == 1, case .generated(let timerType) = oldCase.payload[0].value,
              reading.layout[timerType]?.fields == expected,
              case .enumeration(let oldStates)? = reading.layout[GeneratedNames.stateName]
        else { return oldCase.payload.flatMap { skip($0.value) } + ["return nil"] }
        let kept: [String?] = oldStates.map { oldState in
            guard reading.chain.states[oldState.name] == oldState.name, let position = tree.index[oldState.name], !tree[position].spec.after.isEmpty else { return nil }
            return caseName(position)
        }
        let names = kept.map { $0.map { ".\($0)" } ?? "nil" }
        return [
            "let _kept: [StateName?] = [\(names.joined(separator: ", "))]",
            "let _state = _kept[try reader.readCase(below: \(oldStates.count))]",
            "let _index: Swift.Int = try reader.read()",
            "let _entry: Swift.Int = try reader.read()",
            "return _state.map { .\(GeneratedNames.timerCase)(.init(state: $0, index: _index, entry: _entry)) }",
        ]
    }

    /// The `StateName` case a state of this version is saved as: a history state's parent, which
    /// its default entry then fills.
    private func currentStateName(_ name: String) -> String? {
        let tree = semantics.tree
        guard var position = tree.index[name] else { return nil }
        while tree[position].spec.isHistory, let parent = tree[position].parent { position = parent }
        return caseName(position)
    }

    /// True when a value of the old layout is written as this version writes its own: the same
    /// value, and every generated type it holds the same in both (so this version's reader reads it).
    private func sameLayout(_ old: JournalLayout.Value, _ oldLayout: JournalLayout, _ new: JournalLayout.Value, _ newLayout: JournalLayout) -> Bool {
        guard old.sameBytes(as: new) else { return false }
        var pending = old.generatedTypes
        var seen: Set<String> = []
        while let type = pending.popLast() {
            guard seen.insert(type).inserted else { continue }
            guard let a = oldLayout[type], let b = newLayout[type] else { return false }
            func same(_ x: [JournalLayout.Field], _ y: [JournalLayout.Field]) -> Bool {
                x.count == y.count && zip(x, y).allSatisfy { $0.name == $1.name && $0.value.sameBytes(as: $1.value) }
            }
            switch (a, b) {
            case let (.structure(x), .structure(y)):
                guard same(x, y) else { return false }
            case let (.enumeration(x), .enumeration(y)):
                guard x.count == y.count, zip(x, y).allSatisfy({ $0.name == $1.name && same($0.payload, $1.payload) }) else { return false }
            default: return false
            }
            pending += a.fields.flatMap { $0.value.generatedTypes }
        }
        return true
    }

    /// `Mode.Active` -> `Mode_Active`.
    static func functionName(_ type: String) -> String {
        type.replacingOccurrences(of: ".", with: "_")
    }
}

extension JournalLayout.Shape {
    /// A struct's properties, or every payload field of an enum's cases.
    var fields: [JournalLayout.Field] {
        switch self {
        case .structure(let fields): fields
        case .enumeration(let cases): cases.flatMap(\.payload)
        }
    }

    /// An enum's cases; none for a struct.
    var cases: [JournalLayout.Case] {
        if case .enumeration(let cases) = self { cases } else { [] }
    }
}

extension JournalLayout.Value {
    /// The layout's own types this value holds.
    var generatedTypes: [String] {
        switch self {
        case .generated(let type): [type]
        case .optional(let inner), .array(let inner): inner.generatedTypes
        case .spec, .standard, .childEvent: []
        }
    }
}
