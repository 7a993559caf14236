import Foundation
import StateLoopCodegen
import StateLoopSpec
import Testing

/// A type in the spec that swiftc cannot find (issue 20, item 15) is reported once, at its YAML
/// line and column, and nothing else is: no "does not conform to 'Equatable'" for `State`,
/// `Input` or `Event`, no "cannot infer contextual base" at `State.initial`, nothing in the
/// generated file. Checked for real with `swiftc` (see `Swiftc.compile`).
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
        let result = try Swiftc.compile(["Typo.swift": source])
        #expect(result.status != 0)
        #expect(Self.errors(in: result.output) == [
            "\(path):3:10: error: cannot find type 'Strng' in scope",   // input:
            "\(path):5:17: error: cannot find type 'Innt' in scope",    // context:
            "\(path):8:14: error: cannot find type 'Dobule' in scope",  // a payload field
        ], "swiftc said:\n\(result.output)")
    }

    /// A request type of each effect shape: a query with `onError:`, a stream, a one-shot run,
    /// and a query whose feedback is the simple `.react(request:effect:)`. Inferred from the
    /// request, each closure of their feedbacks, and `Call`'s and `Run`'s `==`, were errors too.
    static let requests = """
        machine: Queries
        context:
          count: {type: Int, default: "0"}
        events:
          done: {from: effects}
          failed: {from: effects}
          go: {}
        initial: idle
        states:
          idle:
            on: {go: busy}
            ignore: [done, failed]
          busy:
            entry: [{run: once, request: count}]
            on: {done: idle, failed: idle, go: {set: {count: count + 1}}}
        effects:
          load: {in: [busy], request: {type: Intx, value: count}, emits: [done], onError: failed}
          feed: {in: [busy], request: {type: Inty, value: count}, stream: true, emits: [done]}
          once: {request: {type: Intz}, emits: [done]}
          poll: {in: [busy], request: {type: Intw, value: count}, emits: [done]}

        """

    @Test func aMisspeltRequestTypeOfEveryEffectShapeIsOneErrorAtItsYAMLLineAndColumn() throws {
        let path = "Specs/Queries.machine.yml"
        let generated = GeneratorPipeline().generate(contents: Array(Self.requests.utf8), path: path)
        let source = try #require(generated.source, "\(generated.diagnostics)")
        let result = try Swiftc.compile(["Queries.swift": source])
        #expect(result.status != 0)
        #expect(Self.errors(in: result.output) == [
            "\(path):17:38: error: cannot find type 'Intx' in scope",
            "\(path):18:38: error: cannot find type 'Inty' in scope",
            "\(path):19:26: error: cannot find type 'Intz' in scope",
            "\(path):20:38: error: cannot find type 'Intw' in scope",
        ], "swiftc said:\n\(result.output)")
    }
}
