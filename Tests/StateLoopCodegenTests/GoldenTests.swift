import Foundation
import StateLoopCodegen
import Testing

/// Each fixture spec against its checked-in output in Tests/GeneratedCodeTests/Generated, which
/// the GeneratedCodeTests target compiles (warnings as errors) and runs.
/// `STATELOOP_UPDATE_GOLDEN=1 swift test --filter GoldenTests` rewrites the outputs. (`swift test`
/// builds every test target first, so if a golden file no longer compiles, delete it before
/// rewriting.)
@Suite struct GoldenTests {
    static let fixtures = ["Checkout", "Counter", "Courier", "DeepParallel", "Drawer", "DrawerV1", "Edges", "Editor", "Feeds", "Flash", "Frozen", "GitHubSearch", "Keywords", "Ledger", "Loop", "Microwave", "Nest", "Nudge", "Pair", "ParallelDone", "Payment", "Player", "Quiet", "Quota", "Regions", "Relay", "Reminder", "TrafficLight", "Transfer", "Turnstile", "Upload", "Vault"]

    @Test(arguments: fixtures)
    func generatedSwiftMatchesGoldenFile(_ name: String) throws {
        let output = try TestPaths.generateFixture(name)
        let source = try #require(output.source, "\(output.diagnostics.map(\.description).joined(separator: "\n"))")
        let golden = TestPaths.golden.appendingPathComponent("\(name).swift")
        if ProcessInfo.processInfo.environment["STATELOOP_UPDATE_GOLDEN"] == "1" {
            try OutputWriter.writeIfChanged(source, to: golden.path)
            return
        }
        let expected = (try? String(contentsOf: golden, encoding: .utf8)) ?? ""
        #expect(source == expected, "\(golden.lastPathComponent) differs (STATELOOP_UPDATE_GOLDEN=1 rewrites it):\n\(lineDiff(expected: expected, actual: source))")
    }

    @Test(arguments: fixtures)
    func generationIsByteStable(_ name: String) throws {
        let first = try TestPaths.generateFixture(name).source
        let second = try TestPaths.generateFixture(name).source
        #expect(first != nil)
        #expect(first == second)
    }
}
