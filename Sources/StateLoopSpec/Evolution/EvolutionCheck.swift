// EvolutionCheck: a spec that persists must read every version its lock file holds (D52, D54,
// D56, D57). Run by the loader beside the other checks, so `stateloop check` and the build fail
// alike, at the spec's YAML line, with the migration entry to add.

/// The checks of a persisted spec against its lock.
struct EvolutionCheck {
    let spec: MachineSpec
    let lock: LockFile
    /// Bounded, as every stage's diagnostics: a lock and a spec of 10,000 states each that share
    /// no name would otherwise make 10,000 errors.
    private var diagnostics = DiagnosticList()
    /// Where each state of the spec is named (the first, when a name is repeated).
    private let stateLocations: [String: SourceLocation]
    /// How many more "did you mean" searches may run; each compares a name with every candidate.
    private var suggestionsLeft = 100

    init(spec: MachineSpec, lock: LockFile) {
        self.spec = spec
        self.lock = lock
        var locations: [String: SourceLocation] = [:]
        func add(_ states: [StateSpec]) {
            for state in states {
                if locations[state.name.value] == nil { locations[state.name.value] = state.name.location }
                add(state.states)
            }
        }
        // Nesting is bounded by the reader's depth limit, so recursion is safe here.
        add(spec.states)
        stateLocations = locations
    }

    /// The lock's file name, as messages name it.
    private var lockName: String {
        lock.path.split(separator: "/").last.map(String.init) ?? lock.path
    }

    /// Every problem of `spec` against `lock`; none for a spec that does not persist.
    static func check(_ spec: MachineSpec, against lock: LockFile) -> [Diagnostic] {
        guard let persist = spec.persist else { return [] }
        var check = EvolutionCheck(spec: spec, lock: lock)
        check.run(persist)
        return check.diagnostics.finished()
    }

    private mutating func run(_ persist: PersistSpec) {
        let current = PersistedShape(spec)
        let migrations = Dictionary(persist.migrations.map { ($0.from.value, $0) }, uniquingKeysWith: { first, _ in first })
        checkMigrationNames(persist, current: current)
        guard let latest = lock.versions.last else { return }
        if persist.version < latest.number {
            error(
                "persist.version \(persist.version) is below version \(latest.number), the latest locked in \(lockName): journals of version \(latest.number) may exist",
                at: persist.versionLocation, fixIt: "set persist.version to \(latest.number + 1) or more")
            return
        }
        if persist.version == latest.number, latest.shape != current {
            let changes = Self.differences(latest.shape, current)
            let change = changes.prefix(3).joined(separator: "; ") + (changes.count > 3 ? "; and \(changes.count - 3) more" : "")
            error(
                "version \(latest.number) is locked in \(lockName) with another persisted shape (\(change))",
                at: persist.versionLocation,
                fixIt: "bump persist.version to \(latest.number + 1): journals of the shipped version \(latest.number) are read through its lock")
        }
        // D57: each locked version into the next locked one.
        for (older, newer) in zip(lock.versions, lock.versions.dropFirst()) {
            let migration = migrations[older.number]
            for gap in ShapeGap.between(older.shape, and: newer.shape, migration: migration) {
                let (message, entry, section) = describe(gap, of: older.number, goneFrom: "is not in version \(newer.number)")
                error(
                    "\(message), as locked in \(lockName), and no migration from version \(older.number) covers it",
                    at: migration?.from.location ?? persist.location,
                    fixIt: "add '\(entry)' to persist.migrations.\(older.number).\(section)")
            }
        }
        // D54: the latest locked version into the spec.
        checkLatest(latest, current: current, migration: migrations[latest.number], persist: persist)
    }

    // MARK: D54, the latest locked version

    private mutating func checkLatest(_ latest: LockFile.Version, current: PersistedShape, migration: Migration?, persist: PersistSpec) {
        let version = latest.number
        let gaps = ShapeGap.between(latest.shape, and: current, migration: migration)
        func fix(_ text: String) -> String {
            persist.version == version ? "bump persist.version to \(version + 1), then \(text)" : text
        }
        let target = "persist.migrations.\(version)"
        // A removed item is reported at the new item that took its place: the items of the same
        // parent that the locked version lacks and no migration names, in order (kept reversed,
        // so that taking the next one is a `popLast`).
        let targets = migration.map { Set(($0.states + $0.fields + $0.events + $0.runs).compactMap(\.to?.value)) } ?? []
        func newcomers(_ names: [String], locked: Set<String>) -> [String] {
            names.filter { !locked.contains($0) && !targets.contains($0) }.reversed()
        }
        let lockedStates = Set(latest.shape.states.map(\.name))
        var newStates = Dictionary(grouping: current.states, by: \.parent).mapValues { newcomers($0.map(\.name), locked: lockedStates) }
        var takenFields = newcomers(current.context.map(\.name), locked: Set(latest.shape.context.map(\.name)))
        var takenEvents = newcomers(current.events.map(\.name), locked: Set(latest.shape.events.map(\.name)))
        var takenRuns = newcomers(current.runs.map(\.name), locked: Set(latest.shape.runs.map(\.name)))
        func take(_ list: inout [String]) -> String? { list.popLast() }
        let lockedParents = Dictionary(latest.shape.states.map { ($0.name, $0.parent) }, uniquingKeysWith: { first, _ in first })

        for gap in gaps {
            let (message, _, _) = describe(gap, of: version, goneFrom: "is gone")
            switch gap {
            case .stateGone(let state, _):
                var parent = state.parent
                // The innermost ancestor the spec still has (a lock's first state of a name comes
                // before any state inside it, so this ends).
                while let name = parent, stateLocation(name) == nil { parent = lockedParents[name] ?? nil }
                if let newcomer = take(&newStates[parent, default: []]) {
                    error(
                        "\(message), and '\(newcomer)' took its place", at: stateLocation(newcomer),
                        fixIt: fix("if '\(newcomer)' is '\(state.name)' renamed, add '\(state.name): \(newcomer)' to \(target).states; otherwise map '\(state.name)' there to the state its journals resume in"))
                } else {
                    error(message, at: parent.flatMap(stateLocation) ?? key("states"),
                          fixIt: fix("add '\(state.name): <state>' to \(target).states, naming the state a journal saved in '\(state.name)' resumes in"))
                }
            case .stateChanged(let old, _):
                error(message, at: stateLocation(old.name),
                      fixIt: fix("add '\(old.name): \(old.name)' to \(target).states to resume a saved '\(old.name)' in the state as it is now, or map it to another state"))
            case .fieldGone(let field):
                if let newcomer = take(&takenFields) {
                    error("\(message), and '\(newcomer)' took its place", at: fieldLocation(newcomer),
                          fixIt: fix("if '\(newcomer)' is '\(field.name)' renamed, add '\(field.name): \(newcomer)' to \(target).fields; otherwise drop the saved value with '\(field.name): null' there"))
                } else {
                    error(message, at: key("context"), fixIt: fix("add '\(field.name): null' to \(target).fields to drop the saved value, or '\(field.name): <field>' if it was renamed"))
                }
            case .fieldChanged(let old, _):
                error(message, at: spec.context.first { $0.name.value == old.name }?.type.location,
                      fixIt: fix("keep '\(old.type)', or add '\(old.name): null' to \(target).fields: the saved value is dropped and '\(old.name)' starts at its default"))
            case .eventGone(let event):
                if let newcomer = take(&takenEvents) {
                    error("\(message), and '\(newcomer)' took its place", at: eventLocation(newcomer),
                          fixIt: fix("if '\(newcomer)' is '\(event.name)' renamed, add '\(event.name): \(newcomer)' to \(target).events; otherwise drop recorded ones with '\(event.name): null' there"))
                } else {
                    error(message, at: key("events"), fixIt: fix("add '\(event.name): null' to \(target).events to drop recorded '\(event.name)' events, or '\(event.name): <event>' if it was renamed"))
                }
            case .eventChanged(let old, _):
                error(message, at: eventLocation(old.name),
                      fixIt: fix("keep its payload, or add '\(old.name): null' to \(target).events to drop recorded '\(old.name)' events"))
            case .runGone(let run):
                if let newcomer = take(&takenRuns) {
                    error("\(message), and '\(newcomer)' took its place", at: effectLocation(newcomer),
                          fixIt: fix("if '\(newcomer)' is '\(run.name)' renamed, add '\(run.name): \(newcomer)' to \(target).runs; otherwise drop queued runs with '\(run.name): null' there"))
                } else {
                    error(message, at: key("effects"), fixIt: fix("add '\(run.name): null' to \(target).runs to drop queued runs, or '\(run.name): <effect>' if it was renamed"))
                }
            case .runChanged(let old, _):
                error(message, at: effectLocation(old.name),
                      fixIt: fix("keep its request type, or add '\(old.name): null' to \(target).runs to drop queued runs"))
            }
        }
    }

    /// The sentence of a gap (without where it is reported), the migration entry that covers it,
    /// and the section of the migration the entry goes to.
    private func describe(_ gap: ShapeGap, of version: Int, goneFrom gone: String) -> (message: String, entry: String, section: String) {
        switch gap {
        case let .stateGone(state, inside):
            let along = inside == 0 ? "" : " (with the \(inside) state\(inside == 1 ? "" : "s") inside it)"
            return ("state '\(state.name)' of version \(version)\(along) \(gone)", "\(state.name): <state>", "states")
        case let .stateChanged(old, new):
            let change = old.kind != new.kind
                ? "was \(old.kind.described) in version \(version) and is \(new.kind.described) now"
                : "was \(Self.place(old.parent)) in version \(version) and is \(Self.place(new.parent)) now"
            return ("state '\(old.name)' \(change)", "\(old.name): <state>", "states")
        case .fieldGone(let field):
            return ("context field '\(field.name)' of version \(version) \(gone)", "\(field.name): null", "fields")
        case let .fieldChanged(old, new):
            return ("context field '\(old.name)' was '\(old.type)' in version \(version) and is '\(new.type)' now", "\(old.name): null", "fields")
        case .eventGone(let event):
            return ("event '\(event.name)' of version \(version) \(gone)", "\(event.name): null", "events")
        case let .eventChanged(old, new):
            return ("event '\(old.name)' had payload \(Self.payload(old.payload)) in version \(version) and has \(Self.payload(new.payload)) now", "\(old.name): null", "events")
        case .runGone(let run):
            return ("one-shot effect '\(run.name)' of version \(version) \(gone)", "\(run.name): null", "runs")
        case let .runChanged(old, new):
            return ("one-shot effect '\(old.name)' had request \(old.request ?? "none") in version \(version) and has \(new.request ?? "none") now", "\(old.name): null", "runs")
        }
    }

    // MARK: D56, the names of migrations

    private mutating func checkMigrationNames(_ persist: PersistSpec, current: PersistedShape) {
        let locked = lock.versions.map(\.number)
        for migration in persist.migrations {
            let number = migration.from.value
            guard let index = locked.firstIndex(of: number) else {
                let known = locked.isEmpty ? "locks no version" : "locks \(locked.map(String.init).joined(separator: ", "))"
                error(
                    "migration \(number) reads what version \(number) saved, but \(lockName) \(known)", at: migration.from.location,
                    fixIt: locked.isEmpty
                        ? "run `stateloop lock` on the version that shipped before writing migrations from it"
                        : "key each migration by the locked version it reads: \(locked.map(String.init).joined(separator: ", "))")
                continue
            }
            guard number < persist.version else {
                error(
                    "migration \(number) reads version \(number), but persist.version is \(persist.version): a migration reads an older version",
                    at: migration.from.location, fixIt: "bump persist.version to \(number + 1), or remove migration \(number)")
                continue
            }
            let old = lock.versions[index].shape
            let (next, nextName) = index + 1 < lock.versions.count
                ? (lock.versions[index + 1].shape, "version \(lock.versions[index + 1].number)")
                : (current, "the spec")
            let oldStates = Set(old.states.map(\.name)), nextStates = Set(next.states.map(\.name))
            for entry in migration.states {
                if !oldStates.contains(entry.from.value) {
                    unknown("state", entry.from, in: "version \(number)", among: old.states.map(\.name))
                }
                guard let to = entry.to else {
                    error(
                        "a saved state cannot be dropped: a journal saved in '\(entry.from.value)' must resume somewhere", at: entry.from.location,
                        fixIt: "name the state of \(nextName) that a journal saved in '\(entry.from.value)' resumes in")
                    continue
                }
                if !nextStates.contains(to.value) { unknown("state", to, in: nextName, among: next.states.map(\.name)) }
            }
            checkRenamings(migration.fields, noun: "context field", old: old.context, next: next.context, version: number, nextName: nextName,
                           name: \.name, shape: { "'\($0.type)'" })
            checkRenamings(migration.events, noun: "event", old: old.events, next: next.events, version: number, nextName: nextName,
                           name: \.name, shape: { "payload \(Self.payload($0.payload))" })
            checkRenamings(migration.runs, noun: "one-shot effect", old: old.runs, next: next.runs, version: number, nextName: nextName,
                           name: \.name, shape: { "request \($0.request ?? "none")" })
        }
    }

    /// `old: new` entries of fields, events or runs: both names exist, and the item keeps its
    /// type, payload or request type (what `shape` says).
    private mutating func checkRenamings<Item>(
        _ entries: [Renaming], noun: String, old: [Item], next: [Item], version: Int, nextName: String,
        name: KeyPath<Item, String>, shape: (Item) -> String
    ) {
        let oldItems = Dictionary(old.map { ($0[keyPath: name], $0) }, uniquingKeysWith: { first, _ in first })
        let nextItems = Dictionary(next.map { ($0[keyPath: name], $0) }, uniquingKeysWith: { first, _ in first })
        for entry in entries {
            let before = oldItems[entry.from.value]
            if before == nil { unknown(noun, entry.from, in: "version \(version)", among: old.map { $0[keyPath: name] }) }
            guard let to = entry.to else { continue }
            guard let after = nextItems[to.value] else {
                unknown(noun, to, in: nextName, among: next.map { $0[keyPath: name] })
                continue
            }
            if let before, shape(before) != shape(after) {
                error(
                    "\(noun) '\(entry.from.value)' has \(shape(before)) in version \(version) and '\(to.value)' has \(shape(after)) in \(nextName): what was saved cannot be read as '\(to.value)'",
                    at: to.location, fixIt: "drop it instead with '\(entry.from.value): null'")
            }
        }
    }

    private mutating func unknown(_ noun: String, _ name: Located<String>, in version: String, among names: [String]) {
        suggestionsLeft -= 1
        let suggestion = suggestionsLeft < 0 ? nil : SpellingSuggestion.closest(to: name.value, among: names).map { "did you mean '\($0)'?" }
        error("\(version) has no \(noun) '\(name.value)'", at: name.location,
              fixIt: suggestion ?? (names.isEmpty ? "remove the entry" : "name one of \(names.map { "'\($0)'" }.joined(separator: ", "))"))
    }

    // MARK: Where things are written

    private func stateLocation(_ name: String) -> SourceLocation? { stateLocations[name] }
    private func fieldLocation(_ name: String) -> SourceLocation? { spec.context.first { $0.name.value == name }?.name.location }
    private func eventLocation(_ name: String) -> SourceLocation? { spec.events.first { $0.name.value == name }?.name.location }
    private func effectLocation(_ name: String) -> SourceLocation? { spec.effects.first { $0.name.value == name }?.name.location }

    /// A top-level key of the spec, when it is written.
    private func key(_ name: String) -> SourceLocation? { spec.keys.first { $0.value == name }?.location }

    /// An error at `location`, or at `persist:` when the place is not written (a key removed
    /// with everything under it).
    private mutating func error(_ message: String, at location: SourceLocation?, fixIt: String) {
        diagnostics.append(.error, message, at: location ?? spec.persist?.location ?? spec.name.location, fixIt: fixIt)
    }

    // MARK: Words

    static func place(_ parent: String?) -> String { parent.map { "inside '\($0)'" } ?? "at the top level" }

    static func payload(_ fields: [PersistedShape.Field]) -> String {
        "{" + fields.map { "\($0.name): \($0.type)" }.joined(separator: ", ") + "}"
    }

    /// What differs between two shapes, in words, for D52's message.
    static func differences(_ old: PersistedShape, _ new: PersistedShape) -> [String] {
        func compare<Item: Equatable>(_ noun: String, _ old: [Item], _ new: [Item], name: KeyPath<Item, String>) -> [String] {
            let oldNames = old.map { $0[keyPath: name] }, newNames = new.map { $0[keyPath: name] }
            let oldSet = Set(oldNames), byName = Dictionary(new.map { ($0[keyPath: name], $0) }, uniquingKeysWith: { first, _ in first })
            var found = newNames.filter { !oldSet.contains($0) }.map { "\(noun) '\($0)' added" }
            found += oldNames.filter { byName[$0] == nil }.map { "\(noun) '\($0)' removed" }
            found += old.filter { item in byName[item[keyPath: name]].map { $0 != item } ?? false }.map { "\(noun) '\($0[keyPath: name])' changed" }
            if found.isEmpty, old != new { found.append("\(noun)s reordered") }
            return found
        }
        return compare("state", old.states, new.states, name: \.name) + compare("context field", old.context, new.context, name: \.name)
            + compare("event", old.events, new.events, name: \.name) + compare("one-shot effect", old.runs, new.runs, name: \.name)
    }
}
