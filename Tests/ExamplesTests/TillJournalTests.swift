// Till.machine.yml persists (`persist: true`): the durable demo's machine. Its journal coding
// reads back every state and event along random walks (Docs/Durability.md D27).
import StateLoop
import StateLoopExamples
import StateLoopTestSupport
import Testing

@Suite struct TillJournalTests {
    @Test("D27: every state and event of Till along random walks reads back equal and writes the same bytes", arguments: [1, 2] as [UInt64])
    func d27TillRoundTrips(seed: UInt64) throws {
        let events: [Till.Event] = [
            .credit(n: 1, amount: 250), .credit(n: 2, amount: -3), .debit(n: 3, amount: 1_000_000), .close(n: 4), .close(n: 1 << 40),
        ]
        let states = try JournalRoundTrip.walk(Till.self, from: .initial, events: events, seed: seed)
        #expect(states.contains { $0.isIn(.overdue) })
        #expect(states.contains { !$0.runs.isEmpty && $0.isIn(.closing) })
    }
}
