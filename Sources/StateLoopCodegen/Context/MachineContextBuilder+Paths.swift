import StateLoopSpec

// `Machine.paths`: the shortest paths of `MachinePaths` (Docs/Testing.md, "Paths") as a Swift
// table, so that a test can walk every state and branch with the harness. Each distinct step is
// written once and the paths index into it. The search and the table are bounded, so that a
// large machine costs neither the build plugin nor swiftc much: past the bounds the table says
// so in `truncation`, and `stateloop paths` prints everything.

extension MachineContextBuilder {
    /// The search stops after this many configurations when it runs for the generator.
    static let pathConfigurationLimit = 5_000
    /// Above this many states and branches together, the table is left empty.
    static let pathTableLimit = 1_000

    /// `public static let paths: StateLoop.MachinePaths<StateName> = { ... }()`.
    func pathsLines() -> [String] {
        let p = access.prefix
        let head = [
            "    /// For every state and every branch, a shortest path of steps from the initial state",
            "    /// (Docs/Testing.md, \"Paths\"); guards are symbolic: a test makes them hold.",
            "    \(p)static let paths: StateLoop.MachinePaths<StateName> = {",
        ]
        let tree = layout.tree
        let entries = tree.nodes.count + transitions.entries.count
        guard entries <= Self.pathTableLimit else {
            let note = "\(entries) states and branches: too many to generate; `stateloop paths` prints them"
            return head + ["        .init(states: [:], transitions: [:], truncation: \(SwiftLiteral.string(note)))", "    }()"]
        }
        let paths = MachinePaths(spec, limit: Self.pathConfigurationLimit)
        var steps: [MachinePaths.Step] = []
        var indexes: [MachinePaths.Step: Int] = [:]
        func refer(_ path: [MachinePaths.Step]) -> String {
            "[" + path.map { step -> String in
                if let index = indexes[step] { return "s[\(index)]" }
                indexes[step] = steps.count
                steps.append(step)
                return "s[\(steps.count - 1)]"
            }.joined(separator: ", ") + "]"
        }
        var states: [String] = [], reached: [String] = [], unreachable: [String] = []
        for state in paths.states where !tree[state.position].spec.isHistory {
            if let path = state.steps {
                states.append("                .\(caseName(state.position)): \(refer(path)),")
            } else if let reason = state.unreachable {
                unreachable.append("                \(SwiftLiteral.string("state \(state.name): \(reason)")),")
            }
        }
        for transition in paths.transitions {
            if let path = transition.steps {
                reached.append("                \(transition.entry.id): \(refer(path)),")
            } else if let reason = transition.unreachable {
                let place = "\(transition.entry.location.line):\(transition.entry.location.column)"
                unreachable.append("                \(SwiftLiteral.string("\(transition.entry.description) (\(place)): \(reason)")),")
            }
        }
        var lines = head
        if !steps.isEmpty {
            lines.append("        let s: [StateLoop.MachinePaths<StateName>.Step] = [")
            lines += steps.map { "            " + stepLiteral($0, in: paths) + "," }
            lines.append("        ]")
        }
        lines.append("        return .init(")
        lines += ["            states: [" + (states.isEmpty ? ":]," : "")] + states + (states.isEmpty ? [] : ["            ],"])
        lines += ["            transitions: [" + (reached.isEmpty ? ":]," : "")] + reached + (reached.isEmpty ? [] : ["            ],"])
        lines += ["            unreachable: [" + (unreachable.isEmpty ? "]," : "")] + unreachable + (unreachable.isEmpty ? [] : ["            ],"])
        lines.append("            truncation: \(paths.truncation.map(SwiftLiteral.string) ?? "nil"))")
        return lines + ["    }()"]
    }

    /// `.init(trigger: .event("loaded"), transitions: [4], effect: "loadNextPage", description: "...")`.
    private func stepLiteral(_ step: MachinePaths.Step, in paths: MachinePaths) -> String {
        let trigger = switch step.trigger {
        case .event(let name): ".event(\(SwiftLiteral.string(name)))"
        case .timer(let index, _):
            ".timer(.\(caseName(layout.tree.index[paths.transitionList.entries[step.transitions[0]].state!]!)), index: \(index))"
        case .always: ".always"
        case .done: ".onDone"
        }
        func strings(_ assumptions: [MachinePaths.Assumption]) -> String {
            "[" + assumptions.map { SwiftLiteral.string($0.expression) }.joined(separator: ", ") + "]"
        }
        var arguments = ["trigger: \(trigger)", "transitions: [\(step.transitions.map(String.init).joined(separator: ", "))]"]
        if !step.holding.isEmpty { arguments.append("holding: \(strings(step.holding))") }
        if !step.failing.isEmpty { arguments.append("failing: \(strings(step.failing))") }
        if let effect = step.effect { arguments.append("effect: \(SwiftLiteral.string(effect))") }
        arguments.append("description: \(SwiftLiteral.string(paths.text(of: step)))")
        return ".init(" + arguments.joined(separator: ", ") + ")"
    }
}
