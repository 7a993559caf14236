// JournalLayout+Lock: a layout as the lock file keeps it, under a version's `layout:` (D90). One
// line a type, in the generator's order; each value a short phrase that reads back to it:
//
//     layout:
//       Mode: {enum: {closed: {}, active: {_: type Mode.Active}}}
//       State: {struct: {mode: type Mode, balance: spec Money, _entries: std Int}}
//
// `_` is an unlabeled payload; a value is `std T` (the generated code's own), `spec T` (a type
// written in the spec, as written), `type T` (a type of the layout), `child M` (an event of child
// machine M), `optional V` or `array V`. A spec type's alias is the generator's business and is not
// kept: a layout read from a lock has none.

extension JournalLayout.Value {
    /// The value's phrase in a lock.
    var lockText: String {
        switch self {
        case .spec(let type, _): "spec " + PersistedShape.normalized(type)
        case .standard(let type): "std " + type
        case .generated(let type): "type " + type
        case .childEvent(let machine): "child " + machine
        case .optional(let value): "optional " + value.lockText
        case .array(let value): "array " + value.lockText
        }
    }

    /// The value a phrase of a lock names, or `nil` when it is no such phrase.
    init?(lockText text: Substring) {
        guard let space = text.firstIndex(of: " ") else { return nil }
        let rest = text[text.index(after: space)...]
        guard !rest.isEmpty else { return nil }
        switch text[..<space] {
        case "spec": self = .spec(String(rest), alias: "")
        case "std": self = .standard(String(rest))
        case "type": self = .generated(String(rest))
        case "child": self = .childEvent(String(rest))
        case "optional": guard let value = Self(lockText: rest) else { return nil }; self = .optional(value)
        case "array": guard let value = Self(lockText: rest) else { return nil }; self = .array(value)
        default: return nil
        }
    }

    /// Equal as the journal writes it: a spec type by its spelling (spaces aside), whatever its alias.
    public func sameBytes(as other: Self) -> Bool {
        switch (self, other) {
        case let (.spec(a, _), .spec(b, _)): PersistedShape.normalized(a) == PersistedShape.normalized(b)
        case let (.optional(a), .optional(b)), let (.array(a), .array(b)): a.sameBytes(as: b)
        default: self == other
        }
    }
}

extension JournalLayout {
    /// The lines of `layout:` in a lock, indented by `indent`.
    func lockLines(indent: String) -> [String] {
        func fields(_ fields: [Field]) -> String {
            "{" + fields.map { "\($0.name.isEmpty ? "_" : $0.name): \(LockFile.scalar($0.value.lockText))" }.joined(separator: ", ") + "}"
        }
        return types.map { type in
            switch type.shape {
            case .enumeration(let cases):
                "\(indent)\(type.name): {enum: {" + cases.map { "\($0.name): \(fields($0.payload))" }.joined(separator: ", ") + "}}"
            case .structure(let properties):
                "\(indent)\(type.name): {struct: \(fields(properties))}"
            }
        }
    }

    /// The layout without what only the generator uses (each type's doc comment, a spec type's
    /// alias): what a lock keeps, so that a layout locked and read back is equal to it.
    var locked: JournalLayout {
        func strip(_ value: Value) -> Value {
            switch value {
            case .spec(let type, _): .spec(PersistedShape.normalized(type), alias: "")
            case .optional(let inner): .optional(strip(inner))
            case .array(let inner): .array(strip(inner))
            case .standard, .generated, .childEvent: value
            }
        }
        func fields(_ fields: [Field]) -> [Field] { fields.map { Field(name: $0.name, value: strip($0.value)) } }
        return JournalLayout(machine: "", version: version, types: types.map { type in
            switch type.shape {
            case .enumeration(let cases): CodedType(name: type.name, doc: "", shape: .enumeration(cases.map { Case(name: $0.name, payload: fields($0.payload)) }))
            case .structure(let properties): CodedType(name: type.name, doc: "", shape: .structure(fields(properties)))
            }
        })
    }
}

extension JournalLayout {
    /// What differs between `old`, a layout read from a lock, and this one, in words (D124): the
    /// types added or removed, then, for each type both have, its cases or stored properties added,
    /// removed, written otherwise or reordered. Empty exactly when the two write the same bytes.
    public func differences(from old: JournalLayout) -> [String] {
        let new = locked, old = old.locked
        let oldNames = old.types.map(\.name), newNames = new.types.map(\.name)
        var found = newNames.filter { !oldNames.contains($0) }.map { "type '\($0)' added" }
        found += oldNames.filter { !newNames.contains($0) }.map { "type '\($0)' removed" }
        for oldType in old.types {
            guard let newShape = new[oldType.name], newShape != oldType.shape else { continue }
            switch (oldType.shape, newShape) {
            case let (.enumeration(before), .enumeration(after)):
                found += Self.compare("case", of: oldType.name, before.map { ($0.name, $0.payload) }, after.map { ($0.name, $0.payload) })
            case let (.structure(before), .structure(after)):
                found += Self.compare("property", of: oldType.name, before.map { ($0.name, [$0]) }, after.map { ($0.name, [$0]) })
            default:
                found.append("type '\(oldType.name)' is written as \(newShape.kindWord) instead of \(oldType.shape.kindWord)")
            }
        }
        if found.isEmpty, new.types != old.types { found.append("types reordered") }
        return found
    }

    /// The items of one type, by name, with what each writes.
    private static func compare(_ noun: String, of type: String, _ old: [(String, [Field])], _ new: [(String, [Field])]) -> [String] {
        let oldNames = old.map(\.0), newNames = new.map(\.0)
        let newItems = Dictionary(new, uniquingKeysWith: { first, _ in first })
        var found = newNames.filter { !oldNames.contains($0) }.map { "\(noun) '\($0)' added to '\(type)'" }
        found += oldNames.filter { !newNames.contains($0) }.map { "\(noun) '\($0)' removed from '\(type)'" }
        found += old.filter { name, fields in newItems[name].map { $0 != fields } ?? false }.map { "\(noun) '\($0.0)' of '\(type)' written otherwise" }
        if found.isEmpty { found.append("\(noun)s of '\(type)' reordered") }
        return found
    }
}

extension JournalLayout.Shape {
    fileprivate var kindWord: String {
        switch self {
        case .enumeration: "an enum"
        case .structure: "a struct"
        }
    }
}
