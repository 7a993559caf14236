import Foundation
import StateLoopCodegen
import StateLoopSpec
import Testing

/// A type in the spec that swiftc cannot find (issue 20, item 15) is reported once, at its YAML
/// line and column, and nothing else is: no "does not conform to 'Equatable'" for `State`,
/// `Input` or `Event`, no "cannot infer contextual base" at `State.initial`, nothing in the
/// generated file. Checked for real with `swiftc -typecheck` (see `Swiftc`).
@Suite(.enabled(if: Swiftc.isAvailable, "needs swiftc and the StateLoop module in .build/debug/Modules"))
struct MisspeltTypeTests {
    static let yaml = """
        machine: Typo
        input:
          start: Strng
        context:
          count: {type: Innt, default: "0"}
          name:  {type: String, default: '""'}
        events:
          bump: {by: Dobule}
          reset:
        initial: idle
        states:
          idle:
            on:
              bump: {set: {count: "count + 1"}}
              reset: {set: {name: '""'}}
        effects:
          load:
            in: [idle]
            request: {type: Int, value: "0"}
            emits: [bump, reset]

        """

    /// Every `path:line:column: error: message` line swiftc printed, in order.
    static func errors(in output: String) -> [String] {
        output.split(separator: "\n").map(String.init).filter { line in
            line.range(of: #"^[^ |]+:[0-9]+:[0-9]+: error: "#, options: .regularExpression) != nil
        }
    }

    @Test func aMisspeltContextPayloadOrInputTypeIsOneErrorAtItsYAMLLineAndColumn() throws {
        let path = "Specs/Typo.machine.yml"
        let generated = GeneratorPipeline().generate(contents: Array(Self.yaml.utf8), path: path)
        let source = try #require(generated.source, "\(generated.diagnostics)")
        let result = try Swiftc.typecheck(["Typo.swift": source])
        #expect(result.status != 0)
        #expect(Self.errors(in: result.output) == [
            "\(path):3:10: error: cannot find type 'Strng' in scope",   // input:
            "\(path):5:17: error: cannot find type 'Innt' in scope",    // context:
            "\(path):8:14: error: cannot find type 'Dobule' in scope",  // a payload field
        ], "swiftc said:\n\(result.output)")
    }
}
