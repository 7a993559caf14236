// Hand-written durable machines, each with one effect shape of the generated ones: a query effect
// (Search), one-shot runs (Payments), an `after:` timer whose request is the entry count
// (Kettle), and a timer whose transition keeps the same request (Metronome).

import StateLoop
import StateLoopDurable

/// What the test machines leave out of `StateMachine`: no branches or final states, and no calls
/// unless they say.
protocol TestMachine: DurableMachine where StateName == String {}

extension TestMachine where Call == NoCall {
    static func runs(in state: State) -> [EffectRequest<NoCall>] { [] }
    static func result(_ event: Event, of call: NoCall) -> EffectResultKind? { nil }
}

extension TestMachine {
    static var specFile: String { "\(Self.self).machine.yml" }
    static var journalVersion: Int { 1 }
    static func reduce(_ state: inout State, _ event: Event, trace: inout TransitionTrace) { reduce(&state, event) }
    static func timers(in state: State) -> [ArmedTimer<String, Event>] { [] }
    static func copyBookkeeping(from source: State, to state: inout State) {}
    static var transitions: [TransitionInfo] { [] }
    static func isDone(_ state: State) -> Bool { false }
}

extension TestMachine where Run == NoRun {
    static func pendingRuns(in state: State) -> (queued: Int, runs: [NoRun]) { (0, []) }
}

// MARK: - Search: a query effect

enum Search: TestMachine {
    typealias Run = NoRun
    /// The query the effect loads.
    typealias Call = Int

    struct State: Equatable, Sendable, JournalCodable {
        /// The query being loaded: the effect's request.
        var query: Int?
        var results: [Int] = []

        init() {}
        func encode(to writer: inout JournalWriter) {
            writer.write(query)
            writer.write(results)
        }
        init(from reader: inout JournalReader) throws(JournalDecodingError) {
            query = try reader.read()
            results = try reader.read()
        }
    }

    enum Event: Equatable, Sendable, JournalCodable {
        case search(Int)
        case loaded(Int)

        func encode(to writer: inout JournalWriter) {
            switch self {
            case .search(let query): writer.writeVarint(0); writer.write(query)
            case .loaded(let result): writer.writeVarint(1); writer.write(result)
            }
        }
        init(from reader: inout JournalReader) throws(JournalDecodingError) {
            self = try reader.readCase(below: 2) == 0 ? .search(try reader.read()) : .loaded(try reader.read())
        }
    }

    static func reduce(_ state: inout State, _ event: Event) {
        switch event {
        case .search(let query): state.query = query
        case .loaded(let result):
            state.results.append(result)
            state.query = nil
        }
    }

    /// The query effect runs while a query is set, and `loaded` is its result.
    static func runs(in state: State) -> [EffectRequest<Int>] {
        state.query.map { [EffectRequest(call: $0, shape: .answer)] } ?? []
    }

    static func result(_ event: Event, of call: Int) -> EffectResultKind? {
        if case .loaded = event { .result } else { nil }
    }

    /// The query effect: `load` answers each query.
    static func feedbacks(load: @escaping @Sendable (Int) async -> Int) -> [Feedback<State, Event>] {
        [.react(request: { $0.query }, effect: { query in .loaded(await load(query)) })]
    }
}

// MARK: - Payments: one-shot runs

enum Payments: TestMachine {
    enum Run: Equatable, Sendable, JournalCodable {
        /// Answers `charged`.
        case charge(Int)
        /// Sends nothing.
        case log(Int)

        func encode(to writer: inout JournalWriter) {
            switch self {
            case .charge(let amount): writer.writeVarint(0); writer.write(amount)
            case .log(let line): writer.writeVarint(1); writer.write(line)
            }
        }
        init(from reader: inout JournalReader) throws(JournalDecodingError) {
            self = try reader.readCase(below: 2) == 0 ? .charge(try reader.read()) : .log(try reader.read())
        }
    }

    struct State: Equatable, Sendable, JournalCodable {
        var queued = 0
        /// The runs the last step queued.
        var runs: [Run] = []
        var charged: [Int] = []

        init() {}
        func encode(to writer: inout JournalWriter) {
            writer.write(queued)
            writer.write(runs)
            writer.write(charged)
        }
        init(from reader: inout JournalReader) throws(JournalDecodingError) {
            queued = try reader.read()
            runs = try reader.read()
            charged = try reader.read()
        }
    }

    enum Event: Equatable, Sendable, JournalCodable {
        case pay(Int)
        case note(Int)
        case charged(Int)

        func encode(to writer: inout JournalWriter) {
            switch self {
            case .pay(let amount): writer.writeVarint(0); writer.write(amount)
            case .note(let line): writer.writeVarint(1); writer.write(line)
            case .charged(let amount): writer.writeVarint(2); writer.write(amount)
            }
        }
        init(from reader: inout JournalReader) throws(JournalDecodingError) {
            switch try reader.readCase(below: 3) {
            case 0: self = .pay(try reader.read())
            case 1: self = .note(try reader.read())
            default: self = .charged(try reader.read())
            }
        }
    }

    static func reduce(_ state: inout State, _ event: Event) {
        state.runs = []
        switch event {
        case .pay(let amount):
            state.runs.append(.charge(amount))
            state.queued += 1
        case .note(let line):
            state.runs.append(.log(line))
            state.queued += 1
        case .charged(let amount):
            state.charged.append(amount)
        }
    }

    static func pendingRuns(in state: State) -> (queued: Int, runs: [Run]) { (state.queued, state.runs) }

    /// The runs feedback: `charge` answers a charge; a log sends nothing.
    static func feedbacks(charge: @escaping @Sendable (Int) async -> Void, log: @escaping @Sendable (Int) async -> Void) -> [Feedback<State, Event>] {
        [.runs(pending: pendingRuns, effect: { run in
            switch run {
            case .charge(let amount):
                await charge(amount)
                return .charged(amount)
            case .log(let line):
                await log(line)
                return nil
            }
        })]
    }
}

// MARK: - Timers: an `after:` timer per entry, and one whose transition keeps it

/// A timer machine: `start` enters the timed state (one more entry), `stop` leaves it, and the
/// timer of the current entry fires once, `delay` after the entry. With `keepsTimer`, its
/// transition stays in the state without entering it again, so the request stays the same.
protocol TimerMachine: TestMachine where State == TimerState, Event == TimerEvent, Run == NoRun {
    static var keepsTimer: Bool { get }
    static var delay: Duration { get }
}

struct TimerState: Equatable, Sendable, JournalCodable {
    var active: Bool
    var entries: Int
    var fired: Int

    init(active: Bool = false, entries: Int = 0, fired: Int = 0) {
        self.active = active
        self.entries = entries
        self.fired = fired
    }
    func encode(to writer: inout JournalWriter) {
        writer.write(active)
        writer.write(entries)
        writer.write(fired)
    }
    init(from reader: inout JournalReader) throws(JournalDecodingError) {
        active = try reader.read()
        entries = try reader.read()
        fired = try reader.read()
    }

    /// The timer's request: the entry count while the state is active.
    var timerRequest: Int? { active ? entries : nil }
}

enum TimerEvent: Equatable, Sendable, JournalCodable {
    case start
    case stop
    case timer(entry: Int)

    func encode(to writer: inout JournalWriter) {
        switch self {
        case .start: writer.writeVarint(0)
        case .stop: writer.writeVarint(1)
        case .timer(let entry): writer.writeVarint(2); writer.write(entry)
        }
    }
    init(from reader: inout JournalReader) throws(JournalDecodingError) {
        switch try reader.readCase(below: 3) {
        case 0: self = .start
        case 1: self = .stop
        default: self = .timer(entry: try reader.read())
        }
    }
}

extension TimerMachine {
    static func reduce(_ state: inout TimerState, _ event: TimerEvent) {
        switch event {
        case .start:
            state.active = true
            state.entries += 1
        case .stop:
            state.active = false
        case .timer(let entry):
            guard state.active, entry == state.entries else { return }  // an earlier entry's
            state.fired += 1
            if !keepsTimer { state.active = false }
        }
    }

    static func timers(in state: TimerState) -> [ArmedTimer<String, TimerEvent>] {
        guard let entry = state.timerRequest else { return [] }
        return [ArmedTimer(state: "active", index: 0, delay: delay, event: .timer(entry: entry))]
    }

    /// The timer feedback, as a generated machine makes it.
    static func feedbacks(clock: some Clock<Duration>) -> [Feedback<TimerState, TimerEvent>] {
        [.timer(request: { $0.timerRequest }, clock: clock, delay: { _ in delay }, event: { .timer(entry: $0) })]
    }
}

/// Boils once per switch-on, 10 s after it: its timer's transition leaves the state.
enum Kettle: TimerMachine {
    static let keepsTimer = false
    static let delay = Duration.seconds(10)
}

/// Ticks once, 5 s after its start, and stays running: its timer's transition keeps the request.
enum Metronome: TimerMachine {
    static let keepsTimer = true
    static let delay = Duration.seconds(5)
}

/// Boils once, an hour after it is switched on: a timer no test waits out.
enum Boiler: TimerMachine {
    static let keepsTimer = false
    static let delay = Duration.seconds(3_600)
}

/// Payments whose charges run at most once (`afterRestart: drop`): a charge not known finished at
/// a restart is dropped; a log runs again (D46).
enum CarefulPayments: TestMachine {
    typealias Run = Payments.Run
    typealias State = Payments.State
    typealias Event = Payments.Event

    /// A later build of Payments: it reads Payments's journals (D120).
    static var journalName: String { "Payments" }

    static func reduce(_ state: inout State, _ event: Event) { Payments.reduce(&state, event) }
    static func pendingRuns(in state: State) -> (queued: Int, runs: [Run]) { Payments.pendingRuns(in: state) }

    static func rerunsAfterRestart(_ run: Run) -> Bool {
        switch run {
        case .charge: false
        case .log: true
        }
    }
}
