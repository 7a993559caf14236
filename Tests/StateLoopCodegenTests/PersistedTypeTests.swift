import Foundation
import StateLoopCodegen
import StateLoopSpec
import Testing

/// A persisted spec's types must be `Codable` (Docs/Durability.md D28): one that is not fails the
/// build once, at its YAML line and column (through its `_Codable` alias), and nowhere in the
/// generated file.
/// Checked for real with `swiftc` (see `Swiftc.compile`).
@Suite(.enabled(if: Swiftc.isAvailable, "needs swiftc and the StateLoop module in .build/debug/Modules"))
struct PersistedTypeTests {
    static func yaml(persist: Bool) -> String {
        """
        machine: Vault
        \(persist ? "persist: true" : "")
        context:
          f: {type: NotCodable, default: "NotCodable()"}
          n: {type: Int, default: "0"}
        events:
          store: {item: Item}
        initial: idle
        states:
          idle:
            on:
              store: {set: {n: n + 1}}
        effects:
          fetch:
            in: [idle]
            request: {type: Request, value: "Request()"}

        """
    }

    static let types = """
        public struct NotCodable: Equatable, Sendable { public init() {} }
        public struct Item: Equatable, Sendable {}
        public struct Request: Hashable, Sendable { public init() {} }

        """

    @Test("D28: persist: with a context field, payload or request type that is not Codable fails the build at the type's YAML line")
    func d28NotCodableFailsAtTheYAMLLine() throws {
        let path = "Specs/Vault.machine.yml"
        let generated = GeneratorPipeline().generate(contents: Array(Self.yaml(persist: true).utf8), path: path)
        let source = try #require(generated.source, "\(generated.diagnostics)")
        let result = try Swiftc.compile(["Vault.swift": source, "Types.swift": Self.types])
        #expect(result.status != 0)
        #expect(MisspeltTypeTests.errors(in: result.output) == [
            "\(path):4:13: error: type 'Vault.F' (aka 'NotCodable') does not conform to protocol 'Decodable'",
            "\(path):7:17: error: type 'Vault.StoreItem' (aka 'Item') does not conform to protocol 'Decodable'",
            "\(path):16:21: error: type 'Vault.FetchRequest' (aka 'Request') does not conform to protocol 'Decodable'",
        ], "swiftc said:\n\(result.output)")
    }

    @Test("D28: the same spec without persist: compiles, Codable or not")
    func d28WithoutPersistNothingIsRequired() throws {
        let generated = GeneratorPipeline().generate(contents: Array(Self.yaml(persist: false).utf8), path: "Specs/Vault.machine.yml")
        let source = try #require(generated.source, "\(generated.diagnostics)")
        #expect(!source.contains("JournalCodable"))
        let result = try Swiftc.compile(["Vault.swift": source, "Types.swift": Self.types])
        #expect(result.status == 0, "swiftc said:\n\(result.output)")
    }
}
