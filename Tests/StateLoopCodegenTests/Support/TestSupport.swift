import Foundation
import StateLoopCodegen
import StateLoopSpec
import Testing

/// Where the test files live, found from this file's path so tests run from any directory.
enum TestPaths {
    /// `Tests/StateLoopCodegenTests`.
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    /// The fixture specs.
    static let fixtures = testsDirectory.appendingPathComponent("Fixtures")
    /// The golden outputs, compiled and run by the GeneratedCodeTests target.
    static let golden = testsDirectory.deletingLastPathComponent().appendingPathComponent("GeneratedCodeTests/Generated")
    /// The package root.
    static let package = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()

    /// Every fixture, decoded: each may run the others as child machines, as in one target.
    static let fixtureLibrary = MachineLibrary(GoldenTests.fixtures.compactMap { name in
        (try? Data(contentsOf: fixtures.appendingPathComponent("\(name).machine.yml"))).flatMap {
            SpecLoader.decode(contents: [UInt8]($0), path: "\(name).machine.yml")
        }
    })

    /// Generates fixture `name` as a build would: at the path relative to the fixtures (the
    /// output is then machine-independent), with the other fixtures as its possible children.
    static func generateFixture(_ name: String, pipeline: GeneratorPipeline = GeneratorPipeline()) throws -> GeneratorOutput {
        let contents = try [UInt8](Data(contentsOf: fixtures.appendingPathComponent("\(name).machine.yml")))
        // The lock beside a fixture, as `stateloop generate` reads it (D58).
        let lock = try? [UInt8](Data(contentsOf: fixtures.appendingPathComponent("\(name).machine.lock")))
        return pipeline.generate(
            contents: contents, path: "\(name).machine.yml", library: fixtureLibrary,
            lock: lock.map { LockInput(path: "\(name).machine.lock", contents: $0) })
    }
}

/// Generates Swift from YAML text; records the diagnostics as an issue when generation fails.
func generate(_ yaml: String, path: String = "Test.machine.yml", sourceLocation: Testing.SourceLocation = #_sourceLocation) -> String {
    let output = GeneratorPipeline().generate(contents: Array(yaml.utf8), path: path)
    guard let source = output.source else {
        Issue.record("generation failed:\n\(output.diagnostics.map(\.description).joined(separator: "\n"))", sourceLocation: sourceLocation)
        return ""
    }
    return source
}

/// A line diff of two texts (`-` expected, `+` actual), enough to see what changed.
func lineDiff(expected: String, actual: String) -> String {
    let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
    var lines: [String] = []
    for change in new.difference(from: old) {
        switch change {
        case .remove(let offset, let line, _): lines.append("-\(offset + 1): \(line)")
        case .insert(let offset, let line, _): lines.append("+\(offset + 1): \(line)")
        }
    }
    return lines.joined(separator: "\n")
}

/// Asserts that `fragment` (several lines, exact) occurs in `source`; shows the source otherwise.
func expectContains(_ source: String, _ fragment: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    #expect(source.contains(fragment), "fragment not found:\n\(fragment)\n--- in ---\n\(source)", sourceLocation: sourceLocation)
}
