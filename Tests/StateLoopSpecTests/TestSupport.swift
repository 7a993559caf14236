import Foundation
import Testing
@testable import StateLoopSpec

/// The printed diagnostics of `yaml` loaded as `test.machine.yml`, one string per diagnostic;
/// `library` holds the specs it may run as child machines.
func printedDiagnostics(_ yaml: String, path: String = "test.machine.yml", library: [String] = []) -> [String] {
    SpecLoader.load(contents: Array(yaml.utf8), path: path, library: machineLibrary(library)).diagnostics.map(\.description)
}

/// A library of the specs in `yamls` (each must decode), named `child<n>.machine.yml`.
func machineLibrary(_ yamls: [String]) -> MachineLibrary {
    MachineLibrary(yamls.enumerated().compactMap { SpecLoader.decode(contents: Array($0.element.utf8), path: "child\($0.offset).machine.yml") })
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
