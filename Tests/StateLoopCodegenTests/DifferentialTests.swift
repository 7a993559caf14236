import Foundation
import StateLoopCodegen
import StateLoopSpec
import StateLoopTestSupport
import Testing

// The differential test of the semantic core (Docs/Statecharts.md, "One semantic core"): random
// event sequences, reduced by the compiled generated code and by `MachineInterpreter` over
// `MachineSemantics`, must give the same configuration and the same context after every step.
//
// The machines: the random statecharts of `RandomStatechart` (nested, parallel, history of every
// depth, `always:`, `onDone:`, timers, entry and exit actions), and a skeleton of every spec of the
// repository (its states, events and branches as written, with guards and actions replaced by
// ones of the same small vocabulary). The vocabulary is what `VocabularyHost` evaluates for the
// interpreter: guards over `n: Int`, `s: String`, `isIn` and `event.x`; actions that count in `n`
// and append to `s`, so that `s` spells the order of every entry, exit and transition action.

/// The spec's Swift of the test machines, evaluated for the interpreter.
struct VocabularyHost: MachineHost {
    var n = 0
    var s = ""
    /// The payload of the event being reduced.
    var x = 0
    var label = ""
    let positions: [String: Int]
    var trigger: MachineSemantics.StepTrigger?
    /// The payloads of the raised events, oldest first, those before `taken` already taken (S121).
    var raised: [(x: Int, label: String)] = []
    var taken = 0
    /// The payload and delay of every send, by its number (S127, S128).
    var sent: [(x: Int, label: String, delay: Duration)] = []
    /// Guards and actions outside the vocabulary: a fault of the test's machines.
    var unknown: [String] = []

    mutating func holds(_ guardExpression: Located<String>, branch: Int?, active: [Int]) -> Bool {
        let text = guardExpression.value.trimmingCharacters(in: .whitespaces)
        switch text {
        case "n > 0": return n > 0
        case "n < 3": return n < 3
        case "s.isEmpty": return s.isEmpty
        case "event.x > n": return x > n
        case "trigger == nil": return trigger == nil
        case "trigger == .e0": return trigger == .event("e0")
        default:
            if text.hasPrefix("isIn(."), text.hasSuffix(")"), let position = positions[String(text.dropFirst(6).dropLast())] {
                return active.contains(position)
            }
            unknown.append("guard " + text)
            return false
        }
    }

    mutating func perform(_ action: Action) {
        if case .raise(_, let payload, _) = action {
            raised.append(self.payload(payload))
            return
        }
        if case .send(let send) = action {
            let given = payload(send.payload)
            guard let milliseconds = send.milliseconds else { return unknown.append("send with a named delay") }
            sent.append((given.x, given.label, .milliseconds(milliseconds)))
            return
        }
        guard case .set(let assignments, _) = action else {
            unknown.append("action at \(action.location)")
            return
        }
        // All values first, then assigned (`set:`).
        let values = assignments.map { ($0.field.value, value($0.expression.value.trimmingCharacters(in: .whitespaces))) }
        for (field, value) in values {
            switch (field, value) {
            case ("n", .int(let number)): n = number
            case ("s", .text(let text)): s = text
            default: unknown.append("set \(field)")
            }
        }
    }

    /// The payload a raise or a send gives.
    mutating func payload(_ fields: [Assignment]) -> (x: Int, label: String) {
        var given = (x: 0, label: "")
        for field in fields {
            switch (field.field.value, value(field.expression.value)) {
            case ("x", .int(let number)): given.x = number
            case ("label", .text(let text)): given.label = text
            default: unknown.append("payload with \(field.field.value)")
            }
        }
        return given
    }

    func delay(ofSent number: Int) -> Duration {
        sent[number].delay
    }

    mutating func takeSent(_ number: Int) {
        (x, label) = (sent[number].x, sent[number].label)
    }

    mutating func takeRaised() {
        (x, label) = raised[taken]
        taken += 1
        if taken == raised.count { dropRaised() }
    }

    mutating func dropRaised() {
        raised = []
        taken = 0
    }

    /// The copies of the arrays of the loops running, by the loop's line (S171).
    var arrays: [Int: [Value]] = [:]

    /// `in: "[a, b]"`: each element's value, read now.
    mutating func elements(of loop: ForeachAction) -> Int {
        let text = loop.array.value.trimmingCharacters(in: .whitespaces)
        guard text.hasPrefix("["), text.hasSuffix("]") else {
            unknown.append("foreach in \(text)")
            return 0
        }
        let values = text.dropFirst().dropLast().components(separatedBy: ", ").map { value($0) }
        arrays[loop.location.line] = values
        return values.count
    }

    mutating func assign(_ position: Int, of loop: ForeachAction) {
        switch (loop.item.value, arrays[loop.location.line]![position]) {
        case ("n", .int(let number)): n = number
        case ("s", .text(let text)): s = text
        default: unknown.append("foreach item \(loop.item.value)")
        }
        switch loop.index?.value {
        case nil: break
        case "n": n = position
        default: unknown.append("foreach index \(loop.index!.value)")
        }
    }

    enum Value { case int(Int), text(String), unknown }

    func value(_ expression: String) -> Value {
        switch expression {
        case "event.x": return .int(x)
        case "event.label": return .text(label)
        case "n + 1": return .int(n + 1)
        default:
            if expression.hasPrefix("s + \""), expression.hasSuffix("\"") {
                return .text(s + String(expression.dropFirst(5).dropLast()))
            }
            return .unknown
        }
    }
}

/// One machine of the test, its generated Swift, and the steps both sides run.
struct DifferentialCase {
    let name: String
    let yaml: String
    let semantics: MachineSemantics
    let source: String
    /// Swift statements of the driver, one `reduce` and one printed line per step.
    var driver: [String] = []
    /// The lines the interpreter expects the driver to print.
    var expected: [String] = []

    /// A step of a random sequence: an event with its payload, or an armed timer.
    enum Step { case event(String, x: Int, label: String), timer(state: Int, index: Int), delivery(Int) }

    init?(name: String, yaml: String) {
        let output = GeneratorPipeline().generate(contents: Array(yaml.utf8), path: "\(name).machine.yml")
        guard let source = output.source, let spec = SpecLoader.load(contents: Array(yaml.utf8), path: "\(name).machine.yml").spec else {
            return nil
        }
        self.name = name
        self.yaml = yaml
        self.semantics = spec.semantics
        self.source = source
    }

    /// `count` random steps from the initial state: the driver's statements and the expected lines.
    mutating func run(steps count: Int, seed: UInt64) -> [String] {
        var random = SeededGenerator(seed: seed)
        let tree = semantics.tree
        var host = VocabularyHost(positions: tree.index)
        var machine = MachineInterpreter(semantics, host: &host)
        let canFireTimers = source.contains("func armedTimer(")
        let type = SwiftName.escaped(semantics.spec.name.value)
        driver = ["do {", "    var state = \(type).State.initial", "    show(state)"]
        expected = [line(machine, host)]
        for _ in 0..<count where !machine.isDone {
            var steps = semantics.spec.events.map { Step.event($0.name.value, x: Int.random(in: -1...4, using: &random), label: ["", "a"].randomElement(using: &random)!) }
            if canFireTimers {
                for state in machine.active where !tree[state].spec.after.isEmpty {
                    steps += tree[state].spec.after.indices.map { Step.timer(state: state, index: $0) }
                }
            }
            steps += machine.pendingSends.map { Step.delivery($0.number) }  // S133
            let step = steps.randomElement(using: &random)!
            switch step {
            case .event(let name, let x, let label):
                host.x = x
                host.label = label
                machine.step(.event(name), host: &host)
                driver.append("    \(type).reduce(&state, \(eventValue(name, x: x, label: label))); show(state)")
            case .timer(let state, let index):
                machine.step(.timer(state: state, index: index), host: &host)
                driver.append("    if let timer = state.armedTimer(.\(SwiftName.escaped(tree[state].name)), index: \(index)) { \(type).reduce(&state, timer); show(state) } else { print(\"\(name) timer of \(tree[state].name) not armed\") }")
            case .delivery(let number):
                machine.deliver(number, host: &host)
                driver.append("    \(type).reduce(&state, ._send(\(number))); show(state)")
            }
            expected.append(line(machine, host))
        }
        driver.append("    func show(_ state: \(type).State) {")
        driver.append("        let names = \(type).StateName.allCases.filter { state.isIn($0) }.map { \"\\($0)\" }")
        let sends = source.contains("var pendingSends:") ? " sends=\\(state.pendingSends.map(\\.number))" : ""
        driver.append("        print(\"\(name) \" + names.joined(separator: \",\") + \" n=\\(state.n) s=\\(state.s)\(sends)\")")
        driver.append("    }")
        driver.append("}")
        return host.unknown
    }

    /// The line the driver prints for the interpreter's state: active states, `n` and `s`.
    func line(_ machine: MachineInterpreter, _ host: VocabularyHost) -> String {
        let names = machine.active.filter { !semantics.tree[$0].spec.isHistory }.map { semantics.tree[$0].name }
        let sends = source.contains("var pendingSends:") ? " sends=\(machine.pendingSends.map(\.number))" : ""
        return "\(name) " + names.joined(separator: ",") + " n=\(host.n) s=\(host.s)" + sends
    }

    func eventValue(_ name: String, x: Int, label: String) -> String {
        let event = semantics.spec.events.first { $0.name.value == name }!
        let arguments = event.payload.map { field in
            "\(field.name.value): " + (field.type.value == "Int" ? "\(x)" : "\"\(label)\"")
        }
        return "." + SwiftName.escaped(name) + (arguments.isEmpty ? "" : "(" + arguments.joined(separator: ", ") + ")")
    }
}

/// A spec's skeleton in the test vocabulary: its states, events and branches as written, context
/// `n` and `s`, guards and actions replaced, effects and inputs dropped (their events are anyone's,
/// and ignored by the machine where no state handles them).
enum Skeleton {
    static func yaml(of spec: MachineSpec, name: String) -> String {
        let guards = ["n > 0", "n < 3", "s.isEmpty", "isIn(.\(spec.states[0].name.value))"]
        var counter = 0
        func branch(_ branch: Branch) -> String {
            guard case .transition(let transition) = branch else { return "ignore" }
            counter += 1
            var parts: [String] = []
            if transition.guardExpression != nil { parts.append("guard: \"\(guards[counter % guards.count])\"") }
            if let target = transition.target { parts.append("target: \(target.value)") }
            if transition.reenter != nil { parts.append("reenter: true") }
            if !transition.assignments.isEmpty || !transition.actions.isEmpty || transition.target == nil {
                parts.append(counter % 2 == 0 ? "set: {n: n + 1}" : "do: [{set: {s: s + \"!\"}}]")
            }
            return "{" + parts.joined(separator: ", ") + "}"
        }
        func branches(_ list: [Branch]) -> String {
            "[" + list.map(branch).joined(separator: ", ") + "]"
        }
        var lines = ["machine: \(name)", "context:", "  n: {type: Int, default: \"0\"}", "  s: {type: String, default: '\"\"'}", "events:"]
        lines += spec.events.map { "  \($0.name.value): {}" }
        if !spec.groups.isEmpty {
            lines.append("groups:")
            lines += spec.groups.map { "  \($0.name.value): [\($0.events.map(\.value).joined(separator: ", "))]" }
        }
        let handled = Set(spec.on.map(\.event.value))
        let ignored = spec.events.map(\.name.value).filter { !handled.contains($0) }
        if !ignored.isEmpty { lines.append("ignore: [\(ignored.joined(separator: ", "))]") }
        if !spec.on.isEmpty {
            lines.append("on:")
            lines += spec.on.map { "  \($0.event.value): \(branches($0.branches))" }
        }
        func initial(_ name: Located<String>, _ list: [Located<String>]?) -> String {
            list.map { "[" + $0.map(\.value).joined(separator: ", ") + "]" } ?? name.value
        }
        lines.append("initial: " + initial(spec.initial, spec.initialTargets))
        lines.append("states:")
        var position = 0
        func render(_ state: StateSpec, indent: String) {
            let marker = position
            position += 1
            lines.append(indent + "\(state.name.value):")
            let inner = indent + "  "
            switch state.kind {
            case .history(let deep):
                lines.append(inner + "type: history")
                if deep { lines.append(inner + "history: deep") }
                if let target = state.historyTarget { lines.append(inner + "target: \(target.value)") }
                return
            case .final:
                lines.append(inner + "type: final")
                return
            case .parallel: lines.append(inner + "type: parallel")
            case .normal: break
            }
            if let first = state.initial { lines.append(inner + "initial: " + initial(first, state.initialTargets)) }
            if !state.entry.isEmpty { lines.append(inner + "entry: [{set: {s: s + \"+\(marker)\"}}]") }
            if !state.exit.isEmpty { lines.append(inner + "exit: [{set: {s: s + \"-\(marker)\"}}]") }
            if !state.on.isEmpty {
                lines.append(inner + "on:")
                lines += state.on.map { inner + "  \($0.event.value): \(branches($0.branches))" }
            }
            if !state.ignore.isEmpty { lines.append(inner + "ignore: [\(state.ignore.map(\.value).joined(separator: ", "))]") }
            if !state.after.isEmpty {
                lines.append(inner + "after:")
                for (index, timer) in state.after.enumerated() { lines.append(inner + "  \(index + 1)s: \(branches(timer.branches))") }
            }
            if !state.always.isEmpty { lines.append(inner + "always: \(branches(state.always))") }
            if !state.onDone.isEmpty { lines.append(inner + "onDone: \(branches(state.onDone))") }
            if !state.states.isEmpty {
                lines.append(inner + "states:")
                for child in state.states { render(child, indent: inner + "  ") }
            }
        }
        for state in spec.states { render(state, indent: "  ") }
        return lines.joined(separator: "\n") + "\n"
    }
}

@Suite(.enabled(if: Swiftc.isAvailable || ContinuousIntegration.isActive, "needs swiftc and the StateLoop module in .build/debug"))
struct DifferentialTests {
    /// 100 random machines in CI; `STATELOOP_DIFFERENTIAL_SEEDS=N` runs seeds 1...N.
    static let seeds: [UInt64] = Array(1...(ProcessInfo.processInfo.environment["STATELOOP_DIFFERENTIAL_SEEDS"].flatMap { UInt64($0) } ?? 100))
    static let steps = 12

    /// Every spec of the repository: the examples and the golden fixtures.
    static func repositorySpecs() throws -> [(name: String, spec: MachineSpec)] {
        let folders = [TestPaths.package.appendingPathComponent("Specs"), TestPaths.fixtures]
        var specs: [(String, MachineSpec)] = []
        for folder in folders {
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where file.hasSuffix(".machine.yml") {
                let contents = try [UInt8](Data(contentsOf: folder.appendingPathComponent(file)))
                guard let spec = SpecLoader.load(contents: contents, path: file).spec else { continue }
                specs.append((spec.name.value, spec.spec))
            }
        }
        return specs
    }

    @Test("S95: the compiled reducer and the interpreter agree state by state")
    func compiledReducerAgreesWithTheInterpreterStateByState() throws {
        guard Swiftc.isAvailable else {
            Issue.record("CI=true, but swiftc or \(Swiftc.modules.path)/StateLoop.swiftmodule is missing")
            return
        }
        var cases: [DifferentialCase] = []
        var refused: [String] = []
        for seed in Self.seeds {
            let machine = RandomStatechart(seed: seed)
            if let made = DifferentialCase(name: machine.name, yaml: machine.yaml) { cases.append(made) } else { refused.append(machine.name) }
        }
        let randomCount = cases.count
        for (index, (name, spec)) in try Self.repositorySpecs().enumerated() {
            let skeleton = "Skeleton\(index)\(name)"
            let yaml = Skeleton.yaml(of: spec, name: skeleton)
            if let made = DifferentialCase(name: skeleton, yaml: yaml) { cases.append(made) } else { refused.append(skeleton + ":\n" + yaml) }
        }
        #expect(randomCount >= Self.seeds.count * 3 / 4, "only \(randomCount) random machines accepted")
        #expect(cases.count - randomCount >= 20, "skeletons refused:\n\(refused.filter { $0.hasPrefix("Skeleton") }.prefix(3).joined(separator: "\n"))")
        var main: [String] = []
        for index in cases.indices {
            let unknown = cases[index].run(steps: Self.steps, seed: UInt64(index) &* 7919 &+ 1)
            #expect(unknown.isEmpty, "\(cases[index].name): outside the vocabulary: \(unknown.prefix(3))")
            main += cases[index].driver
        }
        var files = Dictionary(uniqueKeysWithValues: cases.map { ("\($0.name).machine.swift", $0.source) })
        files["main.swift"] = main.joined(separator: "\n") + "\n"
        let run = try Swiftc.run(files)
        try #require(run.status == 0, "the driver did not build or run:\n\(run.output.prefix(3_000))")
        let printed = run.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var offset = 0
        var differing = 0
        for machine in cases where differing < 5 {
            let actual = Array(printed.dropFirst(offset).prefix(machine.expected.count))
            offset += machine.expected.count
            guard let step = machine.expected.indices.first(where: { $0 >= actual.count || machine.expected[$0] != actual[$0] }) else { continue }
            Issue.record("""
                \(machine.name) differs at step \(step) (0: the initial state):
                  interpreter: \(machine.expected[step])
                  generated:   \(step < actual.count ? actual[step] : "(nothing)")
                driver: \(machine.driver.dropFirst(3).prefix(step).joined(separator: "\n"))
                \(machine.yaml)
                """)
            differing += 1
        }
    }
}
