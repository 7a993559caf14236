import ArgumentParser
import Foundation
import StateLoopSpec

/// `stateloop paths SPEC [--child SPEC]... [--format text|json]`
struct Paths: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a shortest path of events to every state and transition of a spec.",
        discussion: """
            Searches the machine's configurations from its initial state: events (those from \
            effects only where an effect that sends them runs), timers, always: and onDone:. Guards \
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
        let paths = MachinePaths(machine.spec)
        let output = switch format {
        case .text: Self.text(of: paths, spec: spec)
        case .json: try Self.json(of: paths, spec: spec, machine: machine.name.value)
        }
        FileHandle.standardOutput.write(Data(output.utf8))
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
    static func text(of paths: MachinePaths, spec: String) -> String {
        func count(_ number: Int, _ noun: String, unreachable: Int) -> String {
            "\(number) \(noun)\(number == 1 ? "" : "s")" + (unreachable == 0 ? "" : " (\(unreachable) unreachable)")
        }
        func line(_ steps: [MachinePaths.Step]) -> String {
            steps.isEmpty ? "(initial)" : steps.map(paths.text(of:)).joined(separator: " → ")
        }
        let lostStates = paths.states.filter { $0.steps == nil }.count
        let lostTransitions = paths.transitions.filter { $0.steps == nil }.count
        var lines = [
            "\(spec): " + count(paths.states.count, "state", unreachable: lostStates) + ", "
                + count(paths.transitions.count, "transition", unreachable: lostTransitions)
                + (paths.isComplete ? ", all reachable" : "")
        ]
        if let truncation = paths.truncation { lines.append("note: \(truncation)") }
        for state in paths.states {
            if let steps = state.steps { lines.append("state \(state.name): \(line(steps))") }
        }
        for transition in paths.transitions {
            guard let steps = transition.steps else { continue }
            lines.append("transition \(transition.entry.location) \(transition.entry.description):")
            lines.append("  " + line(steps))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The JSON form, for tools: keys sorted, absent values left out.
    static func json(of paths: MachinePaths, spec: String, machine: String) throws -> String {
        let report = PathsJSON(paths: paths, spec: spec, machine: machine)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(report), as: UTF8.self) + "\n"
    }
}

/// `stateloop paths --format json`: the spec, its machine, how many configurations the search saw and why it stopped early,
/// and every state and transition with its path (a list of steps) or the reason it has none.
private struct PathsJSON: Encodable {
    struct Guard: Encodable {
        var expression: String
        var line: Int
        var column: Int
        var transition: Int
    }

    struct Step: Encodable {
        /// `event`, `timer`, `always` or `onDone`.
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

    var spec: String
    var machine: String
    /// How many configurations the search visited.
    var configurations: Int
    var truncation: String?
    var states: [State]
    var transitions: [Transition]

    init(paths: MachinePaths, spec: String, machine: String) {
        func guards(_ assumptions: [MachinePaths.Assumption]) -> [Guard] {
            assumptions.map { Guard(expression: $0.expression, line: $0.location.line, column: $0.location.column, transition: $0.transition) }
        }
        func steps(_ steps: [MachinePaths.Step]?) -> [Step]? {
            steps?.map { step in
                var json = Step(
                    trigger: "", transitions: step.transitions, holding: guards(step.holding), failing: guards(step.failing),
                    effect: step.effect, text: paths.text(of: step))
                switch step.trigger {
                case .event(let name): (json.trigger, json.event) = ("event", name)
                case .timer(_, let delay): (json.trigger, json.delay) = ("timer", delay)
                case .always: json.trigger = "always"
                case .done: json.trigger = "onDone"
                }
                return json
            }
        }
        self.spec = spec
        self.machine = machine
        configurations = paths.configurations
        truncation = paths.truncation
        states = paths.states.map {
            State(name: $0.name, line: $0.location.line, column: $0.location.column, path: steps($0.steps), unreachable: $0.unreachable)
        }
        transitions = paths.transitions.map {
            Transition(
                id: $0.entry.id, line: $0.entry.location.line, column: $0.entry.location.column, state: $0.entry.state,
                description: $0.entry.description, path: steps($0.steps), unreachable: $0.unreachable)
        }
    }
}
