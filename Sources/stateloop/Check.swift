import ArgumentParser
import Foundation
import StateLoopSpec

/// `stateloop check SPEC...`
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check specs and report every error and warning at its YAML line.",
        discussion: """
            Reads each spec and runs every check the generator runs (unknown names, events neither \
            handled nor ignored in a state, unreachable branches and states, effect results not \
            handled, ...). A spec may run as a child machine any spec named here or lying in the same \
            folder. Prints the diagnostics as file:line:column: error: message and exits \
            with status 1 when any spec has an error. Writes nothing.
            """
    )

    @Argument(help: "The spec files (*.machine.yml or *.machine.yaml).")
    var specs: [String]

    @Flag(name: .shortAndLong, help: "Say how many specs were checked, also when all is well.")
    var verbose = false

    func run() throws {
        var errors = 0
        var warnings = 0
        let read = try ChildSpecs(specs: specs)
        for spec in specs {
            let result = SpecLoader.load(contents: read.contents(of: spec), path: spec, library: read.library)
            Console.report(result.diagnostics)
            errors += result.diagnostics.filter { $0.severity == .error }.count
            warnings += result.diagnostics.filter { $0.severity == .warning }.count
        }
        if verbose || errors > 0 {
            Console.printError("checked \(specs.count) spec\(specs.count == 1 ? "" : "s"): \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")")
        }
        if errors > 0 { throw ExitCode.specErrors }
    }
}
