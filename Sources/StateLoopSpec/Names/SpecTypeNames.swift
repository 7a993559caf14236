// The names of the aliases the generated code declares for the types a spec writes. Each alias
// stands in a `#sourceLocation` block at the type's YAML line and column, so a misspelt type is one
// error in the YAML; its name is what a user reads in the `Effects` protocol, `State`, `Event` and
// swiftc's messages (`'PhotoSync.CheckQuotaRequest' (aka 'QuotaQuery')`), so it says whose type it
// is (Docs/Effects.md E61-E63).

/// The alias of every type written in a spec: context fields, `input:` fields, payload fields,
/// requests and `output:` fields.
///
/// A name is the owner's, in upper camel case: context field `log` -> `Log`, `input:` field
/// `amount` -> `InputAmount`, field `url` of event `imageLoaded` -> `ImageLoadedUrl`, the request
/// of `checkQuota` -> `CheckQuotaRequest`, field `total` of final state `done`'s `output:` ->
/// `DoneTotal`. A name is refused, and `Type`, then `Type2`, `Type3`, ... appended until one is
/// free, when it is (E62, E63):
/// - a type the generated code declares or names (`State`, `Effects`, `LoadResult`, a child
///   machine, the machine itself), or one Swift refuses as a member type (`Type`, `Self`, `Any`);
/// - a name the spec already uses (a field, a state, an event, an effect), or one an earlier
///   alias took;
/// - a word of the spec's Swift (its types and expressions): the alias would hide the type the
///   spec means there, and `user: {type: User}` would declare `User` as itself.
public struct SpecTypeNames: Sendable, Equatable {
    /// The aliases of `input:`, by field position.
    public private(set) var input: [String] = []
    /// The aliases of `context:`, by field position.
    public private(set) var context: [String] = []
    /// The aliases of each event's payload, by field position.
    public private(set) var payloads: [String: [String]] = [:]
    /// The alias of each effect's request.
    public private(set) var requests: [String: String] = [:]
    /// The aliases of each top-level final state's `output:`, by field position.
    public private(set) var outputs: [String: [String]] = [:]

    /// Names every type `spec` writes, in the order the generated code declares them (input,
    /// context, payloads, requests, outputs), so the first of two equal names keeps it.
    public init(_ spec: MachineSpec) {
        var taken = Self.refused(in: spec)
        func name(_ candidate: String) -> String {
            var name = candidate
            var number = 1
            while taken.contains(name) {
                number += 1
                name = candidate + "Type" + (number == 2 ? "" : String(number - 1))
            }
            taken.insert(name)
            return name
        }
        input = spec.input.map { name("Input" + SwiftName.upperCamel($0.name.value)) }
        context = spec.context.map { name(SwiftName.upperCamel($0.name.value)) }
        for event in spec.events where !event.payload.isEmpty {
            payloads[event.name.value] = event.payload.map { name(SwiftName.upperCamel(event.name.value) + SwiftName.upperCamel($0.name.value)) }
        }
        for effect in spec.effects where effect.request != nil {
            requests[effect.name.value] = name(SwiftName.upperCamel(effect.name.value) + "Request")
        }
        for final in spec.states where final.isFinal && !final.output.isEmpty {
            outputs[final.name.value] = final.output.map { name(SwiftName.upperCamel(final.name.value) + SwiftName.upperCamel($0.name.value)) }
        }
    }

    /// Names Swift refuses for a nested type.
    static let refusedBySwift: Set<String> = ["Type", "Protocol", "Self", "Any"]

    /// Every name an alias of `spec` may not take (see the type's comment).
    static func refused(in spec: MachineSpec) -> Set<String> {
        var names = GeneratedNames.nestedTypes.union(GeneratedNames.qualifyingModules).union(refusedBySwift)
        names.formUnion([spec.name.value, GeneratedNames.timer, GeneratedNames.delayedEntry])
        let tree = StateTree(spec.states)
        for node in tree.nodes {
            names.insert(node.name)
            names.formUnion(node.spec.output.map(\.name.value))
        }
        for event in spec.events {
            names.formUnion([event.name.value, GeneratedNames.payloadType(ofEvent: event.name.value)])
            names.formUnion(event.payload.map(\.name.value))
        }
        for effect in spec.effects {
            names.formUnion([effect.name.value, GeneratedNames.resultType(ofEffect: effect.name.value)])
            if let child = effect.child { names.insert(child.machine.value) }
        }
        names.formUnion(spec.context.map(\.name.value))
        names.formUnion(spec.input.map(\.name.value))
        let swift = SpecChecker.embeddedSwift(spec, tree: tree)
        for text in swift.types + swift.expressions {
            names.formUnion(words(in: text.value))
        }
        return names
    }

    /// The identifier-like runs of `text`, wherever they stand (in a string literal too: a name
    /// refused for nothing costs a longer alias, never a wrong type).
    static func words(in text: String) -> [String] {
        var words: [String] = []
        var word = ""
        for scalar in text.unicodeScalars {
            if scalar == "_" || scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                word.unicodeScalars.append(scalar)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        return words
    }
}
