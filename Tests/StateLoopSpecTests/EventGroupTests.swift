@testable import StateLoopSpec
import Testing

// Groups of events (Docs/Statecharts.md S100–S105): what a group's `ignore:` decides, and the
// checks of groups and of dotted event names, each with its exact diagnostic.

private let segments = """
    machine: T
    events: {syn: {}, ack: {}, fin: {}, close: {}}
    groups:
      segments: [syn, ack, fin]
    initial: listen
    on:
      syn: {target: closed}
      close: {target: closed}
    states:
      listen:
        on:
          ack: [{guard: "false", target: closed}]
        ignore: [segments]
      closed:
        ignore: [segments, close]
    """

@Suite struct EventGroupTests {
    /// The errors of `yaml` (these machines leave some events unhandled on purpose).
    private func errors(_ yaml: String) -> [String] {
        printedDiagnostics(yaml).filter { $0.contains(": error: ") }
    }

    private func chain(_ yaml: String, _ leaf: String, _ event: String) throws -> [String] {
        let result = SpecLoader.load(contents: Array(yaml.utf8), path: "test.machine.yml")
        let semantics = try #require(result.spec, "\(result.diagnostics.map(\.description))").semantics
        return semantics.chain(leaf: semantics.tree.index[leaf]!, .event(event)).map { semantics.transitions.entries[$0].description }
    }

    @Test("S100: a group's ignore ignores every event of the group, hiding the ancestors' handlers")
    func groupIgnoreIgnoresEveryEventOfTheGroup() throws {
        #expect(try chain(segments, "listen", "syn") == ["listen --segments--> (ignored)"])
        #expect(try chain(segments, "listen", "fin") == ["listen --segments--> (ignored)"])
        #expect(try chain(segments, "listen", "close") == ["(any) --close--> closed"])
        #expect(errors(segments) == [])
    }

    @Test("S101: a handler beside a group's ignore comes first; the group decides when its guards fail")
    func handlerBesideAGroupIgnoreComesFirst() throws {
        #expect(try chain(segments, "listen", "ack") == ["listen --ack [false]--> closed", "listen --segments--> (ignored)"])
        let yaml = segments.replacingOccurrences(of: "[{guard: \"false\", target: closed}]", with: "{target: closed}")
        #expect(try chain(yaml, "listen", "ack") == ["listen --ack--> closed"])
        #expect(errors(yaml) == [])
    }

    @Test("S102: a group's events are declared and listed once, and a group has events and a name no event has")
    func groupNamesAreChecked() {
        let yaml = """
            machine: T
            events: {syn: {}, ack: {}}
            groups:
              segments: [syn, akc, syn]
              ack: [syn]
              none: []
            initial: a
            states:
              a:
                on: {ack: a}
                ignore: [segmets]
            """
        #expect(errors(yaml) == [
            "test.machine.yml:4:19: error: group 'segments' lists 'akc', which is not an event (fix: did you mean 'ack'?)",
            "test.machine.yml:4:24: error: event 'syn' is listed twice in group 'segments' (fix: remove one of them)\n"
                + "test.machine.yml:4:14: note: 'syn' is first listed here",
            "test.machine.yml:5:3: error: group 'ack' has the name of an event, so 'ignore: [ack]' could mean either (fix: rename the group, e.g. 'ackEvents')",
            "test.machine.yml:6:3: error: group 'none' has no events (fix: list its events, 'none: [event, ...]', or remove it)",
            "test.machine.yml:9:3: error: state 'a' does not handle event 'syn' (fix: add `ignore: [syn]` to state 'a' or handle it under `on:`)",
            "test.machine.yml:11:14: error: state 'a' ignores 'segmets', which is not an event or a group (fix: did you mean 'segments'?)",
        ])
    }

    @Test("S103: a dotted event name is refused at the name, with a camel-case name and groups as the fix")
    func dottedEventNamesAreRefusedWithAFix() {
        let yaml = """
            machine: T
            events:
              turn.on: {}
            initial: a
            states:
              a:
                ignore: [turn.on]
            """
        #expect(errors(yaml) == [
            "test.machine.yml:3:3: error: 'turn.on' is not a valid event name: an event becomes a case of 'Event', and a case name has no '.' (fix: rename it, e.g. 'turnOn'; to ignore such events together, list them in a group under 'groups:' and name the group in 'ignore:')",
        ])
    }

    @Test("S104: an event in no group is still unanswered in every leaf that ignores only groups")
    func anEventOutsideEveryGroupIsStillUnanswered() {
        let yaml = segments.replacingOccurrences(of: "close: {}}", with: "close: {}, rst: {}}")
        #expect(errors(yaml) == [
            "test.machine.yml:10:3: error: state 'listen' does not handle event 'rst' (fix: add `ignore: [rst]` to state 'listen' or handle it under `on:`)",
            "test.machine.yml:14:3: error: state 'closed' does not handle event 'rst' (fix: add `ignore: [rst]` to state 'closed' or handle it under `on:`)",
        ])
    }

    @Test("S105: a group's ignore is one branch, which paths reach through any of its events")
    func aGroupIgnoreIsOneBranch() throws {
        let spec = try loadedSpec(segments)
        let groupEntries = MachineSemantics(spec: spec).transitions.entries.filter { $0.description.contains("--segments-->") }
        #expect(groupEntries.map(\.description) == ["listen --segments--> (ignored)", "closed --segments--> (ignored)"])
        let paths = MachinePaths(spec)
        let found = paths.transitions.filter { $0.entry.description.contains("--segments-->") }.map { ($0.entry.description, $0.steps.map { $0.map(paths.text(of:)) }) }
        #expect(found.map(\.0) == ["listen --segments--> (ignored)", "closed --segments--> (ignored)"])
        // `closed` is reached first by assuming the guard of `ack` holds.
        #expect(found.map(\.1) == [["syn"], ["ack [false]", "syn"]])
    }
}
