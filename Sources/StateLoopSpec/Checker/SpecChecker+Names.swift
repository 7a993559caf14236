/// Names must be Swift identifiers that the generated code can use as they are (or backticked),
/// and must not clash with members the generator adds.
extension SpecChecker {
    /// Context fields the generated `State` already has.
    public static let reservedFieldNames: Set<String> = ["mode"]

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
            if Self.reservedFieldNames.contains(field.name.value) {
                findings.error(
                    "context field '\(field.name.value)' would clash with the generated 'State.\(field.name.value)', which holds the current state",
                    at: field.name.location, fixIt: "rename the field, e.g. '\(field.name.value)Value'")
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
