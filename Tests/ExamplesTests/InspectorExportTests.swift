import StateLoopExamples
import StateLoopTesting
import Testing

/// The test `stateloop inspect` exports from a recorded TrafficLight run (Docs/Inspector.md
/// I41), as the page shows it: `StateLoopInspectorServerTests` checks that the export of
/// `Tests/StateLoopInspectorServerTests/Fixtures/TrafficLight.jsonl` is the text between the
/// markers below, and its browser test that the page shows the same text. Here it must pass.
@Test("I41: the test exported from a recorded TrafficLight run compiles and passes")
func i41ExportedTrafficLightTest() {
    // BEGIN EXPORT
    // TrafficLight#1, steps 1...5, exported by stateloop inspect.
    let test = MachineTest(TrafficLight.self, state: .initial)
    test.advance(by: .milliseconds(4000))
    test.receive(timer: .red) {
        $0.mode = .green
        $0.cycles = 1
    }
    test.send(.pedestrianWaiting) {
        $0.mode = .yellow
    }
    test.advance(by: .milliseconds(1000))
    test.receive(timer: .yellow) {
        $0.mode = .red
    }
    test.send(.powerFailed) {
        $0.mode = .flashing
    }
    test.send(.powerRestored) {
        $0.mode = .red
    }
    test.skipTimers()
    test.finish()
    // END EXPORT
}
