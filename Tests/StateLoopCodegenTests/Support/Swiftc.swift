import Foundation

/// Type-checks generated Swift with the real compiler against the StateLoop module that
/// `swift build`/`swift test` put in `.build/debug/Modules`. Tests that use it are skipped when
/// the module is absent (e.g. with a custom `--scratch-path`) or `swiftc` is not on PATH.
enum Swiftc {
    static let modules = TestPaths.package.appendingPathComponent(".build/debug/Modules")

    /// `swiftc` found on PATH.
    static let path: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "")
        .split(separator: ":")
        .map { "\($0)/swiftc" }
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// True when `compile` can run.
    static let isAvailable = path != nil
        && FileManager.default.fileExists(atPath: modules.appendingPathComponent("StateLoop.swiftmodule").path)

    /// Compiles `files` (name -> source), saved in a fresh temporary directory, as one module into
    /// an object file (in the language mode `swiftVersion`, 6 unless given; warnings as errors);
    /// returns the exit status and what swiftc printed. An object, not `-typecheck`: Swift's flow
    /// diagnostics ("will never be executed", a missing return) run only once SIL is made (S93).
    static func compile(_ files: [String: String], swiftVersion: Int = 6) throws -> (status: Int32, output: String) {
        try inTemporaryDirectory(files) { directory, paths in
            try launch(path ?? "swiftc", [
                "-emit-object", "-wmo", "-parse-as-library", "-o", directory.appendingPathComponent("module.o").path,
                "-swift-version", "\(swiftVersion)", "-warnings-as-errors", "-package-name", "StateLoopTests",
                "-I", modules.path,
            ] + paths, in: directory)
        }
    }

    /// Builds `files` (one of them `main.swift`) into an executable linked with the objects of
    /// the StateLoop and StateLoopTesting modules from `.build/debug`, and runs it; returns the exit status (the build's,
    /// when it fails) and what was printed.
    static func run(_ files: [String: String]) throws -> (status: Int32, output: String) {
        let build = modules.deletingLastPathComponent()
        var objects: [String] = []
        for module in ["StateLoop", "StateLoopTesting", "DequeModule", "HeapModule", "ContainersPreview", "InternalCollectionsUtilities"] {
            let folder = build.appendingPathComponent("\(module).build")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            objects += names.filter { $0.hasSuffix(".o") }.sorted().map { folder.appendingPathComponent($0).path }
        }
        return try inTemporaryDirectory(files) { directory, paths in
            let executable = directory.appendingPathComponent("driver").path
            let compiled = try launch(path ?? "swiftc", [
                // One frontend job for the whole module: in batch mode every job parses every file again.
                "-swift-version", "6", "-package-name", "StateLoopTests", "-I", modules.path, "-wmo", "-num-threads", "2", "-o", executable,
            ] + paths + objects, in: directory)
            guard compiled.status == 0 else { return compiled }
            return try launch(executable, [], in: directory)
        }
    }

    /// `body` given a fresh temporary directory holding `files` (name -> source) and their paths,
    /// in name order; the directory is removed afterwards.
    private static func inTemporaryDirectory<T>(_ files: [String: String], _ body: (URL, [String]) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stateloop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for (name, source) in files.sorted(by: { $0.key < $1.key }) {
            let file = directory.appendingPathComponent(name)
            try source.write(to: file, atomically: true, encoding: .utf8)
            paths.append(file.path)
        }
        return try body(directory, paths)
    }

    private static func launch(_ executable: String, _ arguments: [String], in directory: URL) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = Pipe()
        process.standardError = output
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
