import StateLoopSpec

/// The generators `stateloop explore` gives `MachineTest.explore` (Docs/Testing.md V20, V21): one
/// per event, `.just(.close)` or `.of(Quota.Event.add)`, whose payload types must have a built-in
/// generator (`Arbitrary` in Sources/StateLoopTesting/Gen.swift); and the errors, at their YAML
/// line, of a machine it cannot explore.
struct ExplorationGenerators {
    /// Swift expressions of type `Gen<Machine.Event>`: the events anyone may send (V19).
    var sending: [String] = []
    /// Every event: the machine's `result(_:of:)` picks a run's results among them (V9).
    var answering: [String] = []
    /// Why the machine cannot be explored from the command line; empty when it can.
    var problems: [Diagnostic] = []

    /// The types `Gen.swift` makes `Arbitrary`: the spec declares no types of its own, so no
    /// other `CaseIterable` type is known to it.
    static let builtIn: Set<String> = ["Bool", "Int", "String"]

    init(_ machine: CheckedMachineSpec) {
        let name = machine.name.value
        let fix = "explore \(name) from a test, with MachineTest.explore and a Gen of the type (Docs/Testing.md V10)"
        if let input = machine.keys.first(where: { $0.value == "input" }) {
            problems.append(.error(
                "stateloop explore starts in State.initial, which a machine with `input:` does not have", at: input.location,
                fixIt: "explore \(name) from a test, with MachineTest.explore(\(name).self, state: .initial(...), ...) (Docs/Testing.md V8)"))
        }
        for event in machine.events {
            let unknown = event.payload.filter { !Self.hasGenerator($0.type.value) }
            for field in unknown {
                problems.append(.error(
                    "stateloop explore has no generator for '\(field.type.value)', the type of '\(field.name.value)' of event '\(event.name.value)': it makes Bool, Int, String and their optionals",
                    at: field.type.location, fixIt: fix))
            }
            // Backquoted: any name the checker accepts is an identifier, and some are keywords.
            let generator = event.payload.isEmpty ? ".just(.`\(event.name.value)`)" : ".of(\(name).Event.`\(event.name.value)`)"
            if event.source == .anyone { sending.append(generator) }
            answering.append(generator)
        }
    }

    /// True for `Int`, `Swift.String`, `Bool?`, `Optional<Int>`, `String??`.
    static func hasGenerator(_ type: String) -> Bool {
        var type = Substring(type).drop(while: \.isWhitespace)
        while type.last?.isWhitespace == true { type = type.dropLast() }
        if type.hasSuffix("?") { return hasGenerator(String(type.dropLast())) }
        if type.hasPrefix("Swift.") { type = type.dropFirst("Swift.".count) }
        if type.hasPrefix("Optional<"), type.hasSuffix(">") { return hasGenerator(String(type.dropFirst("Optional<".count).dropLast())) }
        return builtIn.contains(String(type))
    }
}
