// Hand-written durable machines with a child machine: Office runs an Abacus child per job, forwards
// it `add`s and `finish`, and journals its output (Docs/Durability.md D100-D109).

import StateLoop
import StateLoopDurable

// MARK: - Abacus: the child

/// Counts the `add`s its parent forwards; ends on `finish`.
enum Abacus: TestMachine {
    typealias Run = NoRun

    struct State: Equatable, Sendable, JournalCodable {
        var count = 0
        var done = false

        init(count: Int = 0, done: Bool = false) {
            self.count = count
            self.done = done
        }
        func encode(to writer: inout JournalWriter) {
            writer.write(count)
            writer.write(done)
        }
        init(from reader: inout JournalReader) throws(JournalDecodingError) {
            count = try reader.read()
            done = try reader.read()
        }
    }

    enum Event: Equatable, Sendable, JournalCodable {
        case add
        case finish

        func encode(to writer: inout JournalWriter) { writer.writeVarint(self == .add ? 0 : 1) }
        init(from reader: inout JournalReader) throws(JournalDecodingError) {
            self = try reader.readCase(below: 2) == 0 ? .add : .finish
        }
    }

    static func reduce(_ state: inout State, _ event: Event) {
        switch event {
        case .add: if !state.done { state.count += 1 }
        case .finish: state.done = true
        }
    }

    static func isDone(_ state: State) -> Bool { state.done }

    /// The child system a parent starts for each job.
    static var system: System<State, Event> {
        System(initial: State(), reduce: reduce, feedbacks: [], isFinished: isDone)
    }
}

// MARK: - Office: the parent

/// Runs an Abacus for its job (the child's request), forwards `add(n)` as n `add`s and `finish`,
/// and keeps every count an Abacus ended with; `tallied` keeps the job, so an ended child's request
/// stays the same.
enum Office: TestMachine {
    typealias Run = NoRun

    struct State: Equatable, Sendable, JournalCodable {
        var job: Int?
        var forwarded: [Abacus.Event] = []
        var totals: [Int] = []

        init() {}
        func encode(to writer: inout JournalWriter) {
            writer.write(job)
            writer.write(forwarded)
            writer.write(totals)
        }
        init(from reader: inout JournalReader) throws(JournalDecodingError) {
            job = try reader.read()
            forwarded = try reader.read()
            totals = try reader.read()
        }
    }

    enum Event: Equatable, Sendable, JournalCodable {
        case start(Int)
        case add(Int)
        case finish
        case cancel
        case tallied(Int)

        func encode(to writer: inout JournalWriter) {
            switch self {
            case .start(let job): writer.writeVarint(0); writer.write(job)
            case .add(let count): writer.writeVarint(1); writer.write(count)
            case .finish: writer.writeVarint(2)
            case .cancel: writer.writeVarint(3)
            case .tallied(let count): writer.writeVarint(4); writer.write(count)
            }
        }
        init(from reader: inout JournalReader) throws(JournalDecodingError) {
            switch try reader.readCase(below: 5) {
            case 0: self = .start(try reader.read())
            case 1: self = .add(try reader.read())
            case 2: self = .finish
            case 3: self = .cancel
            default: self = .tallied(try reader.read())
            }
        }
    }

    static func reduce(_ state: inout State, _ event: Event) {
        state.forwarded = []
        switch event {
        case .start(let job): state.job = job
        case .add(let count): if state.job != nil { state.forwarded = Array(repeating: .add, count: count) }
        case .finish: if state.job != nil { state.forwarded = [.finish] }
        case .cancel: state.job = nil
        case .tallied(let count): state.totals.append(count)
        }
    }

    static func childRequests(in state: State) -> [(effect: String, request: any Equatable & Sendable)] {
        state.job.map { [("tally", $0)] } ?? []
    }

    static var feedbacks: [Feedback<State, Event>] {
        [.child(
            effect: "tally", machine: Abacus.self,
            request: { $0.job },
            start: { _ in Abacus.system },
            forwarded: { $0.forwarded },
            output: { $0.done ? .tallied($0.count) : nil })]
    }
}

/// Office without `childRequests(in:)`: its child's journal has no name (D107).
enum Forgetful: TestMachine {
    typealias Run = NoRun
    typealias State = Office.State
    typealias Event = Office.Event

    static func reduce(_ state: inout State, _ event: Event) { Office.reduce(&state, event) }
}
