// Builds a copy of a fixture package (Tests/Fixtures/NAME) that applies the StateLoop plugin, with
// the real `swift build`, so the tests see what a user sees: the plugin's build commands, the
// generated code compiled, and errors printed at the YAML line.
import Foundation

/// A fixture package copied to `.build-e2e/NAME` (outside the package's own .build so the nested
/// SwiftPM run has its own lock, and kept between runs so later builds are incremental).
struct FixturePackage {
    /// The StateLoop repository root.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    let directory: URL

    /// Where the copies live; `StateLoop` in it is a link to this repository, so a copy's
    /// `.package(path: "../StateLoop")`, as the README writes it, reaches this checkout by the
    /// folder name the README tells a user to clone into, whatever this checkout's folder is called.
    static let copies = repositoryRoot.appending(path: ".build-e2e")

    /// Copies `Tests/Fixtures/<name>` afresh (keeping the copy's `.build`) into `.build-e2e/<folder>`,
    /// its manifest unchanged: the dependency on StateLoop is written exactly as the README says.
    init(copying name: String, into folder: String? = nil) throws {
        let fileManager = FileManager.default
        let source = Self.repositoryRoot.appending(path: "Tests/Fixtures/\(name)")
        // A space in the path: every path the plugin hands on must survive it.
        directory = Self.copies.appending(path: folder ?? "\(name) copy")
        try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
        try Self.linkRepository()
        for item in try fileManager.contentsOfDirectory(atPath: directory.path) where item != ".build" {
            try fileManager.removeItem(at: directory.appending(path: item))
        }
        for item in try fileManager.contentsOfDirectory(atPath: source.path) where item != ".build" {
            try fileManager.copyItem(at: source.appending(path: item), to: directory.appending(path: item))
        }
    }

    /// Makes `.build-e2e/StateLoop` a link to `..`, this repository.
    static func linkRepository() throws {
        let fileManager = FileManager.default
        let link = copies.appending(path: "StateLoop")
        if (try? fileManager.destinationOfSymbolicLink(atPath: link.path)) == ".." { return }
        if (try? fileManager.attributesOfItem(atPath: link.path)) != nil { try fileManager.removeItem(at: link) }
        try fileManager.createSymbolicLink(atPath: link.path, withDestinationPath: "..")
    }

    /// Replaces `old` with `new` in a file of the copy; fails loudly when `old` is not there, so a
    /// test cannot silently mutate nothing.
    func edit(_ path: String, replacing old: String, with new: String) throws {
        let url = directory.appending(path: path)
        let text = try String(contentsOf: url, encoding: .utf8)
        guard text.contains(old) else { throw FixtureError.textNotFound(old, path) }
        try text.replacingOccurrences(of: old, with: new).write(to: url, atomically: true, encoding: .utf8)
    }

    /// The text of a file of the copy.
    func contents(of path: String) throws -> String {
        try String(contentsOf: directory.appending(path: path), encoding: .utf8)
    }

    /// The text of a file the build plugin generated for `target` into the copy's build folder
    /// (`.build/plugins/outputs/<package>/<target>/...`; the build folder is kept between tests,
    /// and with it the outputs of targets that another test added).
    func generatedFile(named name: String, target: String = "DoorApp") throws -> String {
        let outputs = directory.appending(path: ".build/plugins/outputs")
        let enumerator = FileManager.default.enumerator(at: outputs, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            let below = url.pathComponents.dropFirst(outputs.pathComponents.count)
            if url.lastPathComponent == name && below.dropFirst().first == target {
                return try String(contentsOf: url, encoding: .utf8)
            }
        }
        throw FixtureError.textNotFound(name, outputs.path)
    }

    /// Removes what the copy's kept build folder holds of `target`: its module, its objects and
    /// its plugin outputs, as if it had never been built.
    func removeBuildProducts(of target: String) throws {
        let fileManager = FileManager.default
        let build = directory.appending(path: ".build")
        let outputs = build.appending(path: "plugins/outputs/\(directory.lastPathComponent.lowercased())")
        for folder in [build.appending(path: "debug"), build.appending(path: "debug/Modules"), outputs] {
            for item in (try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? [] where item == target || item.hasPrefix(target + ".") {
                try fileManager.removeItem(at: folder.appending(path: item))
            }
        }
    }

    /// Runs `swift ARGUMENTS` in the copy; returns the exit status and stdout+stderr.
    func swift(_ arguments: String...) throws -> (status: Int32, output: String) {
        try swift(arguments, environment: [:])
    }

    /// Runs `swift ARGUMENTS` in the copy with `environment` added to a user's shell variables.
    func swift(_ arguments: [String], environment extra: [String: String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift"] + arguments
        process.currentDirectoryURL = directory
        // A user's shell, not the test runner's environment: variables the runner sets for itself
        // (profiling, test configuration) would make SwiftPM rebuild the plugin's tool every time.
        // A copy depends on StateLoop as a user's package does: without the Inspector trait, so it
        // resolves none of the web server's packages (Docs/Inspector.md I30).
        let inherited = ProcessInfo.processInfo.environment
        process.environment = ["PATH", "HOME", "TMPDIR", "LANG"].reduce(into: [:]) { environment, name in
            environment[name] = inherited[name]
        }.merging(extra) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    enum FixtureError: Error, CustomStringConvertible {
        case textNotFound(String, String)
        var description: String {
            switch self {
            case .textNotFound(let text, let path): "the fixture file \(path) does not contain \(text.debugDescription)"
            }
        }
    }
}
