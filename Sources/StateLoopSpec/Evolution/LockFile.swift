// LockFile: the `.machine.lock` next to a spec that persists, committed with it: the persisted
// shape of each version that shipped (Docs/Durability.md, D50–D53). `stateloop lock` writes it;
// the evolution check reads it. YAML, one item a line, so that a review shows what a version
// bump locked. No file system access here: the CLI reads and writes the bytes.

/// The persisted shapes of the shipped versions of one spec, oldest first.
public struct LockFile: Equatable, Sendable {
    /// One locked version: its number, its shape, and where its key is written in the lock.
    public struct Version: Equatable, Sendable {
        public var number: Int
        public var shape: PersistedShape
        /// The journal layout the generated code of that version wrote (D90): what a later build
        /// prints that version's readers from; `nil` in a lock written before layouts were locked.
        public var layout: JournalLayout?
        /// The version's key in the lock file; a version added in memory has none.
        public var location: SourceLocation?

        public init(number: Int, shape: PersistedShape, layout: JournalLayout? = nil, location: SourceLocation? = nil) {
            self.number = number
            self.shape = shape
            self.layout = layout?.locked
            self.location = location
        }
    }

    /// The path the lock was read from (or is to be written to), for diagnostics.
    public var path: String
    /// The locked versions, in ascending order.
    public private(set) var versions: [Version]

    /// A lock of `versions` (sorted here).
    public init(path: String, versions: [Version] = []) {
        self.path = path
        self.versions = versions.sorted { $0.number < $1.number }
    }

    /// The locked version `number`, if any.
    public func version(_ number: Int) -> Version? {
        versions.first { $0.number == number }
    }

    /// The lock with `shape` and `layout` locked as version `number`, which must not be locked
    /// yet, or be locked with the same shape and no layout, which this adds (D51, D91).
    public func locking(_ shape: PersistedShape, layout: JournalLayout? = nil, as number: Int) -> LockFile {
        precondition(version(number).map { $0.shape == shape && $0.layout == nil } ?? true, "version \(number) is locked already")
        return LockFile(path: path, versions: versions.filter { $0.number != number } + [Version(number: number, shape: shape, layout: layout)])
    }
}

// MARK: Writing

extension LockFile {
    /// The file's text: a comment that says what it is, then every version, oldest first.
    public func rendered(specFileName: String) -> String {
        var lines = [
            "# The persisted shape of each shipped version of \(specFileName), written by `stateloop lock`.",
            "# Commit it with the spec and do not edit it: a newer version of the spec must read what these",
            "# versions saved, or the build fails (Docs/Durability.md).",
            "versions:",
        ]
        for version in versions {
            let shape = version.shape
            lines.append("  \(version.number):")
            lines.append("    states:\(shape.states.isEmpty ? " {}" : "")")
            let children = Dictionary(grouping: shape.states, by: \.parent)
            func addStates(under parent: String?, indent: String) {
                for state in children[parent] ?? [] {
                    if children[state.name] != nil {
                        lines.append("\(indent)\(state.name):")
                        lines.append("\(indent)  kind: \(state.kind.rawValue)")
                        lines.append("\(indent)  states:")
                        addStates(under: state.name, indent: indent + "    ")
                    } else {
                        lines.append("\(indent)\(state.name): \(state.kind.rawValue)")
                    }
                }
            }
            addStates(under: nil, indent: "      ")
            lines.append("    context:\(shape.context.isEmpty ? " {}" : "")")
            for field in shape.context { lines.append("      \(field.name): \(Self.scalar(field.type))") }
            lines.append("    events:\(shape.events.isEmpty ? " {}" : "")")
            for event in shape.events {
                let payload = event.payload.map { "\($0.name): \(Self.scalar($0.type))" }.joined(separator: ", ")
                lines.append("      \(event.name): {\(payload)}")
            }
            lines.append("    runs:\(shape.runs.isEmpty ? " {}" : "")")
            for run in shape.runs {
                lines.append("      \(run.name): {\(run.request.map { "request: \(Self.scalar($0))" } ?? "")}")
            }
            if let layout = version.layout {
                lines.append("    layout:")
                lines += layout.lockLines(indent: "      ")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A type as YAML reads it back unchanged: plain when it is only letters, digits, `_`, `.`
    /// and `?`, double-quoted (with `\` and `"` escaped) otherwise.
    static func scalar(_ text: String) -> String {
        let plain = text.first.map { $0.isLetter || $0 == "_" } == true
            && text.allSatisfy { $0.isLetter || $0.isNumber || "_.?".contains($0) }
        guard !plain else { return text }
        var quoted = "\""
        for character in text {
            if character == "\\" || character == "\"" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }
}

// MARK: Reading

extension LockFile {
    /// What `read` found: the lock when the file is whole, and its problems at their lines.
    public struct ReadResult: Sendable {
        public var lock: LockFile?
        public var diagnostics: [Diagnostic]
    }

    /// The advice every problem of a lock file ends with.
    static let repair = "a lock is written by `stateloop lock`: restore it from version control, or delete it and run `stateloop lock` at the version that shipped"

    /// Reads a lock file's bytes (`nil`: there is no lock, which locks no version); a lock that is
    /// not what `stateloop lock` writes is an error at its line (D53): a spec is never checked
    /// against a lock half read.
    public static func read(_ bytes: [UInt8]?, path: String) -> ReadResult {
        guard let bytes else { return ReadResult(lock: LockFile(path: path), diagnostics: []) }
        let read = YAMLReader().read(bytes, path: path)
        guard !read.diagnostics.containsErrors else { return ReadResult(lock: nil, diagnostics: read.diagnostics) }
        var reading = LockReading(path: path)
        let lock = reading.lock(read.root)
        return ReadResult(lock: reading.diagnostics.isEmpty ? lock : nil, diagnostics: reading.diagnostics)
    }
}

/// One `LockFile.read` call.
private struct LockReading {
    let path: String
    var diagnostics: [Diagnostic] = []

    mutating func fail(_ message: String, at location: SourceLocation) {
        diagnostics.append(.error(message, at: location, fixIt: LockFile.repair))
    }

    mutating func lock(_ root: YAMLNode?) -> LockFile {
        guard let root, let entries = root.mapping, entries.count == 1, entries[0].key.value == "versions" else {
            fail("a lock file holds one key, 'versions:'", at: root?.location ?? SourceLocation(file: path, line: 1, column: 1))
            return LockFile(path: path)
        }
        guard let versions = mapping(entries[0].value, what: "'versions:'") else { return LockFile(path: path) }
        var read: [LockFile.Version] = []
        for entry in versions {
            guard let number = Int(entry.key.value), number >= 1, String(number) == entry.key.value else {
                fail("'\(entry.key.value)' is not a version: a version is a whole number of 1 or more", at: entry.key.location)
                continue
            }
            if let (shape, layout) = shape(entry.value, version: number) {
                read.append(LockFile.Version(number: number, shape: shape, layout: layout, location: entry.key.location))
            }
        }
        return LockFile(path: path, versions: read)
    }

    mutating func shape(_ node: YAMLNode, version: Int) -> (PersistedShape, JournalLayout?)? {
        guard let entries = mapping(node, what: "version \(version)") else { return nil }
        var shape = PersistedShape(states: [], context: [], events: [], runs: [])
        var layout: JournalLayout?
        let before = diagnostics.count
        for entry in entries {
            switch entry.key.value {
            case "states": states(entry.value, parent: nil, into: &shape.states)
            case "context": shape.context = fields(entry.value, what: "'context:'")
            case "events":
                shape.events = (mapping(entry.value, what: "'events:'") ?? []).map { event in
                    PersistedShape.Event(name: event.key.value, payload: fields(event.value, what: "event '\(event.key.value)'"))
                }
            case "runs":
                shape.runs = (mapping(entry.value, what: "'runs:'") ?? []).compactMap { run in
                    guard let body = mapping(run.value, what: "run '\(run.key.value)'") else { return nil }
                    let request = body.first { $0.key.value == "request" }
                    if let unknown = body.first(where: { $0.key.value != "request" }) {
                        fail("unknown key '\(unknown.key.value)' in run '\(run.key.value)'", at: unknown.key.location)
                    }
                    return PersistedShape.Run(name: run.key.value, request: request.flatMap { text($0.value, what: "the request type of '\(run.key.value)'") })
                }
            case "layout": layout = self.layout(entry.value, version: version)
            default: fail("unknown key '\(entry.key.value)' in version \(version); a version has 'states:', 'context:', 'events:', 'runs:' and 'layout:'", at: entry.key.location)
            }
        }
        return diagnostics.count == before ? (shape, layout) : nil
    }

    /// `layout:` (JournalLayout+Lock): one `Type: {enum: {case: {field: value}}}` or
    /// `Type: {struct: {field: value}}` a line.
    mutating func layout(_ node: YAMLNode, version: Int) -> JournalLayout {
        var types: [JournalLayout.CodedType] = []
        for entry in mapping(node, what: "'layout:'") ?? [] {
            let name = entry.key.value
            guard let body = mapping(entry.value, what: "type '\(name)'"), body.count == 1, ["enum", "struct"].contains(body[0].key.value) else {
                fail("type '\(name)' of the layout is not '{enum: {...}}' or '{struct: {...}}'", at: entry.value.location)
                continue
            }
            if body[0].key.value == "struct" {
                types.append(.init(name: name, doc: "", shape: .structure(layoutFields(body[0].value, of: name))))
            } else {
                let cases = (mapping(body[0].value, what: "the cases of '\(name)'") ?? []).map { entry in
                    JournalLayout.Case(name: entry.key.value, payload: layoutFields(entry.value, of: "\(name).\(entry.key.value)"))
                }
                types.append(.init(name: name, doc: "", shape: .enumeration(cases)))
            }
        }
        return JournalLayout(machine: "", version: version, types: types)
    }

    mutating func layoutFields(_ node: YAMLNode, of owner: String) -> [JournalLayout.Field] {
        (mapping(node, what: "the fields of '\(owner)'") ?? []).compactMap { entry in
            guard let scalar = entry.value.scalar, let value = JournalLayout.Value(lockText: scalar.value[...]) else {
                fail("'\(entry.value.scalar?.value ?? entry.value.kindDescription)' is not a value of a layout: 'std T', 'spec T', 'type T', 'child M', 'optional V' or 'array V'",
                     at: entry.value.location)
                return nil
            }
            return .init(name: entry.key.value == "_" ? "" : entry.key.value, value: value)
        }
    }

    /// `name: kind` or `name: {kind: composite, states: {...}}`, in order, parents first.
    mutating func states(_ node: YAMLNode, parent: String?, into states: inout [PersistedShape.State]) {
        for entry in mapping(node, what: "'states:'") ?? [] {
            let name = entry.key.value
            if let scalar = entry.value.scalar {
                guard let kind = kind(scalar) else { continue }
                states.append(.init(name: name, kind: kind, parent: parent))
                continue
            }
            guard let body = mapping(entry.value, what: "state '\(name)'") else { continue }
            guard let kindEntry = body.first(where: { $0.key.value == "kind" }), let kindScalar = kindEntry.value.scalar,
                  let kind = kind(kindScalar)
            else {
                fail("state '\(name)' has no 'kind:'", at: entry.key.location)
                continue
            }
            states.append(.init(name: name, kind: kind, parent: parent))
            for item in body where item.key.value != "kind" {
                if item.key.value == "states" {
                    self.states(item.value, parent: name, into: &states)
                } else {
                    fail("unknown key '\(item.key.value)' in state '\(name)'", at: item.key.location)
                }
            }
        }
    }

    mutating func kind(_ scalar: YAMLScalar) -> PersistedShape.Kind? {
        if let kind = PersistedShape.Kind(rawValue: scalar.value) { return kind }
        fail("'\(scalar.value)' is not a kind of state: \(PersistedShape.Kind.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", "))", at: scalar.location)
        return nil
    }

    mutating func fields(_ node: YAMLNode, what: String) -> [PersistedShape.Field] {
        (mapping(node, what: what) ?? []).compactMap { entry in
            text(entry.value, what: "the type of '\(entry.key.value)'").map { PersistedShape.Field(name: entry.key.value, type: $0) }
        }
    }

    mutating func mapping(_ node: YAMLNode, what: String) -> [YAMLMappingEntry]? {
        if let entries = node.mapping { return entries }
        fail("expected a mapping for \(what), found \(node.kindDescription)", at: node.location)
        return nil
    }

    mutating func text(_ node: YAMLNode, what: String) -> String? {
        if let scalar = node.scalar, !scalar.value.isEmpty { return scalar.value }
        fail("expected \(what), found \(node.kindDescription)", at: node.location)
        return nil
    }
}
