import Foundation
import StateLoopCodegen
import Testing

/// Type errors in the spec's Swift expressions are reported by swiftc at the YAML file, line and
/// column, because every expression sits in a `#sourceLocation` block at its YAML column. Checked
/// for real with `swiftc -typecheck` (see `Swiftc`).
@Suite(.enabled(if: Swiftc.isAvailable, "needs swiftc and the StateLoop module in .build/debug/Modules"))
struct SourceLocationTests {
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

    @Test func typeErrorsInExpressionsAreReportedAtTheirYAMLLineAndColumn() throws {
        let path = "Specs/Broken.machine.yml"
        let source = try #require(GeneratorPipeline().generate(contents: Array(Self.yaml.utf8), path: path).source)
        let result = try Swiftc.typecheck(["Broken.swift": source])
        let reported = Set(result.output.split(separator: "\n").filter { $0.hasPrefix("\(path):") && $0.contains(": error: ") }
            .map { line in line.split(separator: ":").dropFirst().prefix(2).joined(separator: ":") })
        let expected: Set<String> = [
            // guard: Int is not Bool; swiftc points at the operator whose result is misused.
            "12:\(try column(of: "+ event.by", onLine: 12))",
            "12:\(try column(of: "\"zero\"", onLine: 12))",          // set: String is not Int
            "17:\(try column(of: "name}", onLine: 17))",             // request: String is not Int
        ]
        #expect(result.status != 0)
        #expect(reported == expected, "swiftc said:\n\(result.output)")
    }

    /// Every fixture, GitHubSearch with the types it names, in both language modes a target may
    /// use (a Swift 5 target with `-warnings-as-errors` builds the generated code in Swift 5 mode).
    @Test(arguments: AccessLevel.allCases, [6, 5])
    func fixturesCompileWarningFreeWithEveryAccessLevelInEveryLanguageMode(_ access: AccessLevel, swiftVersion: Int) throws {
        var files = ["GitHubTypes.swift": try String(contentsOf: TestPaths.golden.appendingPathComponent("../Support/GitHubTypes.swift"), encoding: .utf8)]
        for name in GoldenTests.fixtures {
            let contents = try [UInt8](Data(contentsOf: TestPaths.fixtures.appendingPathComponent("\(name).machine.yml")))
            let source = try #require(GeneratorPipeline(accessLevel: access).generate(contents: contents, path: "\(name).machine.yml").source)
            files["\(name).swift"] = source
        }
        let result = try Swiftc.typecheck(files, swiftVersion: swiftVersion)
        #expect(result.status == 0, "with \(access) access in Swift \(swiftVersion) mode:\n\(result.output)")
    }
}
