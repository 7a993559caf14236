import StateLoopSpec

// `Event`: a case per event (payload fields as labels), and per event with a payload a struct
// that holds it by name, the `event` of the spec's expressions. The reducer and the effects'
// result conversions bind payloads positionally (`let _0`), so that no payload name can shadow
// anything the generated code uses.

extension MachineContextBuilder {
    func eventDoc(_ event: EventSpec) -> String {
        let origin = "`\(event.name.value)` (\(position(event.name.location)))"
        switch event.source {
        case .anyone: return origin + "."
        case .effects: return origin + ": sent only by effects (`from: effects`)."
        }
    }

    /// `loaded(repositories: LoadedRepositories, nextURL: LoadedNextURL)`, or `scrolledNearBottom`.
    func caseDeclaration(_ event: EventSpec) -> String {
        let name = SwiftName.escaped(event.name.value)
        guard let types = payloadTypes[event.name.value] else { return name }
        let labels = zip(event.payload, types).map { "\(Self.label($0.name.value)): \($1)" }
        return "\(name)(\(labels.joined(separator: ", ")))"
    }

    /// `.loaded(let _0, let _1)`, or `.scrolledNearBottom`: the pattern of a case that binds its payload.
    func bindingPattern(_ event: EventSpec) -> String {
        let name = SwiftName.escaped(event.name.value)
        guard !event.payload.isEmpty else { return ".\(name)" }
        return ".\(name)(\(event.payload.indices.map { "let _\($0)" }.joined(separator: ", ")))"
    }

    /// `repositories: _0, nextURL: _1`: the bound payload passed on by label.
    func labeledArguments(_ event: EventSpec) -> String {
        event.payload.enumerated().map { "\(Self.argumentLabel($1.name.value)): _\($0)" }.joined(separator: ", ")
    }

    /// The type expressions see as `event`: `Event.LoadedPayload`.
    func payloadType(_ event: EventSpec) -> String {
        "\(GeneratedNames.event).\(GeneratedNames.payloadType(ofEvent: event.name.value))"
    }

    func makePayloads() -> [MachineContext.Payload] {
        spec.events.compactMap { event in
            guard let types = payloadTypes[event.name.value] else { return nil }
            return MachineContext.Payload(
                doc: "The payload of `\(event.name.value)` by name: what `event` means in the spec's expressions.",
                name: GeneratedNames.payloadType(ofEvent: event.name.value),
                fields: zip(event.payload, types).map {
                    .init(name: SwiftName.escaped($0.name.value), type: $1, doc: "", parameter: "")
                }
            )
        }
    }
}
