// The `stateloop` command: generate, check, lock, journal, diagram, paths, coverage, explore, templates.
//
// Exit codes are part of the interface (DESIGN §7): 0 ok (warnings allowed), 1 spec errors,
// 2 usage or I/O errors. ArgumentParser's own usage errors (64) are mapped to 2 here.
import ArgumentParser
import Foundation

@main
struct StateLoopCLI: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stateloop",
        abstract: "Turn *.machine.yml state machines into compiler-checked Swift and diagrams.",
        discussion: """
            A spec describes states, events, transitions and query-triggered effects in YAML. \
            `stateloop check` reports mistakes at the YAML line (file:line:column: error: ...), \
            `stateloop generate` writes the Swift (an exhaustive Event enum, a reducer, effect \
            protocols) that runs on the StateLoop runtime, and `stateloop diagram` draws the machine. \
            For tests, `stateloop paths` gives a shortest sequence of events to every state and \
            transition, `stateloop coverage` reports the transitions no test took, and `stateloop explore` \
            searches the machine for a run that breaks an invariant. \
            `stateloop journal` shows what a durable machine's journal file holds.

            In a Swift package you rarely call this yourself: apply the StateLoopPlugin build \
            plugin to a target and every *.machine.yml in it is generated on each build.

            Exit status: 0 ok (warnings allowed), 1 the spec has errors, 2 usage or I/O error.
            """,
        version: "0.1.0",
        subcommands: [Generate.self, Check.self, Lock.self, Journal.self, Diagram.self, Paths.self, Coverage.self, Explore.self, Templates.self, Inspect.self]
    )

    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch {
            if exitCode(for: error) == .success { exit(withError: error) }  // --help, --version
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(ExitCode.usageOrIO.rawValue)
        }
    }
}

extension ExitCode {
    /// The spec has errors.
    static let specErrors = ExitCode(1)
    /// `explore`: a run broke an invariant, did not settle or trapped (Docs/Testing.md V24).
    static let counterexampleFound = ExitCode(1)
    /// Bad arguments, an unreadable spec, an unwritable output.
    static let usageOrIO = ExitCode(2)
}
