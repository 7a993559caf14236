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

// Issue 23: `reduce` reads the old state from `_old`, which leaves out the raised queue and the
// pending sends, so a step that neither raises nor sends copies no array
// (Benchmarks/README.md, `reduce.flat_sends_over_flat.ratio`).
@Suite struct OldStateCopyTests {
    static func source(guard condition: String) throws -> String {
        let yaml = """
            machine: Pinger
            context:
              count: {type: Int, default: "0"}
            events:
              next: {}
              ping: {}
            initial: a
            states:
              a:
                on:
                  next: {target: a, guard: "\(condition)", set: {count: count + 1}, do: [{send: {event: ping, delay: 1s, id: p}}, {raise: ping}]}
                  ping: {set: {count: "0"}}
            """
        let output = GeneratorPipeline().generate(contents: Array(yaml.utf8), path: "Pinger.machine.yml")
        #expect(output.diagnostics.isEmpty, "\(output.diagnostics)")
        return try #require(output.source)
    }

    @Test("A step of a machine that raises and sends reads the old state without `_raised` nor `pendingSends`")
    func theOldStateLeavesTheQueuesOut() throws {
        let source = try Self.source(guard: "count < 3")
        #expect(source.contains("let old = state._old"))
        #expect(source.contains("_old._sends = _sends"))
        #expect(!source.contains("_old.pendingSends"))
        #expect(!source.contains("_old._raised"))
    }

    @Test("A spec whose expression names `pendingSends` reads them in the old state")
    func anExpressionNamingThePendingSendsKeepsThem() throws {
        let source = try Self.source(guard: "pendingSends.isEmpty")
        #expect(source.contains("_old.pendingSends = pendingSends"))
        #expect(!source.contains("_old._raised"))
    }
}
