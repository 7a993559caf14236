// Specs/Upload.machine.yml's invariants (Docs/Testing.md, "Invariants"): the harness checks them
// after every step of a whole upload, and they are real checks: a state that breaks one says so.
// Exploration (V8) walks the upload every way its events allow and finds none broken.
import StateLoop
import StateLoopExamples
@_spi(Internals) import StateLoopTesting
import Testing

@Suite struct UploadInvariantTests {
    @Test func invariantsOfUploadHoldOnEveryStep() {
        #expect(Upload.invariants.map { "\($0.name) \($0.state ?? "-")" } == ["chunksAtMostTwo -", "finishedAfterSent -", "allChunksSent sent"])
        var states: [Upload.State] = []
        let recorded = withRecordedFailures {
            let test = MachineTest(Upload.self, state: .initial, coverage: TransitionCoverage())
            test.checksState = false
            for event: Upload.Event in [.chunk, .pause, .resume, .chunk, .chunk, .hashed] {
                test.send(event)
                states.append(test.state)
            }
            test.finish()
        }
        #expect(recorded.isEmpty, "\(recorded.map(\.message))")
        #expect(states.last?.isDone == true)
        #expect(states.allSatisfy { Upload.brokenInvariants($0).isEmpty })
        // The third chunk entered `sent`, whose own invariant holds there; with one chunk fewer it would not.
        var short = states[4]
        short.sent = 1
        #expect(Upload.brokenInvariants(short).map(\.name) == ["allChunksSent"])
        short.sent = 5
        #expect(Upload.brokenInvariants(short).map(\.name) == ["chunksAtMostTwo", "allChunksSent"])
    }

    @Test func invariantsOfUploadHoldOnEveryWalk() {
        var exploration: Exploration<Upload>?
        let events: [Upload.Event] = [.chunk, .hashed, .pause, .resume, .reset, .fail]
        let recorded = withRecordedFailures {
            exploration = MachineTest.explore(Upload.self, state: .initial, sending: events.map { .just($0) }, walks: 200, steps: 30, seed: 34)
        }
        #expect(recorded.isEmpty, "\(recorded.map(\.message))")
        #expect(exploration?.counterexamples.isEmpty == true)
        #expect(exploration.map { $0.steps > 200 } == true)
        // Every branch but the ignores is reached (a send is of an event the state answers, V9, V16).
        #expect(exploration?.report.untaken.filter { !$0.isIgnore }.map(\.description) == [])
    }
}
