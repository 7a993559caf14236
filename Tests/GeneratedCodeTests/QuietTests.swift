import StateLoop
import Testing

/// A machine without events (issue 30, 5.6): `Event` has no case. Its golden is compiled in this
/// target, whose warnings are errors (Package.swift), so that it builds at all is half the test.
@Suite("A machine without events")
struct QuietTests {
    @Test("S93: a machine whose Event has no case compiles warning-free, and runs from initial to its end: entry, always:, a parallel state's onDone:, an output")
    func s93AMachineWithoutEventsRunsToItsEnd() async throws {
        let initial = Quiet.State.initial
        #expect(initial.mode == .finished)
        #expect(initial.steps == 3)
        #expect(initial.isDone)
        #expect(initial.output == .finished(steps: 3))

        let effects = Quiet.RecordingEffects()
        let (run, states) = Quiet.system(effects: effects).start()
        let last = await firstState(in: states) { $0.isDone }
        #expect(last?.output == .finished(steps: 3))
        run.stop()
    }
}
