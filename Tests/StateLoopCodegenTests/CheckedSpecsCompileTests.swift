import Foundation
import StateLoopCodegen
import Testing

/// What `check` accepts, swiftc compiles, and what swiftc refuses it reports once, at the YAML
/// line (issue 30, 5): conditions that start with a brace, a final state's `output:` that no
/// expression reads, a history's `default:` actions called from two places. Checked with the real
/// `swiftc` (see `Swiftc.compile`).
@Suite(.enabled(if: Swiftc.isAvailable, "needs swiftc and the StateLoop module in .build/debug/Modules"))
struct CheckedSpecsCompileTests {
    /// swiftc's errors at `path`, as `LINE:COL: message`.
    private func errors(_ yaml: String, path: String) throws -> (status: Int32, errors: [String], output: String) {
        let generated = GeneratorPipeline().generate(contents: Array(yaml.utf8), path: path)
        let source = try #require(generated.source, "\(generated.diagnostics)")
        let result = try Swiftc.compile(["Generated.swift": source])
        let errors = result.output.split(separator: "\n").filter { $0.hasPrefix("\(path):") && $0.contains(": error: ") }
            .map { String($0.dropFirst(path.count + 1)) }
        return (result.status, errors, result.output)
    }

    @Test("S93, S113: a guard: and an if: whose Swift starts with { (a closure called at once) compile, warnings as errors")
    func conditionsThatStartWithABraceCompile() throws {
        let yaml = """
            machine: Braces
            context:
              who: {type: String, default: '""'}
              names: {type: "[String]", default: "[]"}
            events: {assign: {name: String}, call: {}}
            initial: idle
            states:
              idle:
                entry: [{if: "{ if case .assign(let name)? = trigger { !name.isEmpty } else { false } }()", then: [{set: {who: '"someone"'}}]}]
                on:
                  assign: {guard: "{ event.name.count > 1 }()", target: idle}
                  call: [{guard: "names.contains { $0 == who }", target: idle}, ignore]
            """
        let result = try errors(yaml, path: "Braces.machine.yml")
        #expect(result.status == 0, "swiftc said:\n\(result.output)")
    }

    @Test("S160: a type error in a final state's output: is reported at its YAML line though no expression reads trigger")
    func s160EveryOutputValueIsTypeChecked() throws {
        let yaml = """
            machine: Outputs
            events: {finished: {code: Int}}
            initial: work
            ignore: [finished]
            states:
              work:
                initial: busy
                onDone: over
                states:
                  busy: {always: end}
                  end: {type: final, doneEvent: finished, output: {code: {type: Int, value: '"not a number"'}}}
              over: {type: final}
            """
        let result = try errors(yaml, path: "Outputs.machine.yml")
        #expect(result.status != 0)
        #expect(result.errors.map { $0.split(separator: ":").prefix(1).joined() } == ["11"], "swiftc said:\n\(result.output)")
    }

    @Test("S146: a type error in a history's default: action is reported once, though two places run the action")
    func aDefaultActionsErrorIsReportedOnce() throws {
        let yaml = """
            machine: Defaults
            context: {n: {type: Int, default: "0"}}
            events: {go: {}, back: {}}
            initial: p
            states:
              p:
                initial: a
                on: {back: h}
                states:
                  a: {on: {go: b}, ignore: [back]}
                  b: {on: {go: q}}
                  h: {type: history, default: {target: b, do: [{if: "n", then: []}]}}
              q: {on: {back: h}, ignore: [go]}
            """
        let result = try errors(yaml, path: "Defaults.machine.yml")
        #expect(result.status != 0)
        #expect(result.errors.count == 1, "swiftc said:\n\(result.output)")
        #expect(result.errors.first?.hasPrefix("12:") == true, "swiftc said:\n\(result.output)")
    }
}
