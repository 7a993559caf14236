import Foundation
import Testing

/// Scripts/test.sh (what CI runs) runs the real `swift build`s of EndToEndTests, and the generator's
/// tests that run `swiftc` on generated code, each apart from the other suites. In one process they
/// share Swift's cooperative thread pool, two threads on a 2-core machine: those tests block a
/// thread for seconds to minutes while the compiler runs, and on a loaded machine the 1-minute time
/// limits of the async suites ran out while those suites waited for a thread (36 "Time limit was
/// exceeded" issues in GeneratedCodeTests, which alone take 0.08 s; at f8f6f82 no test of the first
/// tier had finished after ten minutes while the generator's compiles held both threads).
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

    @Test func theCompilingSuitesRunInTiersOfTheirOwn() throws {
        let lines = try Self.swiftTestLines()
        // The default scratch path: the tiers after the first reuse its build.
        let tiers = lines.filter { !$0.contains("--scratch-path") && !$0.contains("--sanitize") }
        var others = tiers
        // ExploreBuildTests: the suite of StateLoopCLITests that runs `stateloop explore`, which builds
        // each machine it explores with `swift build` (Docs/Testing.md V25).
        let compiling = ["EndToEndTests", "StateLoopCodegenTests", "ExploreBuildTests"]
        for target in compiling {
            let own = tiers.filter { $0.contains("--filter \(target)") }
            #expect(own.count == 1, "\(target): \(tiers)")
            #expect(own.allSatisfy { $0.contains("--skip-build") && !$0.contains("--skip \(target)") }, "\(own)")
            others.removeAll { own.contains($0) }
        }
        // Every other tier skips them all, so no test is left out and none runs beside them.
        #expect(!others.isEmpty)
        #expect(others.allSatisfy { tier in compiling.allSatisfy { tier.contains("--skip \($0)") } }, "\(others)")
        // The sanitizer runs name their targets and never include the end-to-end builds.
        #expect(lines.filter { $0.contains("--sanitize") }.allSatisfy { !$0.contains("EndToEnd") && $0.contains("--filter") }, "\(lines)")
    }
}
