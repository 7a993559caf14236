import Foundation
import StateLoopCodegen
import Testing

// The W3C SCXML 1.0 conformance tests (the IRP's mandatory tests) that StateLoop can express,
// translated under Fixtures/W3C (each file names its test and any deviation; the count is in
// Docs/Statecharts.md, "The W3C tests": 41 files, 39 IRP tests, 403 in three files). Each is
// generated, compiled, started with `State.initial`, sent the events of its `# drive:` line, and
// must rest in its `pass` state.

@Suite(.enabled(if: Swiftc.isAvailable || ContinuousIntegration.isActive, "needs swiftc and the StateLoop module in .build/debug"))
struct W3CTests {
    static let folder = TestPaths.fixtures.appendingPathComponent("W3C")

    @Test("every translated W3C IRP test generates, compiles and ends in its pass state")
    func translatedW3CTestsPass() throws {
        guard Swiftc.isAvailable else {
            Issue.record("CI=true, but swiftc or \(Swiftc.modules.path)/StateLoop.swiftmodule is missing")
            return
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".machine.yml") }.sorted()
        #expect(files.count >= 41, "\(files)")
        var sources: [String: String] = [:]
        var main: [String] = []
        var expected: [String] = []
        for file in files {
            let yaml = try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8)
            let generated = GeneratorPipeline().generate(contents: Array(yaml.utf8), path: file)
            guard let source = generated.source else {
                Issue.record("\(file) is refused: \(generated.diagnostics)")
                continue
            }
            let machine = try #require(yaml.split(separator: "\n").first { $0.hasPrefix("machine: ") }).dropFirst("machine: ".count)
            let drive = yaml.split(separator: "\n").first { $0.hasPrefix("# drive: ") }.map { $0.dropFirst("# drive: ".count).split(separator: " ") } ?? []
            sources["\(machine).machine.swift"] = source
            main.append("do {")
            main.append("    var state = \(machine).State.initial")
            for event in drive { main.append("    \(machine).reduce(&state, .\(event))") }
            main.append("    print(\"\(machine)\", state.isIn(.pass) ? \"pass\" : \"\\(state.mode)\")")
            main.append("}")
            expected.append("\(machine) pass")
        }
        sources["main.swift"] = main.joined(separator: "\n") + "\n"
        let run = try Swiftc.run(sources)
        try #require(run.status == 0, "the W3C tests did not build or run:\n\(run.output.prefix(3_000))")
        #expect(run.output.split(separator: "\n").map(String.init) == expected)
    }
}
