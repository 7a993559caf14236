import Foundation
import StateLoop
import StateLoopTestSupport
import Testing

/// The journal coding of the persisted fixtures (Ledger, and Courier, its child; Docs/Durability.md
/// D27, D29): along seeded random walks of events (and of the timers each state arms), every state
/// and event reads back equal from its bytes and writes the same bytes again.
@Suite struct JournalRoundTripTests {
    static let ledgerEvents: [Ledger.Event] = [
        .open, .close, .pause, .resume, .audit, .audited,
        .deposit(amount: Money(cents: 1_250, currency: "EUR"), note: "rent"),
        .deposit(amount: Money(cents: -7, currency: "EUR"), note: "fee ✓"),
        .tag(name: "q1"), .tag(name: "review"), .tag(name: ""),
    ]

    @Test("D27: every state and event of Ledger along random walks reads back equal and writes the same bytes", arguments: [1, 2, 3] as [UInt64])
    func d27LedgerRoundTrips(seed: UInt64) throws {
        let states = try JournalRoundTrip.walk(Ledger.self, from: .initial, events: Self.ledgerEvents, seed: seed, steps: 1_000)
        // The walk must reach what the coding has to carry, or it proves little.
        #expect(states.contains { $0.isIn(.paused) && $0._history_back != nil })
        #expect(states.contains { $0.isIn(.posting) && $0.isIn(.auditing) })
        #expect(states.contains { !$0.forwarded.isEmpty })
        #expect(states.contains { $0.runs.contains { if case .save = $0 { true } else { false } } })
        #expect(states.contains { $0.runs == [.notify] })
        #expect(states.contains { $0.tags.count > 1 && $0.counts.count > 1 && $0.source != nil })
        #expect(states.contains { $0.balance.cents != 0 && $0._delay_auditing_0 > .zero })
        #expect(states.contains { $0.ratio > 1.5 })  // an onDone: was taken
    }

    @Test("D27: every state of Courier, the persisted child, reads back equal")
    func d27CourierRoundTrips() throws {
        let states = try JournalRoundTrip.walk(Courier.self, from: .initial, events: [.ping, .finish], seed: 4, steps: 50)
        #expect(states.contains { $0.isDone })
    }

    @Test("D27: a timer event, the last case of Event, is written after the declared events")
    func d27TimerEventIsTheLastCase() throws {
        var state = Ledger.State.initial
        Ledger.reduce(&state, .open)
        Ledger.reduce(&state, .deposit(amount: Money(cents: 1, currency: "EUR"), note: "n"))
        let timer = try #require(state.armedTimer(.posting))
        var writer = JournalWriter()
        writer.write(timer)
        // 8 events, so the timer is case 8; then its state (posting: the 6th state, 5), index 0, entry.
        #expect(writer.bytes.prefix(3) == [8, 5, 0])
        try JournalRoundTrip.expect(timer)
    }

    @Test("D29: a persisted machine is a DurableMachine with its persist: version and its pending runs")
    func d29DurableMachine() {
        #expect(Ledger.journalVersion == 2)
        #expect(Courier.journalVersion == 1)
        var state = Ledger.State.initial
        #expect(Ledger.pendingRuns(in: state) == (0, []))
        Ledger.reduce(&state, .open)
        #expect(Ledger.pendingRuns(in: state).queued == 1)
        #expect(Ledger.pendingRuns(in: state).runs == [.notify])
        Ledger.reduce(&state, .deposit(amount: Money(cents: 5, currency: "EUR"), note: "a"))
        #expect(Ledger.pendingRuns(in: state).queued == 2)
        #expect(Ledger.pendingRuns(in: state).runs == [.save(1)])
        #expect(Courier.pendingRuns(in: .initial).queued == 0)
        #expect(Courier.Run.self == NoRun.self)
    }

    @Test("D45: a persisted machine drops at a restart the runs of its afterRestart: drop effects, and reruns the others")
    func d45RerunsAfterRestart() {
        #expect(Ledger.rerunsAfterRestart(.notify) == false)
        #expect(Ledger.rerunsAfterRestart(.save(1)) == true)
    }

    @Test("D25: bytes of a state cut short, with a case number out of range, or random, throw and never trap")
    func d25BadStateBytesThrow() {
        var state = Ledger.State.initial
        Ledger.reduce(&state, .open)
        var writer = JournalWriter()
        writer.write(state)
        for end in 0..<writer.bytes.count {
            var reader = JournalReader(Array(writer.bytes[..<end]))
            #expect(throws: JournalDecodingError.self) { try Ledger.State(from: &reader) }
        }
        var reader = JournalReader([9])
        #expect(throws: JournalDecodingError.invalid(offset: 0, reason: "case 9 of a type with 9 cases")) { try Ledger.Event(from: &reader) }
        // Random bytes: a value or a JournalDecodingError (typed throws), never a trap.
        var generator = SeededGenerator(seed: 25)
        var decoded = 0
        for length in 0..<3_000 {
            let bytes = (0..<(length % 61)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var stateReader = JournalReader(bytes)
            if (try? Ledger.State(from: &stateReader)) != nil { decoded += 1 }
            var eventReader = JournalReader(bytes)
            if (try? Ledger.Event(from: &eventReader)) != nil { decoded += 1 }
        }
        #expect(decoded > 0, "random bytes that happen to be valid exercise the readers past the first byte")
    }
}
