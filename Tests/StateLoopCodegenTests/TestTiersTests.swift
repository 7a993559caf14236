import Foundation
import Testing

/// Scripts/test.sh (what CI runs) runs the real `swift build`s of EndToEndTests apart from the
/// other suites. In one process they share Swift's cooperative thread pool, two threads on a
/// 2-core machine: the end-to-end tests block a thread for minutes while SwiftPM builds, and on a
/// loaded machine the 1-minute time limits of the async suites ran out while those suites waited
/// for a thread (36 "Time limit was exceeded" issues in GeneratedCodeTests, which alone take 0.08 s).
@Suite struct TestTiersTests {
    static let script = TestPaths.package.appendingPathComponent("Scripts/test.sh")

    /// The `swift test` command lines of the script.
    static func swiftTestLines() throws -> [String] {
        try String(contentsOf: script, encoding: .utf8)
            .replacingOccurrences(of: "\\\n", with: " ")  // continued lines
            .components(separatedBy: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .map { $0.hasPrefix("time ") ? String($0.dropFirst("time ".count)) : $0 }
            .filter { $0.hasPrefix("swift test ") }
    }

    @Test func endToEndTestsRunInATierOfTheirOwn() throws {
        let lines = try Self.swiftTestLines()
        // The default scratch path: the tiers after the first reuse its build.
        let tiers = lines.filter { !$0.contains("--scratch-path") && !$0.contains("--sanitize") }
        let endToEnd = tiers.filter { $0.contains("EndToEndTests") && !$0.contains("--skip EndToEndTests") }
        #expect(endToEnd.count == 1, "\(tiers)")
        #expect(endToEnd.allSatisfy { $0.contains("--filter EndToEndTests") && $0.contains("--skip-build") }, "\(endToEnd)")
        // Every other tier skips them, so no test target is left out and none runs beside them.
        let others = tiers.filter { !endToEnd.contains($0) }
        #expect(!others.isEmpty)
        #expect(others.allSatisfy { $0.contains("--skip EndToEndTests") }, "\(others)")
        // The sanitizer runs name their targets and never include the end-to-end builds.
        #expect(lines.filter { $0.contains("--sanitize") }.allSatisfy { !$0.contains("EndToEnd") && $0.contains("--filter") }, "\(lines)")
    }
}
