import Foundation
import Testing
@testable import StateLoopInspectorServer

/// The messages of a recorded TrafficLight run (Fixtures/TrafficLight.jsonl), as an app sends them.
func trafficLightRun() throws -> [String] {
    let text = try String(contentsOf: packageRoot.appending(path: "Tests/StateLoopInspectorServerTests/Fixtures/TrafficLight.jsonl"), encoding: .utf8)
    return text.split(separator: "\n").map(String.init)
}

/// The exported test that `ExamplesTests` compiles and runs: the lines between its markers.
func exportedTrafficLightTest() throws -> String {
    let file = try String(contentsOf: packageRoot.appending(path: "Tests/ExamplesTests/InspectorExportTests.swift"), encoding: .utf8)
    let lines = file.split(separator: "\n", omittingEmptySubsequences: false)
    let start = try #require(lines.firstIndex { $0.hasSuffix("// BEGIN EXPORT") }) + 1
    let end = try #require(lines.firstIndex { $0.hasSuffix("// END EXPORT") })
    return lines[start..<end].map { $0.dropFirst(4) + "\n" }.joined()
}

@Suite struct ExportTests {
    @Test("I41: the export of a recorded run is the test ExamplesTests compiles and runs")
    func i41RecordedRun() throws {
        let messages = try trafficLightRun().dropFirst().map { try InspectorMessage(text: $0) }
        let export = TestExport(machine: "TrafficLight", instance: "TrafficLight#1", messages: messages)
        #expect(try export.snippet(from: 1, to: 5) == exportedTrafficLightTest())
    }

    /// A machine with an effect: `load` runs in `loading`, answering `loaded`.
    func effectRun(redacted: Bool = false) throws -> [InspectorMessage] {
        let token = redacted ? "<redacted>" : "\"t\""
        return try messages([
            step("Feed#1", 0, event: nil, state: "Feed.State(\n  mode: .idle,\n  items: []\n)"),
            step("Feed#1", 1, event: ".refresh(token: \(token))", state: "Feed.State(\n  mode: .loading,\n  items: []\n)", time: 10),
            ["type": "run", "instance": "Feed#1", "seq": 1, "phase": "started", "effect": "load", "key": ".load"],
            step("Feed#1", 2, event: ".loaded(items: [\"a\", \"b\"])", state: "Feed.State(\n  mode: .idle,\n  items: [\n    \"a\",\n    \"b\"\n  ]\n)", time: 30),
            ["type": "run", "instance": "Feed#1", "seq": 2, "phase": "finished", "effect": "load", "key": ".load"],
            step("Feed#1", 3, event: ".refresh(token: \"u\")", state: "Feed.State(\n  mode: .loading,\n  items: [\n    \"a\",\n    \"b\"\n  ]\n)", time: 40),
            ["type": "run", "instance": "Feed#1", "seq": 3, "phase": "started", "effect": "load", "key": ".load"],
        ])
    }

    @Test("I41: an answered run is answer + receive; earlier steps unchecked; a run still going is skipped")
    func i41Answers() throws {
        let export = TestExport(machine: "Feed", instance: "Feed#1", messages: try effectRun())
        #expect(try export.snippet(from: 2, to: 3) == """
            // Feed#1, steps 2...3, exported by stateloop inspect.
            let test = MachineTest(Feed.self, state: .initial)
            test.checksState = false
            test.send(.refresh(token: "t"))
            test.checksState = true
            test.answer(.load, with: .loaded(items: ["a", "b"]))
            test.receive(.loaded(items: ["a", "b"])) {
                $0.mode = .idle
                $0.items = [
                  "a",
                  "b"
                ]
            }
            test.send(.refresh(token: "u")) {
                $0.mode = .loading
            }
            test.skipPendingRuns()
            test.finish()

            """)
    }

    @Test("I42: redacted values, dropped steps and bad ranges are refused, saying what to export")
    func i42Refusals() throws {
        let redacted = TestExport(machine: "Feed", instance: "Feed#1", messages: try effectRun(redacted: true))
        #expect(throws: InspectorError.cannotExport("the event of step 1 is redacted (`redact: true` in the spec), so the inspector never saw it; export steps that do not show it")) {
            try redacted.snippet(from: 1, to: 2)
        }
        let gap = TestExport(machine: "Feed", instance: "Feed#1", messages: try effectRun().filter { $0.seq != 1 })
        #expect(throws: InspectorError.cannotExport("step 1 of Feed#1 is missing (the buffer dropped messages); export steps before it")) {
            try gap.snippet(from: 2, to: 3)
        }
        let late = TestExport(machine: "Feed", instance: "Feed#1", messages: try effectRun().filter { $0.seq != 0 })
        #expect(throws: InspectorError.cannotExport("the first messages of Feed#1 were dropped, so its initial state is unknown; export a machine the inspector saw from its start")) {
            try late.snippet(from: 2, to: 3)
        }
        let export = TestExport(machine: "Feed", instance: "Feed#1", messages: try effectRun())
        #expect(throws: InspectorError.cannotExport("choose steps 1 or later, the first no later than the last (asked for 0 to 2)")) { try export.snippet(from: 0, to: 2) }
        #expect(throws: InspectorError.cannotExport("Feed#1 has no step 9 (its last is 3)")) { try export.snippet(from: 1, to: 9) }
    }

    @Test("I74: a timer's step is shown as timer: state and exported as receive(timer:), as Testing.md writes it")
    func i74Timers() async throws {
        #expect(TimerEvent.arguments(of: "._timer(TrafficLight.Event.Timer(state: .red, index: 0, entry: 0))") == "timer: .red")
        #expect(TimerEvent.arguments(of: "._timer(Lamp.Event.Timer(state: .blinking, index: 2, entry: 14))") == "timer: .blinking, index: 2")
        #expect(TimerEvent.arguments(of: ".timer(state: .red)") == nil && TimerEvent.arguments(of: ".open") == nil)
        let store = InspectorStore()
        for text in try trafficLightRun() { try await store.receive(text: text) }
        let steps = try await store.messages(of: "TrafficLight#1").messages.filter { $0.type == "step" }
        #expect(steps.map { $0["timer"] } == [nil, "timer: .red", nil, "timer: .yellow", nil, nil])
        let export = try TestExport(machine: "TrafficLight", instance: "TrafficLight#1", messages: trafficLightRun().dropFirst().map { try InspectorMessage(text: $0) })
        let snippet = try export.snippet(from: 1, to: 3)
        #expect(snippet.contains("test.receive(timer: .red) {") && snippet.contains("test.receive(timer: .yellow) {") && !snippet.contains("_timer"), "\(snippet)")
    }
}
