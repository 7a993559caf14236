import StateLoopCodegen
import Testing

// What `send:` adds to the generated Swift (Docs/Statecharts.md S127): only where a spec sends.

@Suite struct SendGenerationTests {
    @Test("S127: only a machine that sends has pendingSends, Event._send and the timers feedback; the others are as before", arguments: GoldenTests.fixtures)
    func s127OnlyASendingMachinePaysForSends(_ name: String) throws {
        let source = try #require(try TestPaths.generateFixture(name).source)
        let sends = ["Flash", "Nudge", "Relay", "Reminder"].contains(name)
        for piece in ["var pendingSends:", "case _send(Swift.Int)", ".timers(", "static func sends(in state: State)", "guard case ._send(let _number) = event"] {
            #expect(source.contains(piece) == sends, "\(name): \(piece)")
        }
    }
}

// Issue 23: `reduce` reads the old state from `_old`, which leaves out the raised queue (empty
// between steps), so that a step retains no array of it (Benchmarks/README.md,
// `reduce.flat_sends_over_flat.ratio`). The pending sends stay (S36): a helper of the app's may
// read them where no expression of the spec names them (issue 30, 1.3).
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

    @Test("S36: a step of a machine that raises and sends reads the old state without `_raised`, with `pendingSends` whether or not an expression names them")
    func theOldStateLeavesTheRaisedQueueOut() throws {
        for condition in ["count < 3", "pendingSends.isEmpty"] {
            let source = try Self.source(guard: condition)
            #expect(source.contains("let old = _old"), "\(condition)")
            #expect(source.contains("_old._sends = _sends"), "\(condition)")
            #expect(source.contains("_old.pendingSends = pendingSends"), "\(condition)")
            #expect(!source.contains("_old._raised"), "\(condition)")
        }
    }
}
