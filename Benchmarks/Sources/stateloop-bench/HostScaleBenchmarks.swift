// A host at scale (Docs/Hosting.md, "The figures"; issue 31): 1,000,000 instances created through
// one `MachineHost` with at most 10,000 in memory, and the same million instances' timers, one
// row each in the journal, falling due 1,000 a second.
//
//   parent ──► child --child-host-create FILE N   N instances of `Alarm`, each sent `arm`, its
//   (temp folder,                                   timer due i ms after the first: created, its
//    both journals)                                 timer row written, passivated past 10,000 in
//                                                   memory; prints its time and peak RSS
//              ──► child --child-host-timers FILE W   a host on that journal, its clock set back
//                                                     so that the first timer falls due 3 s after
//                                                     it starts: each timer's lag (deadline to
//                                                     its event's commit) over W s, and the RSS
//
// Each figure runs in a child of its own, so that no earlier benchmark's memory counts (VmHWM).
// The journals are written once per process and kept until it exits.

import Dispatch
import Foundation
import StateLoop
import StateLoopDurable

/// One alarm per instance: `arm(ms)` arms an `after:` timer of `ms` milliseconds whose event is
/// `ring`; the state is the armed delay, or none once it rang (a few bytes).
enum Alarm: DurableMachine {
    typealias Call = NoCall
    typealias StateName = String
    typealias Run = NoRun

    struct State: Equatable, Sendable, JournalCodable {
        var armedMs: Int?
        var rung = false
        init() {}
        func encode(to writer: inout JournalWriter) {
            writer.write(armedMs)
            writer.write(rung)
        }
        init(from reader: inout JournalReader) throws(JournalDecodingError) {
            armedMs = try reader.read()
            rung = try reader.read()
        }
    }

    enum Event: Equatable, Sendable, JournalCodable {
        case arm(ms: Int)
        case ring
        func encode(to writer: inout JournalWriter) {
            switch self {
            case .arm(let ms): writer.writeVarint(0); writer.write(ms)
            case .ring: writer.writeVarint(1)
            }
        }
        init(from reader: inout JournalReader) throws(JournalDecodingError) {
            switch try reader.readCase(below: 2) {
            case 0: self = .arm(ms: try reader.read())
            default: self = .ring
            }
        }
    }

    static let specFile = "Alarm.machine.yml"
    static let journalVersion = 1
    static let transitions: [TransitionInfo] = []
    static func reduce(_ state: inout State, _ event: Event) {
        switch event {
        case .arm(let ms): state.armedMs = ms
        case .ring:
            state.armedMs = nil
            state.rung = true
        }
    }
    static func reduce(_ state: inout State, _ event: Event, trace: inout TransitionTrace) { reduce(&state, event) }
    static func pendingRuns(in state: State) -> (queued: Int, runs: [NoRun]) { (0, []) }
    static func runs(in state: State) -> [EffectRequest<NoCall>] { [] }
    static func result(_ event: Event, of call: NoCall) -> EffectResultKind? { nil }
    static func timers(in state: State) -> [ArmedTimer<String, Event>] {
        state.armedMs.map { [ArmedTimer(state: "armed", index: 0, delay: .milliseconds($0), event: .ring)] } ?? []
    }
    static func copyBookkeeping(from source: State, to state: inout State) {}
    static func isDone(_ state: State) -> Bool { false }
}

/// How long after the setup starts the first timer falls due: long enough that none fires while
/// the journal is written. Instance i's timer is armed to fall due `lead + i` ms after the setup
/// started (its delay computed by its sender from the system clock at its send: its step, a load
/// and a commit later, arms it a few milliseconds late, so the deadlines spread 1,000 a second
/// with that jitter).
private let leadMs = 7_200_000
/// How long the timers' host runs before the first timer is due (its start, its first window read).
private let warmupNs: Int64 = 3_000_000_000

/// The system's clock less `offset`: the timers' host reads `warmup` before the first deadline when it starts.
private struct OffsetClock: HostClock {
    let offset: Int64
    func now() -> Int64 { SystemHostClock().now() &- offset }
    func sleep(until deadline: Int64) async throws {
        while true {
            let left = deadline &- now()
            guard left > 0 else { return }
            try await Task.sleep(nanoseconds: UInt64(min(left, 1_000_000_000)))
        }
    }
}

/// The resident memory now (`VmRSS`) and at its peak (`VmHWM`), in MB (10⁶ bytes).
private func residentMB() -> (now: Double, peak: Double) {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    func field(_ name: String) -> Double {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }),
            let kibibytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return .nan }
        return kibibytes * 1024 / 1e6
    }
    return (field("VmRSS:"), field("VmHWM:"))
}

/// An integer setting from the environment (the experiments of Benchmarks/README.md), or `nil`.
private func environment(_ name: String) -> Int? {
    ProcessInfo.processInfo.environment[name].flatMap(Int.init)
}

/// Runs `body` on a task and blocks until it returns.
private func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var result: T?  // written by the task before `done`, read after
    Task {
        result = await body()
        done.signal()
    }
    done.wait()
    return result!
}

/// The child modes of the host's scale figures (see main.swift); each prints `key value` lines.
enum HostScaleChildMode {
    static let create = "--child-host-create"
    static let timers = "--child-host-timers"
    /// How many tasks send at once while the journal is written.
    static let senders = 512

    static func runIfRequested(_ arguments: [String]) {
        guard let mode = arguments.dropFirst().first, [create, timers].contains(mode), arguments.count == 4,
            let count = Int(arguments[3])
        else { return }
        let figures = mode == create ? createInstances(path: arguments[2], count: count) : fireTimers(path: arguments[2], windowSeconds: count)
        for (key, value) in figures { print(key, value) }
        exit(0)
    }

    /// Creates `count` instances `a0`… of `Alarm` through one host (at most 10,000 in memory),
    /// each by one send of `arm(ms:)` whose timer falls due `lead + i` ms after the start: its
    /// opening (snapshot 0, instance row), its record and its timer row; then shuts the host down
    /// gracefully (the last 10,000 closed with a snapshot).
    static func createInstances(path: String, count: Int) -> [(String, Double)] {
        let store = try! SQLiteJournalStore(path: path, durability: .processCrash)
        let options = HostOptions(commitBatchSize: 4_000, maxInstancesInMemory: 10_000)
        let host = MachineHost<Alarm>(store: store, initial: { _ in .init() }, options: options)
        let start = ContinuousClock.now
        let first = SystemHostClock().now() + Int64(leadMs) * 1_000_000
        let (sent, shutdown) = blocking { () -> (Duration, Duration) in
            let running = Task { try await host.run() }
            await withTaskGroup { group in
                for sender in 0..<senders {
                    group.addTask {
                        for i in stride(from: sender, to: count, by: senders) {
                            let ms = (first + Int64(i) * 1_000_000 - SystemHostClock().now()) / 1_000_000
                            _ = try! await host.send(.arm(ms: Int(ms)), to: "a\(i)")
                        }
                    }
                }
            }
            let sent = ContinuousClock.now - start
            host.shutdown()
            try! await running.value
            return (sent, ContinuousClock.now - start - sent)
        }
        let memory = residentMB()
        return [
            ("create_s", nanoseconds(per: 1, in: sent) / 1e9), ("shutdown_s", nanoseconds(per: 1, in: shutdown) / 1e9),
            ("peak_rss_mb", memory.peak), ("rss_mb", memory.now),
        ]
    }

    /// Runs a host on the journal `createInstances` wrote, its clock set so that the first timer
    /// falls due `warmup` after it starts, for `windowSeconds`: the lag of each timer due in the
    /// window (from its deadline to its event's commit, as the host tells its observer; one not
    /// fired when the window and a grace of 10 s end counts as late as it is then), and the RSS.
    static func fireTimers(path: String, windowSeconds: Int) -> [(String, Double)] {
        let store = try! SQLiteJournalStore(path: path, durability: .processCrash)
        // The deadlines of the window's timers, read before the host starts.
        let (first, window) = blocking { () -> (Int64, [String: Int64]) in
            let first = try! await store.dueTimers(through: .max, after: nil, limit: 1)[0].row.timer.deadline
            let rows = try! await store.dueTimers(through: first + Int64(windowSeconds) * 1_000_000_000 - 1, after: nil, limit: 10_000_000)
            return (first, Dictionary(rows.map { ($0.row.machine, $0.row.timer.deadline) }, uniquingKeysWith: min))
        }
        let clock = OffsetClock(offset: SystemHostClock().now() - (first - warmupNs))
        let lags = LagRecorder(window)
        let host = MachineHost<Alarm>(
            store: store, initial: { _ in .init() },
            options: HostOptions(
                clock: clock, maxConcurrentLoads: environment("STATELOOP_BENCH_HOST_LOADS") ?? 4,
                maxInstancesInMemory: environment("STATELOOP_BENCH_HOST_LIMIT") ?? 10_000, observer: lags))
        let running = Task { try await host.run() }
        let end = first + Int64(windowSeconds) * 1_000_000_000
        let (before, after, statistics) = blocking { () -> ((now: Double, peak: Double), (now: Double, peak: Double), HostStatistics) in
            try? await clock.sleep(until: first)
            let before = residentMB()
            try? await clock.sleep(until: end)
            let after = residentMB()
            let statistics = host.statistics
            let grace = end + 10_000_000_000
            while !lags.allFired, clock.now() < grace { try? await Task.sleep(for: .milliseconds(100)) }
            return (before, after, statistics)
        }
        host.stop()
        running.cancel()
        let sorted = lags.lags(now: clock.now()).sorted()
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)] }
        return [
            ("lag_p50_ms", percentile(0.5) / 1e6), ("lag_p99_ms", percentile(0.99) / 1e6), ("lag_max_ms", sorted.last! / 1e6),
            ("fired_in_window", Double(lags.firedCount)), ("expected", Double(window.count)),
            ("statistics_p99_ms", (statistics.timerLagP99 ?? .nan) * 1e3), ("in_memory", Double(statistics.instancesInMemory)),
            ("rss_start_mb", before.now), ("rss_end_mb", after.now), ("peak_rss_mb", after.peak),
        ]
    }
}

/// Each timer's lag in nanoseconds, for the timers due in the window (by instance: one each).
private final class LagRecorder: HostObserver, @unchecked Sendable {
    private let deadlines: [String: Int64]
    private let lock = NSLock()
    private var fired: [String: Double] = [:]

    init(_ deadlines: [String: Int64]) {
        self.deadlines = deadlines
    }

    func observe(_ activity: HostActivity, machine: String) {
        guard case let .timerFired(instance, lagSeconds) = activity, deadlines[instance] != nil else { return }
        lock.withLock {
            if fired[instance] == nil { fired[instance] = lagSeconds * 1e9 }
        }
    }

    var allFired: Bool { lock.withLock { fired.count == deadlines.count } }
    var firedCount: Int { lock.withLock { fired.count } }

    /// The lags, a timer not fired counted as late as it is at `now`.
    func lags(now: Int64) -> [Double] {
        lock.withLock { deadlines.map { instance, deadline in fired[instance] ?? Double(now - deadline) } }
    }
}

/// Runs this executable as a child with `arguments` and reads its `key value` lines.
private func runFigureChild(_ arguments: [String]) -> [String: Double] {
    let process = Process()
    process.executableURL = selfExecutable
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try! process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { fatalError("child \(arguments) failed (\(process.terminationStatus)): \(text)") }
    var figures: [String: Double] = [:]
    for line in text.split(separator: "\n") {
        let parts = line.split(separator: " ")
        if parts.count == 2, let value = Double(parts[1]) { figures[String(parts[0])] = value }
    }
    // On standard error, for the record of a run: every figure the child measured.
    FileHandle.standardError.write(Data("host scale child \(arguments.first ?? "") \(arguments.dropFirst().first ?? ""): \(text.split(separator: "\n").joined(separator: ", "))\n".utf8))
    return figures
}

/// The figures of the host's scale, measured once per process.
private final class HostScale: @unchecked Sendable {
    static let shared = HostScale()
    /// How long the timers' window is (1,000 timers a second).
    static let windowSeconds = ProcessInfo.processInfo.environment["STATELOOP_BENCH_TIMER_WINDOW"].flatMap(Int.init) ?? 30
    private let lock = NSLock()
    private let folder = FileManager.default.temporaryDirectory.appending(path: "stateloop-bench-host-\(UUID().uuidString)")
    private var million: [String: Double]?
    private var timers: (million: [String: Double], small: [String: Double])?

    init() {
        try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        hostScaleFolder = folder.path
        atexit { if let folder = hostScaleFolder { try? FileManager.default.removeItem(atPath: folder) } }
    }

    /// The creation of 1,000,000 instances (its journal kept for the timers).
    func created() -> [String: Double] {
        lock.withLock {
            if let million { return million }
            let figures = runFigureChild([HostScaleChildMode.create, folder.appending(path: "1M.sqlite").path, "1000000"])
            million = figures
            return figures
        }
    }

    /// The timers of those instances, and of a journal of as many as the window fires and 10,000 more.
    func fired() -> (million: [String: Double], small: [String: Double]) {
        _ = created()
        return lock.withLock {
            if let timers { return timers }
            let small = folder.appending(path: "10k.sqlite").path
            _ = runFigureChild([HostScaleChildMode.create, small, "\(Self.windowSeconds * 1_000 + 10_000)"])
            let figures = (
                runFigureChild([HostScaleChildMode.timers, folder.appending(path: "1M.sqlite").path, "\(Self.windowSeconds)"]),
                runFigureChild([HostScaleChildMode.timers, small, "\(Self.windowSeconds)"]))
            timers = figures
            return figures
        }
    }
}

nonisolated(unsafe) private var hostScaleFolder: String?

let hostScaleBenchmarks: [Benchmark] = [
    Benchmark(name: "host.instances_1M.peak_rss_mb", goal: 500) { HostScale.shared.created()["peak_rss_mb"]! },
    Benchmark(name: "host.instances_1M.create_s") { HostScale.shared.created()["create_s"]! },
    Benchmark(name: "host.timers_1M.lag_p99_ms", goal: 1_000) { HostScale.shared.fired().million["lag_p99_ms"]! },
    Benchmark(name: "host.timers_1M.lag_p50_ms") { HostScale.shared.fired().million["lag_p50_ms"]! },
    Benchmark(name: "host.timers_1M.rss_mb") { HostScale.shared.fired().million["rss_end_mb"]! },
    Benchmark(name: "host.timers_10k.rss_mb") { HostScale.shared.fired().small["rss_end_mb"]! },
    Benchmark(name: "host.timers.rss_ratio_1M_10k", goal: 1.1) {
        let (million, small) = HostScale.shared.fired()
        return million["rss_end_mb"]! / small["rss_end_mb"]!
    },
]
