import StateLoopSpec

// Every type written in the spec becomes an alias at the machine's level, declared in a
// `#sourceLocation` block at the YAML line and column of the type, through
// `StateLoop._SpecType<T>.Checked`, which requires `Equatable & Sendable`. The declarations use the
// alias, so a misspelt type, a type that is not `Equatable` or `Sendable`, or one swiftc cannot
// parse is reported at the spec's line, once.
//
// When the spec persists, each type it journals (a context field's, a payload field's, a
// request's) has a second alias, `_CodableX = StateLoop._PersistedSpecType<X>.Checked`, which
// requires `Codable` (Docs/Durability.md D28), laid out so that swiftc's error stands at the YAML
// line and column of the type. The journal coding names the value's type by this alias
// (`writer.write(total as _CodableTotal)`): when the type is not `Codable` the alias is an error
// type, and swiftc says nothing more about the expressions that use it, so the error is reported
// once, at the spec's line, and the type's own alias stays valid for the rest of the code.

extension MachineContextBuilder {
    /// Declares the aliases of the context fields', payload fields' and requests' types, by the
    /// names `SpecTypeNames` gives them (Docs/Effects.md E61).
    mutating func makeTypeAliases() {
        let names = SpecTypeNames(spec)
        inputTypes = zip(spec.input, names.input).map { field, name in
            alias(field.type, name: name, doc: "The type of `\(field.name.value)` in `input:`")
        }
        fieldTypes = zip(spec.context, names.context).map { field, name in
            alias(field.type, name: name, doc: "The type of `\(field.name.value)` in `context:`", journaled: true)
        }
        for event in spec.events where !event.payload.isEmpty {
            payloadTypes[event.name.value] = zip(event.payload, names.payloads[event.name.value]!).map { field, name in
                alias(field.type, name: name, doc: "The type of `\(field.name.value)` in the payload of `\(event.name.value)`", journaled: true)
            }
        }
        for effect in spec.effects {
            requestTypes[effect.name.value] = effect.request.map {
                alias($0.type, name: names.requests[effect.name.value]!, doc: "The request type of `\(effect.name.value)`", journaled: true)
            }
        }
        for final in spec.states where final.isFinal && !final.output.isEmpty {
            outputTypes[final.name.value] = zip(final.output, names.outputs[final.name.value]!).map { field, name in
                alias(field.type, name: name, doc: "The type of `\(field.name.value)` in the `output:` of `\(final.name.value)`")
            }
        }
    }

    /// Declares the alias `name` of one type, and when the spec persists and the type is
    /// `journaled`, its `Codable` check; returns `name`.
    private mutating func alias(_ type: Located<String>, name: String, doc: String, journaled: Bool = false) -> String {
        var lines = placement.lines(type, after: "    \(access.prefix)typealias \(name) = StateLoop._SpecType<", indent: "")
            + ["    >.Checked", SourcePlacement.end]
        if journaled, spec.persist != nil {
            // `_PersistedSpecType` at the type's column, where swiftc reports the requirement; the
            // `.` before it one column to the left (a line may end with `StateLoop` before it).
            let check = Located(
                "._PersistedSpecType<\(name)>.Checked",
                at: SourceLocation(file: type.location.file, line: type.location.line, column: type.location.column - 1))
            lines += placement.lines(check, after: "    fileprivate typealias \(GeneratedNames.codableCheck(ofAlias: name)) = StateLoop", indent: "")
                + [SourcePlacement.end]
        }
        typeAliases.append(.init(doc: "\(doc) (\(position(type.location))): `\(SwiftLiteral.comment(type.value))`.", lines: lines))
        return name
    }
}
