import Foundation
import StateLoopCodegen
import StateLoopSpec
import Testing

/// Spec names that are also names the generated code uses (`System`, `Int`, `Sendable`, a field
/// called `State`) either compile, because the generated code qualifies what it refers to
/// (`StateLoop.System`, `Swift.Int`), or are rejected at their YAML line by the checks
/// (`GeneratedNames`).
@Suite(.enabled(if: Swiftc.isAvailable, "needs swiftc and the StateLoop module in .build/debug/Modules"))
struct GeneratedNamesTests {
    /// A machine named `name` with effects, timers, payloads, and fields named like the types the
    /// generated code declares and refers to.
    static func spec(machine name: String) -> String {
        """
        machine: \(name)
        context:
          State: {type: Swift.Int, default: "0"}
          Mode: {type: Swift.Int, default: "0"}
          Event: {type: Swift.Int, default: "0"}
          Effects: {type: Swift.Int, default: "0"}
          System: {type: Swift.Int, default: "0"}
          Bool: {type: Swift.Int, default: "0"}
          initial: {type: Swift.Int, default: "0"}
        events:
          go: {by: Swift.Int}
          done: {from: effects, Int: Swift.Int}
        initial: a
        states:
          a:
            on:
              go: [{guard: "event.by > State", target: b, set: {State: State + event.by, Mode: "1"}}, ignore]
            ignore: [done]
          b:
            on:
              done: {target: a, set: {Event: event.Int}}
            ignore: [go]
            after: {1s: {target: a}}
        effects:
          work: {in: [b], request: {type: Swift.Int, value: State}, emits: [done]}

        """
    }

    @Test(arguments: ["System", "Feedback", "Int", "Bool", "Sendable", "Equatable", "Hashable", "CaseIterable", "Duration", "Clock", "ContinuousClock", "CustomStringConvertible", "String"])
    func aMachineNamedLikeAStandardOrRuntimeTypeCompiles(_ name: String) throws {
        let output = GeneratorPipeline().generate(contents: Array(Self.spec(machine: name).utf8), path: "\(name).machine.yml")
        let source = try #require(output.source, "\(output.diagnostics)")
        let result = try Swiftc.typecheck(["\(name).machine.swift": source])
        #expect(result.status == 0, "\(result.output)")
    }

    @Test(arguments: ["Swift", "StateLoop", "Mode", "State", "Event", "Effects"])
    func aMachineNamedLikeAModuleOrANestedTypeIsAnErrorAtItsLine(_ name: String) {
        let output = GeneratorPipeline().generate(contents: Array(Self.spec(machine: name).utf8), path: "M.machine.yml")
        #expect(output.source == nil)
        #expect(output.diagnostics.filter { $0.severity == .error }.map(\.location.line) == [1])
    }
}
