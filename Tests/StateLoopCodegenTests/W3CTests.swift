import Foundation
import StateLoopCodegen
import StateLoopSpec
import Testing

// The W3C SCXML 1.0 conformance tests (the IRP's mandatory tests) that StateLoop can express,
// translated under Fixtures/W3C (each file names its test and any deviation; the count is in
// Docs/Statecharts.md, "The W3C tests": 91 files, 79 IRP tests, 403 in three files, 10 children of
// `<invoke>` tests). Each is generated, compiled, started with `State.initial` in a `MachineTest`,
// then run on the harness's clock until no send or timer is pending (T16, S134), and must rest in
// its `pass` state, or in the state its `# ends in:` line names when the test is known to end
// differently here. A test with `<invoke>` is a parent spec and its children, named as the IRP
// names its files (`test226sub1.machine.yml`, read as the parent's library and never run alone); a
// parent runs as a `System` (its children synchronous), sent the events of its `# drive:` line.

@Suite(.enabled(if: Swiftc.isAvailable || ContinuousIntegration.isActive, "needs swiftc and the StateLoop module in .build/debug"))
struct W3CTests {
    static let folder = TestPaths.fixtures.appendingPathComponent("W3C")

    @Test("every translated W3C IRP test generates, compiles and ends in its pass state, or in the state its `# ends in:` line names")
    func translatedW3CTestsPass() throws {
        guard Swiftc.isAvailable else {
            Issue.record("CI=true, but swiftc or \(Swiftc.modules.path)/StateLoop.swiftmodule is missing")
            return
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".machine.yml") }.sorted()
        #expect(files.count >= 91, "\(files)")
        var sources: [String: String] = [:]
        // The harness runs each machine as a clock would (T16): it moves to the next pending send
        // or timer, takes what came due (at one deadline in the order sent, S134), and goes on
        // until none is left; a failure it reports is printed, so the output differs.
        var main = [
            "import StateLoop",
            "@_spi(Internals) import StateLoopTesting",
            "func run<M: StateMachine>(_: M.Type, _ initial: M.State) -> M.State {",
            "    var state = initial",
            "    let failures = withRecordedFailures {",
            "        let test = MachineTest(M.self, state: initial, coverage: TransitionCoverage())",
            "        test.checksState = false",
            "        for _ in 0..<1_000 {",
            "            guard let wait = test.timeUntilNextDue else { break }",
            "            test.advance(by: wait)",
            "            test.skipReceivedEvents()",
            "        }",
            "        state = test.state",
            "        test.finish()",
            "    }",
            "    for failure in failures { print(failure.message) }",
            "    return state",
            "}",
        ]
        main += [
            "/// The last state a system showed: its observer runs on the thread that sends.",
            "final class LastState<State: Sendable>: @unchecked Sendable { var state: State? }",
        ]
        let specs = try files.map { file in
            let yaml = try Data(contentsOf: Self.folder.appendingPathComponent(file))
            return try #require(SpecLoader.decode(contents: [UInt8](yaml), path: file), "\(file) does not decode")
        }
        let library = MachineLibrary(specs)
        var expected: [String] = []
        for (file, spec) in zip(files, specs) {
            let yaml = try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8)
            let generated = GeneratorPipeline().generate(contents: Array(yaml.utf8), path: file, library: library)
            guard let source = generated.source else {
                Issue.record("\(file) is refused: \(generated.diagnostics)")
                continue
            }
            let machine = try #require(yaml.split(separator: "\n").first { $0.hasPrefix("machine: ") }).dropFirst("machine: ".count)
            // A test that ends differently here says where (Docs/Statecharts.md, "known to end differently").
            let end = yaml.split(separator: "\n").first { $0.hasPrefix("# ends in: ") }.map { $0.dropFirst("# ends in: ".count) } ?? "pass"
            sources["\(machine).machine.swift"] = source
            if file.contains("sub") { continue }  // a child: run by its parent
            if spec.effects.contains(where: { $0.child != nil }) {
                // A parent: its children run as systems, each step synchronous on this thread.
                let drive = yaml.split(separator: "\n").first { $0.hasPrefix("# drive: ") }.map { $0.dropFirst("# drive: ".count).split(separator: " ") } ?? []
                main.append("do {")
                main.append("    let last = LastState<\(machine).State>()")
                main.append("    let run = \(machine).system().start { last.state = $0 }")
                for event in drive { main.append("    run.send(.\(event))") }
                main.append("    print(\"\(machine)\", last.state!.isIn(.pass) ? \"pass\" : \"\\(last.state!.mode)\")")
                main.append("    run.stop()")
                main.append("}")
                expected.append("\(machine) pass")
                continue
            }
            main.append("do {")
            main.append("    let state = run(\(machine).self, .initial)")
            main.append("    print(\"\(machine)\", state.isIn(.\(end)) ? \"\(end)\" : \"\\(state.mode)\")")
            main.append("}")
            expected.append("\(machine) \(end)")
        }
        sources["main.swift"] = main.joined(separator: "\n") + "\n"
        let run = try Swiftc.run(sources)
        try #require(run.status == 0, "the W3C tests did not build or run:\n\(run.output.prefix(3_000))")
        #expect(run.output.split(separator: "\n").map(String.init) == expected)
    }

    @Test("the tests known to end differently are those Docs/Statecharts.md counts so, each with its '# ends in:' line")
    func testsThatEndDifferentlyAreDocumented() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".machine.yml") }
        let differing = try files.filter { file in
            try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8).contains("\n# ends in: ")
        }.map { String($0.dropFirst("test".count).prefix { $0.isNumber }) }.sorted()
        let docs = try String(contentsOf: TestPaths.package.appendingPathComponent("Docs/Statecharts.md"), encoding: .utf8)
        let row = try #require(docs.split(separator: "\n").first { $0.hasPrefix("| known to end differently | ") })
        let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(cells[1] == "\(differing.count)", "\(row)")
        #expect(cells[2].hasPrefix(differing.joined(separator: ", ") + ":"), "\(row)")
    }
}
