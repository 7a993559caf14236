// The CLI's only contact with the terminal, and its way to files (through the generator's
// FileReader and OutputWriter, which fail in words). Every problem it reports is a `Diagnostic`,
// printed here and nowhere else.
import ArgumentParser
import Foundation
import StateLoopCodegen
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

    /// Reports a file system failure while doing `what` ("cannot write the diagram") at its path
    /// and returns exit status 2 to throw.
    static func fail(_ what: String, _ error: FileError) -> ExitCode {
        fail("\(what): \(error.reason)", about: error.path)
    }

    static func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// The lock file beside `spec` (Docs/Durability.md D58): its bytes, or none when there is no
    /// such file; any other failure is an error and exit status 2.
    static func readLock(besideSpec spec: String) throws -> LockInput {
        let path = SpecFileNaming.lockPath(forSpecAt: spec)
        do {
            return LockInput(path: path, contents: try FileReader.contents(of: path))
        } catch where error.code == ENOENT {
            return LockInput(path: path, contents: nil)
        } catch {
            throw fail("cannot read the lock file", error)
        }
    }

    /// The bytes of a spec (a file, a pipe, a FIFO, `/dev/stdin`), or an error and exit status 2.
    static func readSpec(_ path: String) throws -> [UInt8] {
        do {
            return try FileReader.contents(of: path)
        } catch where error.code == EISDIR {
            throw fail("cannot read the spec: it is a directory; name the *.machine.yml files inside it", about: path)
        } catch {
            throw fail("cannot read the spec", error)
        }
    }
}
