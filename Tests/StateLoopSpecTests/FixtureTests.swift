import Foundation
import Testing
@testable import StateLoopSpec

/// Every spec in `Fixtures/` loads without diagnostics; every spec in `Fixtures/Invalid/` prints
/// exactly the diagnostics of its `.diagnostics.txt` neighbour.
@Suite struct FixtureTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func specs(in folder: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".machine.yml") }.sorted()
    }

    @Test(arguments: specs(in: fixtures))
    func validFixtureLoadsWithoutDiagnostics(_ name: String) throws {
        let result = SpecLoader.load(contents: try fixture(name), path: name)
        #expect(result.diagnostics.map(\.description) == [])
        #expect(result.spec != nil)
    }

    @Test(arguments: specs(in: fixtures.appendingPathComponent("Invalid")))
    func invalidFixturePrintsItsExpectedDiagnostics(_ name: String) throws {
        let result = SpecLoader.load(contents: try fixture("Invalid/\(name)"), path: name)
        let expectedName = name.replacingOccurrences(of: ".machine.yml", with: ".diagnostics.txt")
        let expected = String(decoding: try fixture("Invalid/\(expectedName)"), as: UTF8.self)
        let printed = result.diagnostics.map { $0.description + "\n" }.joined()
        #expect(printed == expected)
        #expect(result.spec == nil)
    }
}
