import Testing
@testable import StateLoopSpec

/// The checks of a child's events to its parent (Docs/Effects.md E70–E77): the child's
/// `send: {to: parent}` actions and the parent's `events:`, each with the exact printed
/// diagnostic at its line and column.
@Suite struct ChildEventCheckTests {
    /// A child that sends `progress` to its parent and declares `idle`, which it never sends.
    static let upload = """
        machine: Upload
        events:
          chunk: {}
          progress: {percent: Int}
          idle: {}
        ignore: [progress, idle]
        initial: sending
        states:
          sending:
            on: {chunk: {do: [{send: {event: progress, to: parent, percent: "1"}}]}}
        """

    /// A parent running `Upload` in `uploading`, whose effect ends with `child` (from line 13).
    private func editor(_ child: String = "    events: {progress: progressed}\n", events: String = "  progressed: {from: effects, percent: Int}\n", persist: String = "") -> String {
        """
        machine: Editor
        \(persist)events:
          start: {}
        \(events)initial: idle
        states:
          idle: {on: {start: uploading}}
          uploading:
            on: {progressed: idle}
            ignore: [start]
        effects:
          transfer:
            in: [uploading]
            machine: Upload

        """ + child
    }

    private func checked(_ yaml: String, library: [String] = [Self.upload]) -> [String] {
        printedDiagnostics(yaml, library: library)
    }

    @Test("E70: a send to the parent takes 'to: parent' only, no delay nor id, and its event's payload")
    func sendToParentIsChecked() {
        let machine = "machine: C\nevents: {go: {}, told: {n: Int}}\nignore: [told]\ninitial: a\nstates:\n  a: {on: {go: {do: [%@]}}}\n"
        func actions(_ action: String) -> [String] {
            checked(machine.replacingOccurrences(of: "%@", with: action), library: [])
        }
        #expect(actions("{send: {event: told, to: parent, n: \"1\"}}") == [])
        #expect(actions("{send: {event: told, to: child, n: \"1\"}}") == [
            "test.machine.yml:6:47: error: 'to:' of a 'send:' takes only 'parent', found 'child' (fix: write 'to: parent' to send the event to the machine that runs this one, or leave 'to:' out to send it to this machine)",
        ])
        #expect(actions("{send: {event: told, to: parent, delay: 1s, n: \"1\"}}") == [
            "test.machine.yml:6:55: error: a 'send:' to the parent takes no 'delay:' (fix: remove 'delay:': the event goes to the parent at once, and the parent may delay it with a 'send:' of its own)",
        ])
        #expect(actions("{send: {event: told, to: parent}}") == [
            "test.machine.yml:6:22: error: 'send: told' does not give 'n' of its payload (fix: write 'send: {event: told, n: expression}')",
        ])
        #expect(actions("{send: {event: tld, to: parent}}") == [
            "test.machine.yml:2:18: warning: no state handles event 'told', so it never changes anything (fix: handle it under 'on:' in some state, or remove the event)",
            "test.machine.yml:6:37: error: 'send:' names 'tld', which is not an event (fix: did you mean 'told'?)",
        ])
    }

    @Test("E70: an event the machine only sends to its parent is not reported as handled nowhere; one it never sends is")
    func sentEventIsNotUnused() {
        #expect(checked(Self.upload, library: []) == [
            "test.machine.yml:5:3: warning: no state handles event 'idle', so it never changes anything (fix: handle it under 'on:' in some state, or remove the event)",
        ])
    }

    @Test("E72: events: maps declared events, sent by the child, whose fields the parent event has")
    func childEventMappingsAreChecked() {
        #expect(checked(editor()) == [])
        // The list form keeps the child's name, which the parent must declare.
        #expect(checked(editor("    events: [progress]\n")) == [
            "test.machine.yml:4:3: error: event 'progressed' is 'from: effects' but no effect emits it, so nothing can send it (fix: add 'progressed' to the 'emits:' of an effect, or remove 'from: effects')",
            "test.machine.yml:15:14: error: 'events:' of effect 'transfer' maps 'progress' to 'progress', which is not an event (fix: did you mean 'progressed'?)",
        ])
        #expect(checked(editor("    events: [progress]\n", events: "  progress: {from: effects, percent: Int}\n").replacingOccurrences(of: "progressed", with: "progress")) == [])
        #expect(checked(editor("    events: {progres: progressed}\n")) == [
            "test.machine.yml:15:14: error: machine 'Upload' has no event 'progres' (fix: did you mean 'progress'?)",
        ])
        #expect(checked(editor("    events: {progress: progresed}\n")) == [
            "test.machine.yml:4:3: error: event 'progressed' is 'from: effects' but no effect emits it, so nothing can send it (fix: add 'progressed' to the 'emits:' of an effect, or remove 'from: effects')",
            "test.machine.yml:15:24: error: 'events:' of effect 'transfer' maps 'progress' to 'progresed', which is not an event (fix: did you mean 'progressed'?)",
        ])
        #expect(checked(editor("    events: {idle: progressed}\n")) == [
            "test.machine.yml:15:14: error: machine 'Upload' never sends 'idle' to its parent, so effect 'transfer' would never get it (fix: map one of 'progress', or add an action '{send: {event: idle, to: parent}}' to the spec of 'Upload')",
        ])
        #expect(checked(editor("    events: {progress: progressed, chunk: progressed}\n")) == [
            "test.machine.yml:15:36: error: machine 'Upload' never sends 'chunk' to its parent, so effect 'transfer' would never get it (fix: map one of 'progress', or add an action '{send: {event: chunk, to: parent}}' to the spec of 'Upload')",
        ])
        #expect(checked(editor(events: "  progressed: {from: effects, percent: Int, total: Int}\n")) == [
            "test.machine.yml:15:14: error: event 'progressed' has field 'total', which event 'progress' of machine 'Upload' lacks (fix: add 'total: T' to event 'progress' of 'Upload', or remove it from 'progressed': the payload is copied by field name)",
        ])
    }

    @Test("E73: a mapped event left unanswered where the child runs fails the build at the leaf")
    func unansweredChildEventFailsTheBuild() {
        let yaml = editor().replacingOccurrences(of: "    on: {progressed: idle}\n    ignore: [start]\n", with: "    ignore: [start]\n")
        #expect(checked(yaml) == [
            "test.machine.yml:4:3: warning: no state handles event 'progressed', so it never changes anything (fix: handle it under 'on:' in some state, or remove the event)",
            "test.machine.yml:8:3: error: state 'uploading' does not handle event 'progressed' (fix: add `ignore: [progressed]` to state 'uploading' or handle it under `on:`)\ntest.machine.yml:14:14: note: 'progressed' is a result of effect 'transfer', which can run in state 'uploading'",
        ])
    }

    @Test("E77, D110: a parent that persists refuses events: of its child")
    func persistedParentRefusesChildEvents() {
        let upload = Self.upload.replacingOccurrences(of: "machine: Upload\n", with: "machine: Upload\npersist: true\n")
        #expect(checked(editor(persist: "persist: true\n"), library: [upload]) == [
            "test.machine.yml:16:5: error: machine 'Editor' persists, so effect 'transfer' cannot take the events its child 'Upload' sends yet: the journal has no record of them (Docs/Durability.md D110) (fix: remove 'events:', and report what the parent needs through the child's 'output:' and 'onDone:')",
        ])
    }
}
