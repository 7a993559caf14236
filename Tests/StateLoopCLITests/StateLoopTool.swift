import Foundation
import StateLoopTestSupport

/// Runs the `stateloop` executable built next to this test binary.
struct StateLoopTool {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `stateloop` of this build's products folder (the test binary's folder, or a parent of
    /// it when the tests run from inside a bundle); `STATELOOP_TOOL` names another one, to see
    /// what the tests say of an older build.
    static var executable: URL {
        if let tool = ProcessInfo.processInfo.environment["STATELOOP_TOOL"] { return URL(fileURLWithPath: tool) }
        return builtExecutable("stateloop")
    }

    struct Result {
        /// The exit status, or the signal that ended the process when `killed`.
        var status: Int32
        var killed = false
        var stdout: Data
        var stderr: String
        var output: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// Runs `stateloop ARGUMENTS` in `directory`; stdout and stderr go through files, so neither
    /// can fill a pipe and block the tool. `standardInput` (a `FileHandle` or `Pipe`) is inherited when nil.
    static func run(
        _ arguments: [String], environment: [String: String]? = nil, in directory: URL = repositoryRoot,
        standardInput: Any? = nil
    ) throws -> Result {
        try run(executable, arguments, environment: environment, in: directory, standardInput: standardInput)
    }

    /// Runs `program ARGUMENTS` as `run(_:environment:in:standardInput:)` runs the tool.
    static func run(
        _ program: URL, _ arguments: [String], environment: [String: String]? = nil, in directory: URL = repositoryRoot,
        standardInput: Any? = nil
    ) throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appending(path: "stateloop-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appending(path: "stdout")
        let errURL = scratch.appending(path: "stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)

        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        if let standardInput { process.standardInput = standardInput }
        process.currentDirectoryURL = directory
        if let environment { process.environment = environment }
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Result(
            status: process.terminationStatus,
            killed: process.terminationReason == .uncaughtSignal,
            stdout: try Data(contentsOf: outURL),
            stderr: try String(contentsOf: errURL, encoding: .utf8)
        )
    }

    /// A fresh temporary folder for one test.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "stateloop-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
