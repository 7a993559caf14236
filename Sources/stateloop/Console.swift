// The CLI's only contact with the terminal and the file system, besides OutputWriter.
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

    static func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// The bytes of a spec, or an `error:` line and exit status 2.
    static func readSpec(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDirectory: ObjCBool = false
            let reason = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
                ? (isDirectory.boolValue ? "it is a directory; name the *.machine.yml files inside it" : "permission denied")
                : "no such file"
            printError("error: cannot read spec '\(path)': \(reason)")
            throw ExitCode.usageOrIO
        }
        return [UInt8](data)
    }
}
