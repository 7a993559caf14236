import StateLoopSpec

// `Machine.paths`: the shortest paths of `MachinePaths` (Docs/Testing.md, "Paths") as a table
// the runtime's `PathTable` parses at first use, so that a test can walk every state and branch with the
// harness. Each distinct step is written once and the paths index into it. One string literal,
// because swiftc takes seconds over the literals of a thousand paths and no time over a string.
// The search is bounded, so that a large machine does not slow the build plugin: past the bounds
// the table says so in `truncation`, and `stateloop paths` prints everything.

extension MachineContextBuilder {
    /// The search stops after this many configurations when it runs for the generator.
    static let pathConfigurationLimit = 5_000
    /// Above this many states and branches together, the table is left empty: the search takes
    /// about 2 s of a debug build for a 200 × 50 machine (10,000 branches), which every edit of
    /// the spec would cost the build plugin.
    static let pathTableLimit = 2_000

    /// Prints `public static let paths = StateLoop.PathTable<StateName>(table: """ ... """)`: one
    /// record a line (the format is `PathTable.init(table:)`'s), each line escaped as a
    /// string literal's content, so no spec text can end the literal.
    func printPaths(into out: inout SwiftPrinter) {
        let tree = semantics.tree
        var records: [[String]] = []
        let entries = tree.nodes.count + transitions.entries.count
        if entries > Self.pathTableLimit {
            records.append(["X", "\(entries) states and branches: too many to generate; `stateloop paths` prints them"])
        } else {
            let paths = MachinePaths(semantics, limit: Self.pathConfigurationLimit)
            let stateIndex = Dictionary(uniqueKeysWithValues: tree.nodes.indices.filter { !tree[$0].spec.isHistory }.enumerated().map { ($1, $0) })
            var steps: [MachinePaths.Step: Int] = [:]
            func refer(_ path: [MachinePaths.Step]) -> String {
                path.map { step -> String in
                    if let index = steps[step] { return String(index) }
                    steps[step] = steps.count
                    records.append(["P"] + stepFields(step, in: paths, stateIndex: stateIndex))
                    return String(steps.count - 1)
                }.joined(separator: Self.itemSeparator)
            }
            var reached: [[String]] = [], unreachable: [[String]] = []
            for state in paths.states where !tree[state.position].spec.isHistory {
                if let path = state.steps {
                    reached.append(["S", String(stateIndex[state.position]!), refer(path)])
                } else if let reason = state.unreachable {
                    unreachable.append(["U", "state \(state.name): \(reason)"])
                }
            }
            for transition in paths.transitions {
                if let path = transition.steps {
                    reached.append(["T", String(transition.entry.id), refer(path)])
                } else if let reason = transition.unreachable {
                    let place = "\(transition.entry.location.line):\(transition.entry.location.column)"
                    unreachable.append(["U", "\(transition.entry.description) (\(place)): \(reason)"])
                }
            }
            records += reached + unreachable
            if let truncation = paths.truncation { records.append(["X", truncation]) }
        }
        out.line("/// For every state and every branch, a shortest path of steps from the initial state")
        out.line("/// (Docs/Testing.md, \"Paths\"); guards are symbolic: a test makes them hold.")
        out.block("\(access.prefix)static let paths = StateLoop.PathTable<StateName>(table: \"\"\"", closing: nil) { out in
            for record in records {
                out.line(SwiftLiteral.escaped(record[0] + " " + record.dropFirst().map(\.onOneLine).joined(separator: Self.fieldSeparator)))
            }
            // A multi-line literal's closing delimiter stands at its content's indentation.
            out.line("\"\"\")")
        }
    }

    private static let fieldSeparator = "\u{1F}"
    private static let itemSeparator = "\u{1E}"

    /// A step's fields: kind, two arguments, branch ids, guards holding, failing, effect, text.
    private func stepFields(_ step: MachinePaths.Step, in paths: MachinePaths, stateIndex: [Int: Int]) -> [String] {
        let head: [String] = switch step.trigger {
        case .event(let name), .group(let name, _): [step.isRaised ? "r" : step.sentAfter == nil ? "e" : "s", name, ""]
        case .timer(let index, _):
            ["t", String(stateIndex[semantics.tree.index[paths.transitionList.entries[step.transitions[0]].state!]!]!), String(index)]
        case .always: ["a", "", ""]
        case .done: ["d", "", ""]
        }
        let guards = { (assumptions: [MachinePaths.Assumption]) in
            assumptions.map(\.expression.onOneLine).joined(separator: Self.itemSeparator)
        }
        return head + [
            step.transitions.map(String.init).joined(separator: Self.itemSeparator),
            guards(step.holding), guards(step.failing), step.effect ?? "", paths.text(of: step),
        ]
    }
}
