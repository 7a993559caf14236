// The timer rows a host's steps write (Docs/Hosting.md H26-H28): JournalSteps, the pure half of a
// journal, says which rows each step arms and deletes; applied in order they are always the
// bookkeeping's armed timers, and a journal read back gives the same rows.

import StateLoop
@testable import StateLoopDurable
import StateLoopTestSupport
import Testing

/// Alarms armed and disarmed by id, each with its own delay (an even id's alarm stays armed, fired,
/// when it rings; an odd one's goes), and posts: pending sends, each delivered once.
enum Alarms: TestMachine {
    typealias Run = NoRun

    struct Alarm: Equatable, Sendable {
        var id: Int
        var seconds: Int64
        /// How many alarms were armed before it: a re-armed id is a new timer.
        var entry: Int
    }

    struct Post: Equatable, Sendable {
        var number: Int
        var seconds: Int64
    }

    struct State: Equatable, Sendable, JournalCodable {
        var alarms: [Alarm] = []
        var posts: [Post] = []
        var armings = 0

        init() {}
        func encode(to writer: inout JournalWriter) {
            writer.write(alarms.flatMap { [Int64($0.id), $0.seconds, Int64($0.entry)] })
            writer.write(posts.flatMap { [Int64($0.number), $0.seconds] })
            writer.write(armings)
        }
        init(from reader: inout JournalReader) throws(JournalDecodingError) {
            let alarms: [Int64] = try reader.read()
            let posts: [Int64] = try reader.read()
            self.alarms = stride(from: 0, to: alarms.count - 2, by: 3).map { Alarm(id: Int(alarms[$0]), seconds: alarms[$0 + 1], entry: Int(alarms[$0 + 2])) }
            self.posts = stride(from: 0, to: posts.count - 1, by: 2).map { Post(number: Int(posts[$0]), seconds: posts[$0 + 1]) }
            armings = try reader.read()
        }
    }

    enum Event: Equatable, Sendable, JournalCodable {
        case arm(id: Int, seconds: Int64)
        case disarm(id: Int)
        case ring(id: Int, entry: Int)
        case post(seconds: Int64)
        case deliver(number: Int)

        func encode(to writer: inout JournalWriter) {
            switch self {
            case let .arm(id, seconds): writer.writeVarint(0); writer.write(id); writer.write(seconds)
            case let .disarm(id): writer.writeVarint(1); writer.write(id)
            case let .ring(id, entry): writer.writeVarint(2); writer.write(id); writer.write(entry)
            case let .post(seconds): writer.writeVarint(3); writer.write(seconds)
            case let .deliver(number): writer.writeVarint(4); writer.write(number)
            }
        }
        init(from reader: inout JournalReader) throws(JournalDecodingError) {
            switch try reader.readCase(below: 5) {
            case 0: self = .arm(id: try reader.read(), seconds: try reader.read())
            case 1: self = .disarm(id: try reader.read())
            case 2: self = .ring(id: try reader.read(), entry: try reader.read())
            case 3: self = .post(seconds: try reader.read())
            default: self = .deliver(number: try reader.read())
            }
        }
    }

    static func reduce(_ state: inout State, _ event: Event) {
        switch event {
        case let .arm(id, seconds):
            guard !state.alarms.contains(where: { $0.id == id }) else { return }
            state.alarms.append(Alarm(id: id, seconds: seconds, entry: state.armings))
            state.armings += 1
        case let .disarm(id):
            state.alarms.removeAll { $0.id == id }
        case let .ring(id, entry):
            if !id.isMultiple(of: 2) { state.alarms.removeAll { $0.id == id && $0.entry == entry } }
        case let .post(seconds):
            state.posts.append(Post(number: state.armings, seconds: seconds))
            state.armings += 1
        case let .deliver(number):
            state.posts.removeAll { $0.number == number }
        }
    }

    static func timers(in state: State) -> [ArmedTimer<String, Event>] {
        state.alarms.map { ArmedTimer(state: "alarms", index: $0.id, delay: .seconds($0.seconds), event: .ring(id: $0.id, entry: $0.entry)) }
    }

    static func sends(in state: State) -> [ArmedSend<Event>] {
        state.posts.map { ArmedSend(number: $0.number, id: nil, delay: .seconds($0.seconds), event: .post(seconds: $0.seconds), delivery: .deliver(number: $0.number)) }
    }
}

@Suite struct JournalStepsTests {
    /// A new host instance's journal steps, opened at wall time 0, with the rows its opening wrote.
    static func newInstance<M: DurableMachine>(_ machine: M.Type, initial: M.State, store: InMemoryJournalStore) throws -> (JournalSteps<M>, [[UInt8]: HostTimer]) {
        let restored = try RestoredMachine<M>("i", from: store, initial: initial, now: 0)
        var steps = JournalSteps(restored, snapshotEvery: 25, tracksTimerRows: true)
        var rows: [[UInt8]: HostTimer] = [:]
        let opening = steps.opening(at: 0)
        try apply(opening, to: &rows, store: store)
        return (steps, rows)
    }

    /// Writes `writes` to `store` and applies their row changes to `rows`, as a host's commit does;
    /// a deleted row must be there (unless its timer is one of `rowless`, which never fire), an
    /// armed one must not.
    static func apply(
        _ writes: JournalWrites, to rows: inout [[UInt8]: HostTimer], store: InMemoryJournalStore, rowless: Set<[UInt8]> = []
    ) throws {
        if !writes.records.isEmpty { try store.append(writes.records, to: "i") }
        if let snapshot = writes.snapshot { store.writeSnapshot(snapshot, of: "i") }
        if writes.replacesTimers { rows = [:] }
        for event in writes.deletedTimers {
            #expect(rows.removeValue(forKey: event) != nil || rowless.contains(event), "a deleted row that was not there")
        }
        for timer in writes.armedTimers {
            #expect(rows[timer.event] == nil, "a row armed twice")
            rows[timer.event] = timer
        }
    }

    /// The rows as the bookkeeping says they must be, worked out from the state (each timer's
    /// delay) and when each was armed: events and deadlines.
    static func expectedRows(_ steps: JournalSteps<Alarms>) throws -> [[UInt8]: Int64] {
        let delays = Alarms.timers(in: steps.state).map { ($0.event, $0.delay) } + Alarms.sends(in: steps.state).map { ($0.delivery, $0.delay) }
        var expected: [[UInt8]: Int64] = [:]
        for timer in steps.book.timers where !timer.fired {
            let delay = try #require(delays.first { $0.0 == timer.event }?.1)
            guard delay < .seconds(Int64(1) << 62) else { continue }  // never: no row (H28)
            let nanoseconds = delay.components.seconds.multipliedReportingOverflow(by: 1_000_000_000)
            let (sum, overflow) = timer.armedAt.addingReportingOverflow(nanoseconds.partialValue)
            expected[JournalSteps<Alarms>.bytes(of: timer.event)] = nanoseconds.overflow || overflow ? .max : sum
        }
        return expected
    }

    @Test("H26: after every step an instance's timer rows are exactly its armed timers and pending sends not fired, each with its deadline, and a journal read back gives the same rows")
    func h26TimerRowsAreTheArmedTimers() throws {
        var random = SeededGenerator(seed: 26)
        let store = InMemoryJournalStore()
        var (steps, rows) = try Self.newInstance(Alarms.self, initial: Alarms.State(), store: store)
        let delays: [Int64] = [0, 1, 30, 3_600, 1_000_000_000_000, Int64(1) << 62]
        var arms = 0, rings = 0, kept = 0
        /// The timers armed with a delay of never: no row, so a deletion of theirs finds none.
        var rowless: Set<[UInt8]> = []
        for step in 1...400 {
            let state = steps.state
            var events: [Alarms.Event] = [.arm(id: Int.random(in: 0..<8, using: &random), seconds: delays.randomElement(using: &random)!), .post(seconds: delays.randomElement(using: &random)!)]
            events += state.alarms.flatMap { [Alarms.Event.ring(id: $0.id, entry: $0.entry), .disarm(id: $0.id)] }
            events += state.posts.map { .deliver(number: $0.number) }
            let event = events.randomElement(using: &random)!
            var after = state
            Alarms.reduce(&after, event)
            if case .arm = event, after != state { arms += 1 }
            if case let .ring(id, _) = event { rings += 1; if id.isMultiple(of: 2) { kept += 1 } }
            for alarm in after.alarms where alarm.seconds >= Int64(1) << 62 {
                rowless.insert(JournalSteps<Alarms>.bytes(of: .ring(id: alarm.id, entry: alarm.entry)))
            }
            for post in after.posts where post.seconds >= Int64(1) << 62 {
                rowless.insert(JournalSteps<Alarms>.bytes(of: .deliver(number: post.number)))
            }
            let writes = steps.step(event, origin: .local(run: nil), to: after, at: Int64(step) * 1_000_000_000)
            try Self.apply(writes, to: &rows, store: store, rowless: rowless)
            #expect(rows.mapValues(\.deadline) == (try Self.expectedRows(steps)), "after step \(step), \(event)")
        }
        #expect(arms > 50 && rings > 20 && kept > 5, "the walk armed \(arms), rang \(rings), kept \(kept) fired")
        let armings = rows.values.map(\.armed)
        #expect(Set(armings).count == armings.count, "each row has its own order of arming")
        // Read back (H38's rows): the same events and deadlines.
        let restored = try RestoredMachine<Alarms>("i", from: store, initial: Alarms.State(), now: 999_000_000_000)
        var reopened = JournalSteps(restored, snapshotEvery: 25, tracksTimerRows: true)
        let opening = reopened.opening(at: 999_000_000_000)
        #expect(opening.records.isEmpty && opening.snapshot == nil && opening.deletedTimers.isEmpty)
        #expect(Dictionary(uniqueKeysWithValues: opening.armedTimers.map { ($0.event, $0.deadline) }) == rows.mapValues(\.deadline))
        #expect(opening.armedTimers.map(\.armed) == Array(1...Int64(opening.armedTimers.count)))
    }

    @Test("H28: a timer whose delay is never (2^62 s or more) has no row; one past the last deadline a row holds (the year 2262) is due then; one of zero or less is due at its arming")
    func h28ANeverTimerHasNoRow() throws {
        let store = InMemoryJournalStore()
        var (steps, rows) = try Self.newInstance(Alarms.self, initial: Alarms.State(), store: store)
        let delays: [Int64] = [Int64(1) << 62, .max, (Int64(1) << 62) - 1, 10_000_000_000, 0, -5]
        for (id, seconds) in delays.enumerated() {
            var after = steps.state
            Alarms.reduce(&after, .arm(id: id, seconds: seconds))
            try Self.apply(steps.step(.arm(id: id, seconds: seconds), origin: .local(run: nil), to: after, at: 7), to: &rows, store: store)
        }
        let deadlines = Dictionary(uniqueKeysWithValues: steps.state.alarms.map { alarm in
            (alarm.id, rows[JournalSteps<Alarms>.bytes(of: .ring(id: alarm.id, entry: alarm.entry))]?.deadline)
        })
        #expect(deadlines == [0: nil, 1: nil, 2: .max, 3: .max, 4: 7, 5: 7])
        #expect(JournalSteps<Alarms>.deadline(armedAt: 1, delay: .milliseconds(1500)) == 1_500_000_001)
    }
}

/// H27 counts Postbox's comparisons, as D123 does: in D123's serialized suite, so that neither
/// counts the other's.
extension DurableBookkeepingCostTests {
    @Test("H27: a step writes rows only for the timers it armed, disarmed or fired: with 600 pending sends one more send writes one row, in linear time")
    func h27AStepWritesOnlyChangedRows() throws {
        let store = InMemoryJournalStore()
        var (steps, rows) = try JournalStepsTests.newInstance(Postbox.self, initial: Postbox.State(pending: Array(0..<600)), store: store)
        #expect(rows.count == 600)
        var state = steps.state
        Postbox.comparisons = 0
        for step in 1...20 {
            Postbox.reduce(&state, .post)
            let writes = steps.step(.post, origin: .local(run: nil), to: state, at: Int64(step))
            #expect(writes.deletedTimers.isEmpty)
            #expect(writes.armedTimers.map(\.event) == [JournalSteps<Postbox>.bytes(of: .deliver(599 + step))])
            #expect(writes.armedTimers.map(\.deadline) == [Int64(step) + 60_000_000_000])
            try JournalStepsTests.apply(writes, to: &rows, store: store)
        }
        // D123's bound, with the rows tracked.
        #expect(Postbox.comparisons / 20 <= 4 * 650, "\(Postbox.comparisons / 20) comparisons per event")
        #expect(rows.count == 620)
    }
}
