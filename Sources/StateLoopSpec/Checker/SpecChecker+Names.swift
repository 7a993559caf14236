/// Names must be Swift identifiers that the generated code can use as they are (or backticked),
/// and must not clash with members the generator adds.
extension SpecChecker {
    /// Context fields the generated code already uses, and why.
    public static let reservedFieldNames: [String: String] = [
        "mode": "the generated 'State.mode', which holds the current state",
        "event": "the name expressions use for the event's payload ('event.x')",
    ]

    /// Types the generated machine nests; a machine of the same name would be shadowed by them.
    public static let reservedNestedTypeNames: Set<String> = ["Mode", "State", "Event", "Effects"]

    /// Module names a machine may not take: the generated file imports them, and an enum of the
    /// same name would shadow the module (`StateLoop.System` would no longer resolve).
    public static let reservedMachineNames: Set<String> = ["StateLoop", "Swift"]

    func checkNames(_ spec: MachineSpec, into findings: inout Findings) {
        checkName(spec.name, kind: "machine", into: &findings)
        if Self.reservedMachineNames.contains(spec.name.value) || spec.imports.contains(where: { $0.value == spec.name.value }) {
            findings.error(
                "machine '\(spec.name.value)' would shadow the module '\(spec.name.value)' that the generated code imports",
                at: spec.name.location, fixIt: "rename the machine, e.g. '\(spec.name.value)Machine'")
        }
        if Self.reservedNestedTypeNames.contains(spec.name.value) {
            findings.error(
                "machine '\(spec.name.value)' would clash with the type '\(spec.name.value)' generated inside it",
                at: spec.name.location, fixIt: "rename the machine, e.g. '\(spec.name.value)Machine'")
        }
        for module in spec.imports {
            let parts = module.value.split(separator: ".", omittingEmptySubsequences: false)
            if !parts.allSatisfy({ SwiftName.isIdentifier(String($0)) }) {
                findings.error(
                    "'\(module.value)' is not a module name", at: module.location,
                    fixIt: "write module names as Swift identifiers, such as Foundation or MyPackage.Module")
            }
        }
        for field in spec.context {
            checkName(field.name, kind: "context field", into: &findings)
            if let clash = Self.reservedFieldNames[field.name.value] {
                findings.error(
                    "context field '\(field.name.value)' would clash with \(clash)",
                    at: field.name.location, fixIt: "rename the field, e.g. '\(field.name.value)Value'")
            } else if SwiftName.keywords.contains(field.name.value), SwiftName.isIdentifier(field.name.value),
                      !SwiftName.unusable.contains(field.name.value) {
                // Declarations get backticks, but the spec's own expressions name fields bare.
                findings.warning(
                    "context field '\(field.name.value)' is a Swift keyword, so expressions must write it as `\(field.name.value)`",
                    at: field.name.location, fixIt: "rename the field, e.g. '\(field.name.value)Count', or write `\(field.name.value)` in guard:, set: and request expressions")
            }
        }
        for event in spec.events {
            checkName(event.name, kind: "event", into: &findings)
            for field in event.payload {
                checkName(field.name, kind: "payload field", into: &findings)
            }
        }
        for state in spec.states {
            checkName(state.name, kind: "state", into: &findings)
        }
        var resultTypes: [String: Located<String>] = [:]
        for effect in spec.effects {
            checkName(effect.name, kind: "effect", into: &findings)
            // Each effect generates `<Name>Result`; names differing only in the first letter collide.
            let type = SwiftName.upperCamel(effect.name.value) + "Result"
            if let first = resultTypes[type] {
                findings.error(
                    "effect '\(effect.name.value)' would clash with effect '\(first.value)': both generate the type '\(type)'",
                    at: effect.name.location, notes: [Diagnostic.Note("effect '\(first.value)' is declared here", at: first.location)],
                    fixIt: "rename one of them")
            } else {
                resultTypes[type] = effect.name
            }
        }
    }

    /// Identifier rules, names Swift cannot take, and the `_` prefix kept for generated code.
    private func checkName(_ name: Located<String>, kind: String, into findings: inout Findings) {
        let text = name.value
        if !SwiftName.isIdentifier(text) {
            findings.error(
                "'\(text)' is not a valid \(kind) name; names are ASCII letters, digits and '_' and do not start with a digit",
                at: name.location, fixIt: "rename it, e.g. '\(Self.identifier(from: text, kind: kind))'")
        } else if SwiftName.unusable.contains(text) {
            findings.error(
                "'\(text)' cannot be \(Self.article(kind)) \(kind) name: Swift does not accept it there, even in backticks",
                at: name.location, fixIt: "rename it, e.g. '\(text)\(SwiftName.upperCamel(Self.shortKind(kind)))'")
        } else if text.hasPrefix("_") {
            findings.error(
                "'\(text)' starts with '_', which is reserved for generated code", at: name.location,
                fixIt: "rename it, e.g. '\(Self.identifier(from: text, kind: kind))'")
        }
    }

    /// "an" before a vowel, "a" otherwise.
    private static func article(_ word: String) -> String {
        "aeiou".contains(word.first ?? "x") ? "an" : "a"
    }

    /// "field" for "context field", "state" for "state": the word used to build suggestions.
    private static func shortKind(_ kind: String) -> String {
        String(kind.split(separator: " ").last ?? "name")
    }

    /// A valid identifier close to `text`: words joined in camel case, a kind prefix before a digit.
    static func identifier(from text: String, kind: String) -> String {
        let words = text.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }.map(String.init)
        var name = words.enumerated().map { $0.offset == 0 ? $0.element : SwiftName.upperCamel($0.element) }.joined()
        if name.isEmpty { return kind == "machine" ? "Machine" : shortKind(kind) }
        if name.first!.isNumber { name = shortKind(kind) + name }
        return kind == "machine" ? SwiftName.upperCamel(name) : name
    }
}
