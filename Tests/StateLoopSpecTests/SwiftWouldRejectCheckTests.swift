import Testing

/// Specs that the checks once accepted and swiftc then rejected, or refused with a fix that did
/// not work (issue 30, 5): each is now an error at its YAML line with a fix that does.
@Suite struct SwiftWouldRejectCheckTests {
    @Test("S127: a context field named pendingSends is an error at its name, in any machine")
    func aFieldNamedPendingSendsFails() {
        let yaml = """
            machine: T
            context: {pendingSends: {type: Int, default: "0"}}
            events: {go: {}}
            initial: a
            states:
              a: {on: {go: {do: [{send: go}]}}}
            """
        #expect(printedDiagnostics(yaml).filter { $0.contains(": error: ") } == [
            "test.machine.yml:2:11: error: context field 'pendingSends' would clash with the generated 'State.pendingSends', the sends not yet delivered nor cancelled (S127) (fix: rename the field, e.g. 'pendingSendsValue')",
        ])
    }

    @Test("S37: event outside an on: branch is an error at its YAML line whose fix names trigger")
    func s37EventOutsideAnOnBranchIsRefusedWithTrigger() {
        let yaml = """
            machine: T
            context: {n: {type: Int, default: "0"}}
            events: {go: {by: Int}}
            delays: {later: ".seconds(event.by)"}
            initial: a
            states:
              a:
                entry: [{set: {n: event.by}}]
                exit: [{if: "event.by > 0", then: []}]
                always: [{guard: "n > event.by", target: b}]
                after: {1s: {target: b, set: {n: "event.by"}}}
                on: {go: {target: b, set: {n: event.by}}}
              b:
                initial: {target: b1, do: [{set: {n: "event.by"}}]}
                onDone: {target: a, set: {n: "event.by"}}
                on: {go: {do: [{send: {event: go, delay: later, by: event.by}}]}}
                states:
                  b1: {on: {go: b2}}
                  b2: {type: final}
            """
        let errors = printedDiagnostics(yaml).filter { $0.contains(": error: ") }
        let places = errors.map { $0.split(separator: ":").dropFirst().prefix(2).joined(separator: ":") }
        #expect(places == ["4:18", "8:23", "9:18", "10:23", "11:39", "14:43", "15:35"], "\(errors)")
        #expect(errors.allSatisfy { $0.contains("'event' is not in scope in ") && $0.contains("(fix: read the event of the step that runs it as 'trigger' (S111)") }, "\(errors)")
        #expect(errors.first { $0.hasPrefix("test.machine.yml:8:") }?.contains("an 'entry:' action, which runs for no particular event (S37)") == true)
    }

    @Test("S37: event in an on: branch, a member named event and the word in a string are not refused")
    func s37EventInAnOnBranchAndLookalikesPass() {
        let yaml = """
            machine: T
            context: {n: {type: Int, default: "0"}, note: {type: String, default: '""'}}
            events: {go: {by: Int}}
            initial: a
            states:
              a:
                entry: [{set: {note: '"event"'}}, {set: {n: "x.event"}}]
                on: {go: {guard: "event.by > 0", set: {n: event.by}}}
            """
        #expect(printedDiagnostics(yaml).filter { $0.contains(": error: ") } == [])
    }

    @Test("S131: a payload field named after a key of send:, raise: or a send to the parent is refused with 'rename the field'")
    func s131AFieldNamedAfterAKeyOfTheActionIsRenamed() {
        for (field, action) in [("event", "{send: e}"), ("to", "{send: e}"), ("event", "{raise: e}")] {
            let yaml = """
                machine: T
                events: {e: {\(field): Int}, go: {}}
                initial: a
                states:
                  a: {on: {go: {do: [\(action)]}}, ignore: [e]}
                """
            let errors = printedDiagnostics(yaml).filter { $0.contains(": error: ") }
            #expect(errors.contains { $0.contains("cannot give payload field '\(field)': '\(field):' is a key of") && $0.contains("(fix: rename the field of 'e')") }, "\(field): \(errors)")
            #expect(!errors.contains { $0.contains("to: parent") || $0.contains("does not give") }, "\(field): \(errors)")
        }
    }
}
