// `durable-crash-helper --children DB N`: a durable parent, `Relay` (id "relay"), that forwards
// each add(K) to a durable child `Sink`, and every hundredth also `finish`: the child ends and its
// output (the hash chain of its hundred values) is appended to the parent's `outputs`, and the next
// add starts a new child (Docs/Durability.md D100-D105). Prints as the plain mode does; events are
// sent a hundred at a time, the next hundred once the parent has the last one's output, so no add
// reaches a child that has ended. A forwarded event lost or reduced twice changes a chain, an
// output lost or reduced twice changes `outputs`: the final digest shows either.

import Foundation
import StateLoop
import StateLoopDurable

/// The child: chains the values its parent forwards; ends on `finish`.
enum Sink: DurableMachine {
    typealias Call = NoCall
    typealias StateName = String
    typealias Run = NoRun

    struct State: Equatable, Sendable, JournalCodable {
        var chain: UInt64 = 0
        var done = false

        init() {}
        func encode(to writer: inout JournalWriter) {
            writer.write(chain)
            writer.write(done)
        }
        init(from reader: inout JournalReader) throws(JournalDecodingError) {
            chain = try reader.read()
            done = try reader.read()
        }
    }

    enum Event: Equatable, Sendable, JournalCodable {
        case add(Int)
        case finish

        func encode(to writer: inout JournalWriter) {
            switch self {
            case .add(let value): writer.writeVarint(0); writer.write(value)
            case .finish: writer.writeVarint(1)
            }
        }
        init(from reader: inout JournalReader) throws(JournalDecodingError) {
            self = try reader.readCase(below: 2) == 0 ? .add(try reader.read()) : .finish
        }
    }

    static let specFile = "Sink.machine.yml"
    static let journalVersion = 1
    static let transitions: [TransitionInfo] = []

    static func reduce(_ state: inout State, _ event: Event) {
        switch event {
        case .add(let value): state.chain = (state.chain ^ UInt64(value)) &* 0x100_0000_01b3
        case .finish: state.done = true
        }
    }

    static func reduce(_ state: inout State, _ event: Event, trace: inout TransitionTrace) { reduce(&state, event) }
    static func pendingRuns(in state: State) -> (queued: Int, runs: [NoRun]) { (0, []) }
    static func runs(in state: State) -> [EffectRequest<NoCall>] { [] }
    static func result(_ event: Event, of call: NoCall) -> EffectResultKind? { nil }
    static func timers(in state: State) -> [ArmedTimer<String, Event>] { [] }
    static func copyBookkeeping(from source: State, to state: inout State) {}
    static func isDone(_ state: State) -> Bool { state.done }
}

/// The parent: runs a Sink per batch (its request), forwards every add to it.
enum Relay: DurableMachine {
    typealias Call = NoCall
    typealias StateName = String
    typealias Run = NoRun

    struct State: Equatable, Sendable, JournalCodable {
        var count = 0
        /// The batch whose Sink runs: the child's request.
        var batch = 0
        var forwarded: [Sink.Event] = []
        /// Each ended Sink's chain, in order.
        var outputs: [UInt64] = []

        init() {}
        func encode(to writer: inout JournalWriter) {
            writer.write(count)
            writer.write(batch)
            writer.write(forwarded)
            writer.write(outputs)
        }
        init(from reader: inout JournalReader) throws(JournalDecodingError) {
            count = try reader.read()
            batch = try reader.read()
            forwarded = try reader.read()
            outputs = try reader.read()
        }

        /// FNV-1a of the count and the outputs.
        var digest: String {
            var writer = JournalWriter()
            writer.write(count)
            writer.write(outputs)
            let hash = writer.bytes.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
            return String(hash, radix: 16)
        }
    }

    enum Event: Equatable, Sendable, JournalCodable {
        case add(Int)
        case ended(UInt64)

        func encode(to writer: inout JournalWriter) {
            switch self {
            case .add(let value): writer.writeVarint(0); writer.write(value)
            case .ended(let chain): writer.writeVarint(1); writer.write(chain)
            }
        }
        init(from reader: inout JournalReader) throws(JournalDecodingError) {
            self = try reader.readCase(below: 2) == 0 ? .add(try reader.read()) : .ended(try reader.read())
        }
    }

    static let specFile = "Relay.machine.yml"
    static let journalVersion = 1
    static let transitions: [TransitionInfo] = []
    static let batchSize = 100

    static func reduce(_ state: inout State, _ event: Event) {
        state.forwarded = []
        switch event {
        case .add(let value):
            state.count += 1
            state.forwarded = value % batchSize == 0 ? [.add(value), .finish] : [.add(value)]
        case .ended(let chain):
            state.outputs.append(chain)
            state.batch += 1
        }
    }

    static func reduce(_ state: inout State, _ event: Event, trace: inout TransitionTrace) { reduce(&state, event) }
    static func pendingRuns(in state: State) -> (queued: Int, runs: [NoRun]) { (0, []) }
    static func runs(in state: State) -> [EffectRequest<NoCall>] { [] }
    static func result(_ event: Event, of call: NoCall) -> EffectResultKind? { nil }
    static func timers(in state: State) -> [ArmedTimer<String, Event>] { [] }
    static func copyBookkeeping(from source: State, to state: inout State) {}
    static func isDone(_ state: State) -> Bool { false }

    static func childRequests(in state: State) -> [(effect: String, request: any Equatable & Sendable)] {
        [("sink", state.batch)]
    }

    static let feedbacks: [Feedback<State, Event>] = [
        .child(
            effect: "sink", machine: Sink.self,
            request: { $0.batch },
            start: { _ in System(initial: Sink.State(), reduce: Sink.reduce, feedbacks: [], isFinished: Sink.isDone) },
            forwarded: { $0.forwarded },
            output: { $0.done ? .ended($0.chain) : nil })
    ]

    /// The pure reduction of add(1)...add(`events`), each batch's output after its last add.
    static func expected(events: Int) -> State {
        var state = State()
        var sink = Sink.State()
        for value in 1...events {
            reduce(&state, .add(value))
            for event in state.forwarded { Sink.reduce(&sink, event) }
            if sink.done {
                reduce(&state, .ended(sink.chain))
                sink = Sink.State()
            }
        }
        return state
    }

    /// Runs "relay" of `store` until add(1)...add(`events`) are reduced and every full batch's
    /// output is in; returns the digest.
    static func run(store: any JournalStore, events: Int) async throws -> String {
        let shown = LockedRelay()
        let relay = Relay.durable(
            id: "relay", store: store, initial: .init(), feedbacks: Relay.feedbacks,
            onState: { state in
                let (restored, grew) = shown.show(state)
                if restored { say("restored \(state.count)\n") } else if grew { say("acked \(state.count)\n") }
            },
            onStop: { error in
                if let error {
                    say("stopped: \(error)\n")
                    exit(1)
                }
            })
        try await relay.recovered()
        var next = shown.state.count + 1
        while next <= events {
            // The batch's output first (a restored finished Sink reports it again, D104).
            await shown.wait { $0.outputs.count == $0.count / batchSize }
            let end = min(events, ((next - 1) / batchSize + 1) * batchSize)
            for value in next...end { relay.send(.add(value)) }
            next = end + 1
        }
        await shown.wait { $0.count == events && $0.outputs.count == events / batchSize }
        relay.stop()
        return shown.state.digest
    }
}

/// What the observer saw, for the main task.
final class LockedRelay: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var shown: Relay.State?

    /// Notes a state: whether it is the first shown, and whether its count grew.
    func show(_ state: Relay.State) -> (first: Bool, grew: Bool) {
        lock.withLock {
            let before = shown
            shown = state
            return (before == nil, before.map { state.count > $0.count } ?? false)
        }
    }

    var state: Relay.State { lock.withLock { shown ?? Relay.State() } }

    /// Waits until the last state shown satisfies `condition`.
    func wait(until condition: (Relay.State) -> Bool) async {
        while !condition(state) { try? await Task.sleep(for: .milliseconds(1)) }
    }
}
