@testable import StateLoopSpec
import Testing

// `send:` and `cancel:` at build time (Docs/Statecharts.md S126, S128, S131, S132): the event and
// its payload as a raise's, the delay, the id a cancel names, each error at its YAML line.

@Suite struct SendCheckTests {
    func errors(_ yaml: String) -> [String] {
        printedDiagnostics(yaml).filter { $0.contains(": error: ") || $0.contains(": warning: ") }
    }

    static let yaml = """
        machine: M
        context: {n: {type: Int, default: "0"}}
        delays: {backoff: ".seconds(n)"}
        events: {found: {n: Int}, done: {from: effects}, go: {}, tagged: {id: Int}}
        initial: a
        states:
          a:
            entry:
              - send: {event: fond, delay: 5s}
              - send: {event: found, delay: backof, m: "1"}
              - send: {event: go, delay: 5s, id: retry}
              - send: {event: tagged, id: t}
              - cancel: rety
            on: {go: a, found: a, done: a, tagged: a}
        effects:
          work: {in: [a], request: {type: Int, value: n}, emits: [done]}
        """

    @Test("S131: a send names a declared event anyone may send, with exactly its payload, and a duration or a delay; errors at the YAML line")
    func s131SendIsCheckedAtItsYAMLLine() {
        #expect(errors(Self.yaml) == [
            "test.machine.yml:9:23: error: 'send:' names 'fond', which is not an event (fix: did you mean 'found'?)",
            "test.machine.yml:10:9: error: 'send: found' does not give 'n' of its payload (fix: write 'send: {event: found, n: expression}')",
            "test.machine.yml:10:37: error: 'send: found' waits for 'backof', which is neither a duration nor a delay (fix: did you mean 'backoff'?)",
            "test.machine.yml:10:45: error: 'send: found' gives 'm', which is not a payload field of 'found' (fix: give only 'n')",
            "test.machine.yml:12:23: error: 'send: tagged' cannot give payload field 'id': 'id:' is a key of 'send:' itself (fix: rename the field of 'tagged')\ntest.machine.yml:4:67: note: 'id' is declared here",
            "test.machine.yml:13:17: error: 'cancel: rety' names no send: no 'send:' has 'id: rety' (fix: did you mean 'retry'?)",
        ])
        // `Event.Send` holds the pending sends: an event named so would collide with it.
        let named = "machine: M\nevents: {Send: {}}\ninitial: a\nstates:\n  a:\n    entry: [{send: Send}]\n    on: {Send: a}\n"
        #expect(errors(named) == [
            "test.machine.yml:6:13: error: the pending sends generate the Swift name 'Send', which event 'Send' already uses (fix: rename one of them)\ntest.machine.yml:2:10: note: event 'Send' is declared here",
        ])
    }

    @Test("S132: send and cancel each make an action of their own; a send names its event")
    func s132SendAndCancelStandAlone() {
        let yaml = """
            machine: M
            context: {n: {type: Int, default: "0"}}
            events: {go: {}}
            initial: a
            states:
              a:
                entry:
                  - {send: go, set: {n: "1"}}
                  - {send: go, cancel: x}
                  - send: {delay: 5s}
                  - cancel: {id: x}
                  - send: {event: go, delay: 5 s}
                on: {go: a}
            """
        #expect(errors(yaml) == [
            "test.machine.yml:8:20: error: a 'send:' action does nothing else; 'set:' belongs to an action of its own (fix: write them as two actions: [{send: ...}, {set: ...}])",
            "test.machine.yml:9:20: error: a 'send:' action does nothing else; 'cancel:' belongs to an action of its own (fix: write them as two actions: [{send: ...}, {cancel: ...}])",
            "test.machine.yml:10:15: error: 'send:' names no 'event:' (fix: write 'send: event', or 'send: {event: name, delay: 5s, id: name, field: expression}')",
            "test.machine.yml:11:17: error: expected the id of a send, found a mapping (fix: write 'cancel: id', the 'id:' of a 'send:')",
            "test.machine.yml:12:34: error: 'delay: 5 s' is not a duration (fix: write a number followed by ms, s, m or h, such as 250ms, 5s, 1.5s or 2m, or the name of one of 'delays:')",
        ])
    }
}

@Suite struct SendPathTests {
    @Test("S150: paths deliver the pending sends, not one before an earlier send due no later, nor a cancelled one")
    func s150PathsDeliverPendingSends() throws {
        let spec = try loadedSpec("""
            machine: M
            events: {go: {}, e1: {}, e2: {}, stop: {}}
            initial: a
            states:
              a:
                on:
                  go: {target: b, do: [{send: {event: e1, delay: 1s}}, {send: {event: e2, delay: 2s}}, {send: {event: stop, delay: 1s, id: s}}, {cancel: s}]}
                ignore: [e1, e2, stop]
              b:
                on: {e1: c, e2: d, stop: f}
                ignore: [go]
              c:
                on: {e2: e}
                ignore: [go, e1, stop]
              d: {ignore: [go, e1, e2, stop]}
              e: {ignore: [go, e1, e2, stop]}
              f: {ignore: [go, e1, e2, stop]}
            """)
        let paths = MachinePaths(spec)
        func path(to state: String) throws -> [String] {
            try #require(paths.states.first { $0.name == state }?.steps).map(paths.text(of:))
        }
        #expect(try path(to: "c") == ["go", "e1 (sent after 1s)"])
        // e2 is due after e1, sent before it: sent from outside, or delivered after e1.
        #expect(try path(to: "d") == ["go", "e2"])
        #expect(try path(to: "e") == ["go", "e1 (sent after 1s)", "e2 (sent after 2s)"])
        // stop was cancelled: only a test sends it.
        #expect(try path(to: "f") == ["go", "stop"])
        let toE = try #require(paths.states.first { $0.name == "e" }?.steps)
        #expect(toE.map(\.sentAfter) == [nil, "1s", "2s"])
        #expect(toE.map(\.isRaised) == [false, false, false])
        #expect(paths.isComplete)
    }
}
