import StateLoopSpec

// Every type written in the spec becomes an alias at the machine's level, declared in a
// `#sourceLocation` block at the YAML line and column of the type, through
// `StateLoop._SpecType<T>.Checked`, which requires `Equatable & Sendable`. The declarations use the
// alias, so a misspelt type, a type that is not `Equatable` or `Sendable`, or one swiftc cannot
// parse is reported at the spec's line, once.

extension MachineContextBuilder {
    /// Declares the aliases of the context fields', payload fields' and requests' types, by the
    /// names `SpecTypeNames` gives them (Docs/Effects.md E61).
    mutating func makeTypeAliases() {
        let names = SpecTypeNames(spec)
        inputTypes = zip(spec.input, names.input).map { field, name in
            alias(field.type, name: name, doc: "The type of `\(field.name.value)` in `input:`")
        }
        fieldTypes = zip(spec.context, names.context).map { field, name in
            alias(field.type, name: name, doc: "The type of `\(field.name.value)` in `context:`")
        }
        for event in spec.events where !event.payload.isEmpty {
            payloadTypes[event.name.value] = zip(event.payload, names.payloads[event.name.value]!).map { field, name in
                alias(field.type, name: name, doc: "The type of `\(field.name.value)` in the payload of `\(event.name.value)`")
            }
        }
        for effect in spec.effects {
            requestTypes[effect.name.value] = effect.request.map {
                alias($0.type, name: names.requests[effect.name.value]!, doc: "The request type of `\(effect.name.value)`")
            }
        }
        for final in spec.states where final.isFinal && !final.output.isEmpty {
            outputTypes[final.name.value] = zip(final.output, names.outputs[final.name.value]!).map { field, name in
                alias(field.type, name: name, doc: "The type of `\(field.name.value)` in the `output:` of `\(final.name.value)`")
            }
        }
    }

    /// Declares the alias `name` of one type; returns `name`.
    private mutating func alias(_ type: Located<String>, name: String, doc: String) -> String {
        typeAliases.append(.init(
            doc: "\(doc) (\(position(type.location))): `\(SwiftLiteral.comment(type.value))`.",
            lines: placement.lines(type, after: "    \(access.prefix)typealias \(name) = StateLoop._SpecType<", indent: "")
                + ["    >.Checked", SourcePlacement.end]
        ))
        return name
    }
}
