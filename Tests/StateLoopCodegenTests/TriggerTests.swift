import Foundation
import StateLoopCodegen
import Testing

// The triggering event (Docs/Statecharts.md S111–S113): a phone whose entry, exit and `always:`
// read `trigger`, generated, compiled and run once; each test reads its part of the printout.

@Suite(.enabled(if: Swiftc.isAvailable, "needs swiftc and the StateLoop module in .build/debug/Modules"))
struct TriggerTests {
    static let yaml = """
        machine: Phone
        context:
          log: {type: String, default: '""'}
          ticks: {type: Int, default: "0"}
        events: {call: {who: String}, hangUp: {}, tick: {}}
        initial: idle
        states:
          idle:
            entry: [{if: "trigger == nil", then: [{set: {log: log + "start;"}}], else: [{set: {log: log + "idle;"}}]}]
            on:
              call: ringing
            ignore: [hangUp, tick]
          ringing:
            entry:
              - set:
                  log: 'log + { if case .call(let who)? = trigger { "ring " + who + ";" } else { "?;" } }()'
            exit: [{if: "trigger == .hangUp", then: [{set: {log: log + "hung up;"}}]}]
            always: [{guard: "trigger == .tick && ticks > 1", target: idle}]
            on:
              hangUp: idle
              tick: {set: {ticks: ticks + 1}}
            ignore: [call]

        """

    /// The printout of a run: the log and whether `trigger` is `nil` after each step, and whether
    /// an ignored event left the state equal.
    static let printed: Result<[String], any Error> = Result {
        let generated = GeneratorPipeline().generate(contents: Array(yaml.utf8), path: "Phone.machine.yml")
        guard let source = generated.source else { throw SwiftcError(message: "\(generated.diagnostics)") }
        let main = """
            var state = Phone.State.initial
            print(state.log, state.trigger == nil)
            for event: Phone.Event in [.call(who: "ann"), .tick, .tick, .call(who: "bob"), .hangUp] {
                Phone.reduce(&state, event)
                print(state.mode, state.log, state.trigger == nil)
            }
            var ignored = state
            Phone.reduce(&ignored, .tick)
            print("ignored tick changes nothing:", ignored == state)
            """
        let run = try Swiftc.run(["Phone.machine.swift": source, "main.swift": main])
        guard run.status == 0 else { throw SwiftcError(message: run.output) }
        return run.output.split(separator: "\n").map(String.init)
    }

    struct SwiftcError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    @Test("S111: trigger is the step's event in entry:, exit: and always:, and nil while the initial state is entered")
    func triggerIsTheEventOfTheRunningStep() throws {
        let lines = try Self.printed.get()
        #expect(lines.prefix(6) == [
            "start; true",
            "ringing start;ring ann; true",
            "ringing start;ring ann; true",                  // one tick: the always: guard needs two
            "idle start;ring ann;idle; true",                // the second: always: reads .tick, idle's entry too
            "ringing start;ring ann;idle;ring bob; true",
            "idle start;ring ann;idle;ring bob;hung up;idle; true",  // exit: reads .hangUp
        ])
    }

    @Test("S112: trigger is nil between steps, and an ignored event leaves the state equal")
    func triggerIsNilAtRestAndOnlyWhereRead() throws {
        let lines = try Self.printed.get()
        #expect(lines.allSatisfy { !$0.hasSuffix(" false") })
        #expect(lines.last == "ignored tick changes nothing: true")
        let plain = GeneratorPipeline().generate(contents: Array(Self.yaml.replacingOccurrences(of: "trigger", with: "nil").utf8), path: "Phone.machine.yml")
        #expect(plain.source.map { !$0.contains("trigger") } == true, "\(plain.diagnostics)")
    }

    @Test("S113: an entry: reads the payload of the event that caused the entry, as OnEntryFrom does")
    func entryActsOnTheEventThatCausedIt() throws {
        let lines = try Self.printed.get()
        #expect(lines[1].hasSuffix("ring ann; true") && lines[4].hasSuffix("ring bob; true"))
    }
}
