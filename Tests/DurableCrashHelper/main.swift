// durable-crash-helper DB N: runs the durable machine `Tally` (id "tally") of the SQLite file DB
// and sends it the events add(1)...add(N), from the first one its journal does not have; prints
// `restored C` with the count of the restored state, `acked K` once add(K)'s state is shown (so
// durable, D30), `run K` when the one-shot run K starts, and, once all N events are reduced and
// every run has answered, `final <digest>`, and exits. Every fifth event queues a one-shot run
// (`audit`) that answers after a millisecond. `durable-crash-helper --expected N` prints the
// digest of the pure reduction instead, without running anything. The crash test (D43) kills it
// with SIGKILL at random moments and starts it again. With `--children` first, it runs a parent
// and its child machines instead (Relay.swift; D103).

import Foundation
import StateLoop
import StateLoopDurable

/// Writes `line` to standard output at once, unbuffered, so a kill loses no reported line.
func say(_ line: String) {
    _ = line.withCString { write(1, $0, strlen($0)) }
}

/// Adds numbered events; every fifth queues an audit run, whose answer is kept in `audited`.
enum Tally: DurableMachine {
    typealias Call = NoCall
    typealias StateName = String

    struct State: Equatable, Sendable, JournalCodable {
        var count = 0
        /// A hash chain of the added values: reducing one twice, or out of order, changes it.
        var chain: UInt64 = 0
        var queued = 0
        var runs: [Int] = []
        /// The audited events, in key order whatever order the runs answered in.
        var audited: [Int] = []

        init() {}
        func encode(to writer: inout JournalWriter) {
            writer.write(count)
            writer.write(chain)
            writer.write(queued)
            writer.write(runs)
            writer.write(audited)
        }
        init(from reader: inout JournalReader) throws(JournalDecodingError) {
            count = try reader.read()
            chain = try reader.read()
            queued = try reader.read()
            runs = try reader.read()
            audited = try reader.read()
        }

        /// FNV-1a of what does not depend on when the runs answered (`runs` is the last step's).
        var digest: String {
            var writer = JournalWriter()
            writer.write(count)
            writer.write(chain)
            writer.write(queued)
            writer.write(audited)
            let hash = writer.bytes.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
            return String(hash, radix: 16)
        }
    }

    enum Event: Equatable, Sendable, JournalCodable {
        case add(Int)
        case audited(Int)

        func encode(to writer: inout JournalWriter) {
            switch self {
            case .add(let value): writer.writeVarint(0); writer.write(value)
            case .audited(let value): writer.writeVarint(1); writer.write(value)
            }
        }
        init(from reader: inout JournalReader) throws(JournalDecodingError) {
            self = try reader.readCase(below: 2) == 0 ? .add(try reader.read()) : .audited(try reader.read())
        }
    }

    typealias Run = Int

    static let specFile = "Tally.machine.yml"
    static let journalVersion = 1
    static let transitions: [TransitionInfo] = []

    static func reduce(_ state: inout State, _ event: Event) {
        state.runs = []
        switch event {
        case .add(let value):
            state.count += 1
            state.chain = (state.chain ^ UInt64(value)) &* 0x100_0000_01b3
            if value % 5 == 0 {
                state.runs = [value]
                state.queued += 1
            }
        case .audited(let value):
            let index = state.audited.firstIndex { $0 > value } ?? state.audited.endIndex
            state.audited.insert(value, at: index)
        }
    }

    static func reduce(_ state: inout State, _ event: Event, trace: inout TransitionTrace) { reduce(&state, event) }
    static func pendingRuns(in state: State) -> (queued: Int, runs: [Int]) { (state.queued, state.runs) }
    static func runs(in state: State) -> [EffectRequest<NoCall>] { [] }
    static func result(_ event: Event, of call: NoCall) -> EffectResultKind? { nil }
    static func timers(in state: State) -> [ArmedTimer<String, Event>] { [] }
    static func copyBookkeeping(from source: State, to state: inout State) {}
    static func isDone(_ state: State) -> Bool { false }

    static let feedbacks: [Feedback<State, Event>] = [
        .runs(pending: pendingRuns, effect: { value in
            say("run \(OneShotRun.key ?? -1)\n")
            try? await Task.sleep(for: .milliseconds(1))
            return .audited(value)
        })
    ]

    /// Done: every event reduced and every run answered.
    static func isComplete(_ state: State, events: Int) -> Bool {
        state.count == events && state.audited.count == events / 5
    }
}

let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == "--children", let events = Int(arguments[3]), events > 0 {
    if arguments[2] == "--expected" {
        say("final \(Relay.expected(events: events).digest)\n")
    } else {
        let digest = try await Relay.run(store: try SQLiteJournalStore(path: arguments[2], durability: .processCrash), events: events)
        say("final \(digest)\n")
    }
    exit(0)
}
guard arguments.count == 3, let events = Int(arguments[2]), events > 0 else {
    say("usage: durable-crash-helper [--children] DB N | durable-crash-helper [--children] --expected N\n")
    exit(2)
}
if arguments[1] == "--expected" {
    var state = Tally.State()
    for value in 1...events { Tally.reduce(&state, .add(value)) }
    for value in stride(from: 5, through: events, by: 5) { Tally.reduce(&state, .audited(value)) }
    say("final \(state.digest)\n")
    exit(0)
}

let store = try SQLiteJournalStore(path: arguments[1], durability: .processCrash)
/// The count of the last state shown, and whether the first (restored) one was.
let shown = LockedCount()
let tally = Tally.durable(
    id: "tally", store: store, initial: .init(), feedbacks: Tally.feedbacks,
    onState: { state in
        let (restored, grew) = shown.show(state.count)
        if restored { say("restored \(state.count)\n") } else if grew { say("acked \(state.count)\n") }
        if Tally.isComplete(state, events: events) { shown.complete(state.digest) }
    },
    onStop: { error in
        if let error {
            say("stopped: \(error)\n")
            exit(1)
        }
    })
do {
    try await tally.recovered()
} catch {
    // A refused start (D117): `onStop` says it too; either line ends the process.
    say("stopped: \(error)\n")
    exit(1)
}
for value in stride(from: shown.count + 1, through: events, by: 1) {
    tally.send(.add(value))
}
let digest = await shown.completed()
tally.stop()
say("final \(digest)\n")

/// What the observer saw, for the main task.
final class LockedCount: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var shownCount: Int?
    private var digest: String?

    /// Notes a state of `count` events: whether it is the first shown, and whether it grew.
    func show(_ count: Int) -> (first: Bool, grew: Bool) {
        lock.withLock {
            let before = shownCount
            shownCount = count
            return (before == nil, before.map { count > $0 } ?? false)
        }
    }

    var count: Int { lock.withLock { shownCount ?? 0 } }

    func complete(_ digest: String) {
        lock.withLock { self.digest = digest }
    }

    /// Waits until a complete state was shown; returns its digest.
    func completed() async -> String {
        while true {
            if let digest = lock.withLock({ digest }) { return digest }
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
}
