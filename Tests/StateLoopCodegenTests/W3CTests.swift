import Foundation
import StateLoopCodegen
import StateLoopSpec
import Testing

// The W3C SCXML 1.0 conformance tests (the IRP's mandatory tests) that StateLoop can express,
// translated under Fixtures/W3C (each file names its test and any deviation; the count is in
// Docs/Statecharts.md, "The W3C tests": 74 files, 62 IRP tests, 403 in three files, 10 children of `<invoke>` tests). Each is
// generated, compiled, started with `State.initial`, sent the events of its `# drive:` line, then
// given its pending sends as a clock would deliver them (earliest deadline first, S134), and must
// rest in its `pass` state. A test with `<invoke>` is a parent spec and its children, named as the
// IRP names its files (`test226sub1.machine.yml`, read as the parent's library and never driven
// alone); a parent runs as a `System` (its children synchronous), sent the `# drive:` events.

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
        #expect(files.count >= 74, "\(files)")
        var sources: [String: String] = [:]
        // The pending sends, delivered as the system's clock would: each due its delay after the
        // step that sent it, the earliest first, at one deadline in the order sent (S133, S134).
        var main = [
            "import StateLoop",
            "func deliverSends<M: StateMachine>(_: M.Type, _ state: inout M.State) {",
            "    var now = Duration.zero",
            "    var deadlines: [Int: Duration] = [:]",
            "    for _ in 0..<1_000 {",
            "        let pending = M.sends(in: state)",
            "        for send in pending where deadlines[send.number] == nil { deadlines[send.number] = now + send.delay }",
            "        guard let next = pending.min(by: { (deadlines[$0.number]!, $0.number) < (deadlines[$1.number]!, $1.number) }) else { return }",
            "        now = deadlines[next.number]!",
            "        var trace = TransitionTrace()",
            "        M.reduce(&state, next.delivery, trace: &trace)",
            "    }",
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
            let drive = yaml.split(separator: "\n").first { $0.hasPrefix("# drive: ") }.map { $0.dropFirst("# drive: ".count).split(separator: " ") } ?? []
            sources["\(machine).machine.swift"] = source
            if file.contains("sub") { continue }  // a child: run by its parent
            if spec.effects.contains(where: { $0.child != nil }) {
                // A parent: its children run as systems, each step synchronous on this thread.
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
            main.append("    var state = \(machine).State.initial")
            for event in drive { main.append("    \(machine).reduce(&state, .\(event))") }
            main.append("    deliverSends(\(machine).self, &state)")
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
