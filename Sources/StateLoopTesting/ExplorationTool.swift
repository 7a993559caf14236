// ExplorationTool: the program `stateloop explore` compiles a machine into (Docs/Testing.md
// V19-V27). The command writes a `main.swift` that names the machine and its generators and calls
// `ExplorationTool.main`; the options come as arguments, so another seed or depth runs the same
// binary again without a rebuild.
//
// A plain executable runs no test library, so the counterexamples that `explore` reports as test
// failures (T10) are recorded here instead (`withRecordedFailures`'s recorder) and printed by this
// file: the messages on standard output, the coverage warnings on standard error.

import Foundation
import StateLoop

/// The `main` of the program `stateloop explore` builds: runs `explore` or `exploreAll`, prints
/// what it found and exits with 0 (nothing broken) or 1 (a counterexample).
@_spi(Internals)
public enum ExplorationTool {
    /// What the command asks for: random walks (V8) or, with `depth`, the breadth-first search (V17).
    public struct Options: Equatable, Sendable {
        public var walks = 100
        public var steps = 50
        public var seed: UInt64 = 0
        /// The depth of `exploreAll`; `nil` for random walks.
        public var depth: Int?
        /// The folder the spec lies in, as the user named it: where the coverage warnings point.
        public var specDirectory: String?

        public init(walks: Int = 100, steps: Int = 50, seed: UInt64 = 0, depth: Int? = nil, specDirectory: String? = nil) {
            self.walks = walks
            self.steps = steps
            self.seed = seed
            self.depth = depth
            self.specDirectory = specDirectory
        }

        /// Reads `--walks N --steps N --seed N --depth N --spec-directory DIR`, each optional,
        /// as `stateloop explore` passes them; `nil` for anything else.
        public init?(arguments: [String]) {
            var rest = arguments[...]
            while let name = rest.popFirst() {
                guard let value = rest.popFirst() else { return nil }
                switch name {
                case "--walks": guard let number = Int(value), number > 0 else { return nil }; walks = number
                case "--steps": guard let number = Int(value), number > 0 else { return nil }; steps = number
                case "--seed": guard let number = UInt64(value) else { return nil }; seed = number
                case "--depth": guard let number = Int(value), number > 0 else { return nil }; depth = number
                case "--spec-directory": specDirectory = value
                default: return nil
                }
            }
        }
    }

    /// What an exploration printed, and the exit status it ends with.
    public struct Report: Equatable, Sendable {
        /// Each counterexample's message (V14), then the summary and the coverage summary.
        public var output: String
        /// The coverage warnings: the branches but ignores no step took, at their YAML lines (V23).
        public var warnings: [String]
        /// 0 when nothing broke, 1 when a counterexample was found (V24).
        public var status: Int32
    }

    /// Explores `machine` from `state` (printed as `.initial`) as `options` say and returns the report.
    public static func report<M: StateMachine>(
        _ machine: M.Type, state: M.State, sending: [Gen<M.Event>], answering: [Gen<M.Event>], options: Options
    ) -> Report {
        var exploration: Exploration<M>?
        // The counterexamples `explore` reports as failures: collected, not sent to a test library.
        _ = withRecordedFailures {
            if let depth = options.depth {
                exploration = MachineTest.exploreAll(machine, state: state, sending: sending, answering: answering, depth: depth)
            } else {
                exploration = MachineTest.explore(
                    machine, state: state, sending: sending, answering: answering,
                    walks: options.walks, steps: options.steps, seed: options.seed)
            }
        }
        guard let exploration else { preconditionFailure("explore returns") }
        let name = String(describing: M.self)
        let found = exploration.counterexamples.count
        let what = found == 0
            ? "no invariant broken, every step settled"
            : "\(found) counterexample\(found == 1 ? "" : "s")"
        let summary = options.depth.map {
            "exploreAll(\(name)): \(exploration.configurations) configurations within \(MachineTest<M>.steps($0)), \(exploration.steps) steps: \(what)"
        } ?? "explore(\(name)): \(exploration.walks) walks, \(exploration.steps) steps from seed \(options.seed): \(what)"
        let coverage = exploration.coverage.report(M.self, specDirectory: options.specDirectory)
        let messages = exploration.counterexamples.map { $0.message + "\n\n" }.joined()
        return Report(output: messages + summary + "\n" + coverage.summary + "\n", warnings: coverage.transitionWarnings, status: found == 0 ? 0 : 1)
    }

    /// Reads the options from the command line, explores, prints the report and exits with its
    /// status; exits with 2 on arguments it cannot read.
    public static func main<M: StateMachine>(
        _ machine: M.Type, state: M.State, sending: [Gen<M.Event>], answering: [Gen<M.Event>]
    ) -> Never {
        guard let options = Options(arguments: Array(CommandLine.arguments.dropFirst())) else {
            FileHandle.standardError.write(Data("error: cannot read the options \(CommandLine.arguments.dropFirst())\n".utf8))
            exit(2)
        }
        let report = report(machine, state: state, sending: sending, answering: answering, options: options)
        FileHandle.standardOutput.write(Data(report.output.utf8))
        FileHandle.standardError.write(Data(report.warnings.map { $0 + "\n" }.joined().utf8))
        exit(report.status)
    }
}
