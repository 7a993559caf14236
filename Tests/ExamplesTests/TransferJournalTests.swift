// Transfer.machine.yml persists (`persist: true`): the durable example. Its journal coding reads
// back every state and event along random walks (Docs/Durability.md D27).
import StateLoop
import StateLoopExamples
import StateLoopTestSupport
import Testing

@Suite struct TransferJournalTests {
    @Test("D27: every state and event of Transfer along random walks reads back equal and writes the same bytes", arguments: [1, 2] as [UInt64])
    func d27TransferRoundTrips(seed: UInt64) throws {
        // No `uploaded`: it would finish the machine within a few steps; it gives up after 3 failures.
        let events: [Transfer.Event] = [
            .start, .cancel, .progress(sent: 1), .progress(sent: 1 << 40), .failed(error: "connection lost"), .failed(error: ""),
        ]
        let initial = Transfer.State.initial(.init(file: "photo.heic"))
        let states = try JournalRoundTrip.walk(Transfer.self, from: initial, events: events, seed: seed)
        #expect(states.contains { state in
            state.attempt == 2 && state.timerDelay(.waiting) == .seconds(4) && state.runs.contains { if case .announceRetry = $0 { true } else { false } }
        })
        #expect(states.contains { $0.isDone && $0.output != nil })
        #expect(Transfer.journalVersion == 1)
    }
}
