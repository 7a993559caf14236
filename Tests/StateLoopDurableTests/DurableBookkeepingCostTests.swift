// The bookkeeping's cost per event (Docs/Durability.md D123): linear in the armed timers and
// pending sends, counted in event comparisons (which a loaded machine cannot make flaky), and
// timed at 150 and 600 pending sends in one run.

import StateLoop
@testable import StateLoopDurable
import Testing

/// A machine whose every `post` queues one more pending send, and whose events count how often
/// they are compared.
enum Postbox: TestMachine {
    typealias Run = NoRun

    /// How many times two events were compared (one test at a time uses it).
    nonisolated(unsafe) static var comparisons = 0

    struct State: Equatable, Sendable, JournalCodable {
        /// The numbers of the pending sends, in the order they were sent.
        var pending: [Int] = []

        init(pending: [Int] = []) { self.pending = pending }
        func encode(to writer: inout JournalWriter) { writer.write(pending) }
        init(from reader: inout JournalReader) throws(JournalDecodingError) { pending = try reader.read() }
    }

    enum Event: Sendable, JournalCodable, Equatable {
        case post
        case deliver(Int)

        static func == (a: Event, b: Event) -> Bool {
            Postbox.comparisons += 1
            switch (a, b) {
            case (.post, .post): return true
            case let (.deliver(x), .deliver(y)): return x == y
            default: return false
            }
        }

        func encode(to writer: inout JournalWriter) {
            switch self {
            case .post: writer.writeVarint(0)
            case .deliver(let number): writer.writeVarint(1); writer.write(number)
            }
        }
        init(from reader: inout JournalReader) throws(JournalDecodingError) {
            self = try reader.readCase(below: 2) == 0 ? .post : .deliver(try reader.read())
        }
    }

    static func reduce(_ state: inout State, _ event: Event) {
        if case .post = event { state.pending.append((state.pending.last ?? -1) + 1) }
    }

    static func sends(in state: State) -> [ArmedSend<Event>] {
        state.pending.map { ArmedSend(number: $0, id: nil, delay: .seconds(60), event: .post, delivery: .deliver($0)) }
    }
}

@Suite(.serialized) struct DurableBookkeepingCostTests {
    /// Steps the bookkeeping of a Postbox with `pending` sends through `events` posts; returns the
    /// event comparisons per step and the time per step.
    static func cost(pending: Int, events: Int) -> (comparisons: Int, time: Duration) {
        var state = Postbox.State(pending: Array(0..<pending))
        var book = DurableBookkeeping<Postbox>(starting: state, at: 0)
        Postbox.comparisons = 0
        let clock = ContinuousClock()
        let start = clock.now
        for sequence in 1...Int64(events) {
            Postbox.reduce(&state, .post)
            book.step(.post, origin: .local(run: nil), to: state, at: sequence, sequence: sequence)
        }
        let time = (clock.now - start) / events
        #expect(book.timers.count == pending + events)
        #expect(book.timers.first?.armedAt == 0 && book.timers.last?.armedAt == Int64(events), "a kept send keeps its arming")
        return (Postbox.comparisons / events, time)
    }

    @Test("D123: a durable step's bookkeeping costs time linear in the machine's pending sends, not quadratic")
    func d123BookkeepingIsLinearInPendingSends() {
        let small = Self.cost(pending: 150, events: 50)
        let large = Self.cost(pending: 600, events: 50)
        print("D123: per event, 150 pending sends \(small.time), \(small.comparisons) comparisons; 600: \(large.time), \(large.comparisons) comparisons; time ratio \(Double(large.time / .nanoseconds(1)) / Double(small.time / .nanoseconds(1)))")
        // Each step compares the posted event with every timer (D40) and each kept send once.
        #expect(large.comparisons <= 4 * 650, "\(large.comparisons) comparisons per event at 600 pending sends")
        #expect(small.comparisons <= 4 * 200)
    }
}
