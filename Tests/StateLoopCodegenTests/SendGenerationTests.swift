import StateLoopCodegen
import Testing

// What `send:` adds to the generated Swift (Docs/Statecharts.md S127): only where a spec sends.

@Suite struct SendGenerationTests {
    @Test("S127: only a machine that sends has pendingSends, Event._send and the timers feedback; the others are as before", arguments: GoldenTests.fixtures)
    func s127OnlyASendingMachinePaysForSends(_ name: String) throws {
        let source = try #require(try TestPaths.generateFixture(name).source)
        let sends = name == "Reminder"
        for piece in ["var pendingSends:", "case _send(Swift.Int)", ".timers(", "static func sends(in state: State)", "if case ._send(let _number) = event"] {
            #expect(source.contains(piece) == sends, "\(name): \(piece)")
        }
    }
}
