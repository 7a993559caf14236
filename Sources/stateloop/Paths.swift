import ArgumentParser
import Foundation
import StateLoopSpec

/// `stateloop paths SPEC [--child SPEC]... [--format text|json]`
struct Paths: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a shortest path of events to every state and transition of a spec.",
        discussion: """
            Searches the machine's configurations from its initial state: events (those from \
            effects only where an effect that sends them runs), timers, always: and onDone:, raised \
            events, and the delivery of the machine's pending sends (`name (sent after 5s)`). Guards \
            are symbolic: each path lists the guards it assumes to hold, and as !(guard) those it \
            assumes to fail; an event an effect must answer with says which effect. History states \
            enter their default. States and transitions no path reaches are reported as \
            file:line:column: warning: ... on standard error, with the reason; they are not errors \
            (exit status 0). A spec with errors prints them as `check` does and exits with status 1.
            """
    )

    enum Format: String, CaseIterable, ExpressibleByArgument {
        case text, json
    }

    @Argument(help: "The spec file (*.machine.yml or *.machine.yaml).")
    var spec: String

    @Option(name: .customLong("child"), help: ArgumentHelp("A spec the spec may run as a child machine ('machine: Name'); repeatable.", valueName: "child"))
    var children: [String] = []

    @Option(name: .shortAndLong, help: "text for people, json for tools.")
    var format: Format = .text

    func run() throws {
        let read = try ChildSpecs(specs: [spec], children: children)
        let result = SpecLoader.load(contents: read.contents(of: spec), path: spec, library: read.library)
        guard let machine = result.spec else {
            Console.report(result.diagnostics)
            throw ExitCode.specErrors
        }
        let paths = MachinePaths(machine.semantics)
        // The output is written as it is made, a path at a time: the paths of a long chain hold
        // quadratically many steps, which the search stores once each (P15).
        var output = BufferedOutput()
        switch format {
        case .text: Self.text(of: paths, spec: spec, to: &output)
        case .json: try Self.json(of: paths, spec: spec, machine: machine.name.value, to: &output)
        }
        output.flush()
        Console.report(Self.warnings(paths))
    }

    /// The warnings at the states and transitions no path reaches.
    static func warnings(_ paths: MachinePaths) -> [Diagnostic] {
        let states = paths.states.compactMap { state in
            state.unreachable.map { Diagnostic.warning("state unreachable by any path: '\(state.name)' (\($0))", at: state.location) }
        }
        let transitions = paths.transitions.compactMap { path in
            path.unreachable.map { Diagnostic.warning("transition unreachable by any path: \(path.entry.description) (\($0))", at: path.entry.location) }
        }
        return (states + transitions).sorted { $0.location < $1.location }
    }

    /// A summary line, a line per state and two lines per transition:
    ///
    ///     GitHubSearch.machine.yml: 5 states, 11 transitions, all reachable
    ///     state loading: searchChanged [!event.search.isEmpty]
    ///     transition GitHubSearch.machine.yml:41:15 ready --scrolledNearBottom [nextPageURL != nil]--> loading:
    ///       searchChanged [!event.search.isEmpty] → loaded (answer of loadNextPage) → scrolledNearBottom [nextPageURL != nil]
    static func text(of paths: MachinePaths, spec: String, to output: inout BufferedOutput) {
        func count(_ number: Int, _ noun: String, unreachable: Int) -> String {
            "\(number) \(noun)\(number == 1 ? "" : "s")" + (unreachable == 0 ? "" : " (\(unreachable) unreachable)")
        }
        func line(_ steps: [MachinePaths.Step]) -> String {
            steps.isEmpty ? "(initial)" : steps.map(paths.text(of:)).joined(separator: " → ")
        }
        let lostStates = paths.states.filter { $0.last == nil }.count
        let lostTransitions = paths.transitions.filter { $0.last == nil }.count
        output.line(
            "\(spec): " + count(paths.states.count, "state", unreachable: lostStates) + ", "
                + count(paths.transitions.count, "transition", unreachable: lostTransitions)
                + (paths.isComplete ? ", all reachable" : ""))
        if let truncation = paths.truncation { output.line("note: \(truncation)") }
        for state in paths.states {
            if let steps = state.steps { output.line("state \(state.name): \(line(steps))") }
        }
        for transition in paths.transitions {
            guard let steps = transition.steps else { continue }
            output.line("transition \(transition.entry.location) \(transition.entry.description):")
            output.line("  " + line(steps))
        }
    }

    /// The JSON form, for tools: keys sorted, absent values left out. Written a state and a
    /// transition at a time, laid out as `JSONEncoder` lays out the whole (pretty, sorted keys).
    static func json(of paths: MachinePaths, spec: String, machine: String, to output: inout BufferedOutput) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        func encoded(_ value: some Encodable, indent: String) throws -> String {
            String(decoding: try encoder.encode(value), as: UTF8.self)
                .split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.isEmpty ? "" : indent + $0 }.joined(separator: "\n")
        }
        func array<Element, JSON: Encodable>(_ key: String, _ elements: [Element], last: Bool, _ json: (Element) -> JSON) throws {
            output.write("  \(try encoded(key, indent: "")) : [\n")
            if elements.isEmpty { output.write("\n") }
            for (index, element) in elements.enumerated() {
                output.write(try encoded(json(element), indent: "    ") + (index + 1 < elements.count ? ",\n" : "\n"))
            }
            output.write("  ]" + (last ? "\n" : ",\n"))
        }
        output.write("{\n")
        output.write("  \"configurations\" : \(paths.configurations),\n")
        output.write("  \"machine\" : \(try encoded(machine, indent: "")),\n")
        output.write("  \"spec\" : \(try encoded(spec, indent: "")),\n")
        try array("states", paths.states, last: false) { PathsJSON.State($0, paths: paths) }
        try array("transitions", paths.transitions, last: paths.truncation == nil) { PathsJSON.Transition($0, paths: paths) }
        if let truncation = paths.truncation { output.write("  \"truncation\" : \(try encoded(truncation, indent: ""))\n") }
        output.write("}\n")
    }
}

/// Standard output, written in blocks of 64 KB as the output is made.
struct BufferedOutput {
    private var buffer: [UInt8] = []

    mutating func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func line(_ text: String) {
        write(text)
        write("\n")
    }

    mutating func flush() {
        FileHandle.standardOutput.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }
}

/// `stateloop paths --format json`: the spec, its machine, how many configurations the search saw and why it stopped early,
/// and every state and transition with its path (a list of steps) or the reason it has none.
/// `Paths.json` writes the object's keys itself, one state and transition at a time.
private enum PathsJSON {
    struct Guard: Encodable {
        var expression: String
        var line: Int
        var column: Int
        var transition: Int
    }

    struct Step: Encodable {
        /// `event`, `raised`, `sent` (the delivery of a pending send, with its delay), `timer`,
        /// `always` or `onDone`.
        var trigger: String
        var event: String?
        var delay: String?
        var transitions: [Int]
        var holding: [Guard]
        var failing: [Guard]
        var effect: String?
        /// The step as the text format prints it.
        var text: String
    }

    struct State: Encodable {
        var name: String
        var line: Int
        var column: Int
        var path: [Step]?
        var unreachable: String?
    }

    struct Transition: Encodable {
        var id: Int
        var line: Int
        var column: Int
        var state: String?
        var description: String
        var path: [Step]?
        var unreachable: String?
    }

    static func guards(_ assumptions: [MachinePaths.Assumption]) -> [Guard] {
        assumptions.map { Guard(expression: $0.expression, line: $0.location.line, column: $0.location.column, transition: $0.transition) }
    }

    static func steps(_ steps: [MachinePaths.Step]?, paths: MachinePaths) -> [Step]? {
        steps?.map { step in
            var json = Step(
                trigger: "", transitions: step.transitions, holding: guards(step.holding), failing: guards(step.failing),
                effect: step.effect, text: paths.text(of: step))
            switch step.trigger {
            case .event(let name), .group(let name, _):
                (json.trigger, json.event, json.delay) = (step.isRaised ? "raised" : step.sentAfter == nil ? "event" : "sent", name, step.sentAfter)
            case .timer(_, let delay): (json.trigger, json.delay) = ("timer", delay)
            case .always: json.trigger = "always"
            case .done: json.trigger = "onDone"
            }
            return json
        }
    }
}

extension PathsJSON.State {
    init(_ state: MachinePaths.StatePath, paths: MachinePaths) {
        self.init(
            name: state.name, line: state.location.line, column: state.location.column,
            path: PathsJSON.steps(state.steps, paths: paths), unreachable: state.unreachable)
    }
}

extension PathsJSON.Transition {
    init(_ transition: MachinePaths.TransitionPath, paths: MachinePaths) {
        self.init(
            id: transition.entry.id, line: transition.entry.location.line, column: transition.entry.location.column,
            state: transition.entry.state, description: transition.entry.description,
            path: PathsJSON.steps(transition.steps, paths: paths), unreachable: transition.unreachable)
    }
}
