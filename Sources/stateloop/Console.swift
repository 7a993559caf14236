// The CLI's only contact with the terminal and the file system, besides OutputWriter. Every
// problem it reports is a `Diagnostic`, printed here and nowhere else.
import ArgumentParser
import Foundation
import StateLoopSpec

enum Console {
    /// Diagnostics go to standard error in the `file:line:column: severity: message` form.
    static func report(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics {
            printError(diagnostic.description)
        }
    }

    /// Reports `message` as an error about the whole of `path` and returns the exit status to throw.
    static func fail(_ message: String, about path: String, status: ExitCode = .usageOrIO) -> ExitCode {
        report([.error(message, at: .wholeFile(path))])
        return status
    }

    static func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// The bytes of a spec, or an error and exit status 2.
    static func readSpec(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDirectory: ObjCBool = false
            let reason = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
                ? (isDirectory.boolValue ? "it is a directory; name the *.machine.yml files inside it" : "permission denied")
                : "no such file"
            throw fail("cannot read the spec: \(reason)", about: path)
        }
        return [UInt8](data)
    }
}
