import Foundation
import StateLoopCodegen
import Testing

// Raised events (Docs/Statecharts.md S120–S122): a counter machine that raises from `do:`,
// `entry:` and a conditional, generated, compiled and run once; each test reads its part of the
// printout.

@Suite(.enabled(if: Swiftc.isAvailable, "needs swiftc and the StateLoop module in .build/debug/Modules"))
struct RaiseTests {
    static let yaml = """
        machine: Counter
        context:
          n: {type: Int, default: "0"}
          log: {type: String, default: '""'}
        events: {go: {}, found: {k: Int}, next: {}, ping: {}, tick: {}}
        initial: idle
        states:
          idle:
            entry: [{raise: tick}]
            on:
              tick: {set: {log: 'log + "tick(" + (trigger == .tick ? "t" : "?") + ");"'}}
              go:
                target: busy
                set: {n: n + 1}
                do: [{raise: {event: found, k: n * 10}}, {raise: next}, {set: {log: log + "go;"}}]
              ping: {guard: "n < 5000", set: {n: n + 1}, do: [{raise: ping}]}
            ignore: [found, next]
          busy:
            entry: [{set: {log: log + "enter busy;"}}]
            always: [{guard: "n == 1", set: {log: log + "always;", n: n + 1}}]
            on:
              found: {set: {log: 'log + "found " + String(event.k) + ";"'}}
              next: {target: idle, do: [{if: "n > 1", then: [{set: {log: log + "next;"}}]}]}
            ignore: [go, ping, tick]

        """

    /// The printout of a run.
    static let printed: Result<[String], any Error> = Result {
        let generated = GeneratorPipeline().generate(contents: Array(yaml.utf8), path: "Counter.machine.yml")
        guard let source = generated.source else { throw SwiftcError(message: "\(generated.diagnostics)") }
        let main = """
            var state = Counter.State.initial
            print(state.log, state._raised.isEmpty)
            Counter.reduce(&state, .go)
            print(state.mode, state.log, state._raised.isEmpty, state.trigger == nil)
            state.log = ""
            Counter.reduce(&state, .ping)
            print(state.n, state.isSettled, state._raised.isEmpty, state.log)
            var ignored = state
            Counter.reduce(&ignored, .found(k: 1))
            print("ignored changes nothing:", ignored == state)
            Counter.reduce(&state, .ping)
            print(state.n, state.isSettled)
            """
        let run = try Swiftc.run(["Counter.machine.swift": source, "main.swift": main])
        guard run.status == 0 else { throw SwiftcError(message: run.output) }
        return run.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The same machine persisted: its queue is a stored property of `State`, journaled with the
    /// rest (Docs/Durability.md D27), read back from a state caught with events still queued.
    static let journaled: Result<[String], any Error> = Result {
        let persisted = yaml.replacingOccurrences(of: "machine: Counter\n", with: "machine: Counter\npersist: true\n")
        let generated = GeneratorPipeline().generate(contents: Array(persisted.utf8), path: "Counter.machine.yml")
        guard let source = generated.source else { throw SwiftcError(message: "\(generated.diagnostics)") }
        let main = """
            import StateLoop
            var state = Counter.State.initial
            state._raised = [.found(k: 3), .next]
            var writer = JournalWriter()
            writer.write(state)
            var reader = JournalReader(writer.bytes)
            let read = try Counter.State(from: &reader)
            print(read == state, read._raised.count, reader.isAtEnd)
            """
        let run = try Swiftc.run(["Counter.machine.swift": source, "main.swift": main])
        guard run.status == 0 else { throw SwiftcError(message: run.output) }
        return run.output.split(separator: "\n").map(String.init)
    }

    struct SwiftcError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    @Test("S120: a raise queues its event with the payload computed when the action runs")
    func raiseQueuesTheEventWithItsPayload() throws {
        let lines = try Self.printed.get()
        // `k: n * 10` reads n after the transition's `set:` (S36): 1 * 10.
        #expect(lines[1].contains("found 10;"), "\(lines)")
    }

    @Test("S121: raised events run after the step settles, oldest first, before reduce returns; initial entries' raises too")
    func raisedEventsRunAfterTheStepSettlesInOrder() throws {
        let lines = try Self.printed.get()
        #expect(lines[0] == "tick(t); true")
        // go: busy entered and `always:` settled first; then found, then next (idle again, whose entry raises tick).
        #expect(lines[1] == "idle tick(t);go;enter busy;always;found 10;next;tick(t); true true", "\(lines)")
    }

    @Test("S122: a loop of raises through guards stops after 1,000 raised events, the queue empty and isSettled false")
    func aRaiseLoopThroughGuardsStopsAtTheBound() throws {
        let lines = try Self.printed.get()
        #expect(lines[2] == "1003 false true ", "\(lines)")  // the step's own ping, then 1,000 raised
        #expect(lines[3] == "ignored changes nothing: true")
        #expect(lines[4] == "2004 false")
        let plain = GeneratorPipeline().generate(contents: Array(TriggerTests.yaml.utf8), path: "Phone.machine.yml")
        #expect(plain.source.map { !$0.contains("_raised") && !$0.contains("_takeRaised") } == true)
        #expect(try Self.journaled.get() == ["true 2 true"])
    }
}
