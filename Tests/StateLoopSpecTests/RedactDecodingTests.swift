import Foundation
@testable import StateLoopSpec
import Testing

// `redact:` as written (Docs/Inspector.md I21).

@Suite struct RedactDecodingTests {
    @Test("I21: redact: takes true or false, on context fields only")
    func redactIsDecodedStrictly() throws {
        let yaml = """
            machine: T
            context:
              password: {type: String, default: '""', redact: true}
              pin:      {type: Int, default: "0", redact: maybe}
              owner:    {type: String, default: '""', redact: false}
            events: {go: {}}
            initial: a
            states:
              a:
                on: {go: b}
              b:
                type: final
                output: {code: {type: Int, value: "1", redact: true}}
            """
        #expect(printedDiagnostics(yaml).filter { $0.contains(": error: ") } == [
            "test.machine.yml:4:47: error: 'redact:' takes 'true' or 'false', found 'maybe' (fix: write 'redact: true' to keep 'pin' out of the inspector's dumps)",
            "test.machine.yml:13:44: error: unknown key 'redact' in an output field (fix: use one of type, value)",
        ])
        let valid = yaml.replacingOccurrences(of: "redact: maybe", with: "redact: false")
            .replacingOccurrences(of: ", redact: true}}", with: "}}")
        let spec = try #require(SpecLoader.decode(contents: Array(valid.utf8), path: "test.machine.yml"))
        #expect(spec.context.map { "\($0.name.value) \($0.redact)" } == ["password true", "pin false", "owner false"])
    }
}
