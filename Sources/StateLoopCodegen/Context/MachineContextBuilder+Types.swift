import StateLoopSpec

// Every type written in the spec becomes an alias at the machine's level, declared in a
// `#sourceLocation` block at the YAML line and column of the type, through
// `StateLoop._SpecType<T>.Checked`, which requires `Equatable & Sendable`. The declarations use the
// alias, so a misspelt type, a type that is not `Equatable` or `Sendable`, or one swiftc cannot
// parse is reported at the spec's line, once.

extension MachineContextBuilder {
    /// Declares the aliases of the context fields', payload fields' and requests' types.
    mutating func makeTypeAliases() {
        // First, so that input field `n` is `_Tn`: a parent names it to check its `input:` (E24).
        inputTypes = spec.input.map { field in alias(field.type, doc: "The type of `\(field.name.value)` in `input:`") }
        fieldTypes = spec.context.map { field in
            alias(field.type, doc: "The type of `\(field.name.value)` in `context:`")
        }
        for event in spec.events where !event.payload.isEmpty {
            payloadTypes[event.name.value] = event.payload.map { field in
                alias(field.type, doc: "The type of `\(field.name.value)` in the payload of `\(event.name.value)`")
            }
        }
        for effect in spec.effects {
            requestTypes[effect.name.value] = effect.request.map { alias($0.type, doc: "The request type of `\(effect.name.value)`") }
        }
        for final in spec.states where final.isFinal && !final.output.isEmpty {
            outputTypes[final.name.value] = final.output.map { field in
                alias(field.type, doc: "The type of `\(field.name.value)` in the `output:` of `\(final.name.value)`")
            }
        }
    }

    /// Declares the alias of one type; returns its name.
    private mutating func alias(_ type: Located<String>, doc: String) -> String {
        let name = GeneratedNames.typeAlias(typeAliases.count)
        typeAliases.append(.init(
            doc: "\(doc) (\(position(type.location))): `\(SwiftLiteral.comment(type.value))`.",
            lines: placement.lines(type, after: "    \(access.prefix)typealias \(name) = StateLoop._SpecType<", indent: "")
                + ["    >.Checked", SourcePlacement.end]
        ))
        return name
    }
}
