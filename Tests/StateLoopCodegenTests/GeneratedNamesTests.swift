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
        let result = try Swiftc.compile(["\(name).machine.swift": source])
        #expect(result.status == 0, "\(result.output)")
    }

    @Test(arguments: ["Swift", "StateLoop", "Mode", "State", "Event", "Effects"])
    func aMachineNamedLikeAModuleOrANestedTypeIsAnErrorAtItsLine(_ name: String) {
        let output = GeneratorPipeline().generate(contents: Array(Self.spec(machine: name).utf8), path: "M.machine.yml")
        #expect(output.source == nil)
        #expect(output.diagnostics.filter { $0.severity == .error }.map(\.location.line) == [1])
    }
}

/// The aliases of the types a spec writes carry their owner's name (Docs/Effects.md E61-E63), and
/// a name that would clash takes `Type`, then a number.
@Suite struct SpecTypeNamesTests {
    static func names(_ yaml: String) throws -> SpecTypeNames {
        SpecTypeNames(try #require(SpecLoader.decode(contents: Array(yaml.utf8), path: "N.machine.yml")))
    }

    /// Every kind of alias.
    static let photoSync = """
        machine: PhotoSync
        input: {limit: Int}
        context:
          log: {type: "[String]", default: "[]"}
        events:
          loaded: {photos: "[String]", nextURL: String?}
        initial: idle
        states:
          idle: {on: {loaded: done}}
          done: {type: final, output: {count: {type: Int, value: "log.count"}}}
        effects:
          checkQuota: {in: [idle], request: {type: Int, value: "0"}, emits: [loaded]}

        """

    /// Fields named like what the generated code declares, Swift keywords, and each other's aliases.
    static let generatedClashes = """
        machine: Sync
        context:
          state: {type: Int, default: "0"}
          effects: {type: Int, default: "0"}
          loadResult: {type: Int, default: "0"}
          sync: {type: Int, default: "0"}
          type: {type: Int, default: "0"}
          any: {type: Int, default: "0"}
          loadedCount: {type: Int, default: "0"}
          loadedCountType: {type: Int, default: "0"}
        events:
          loaded: {count: Int}
        initial: idle
        states:
          idle: {on: {loaded: idle}}
        effects:
          load: {in: [idle], request: {type: Int, value: "0"}, emits: [loaded]}

        """

    /// Fields whose aliases would be names the spec already uses.
    static let specClashes = """
        machine: Shop
        context:
          user: {type: User?, default: nil}
          limit: {type: Int, default: "Limit.standard"}
          cart: {type: Int, default: "0"}
          Cart: {type: Int, default: "0"}
          idle: {type: Int, default: "0"}
        events:
          go: {}
        initial: Idle
        states:
          Idle: {on: {go: Idle}}

        """

    @Test("E61: each alias is named after its owner: the field, the event and field, the effect, the final state and field")
    func aliasesAreNamedAfterWhatTheyType() throws {
        let names = try Self.names(Self.photoSync)
        #expect(names.input == ["InputLimit"])
        #expect(names.context == ["Log"])
        #expect(names.payloads == ["loaded": ["LoadedPhotos", "LoadedNextURL"]])
        #expect(names.requests == ["checkQuota": "CheckQuotaRequest"])
        #expect(names.outputs == ["done": ["DoneCount"]])
    }

    @Test("E62: a name the generated code declares, Swift refuses, or an earlier alias took gets 'Type', then a number")
    func aNameTakenByTheGeneratedCodeOrAnotherAliasTakesASuffix() throws {
        let names = try Self.names(Self.generatedClashes)
        #expect(names.context == ["StateType", "EffectsType", "LoadResultType", "SyncType", "TypeType", "AnyType", "LoadedCount", "LoadedCountType"])
        #expect(names.payloads == ["loaded": ["LoadedCountType2"]])
    }

    @Test("E63: a name the spec uses (a field, a state) or its Swift names (a type, an expression) gets 'Type'")
    func aNameTheSpecUsesTakesASuffix() throws {
        let names = try Self.names(Self.specClashes)
        #expect(names.context == ["UserType", "LimitType", "CartType", "CartType2", "IdleType"])
    }
}

/// The aliases in swiftc's hands: specs whose names clash compile, and messages name the alias.
@Suite(.enabled(if: Swiftc.isAvailable, "needs swiftc and the StateLoop module in .build/debug/Modules"))
struct SpecTypeNamesCompileTests {
    @Test("E62, E63: specs whose names would clash with their aliases compile warning-free in both language modes", arguments: [6, 5])
    func specsWhoseNamesWouldClashCompile(_ swiftVersion: Int) throws {
        var files = ["Types.swift": "public struct User: Equatable, Sendable {}\nenum Limit { static let standard = 3 }\n"]
        for (name, yaml) in [("PhotoSync", SpecTypeNamesTests.photoSync), ("Sync", SpecTypeNamesTests.generatedClashes), ("Shop", SpecTypeNamesTests.specClashes)] {
            files["\(name).machine.swift"] = generate(yaml, path: "\(name).machine.yml")
        }
        let result = try Swiftc.compile(files, swiftVersion: swiftVersion)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test("E61: swiftc names a spec type by its alias and the spec's type, at the YAML line and column")
    func swiftcNamesTheAliasAndTheSpecType() throws {
        let yaml = """
            machine: Counter
            context:
              count: {type: Int, default: '"zero"'}
            events:
              go: {}
            initial: idle
            states:
              idle: {on: {go: idle}}

            """
        let result = try Swiftc.compile(["Counter.machine.swift": generate(yaml, path: "Counter.machine.yml")])
        #expect(result.status != 0)
        let errors = MisspeltTypeTests.errors(in: result.output)
        #expect(errors.count == 1, "\(result.output)")
        #expect(errors.first?.hasPrefix("Counter.machine.yml:3:32: error: ") == true, "\(result.output)")
        #expect(errors.first?.hasSuffix("'Counter.Count' (aka 'Int')") == true, "\(result.output)")
    }
}
