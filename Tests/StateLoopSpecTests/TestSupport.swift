import Foundation
import Testing
@testable import StateLoopSpec

/// The printed diagnostics of `yaml` loaded as `test.machine.yml`, one string per diagnostic.
func printedDiagnostics(_ yaml: String, path: String = "test.machine.yml") -> [String] {
    SpecLoader.load(contents: Array(yaml.utf8), path: path).diagnostics.map(\.description)
}

/// The spec of `yaml`, which must load without errors.
func loadedSpec(_ yaml: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> MachineSpec {
    let result = SpecLoader.load(contents: Array(yaml.utf8), path: "test.machine.yml")
    #expect(result.diagnostics.filter { $0.severity == .error }.map(\.description) == [], sourceLocation: sourceLocation)
    return try #require(result.spec, sourceLocation: sourceLocation).spec
}

/// The reader's result for `yaml`.
func readYAML(_ yaml: String) -> YAMLReader.Result {
    YAMLReader().read(Array(yaml.utf8), path: "test.yml")
}

/// The bytes of a fixture in `Tests/StateLoopSpecTests/Fixtures/`.
func fixture(_ name: String) throws -> [UInt8] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)")
    return Array(try Data(contentsOf: url))
}


/// A location in `test.machine.yml` (the path `printedDiagnostics` and `loadedSpec` use).
func specLocation(_ line: Int, _ column: Int) -> StateLoopSpec.SourceLocation {
    StateLoopSpec.SourceLocation(file: "test.machine.yml", line: line, column: column)
}
