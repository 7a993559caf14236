import ArgumentParser
import Foundation
import StateLoopCodegen
import StateLoopSpec

/// `stateloop check SPEC...`
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check specs and report every error and warning at its YAML line.",
        discussion: """
            Reads each spec and runs every check the generator runs (unknown names, events neither \
            handled nor ignored in a state, unreachable branches and states, effect results not \
            handled, a persisted state, field or event changed without a migration from the version \
            locked in the spec's .machine.lock, ...). A spec may run as a child machine any spec \
            named here or lying in the same folder. Prints the diagnostics as file:line:column: error: message, ends with \
            a one-line summary (checked 2 specs: 1 error, no warnings), and exits with status 1 when \
            any spec has an error. Writes nothing.
            """
    )

    @Argument(help: "The spec files (*.machine.yml or *.machine.yaml).")
    var specs: [String]

    /// Accepted for scripts written when the summary was printed only on request; it always is now.
    @Flag(name: .shortAndLong, help: .hidden)
    var verbose = false

    func run() throws {
        var errors = 0
        var warnings = 0
        let read = try ChildSpecs(specs: specs)
        Console.report(read.duplicateNames)
        errors += read.duplicateNames.count
        for spec in specs {
            let result = GeneratorPipeline.load(contents: read.contents(of: spec), path: spec, library: read.library, lock: try Console.readLock(besideSpec: spec))
            Console.report(result.diagnostics)
            errors += result.diagnostics.filter { $0.severity == .error }.count
            warnings += result.diagnostics.filter { $0.severity == .warning }.count
        }
        Console.printError(Self.summary(specs: specs.count, errors: errors, warnings: warnings))
        if errors > 0 { throw ExitCode.specErrors }
    }

    /// The last line, printed also when all is well so a user knows the check ran:
    /// `checked 6 specs: no errors, no warnings`, `checked 1 spec: 1 error, 3 warnings`.
    static func summary(specs: Int, errors: Int, warnings: Int) -> String {
        func count(_ number: Int, _ noun: String) -> String {
            number == 0 ? "no \(noun)s" : "\(number) \(noun)\(number == 1 ? "" : "s")"
        }
        return "checked \(count(specs, "spec")): \(count(errors, "error")), \(count(warnings, "warning"))"
    }
}
