// A durable system (Docs/Durability.md D30, D35): the time per event of the write-ahead - each
// event appended to the journal before the state after it is shown - at each durability level,
// beside the same machine run as a plain system; and the time to recover a machine from a SQLite
// journal of 1,000,000 events, with and without a snapshot.

import Dispatch
import Foundation
import StateLoop
import StateLoopDurable

let durableSystemBenchmarks: [Benchmark] = [
    Benchmark(name: "durable.system.off.ns_per_event") { plainTime(events: 1_000_000) },
    Benchmark(name: "durable.system.memory.ns_per_event") { durableTime(events: 100_000) { _ in InMemoryJournalStore() } },
    Benchmark(name: "durable.system.sqlite.ns_per_event") {
        durableTime(events: 20_000) { try! SQLiteJournalStore(path: $0, durability: .processCrash) }
    },
    Benchmark(name: "durable.system.sqlite_fsync.ns_per_event") {
        durableTime(events: 2_000) { try! SQLiteJournalStore(path: $0, durability: .powerLoss) }
    },
    Benchmark(name: "host.sqlite.events_per_s", floor: 200_000) { hostRate(instances: 1_000, senders: 256, events: 100_000) },
    Benchmark(name: "host.sqlite.over_durable_system.ratio") {
        // In one run: the host's rate over one durable system's (one commit per event) on the same file kind.
        let system = 1e9 / durableTime(events: 20_000) { try! SQLiteJournalStore(path: $0, durability: .processCrash) }
        return hostRate(instances: 1_000, senders: 256, events: 100_000) / system
    },
    Benchmark(name: "host.sqlite.ratio_to_raw_append", floor: 0.5) {
        // In one run: the host's rate over the store's raw append of 1,000-record batches.
        let raw = appendRate(.processCrash, batches: 100)
        return hostRate(instances: 1_000, senders: 256, events: 100_000) / raw
    },
    Benchmark(name: "host.load.ms", goal: 5) { hostLoadTime(records: 1_000, instances: 20) },
    Benchmark(name: "durable.recovery.replay_1M.ms", goal: 1_000) { recoveryTime(snapshot: false) },
    Benchmark(name: "durable.recovery.snapshot_1M.ms", goal: 5) { recoveryTime(snapshot: true) },
]

/// A counter: the smallest durable machine (an 8-byte state, 2-byte events, no effects).
private enum Tally: DurableMachine {
    typealias Call = NoCall
    typealias StateName = String
    typealias Run = NoRun

    struct State: Equatable, Sendable, JournalCodable {
        var count = 0
        init() {}
        func encode(to writer: inout JournalWriter) { writer.write(count) }
        init(from reader: inout JournalReader) throws(JournalDecodingError) { count = try reader.read() }
    }

    enum Event: Equatable, Sendable, JournalCodable {
        case add(Int)
        func encode(to writer: inout JournalWriter) {
            guard case .add(let value) = self else { return }
            writer.write(value)
        }
        init(from reader: inout JournalReader) throws(JournalDecodingError) { self = .add(try reader.read()) }
    }

    static let specFile = "Tally.machine.yml"
    static let journalVersion = 1
    static let transitions: [TransitionInfo] = []
    static func reduce(_ state: inout State, _ event: Event) {
        if case .add(let value) = event { state.count += value }
    }
    static func reduce(_ state: inout State, _ event: Event, trace: inout TransitionTrace) { reduce(&state, event) }
    static func pendingRuns(in state: State) -> (queued: Int, runs: [NoRun]) { (0, []) }
    static func runs(in state: State) -> [EffectRequest<NoCall>] { [] }
    static func result(_ event: Event, of call: NoCall) -> EffectResultKind? { nil }
    static func timers(in state: State) -> [ArmedTimer<String, Event>] { [] }
    static func copyBookkeeping(from source: State, to state: inout State) {}
    static func isDone(_ state: State) -> Bool { false }
}

/// Nanoseconds per event sent to a plain system of the same machine (durability off).
private func plainTime(events: Int) -> Double {
    let system = System<Tally.State, Tally.Event>(initial: .init(), reduce: Tally.reduce, feedbacks: [])
    let run = system.start(onState: { blackHole($0) })
    let start = ContinuousClock.now
    for _ in 0..<events { run.send(.add(1)) }
    let elapsed = ContinuousClock.now - start
    run.stop()
    return nanoseconds(per: events, in: elapsed)
}

/// Nanoseconds per event sent to a durable system whose store `open` makes (given a path in a
/// new temporary folder), from the first send until the last state is shown; the median of
/// `STATELOOP_BENCH_RUNS` runs (5 unless set).
private func durableTime(events: Int, open: (String) -> any JournalStore) -> Double {
    medianOfRuns {
        withTemporaryFolder { folder in
            let restored = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            let system = Tally.durable(
                id: "bench", store: open(folder.appending(path: "journal.sqlite").path), initial: .init(), feedbacks: [],
                options: DurableOptions(snapshotEvery: 1_000_000),
                onState: { state in
                    if state.count == 0 { restored.signal() }
                    if state.count == events { done.signal() }
                })
            restored.wait()
            let start = ContinuousClock.now
            for _ in 0..<events { system.send(.add(1)) }
            done.wait()
            let elapsed = ContinuousClock.now - start
            system.stop()
            return nanoseconds(per: events, in: elapsed)
        }
    }
}

/// Events per second through a `MachineHost` on a new SQLite file (Docs/Hosting.md, "The
/// figures"): `instances` instances created first, then `senders` tasks each sending its share of
/// `events` to instances drawn at random, each send awaited (returned once durable); the median of
/// `STATELOOP_BENCH_RUNS` runs (5 unless set).
/// (`open` makes the store from a new temporary folder: a SQLite file in it unless given.)
func hostRate(
    instances: Int, senders: Int, events: Int,
    open: (URL) -> any HostJournalStore = { try! SQLiteJournalStore(path: $0.appending(path: "journal.sqlite").path, durability: .processCrash) }
) -> Double {
    medianOfRuns {
        withTemporaryFolder { folder in
            let store = open(folder)
            let host = MachineHost<Tally>(store: store, initial: { _ in .init() })
            Task { try await host.run() }
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var elapsed = Duration.zero  // written by the task before `done`, read after
            Task {
                await withTaskGroup { group in
                    for instance in 0..<instances { group.addTask { _ = try! await host.send(.add(1), to: "i\(instance)") } }
                }
                let start = ContinuousClock.now
                await withTaskGroup { group in
                    for _ in 0..<senders {
                        group.addTask {
                            var random = SystemRandomNumberGenerator()
                            for _ in 0..<(events / senders) {
                                _ = try! await host.send(.add(1), to: "i\(Int.random(in: 0..<instances, using: &random))")
                            }
                        }
                    }
                }
                elapsed = ContinuousClock.now - start
                done.signal()
            }
            done.wait()
            host.stop()
            return 1e9 / nanoseconds(per: events / senders * senders, in: elapsed)
        }
    }
}

/// Milliseconds from a send to an instance not in memory until it returns, for an instance whose
/// journal holds its first snapshot and `records` records after it: the load (claim, recovery,
/// replay, its opening's commit) and the event's commit; the median over `instances` instances of
/// the median of `STATELOOP_BENCH_RUNS` runs (5 unless set).
private func hostLoadTime(records: Int, instances: Int) -> Double {
    medianOfRuns {
        withTemporaryFolder { folder in
            let path = folder.appending(path: "journal.sqlite").path
            let options = HostOptions(snapshotEvery: records + 1)
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var times: [Double] = []  // written by the task before `done`, read after
            Task {
                let writer = MachineHost<Tally>(store: try! SQLiteJournalStore(path: path, durability: .processCrash), initial: { _ in .init() }, options: options)
                Task { try await writer.run() }
                await withTaskGroup { group in
                    for instance in 0..<instances {
                        group.addTask { for _ in 0..<records { _ = try! await writer.send(.add(1), to: "i\(instance)") } }
                    }
                }
                writer.stop()
                let reader = MachineHost<Tally>(store: try! SQLiteJournalStore(path: path, durability: .processCrash), initial: { _ in .init() }, options: options)
                Task { try await reader.run() }
                for instance in 0..<instances {
                    let start = ContinuousClock.now
                    _ = try! await reader.send(.add(1), to: "i\(instance)")
                    times.append(nanoseconds(per: 1, in: ContinuousClock.now - start) / 1e6)
                }
                reader.stop()
                done.signal()
            }
            done.wait()
            return times.sorted()[times.count / 2]
        }
    }
}

/// Milliseconds from the start of a durable system until it shows its restored state, from a SQLite
/// journal of 1,000,000 events, with only the initial snapshot (`snapshot: false`: all of them
/// replayed) or also one after the last (none replayed). The journal is made once per call, by a
/// system on the in-memory store, and copied into a file before the clock starts; each recovery
/// reads a fresh copy of the file (a stopped system writes a snapshot); the median of
/// `STATELOOP_BENCH_RUNS` recoveries (5 unless set).
private func recoveryTime(snapshot: Bool) -> Double {
    let events = 1_000_000
    let folder = FileManager.default.temporaryDirectory.appending(path: "stateloop-bench-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appending(path: "journal.sqlite").path
    do {
        let memory = InMemoryJournalStore()
        let made = DispatchSemaphore(value: 0)
        let system = Tally.durable(
            id: "bench", store: memory, initial: .init(), feedbacks: [], options: DurableOptions(snapshotEvery: Int.max),
            onState: { if $0.count == events { made.signal() } })
        for _ in 0..<events { system.send(.add(1)) }
        made.wait()
        let file = try! SQLiteJournalStore(path: path)
        // While the system runs: the initial snapshot and every record after it.
        let journal = memory.recover("bench")
        try! file.writeSnapshot(journal.snapshot!, of: "bench")
        for start in stride(from: 0, to: journal.records.count, by: 10_000) {
            try! file.append(Array(journal.records[start..<min(start + 10_000, journal.records.count)]), to: "bench")
        }
        // Stopped: the snapshot after the last event.
        system.stop()
        if snapshot { try! file.writeSnapshot(memory.recover("bench").snapshot!, of: "bench") }
    }
    let runs = ProcessInfo.processInfo.environment["STATELOOP_BENCH_RUNS"].flatMap(Int.init) ?? 5
    var times: [Double] = []
    for run in 0..<runs {
        let copy = folder.appending(path: "run\(run).sqlite").path
        try! FileManager.default.copyItem(atPath: path, toPath: copy)
        let restored = DispatchSemaphore(value: 0)
        let start = ContinuousClock.now
        let system = Tally.durable(
            id: "bench", store: try! SQLiteJournalStore(path: copy), initial: .init(), feedbacks: [],
            onState: { _ in restored.signal() })
        restored.wait()
        let elapsed = ContinuousClock.now - start
        system.stop()
        times.append(nanoseconds(per: 1_000_000, in: elapsed))
    }
    return times.sorted()[times.count / 2]
}
