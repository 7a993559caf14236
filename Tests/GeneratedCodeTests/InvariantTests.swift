import Foundation
import StateLoop
@_spi(Internals) import StateLoopTesting
import StateLoopInspector
import StateLoopTestSupport
import Testing

/// The generated side of `invariants:` (Docs/Testing.md V4, V5, V7; Docs/Inspector.md I78) on
/// the Quota fixture, whose planted bugs break both of its invariants: `use` has no guard, so a
/// third use breaks `withinQuota`, and `close` none, so closing early breaks `closedWhenUsedUp`.
@Suite(.timeLimit(.minutes(1)))
struct InvariantTests {
    static let withinQuota = InvariantInfo(name: "withinQuota", expression: "used <= limit", state: nil, file: "Quota.machine.yml", line: 9, column: 3)
    static let closedWhenUsedUp = InvariantInfo(
        name: "closedWhenUsedUp", expression: "isIn(.closed) && used == limit", state: "closed", file: "Quota.machine.yml", line: 18, column: 18)

    @Test("V4: the generated machine lists its invariants and breaks the machine's own always, a state's only while it is active")
    func v4GeneratedInvariants() {
        #expect(Quota.invariants == [Self.withinQuota, Self.closedWhenUsedUp])
        #expect(Quota.brokenInvariants(.initial).isEmpty)
        #expect(Quota.brokenInvariants(.init(mode: .open, used: 1, limit: 2)).isEmpty)   // closedWhenUsedUp is closed's
        #expect(Quota.brokenInvariants(.init(mode: .open, used: 3, limit: 2)) == [Self.withinQuota])
        #expect(Quota.brokenInvariants(.init(mode: .closed, used: 1, limit: 2)) == [Self.closedWhenUsedUp])
        #expect(Quota.brokenInvariants(.init(mode: .closed, used: 3, limit: 2)) == [Self.withinQuota, Self.closedWhenUsedUp])
        // A machine without invariants keeps the protocol's defaults.
        #expect(Counter.invariants.isEmpty)
        #expect(Counter.brokenInvariants(.init(mode: .counting, count: -1)).isEmpty)
    }

    @Test("V5: the planted bug fails the step that breaks the invariant, at its line, as Docs/Testing.md prints it")
    func v5ThePlantedBugFailsItsStep() throws {
        var lines: [UInt] = []
        let recorded = withRecordedFailures {
            let test = MachineTest(Quota.self, state: .initial, coverage: TransitionCoverage())
            test.send(.use) { $0.used = 1 }
            test.send(.use) { $0.used = 2 }
            lines.append(#line + 1)
            test.send(.use) { $0.used = 3 }
            test.send(.close) { $0.mode = .closed }                          // used up, but past the limit
            test.send(.reopen) {
                $0.mode = .open
                $0.used = 0
            }
            lines.append(#line + 1)
            test.send(.close) { $0.mode = .closed }                          // closed early
            test.finish()
        }
        #expect(recorded.map(\.line) == [lines[0], lines[0] + 1, lines[0] + 1, lines[1]])
        let documented = """
            send(.use): invariant 'withinQuota' (Quota.machine.yml:9:3): used <= limit is broken by the state after it:

            Quota.State(
              mode: .open,
              used: 3,
              limit: 2
            )
            """
        #expect(recorded.first?.message == documented)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let testing = try String(contentsOf: root.appending(path: "Docs/Testing.md"), encoding: .utf8)
        #expect(testing.contains(documented), "Docs/Testing.md shows the message")
        #expect(recorded.last?.message.hasPrefix("send(.close): invariant 'closedWhenUsedUp' (Quota.machine.yml:18:18, in closed): isIn(.closed) && used == limit is broken") == true)
    }

    @Test("V7: a system that opts in reports the state it starts in and each step that breaks an invariant, with its event")
    func v7ARunningSystemChecksWhenItOptsIn() {
        let reports = Box<[BrokenInvariants<Quota.State, Quota.Event>]>([])
        let system = Quota.system(initial: .init(mode: .closed, used: 0, limit: 2))
            .checkingInvariants(Quota.self) { broken in reports.update { $0.append(broken) } }
        let run = system.start { _ in }
        for event: Quota.Event in [.reopen, .use, .use, .use, .close] { run.send(event) }
        run.stop()
        #expect(reports.value.map { $0.event.map { "\($0)" } ?? "start" } == ["start", "use", "close"])
        #expect(reports.value.map { $0.invariants.map(\.name) } == [["closedWhenUsedUp"], ["withinQuota"], ["withinQuota", "closedWhenUsedUp"]])
        #expect(reports.value.map(\.state.used) == [0, 3, 3])
        // Not opted in: the same steps, nothing checked.
        let plain = Quota.system().observingEvents { _, _ in }
        let quiet = plain.start { _ in }
        for _ in 0..<3 { quiet.send(.use) }
        quiet.stop()
        #expect(reports.value.count == 3)
    }

    @Test("I78: an inspected instance sends an invariant message after each step whose state breaks one")
    func i78InvariantMessages() async throws {
        let server = try InspectorServer()
        defer { server.close() }
        let run = Quota.system().inspected(Quota.self, by: Inspector(url: server.url)).start { _ in }
        for event: Quota.Event in [.use, .use, .use, .close] { run.send(event) }
        run.stop()
        let messages = await server.messages { messages in
            messages.contains { $0["type"] as? String == "bye" && ($0["instance"] as? String ?? "").hasPrefix("Quota#") }
        }
        let instance = try #require(messages.first { $0["type"] as? String == "hello" && $0["machine"] as? String == "Quota" }?["instance"] as? String)
        let invariants = InspectorTests.of(messages, type: "invariant", instance: instance)
        #expect(invariants.map { "\($0["seq"] as? Int ?? -1) \($0["name"] as? String ?? "")" } == ["3 withinQuota", "4 withinQuota", "4 closedWhenUsedUp"])
        #expect(invariants.first?["expression"] as? String == "used <= limit")
        #expect(invariants.first?["state"] is NSNull)
        #expect(invariants.last?["state"] as? String == "closed")
        #expect(invariants.last.map { [$0["line"] as? Int, $0["column"] as? Int] } == [18, 18])
        // Each comes right after its step's message.
        let order = messages.filter { ($0["instance"] as? String) == instance }.compactMap { $0["type"] as? String }.filter { $0 == "step" || $0 == "invariant" }
        #expect(order == ["step", "step", "step", "step", "invariant", "step", "invariant", "invariant"])
    }
}
