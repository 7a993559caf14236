import Foundation
import StateLoopCodegen
import Testing

/// Type errors in the spec's Swift expressions are reported by swiftc at the YAML file, line and
/// column, because every expression sits in a `#sourceLocation` block at its YAML column. Checked
/// for real: the generated file is type-checked by `swiftc` against the StateLoop module that
/// `swift build`/`swift test` put in `.build/debug/Modules` (skipped when that module is absent,
/// e.g. with a custom `--scratch-path`).
@Suite struct SourceLocationTests {
    static let modules = TestPaths.package.appendingPathComponent(".build/debug/Modules")
    static let canTypeCheck = FileManager.default.fileExists(atPath: modules.appendingPathComponent("StateLoop.swiftmodule").path)
        && swiftc != nil

    /// `swiftc` next to the running toolchain's, found on PATH.
    static let swiftc: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "")
        .split(separator: ":")
        .map { "\($0)/swiftc" }
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    static let yaml = """
        machine: Broken
        context:
          count: {type: Int, default: "0"}
          name:  {type: String, default: '""'}
        events:
          bump: {by: Int}
        initial: idle
        states:
          idle:
            on:
              bump:
                - {guard: "count + event.by", set: {count: '"zero"'}}
                - ignore
        effects:
          load:
            in: [idle]
            request: {type: Int, value: name}
            emits: []

        """

    /// The 1-based column where `text` starts on the 1-based `line` of the spec.
    func column(of text: String, onLine line: Int) throws -> Int {
        let source = Self.yaml.split(separator: "\n", omittingEmptySubsequences: false)[line - 1]
        let range = try #require(source.range(of: text))
        return source.distance(from: source.startIndex, to: range.lowerBound) + 1
    }

    @Test(.enabled(if: canTypeCheck, "needs swiftc and the StateLoop module in .build/debug/Modules"))
    func typeErrorsInExpressionsAreReportedAtTheirYAMLLineAndColumn() throws {
        let path = "Specs/Broken.machine.yml"
        let source = try #require(GeneratorPipeline().generate(contents: Array(Self.yaml.utf8), path: path).source)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stateloop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("Broken.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.swiftc))
        process.arguments = ["-typecheck", "-swift-version", "6", "-I", Self.modules.path, file.path]
        process.currentDirectoryURL = directory
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        let reported = Set(output.split(separator: "\n").filter { $0.hasPrefix("\(path):") && $0.contains(": error: ") }
            .map { line in line.split(separator: ":").dropFirst().prefix(2).joined(separator: ":") })
        let expected: Set<String> = [
            // guard: Int is not Bool; swiftc points at the operator whose result is misused.
            "12:\(try column(of: "+ event.by", onLine: 12))",
            "12:\(try column(of: "\"zero\"", onLine: 12))",          // set: String is not Int
            "17:\(try column(of: "name}", onLine: 17))",             // request: String is not Int
        ]
        #expect(process.terminationStatus != 0)
        #expect(reported == expected, "swiftc said:\n\(output)")
    }
}
