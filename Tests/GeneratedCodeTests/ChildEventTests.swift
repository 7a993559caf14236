import StateLoop
import StateLoopTestSupport
import StateLoopTesting
import Testing

/// The generated Editor and Transfer machines (Tests/StateLoopCodegenTests/Fixtures): a child
/// that sends its own events to its parent, and a parent that maps the ones it listens to
/// (Docs/Effects.md E70–E76), through `reduce`, on the runtime and in the harness.
@Suite(.timeLimit(.minutes(1)))
struct ChildEventTests {
    static let input = Transfer.Input(chunks: 2)

    @Test("E70: a send to the parent fills toParent in action order; the next reduce replaces it")
    func sendToParentFillsToParent() {
        var state = Transfer.State.initial(Self.input)
        #expect(state.toParent == [.progress(percent: 0, note: "start")])  // the start's entry: actions
        Transfer.reduce(&state, .chunkSent)
        #expect(state.toParent == [.heartbeat, .progress(percent: 50, note: "chunk")])
        Transfer.reduce(&state, .progress(percent: 1, note: "x"))  // ignored: nothing sent
        #expect(state.toParent == [])
        Transfer.reduce(&state, .chunkSent)
        #expect(state.toParent == [.progress(percent: 100, note: "last")])
        #expect(state.isDone)
    }

    @Test("E71, E74: the events the parent maps reach it as its own, in order, before the child's outcome; the others are dropped")
    func childEventsReachTheParentMapped() async throws {
        let heard = StateRecorder<Editor.Event>()
        let (run, states) = Editor.system().observingEvents { event, _ in heard.record(event) }.start()
        run.send(.upload(chunks: 2))
        run.send(.chunk)
        run.send(.chunk)
        let done = try #require(await firstState(in: states) { $0.log.last == "uploaded" })
        #expect(done.isIn(.idle))
        #expect(done.log == ["0%", "50%", "100%", "uploaded"])
        #expect(heard.states == [
            .upload(chunks: 2), .uploadProgressed(percent: 0),
            .chunk, .uploadProgressed(percent: 50),
            .chunk, .uploadProgressed(percent: 100), .uploaded,
        ])

        // The step that ends the child by `abort` sends `stalled` before the child's outcome.
        run.send(.upload(chunks: 3))
        run.send(.cancel)
        let cancelled = try #require(await firstState(in: states) { $0.log.last == "cancelled" })
        #expect(cancelled.log.suffix(3) == ["0%", "stalled", "cancelled"])
        run.stop()
    }

    @Test("E76: the harness plays the child: its events keep the run pending, its outcome ends it")
    func harnessReceivesAChildsEventsAndKeepsItRunning() {
        let test = MachineTest(Editor.self, state: .initial)
        test.send(.upload(chunks: 2)) {
            $0.mode = .uploading
            $0.chunks = 2
        }
        #expect(test.pendingRuns == [.transfer(Self.input)])
        test.answer(.transfer(Self.input), with: .uploadProgressed(percent: 50))
        #expect(test.pendingRuns == [.transfer(Self.input)])
        test.receive(.uploadProgressed(percent: 50)) {
            $0.percent = 50
            $0.log = ["50%"]
        }
        test.answer(.transfer(Self.input), with: .uploaded)
        #expect(test.pendingRuns == [])
        test.receive(.uploaded) {
            $0.mode = .idle
            $0.log = ["50%", "uploaded"]
        }
        test.finish()
    }
}
