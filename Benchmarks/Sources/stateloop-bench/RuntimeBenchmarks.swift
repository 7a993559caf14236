// RuntimeBenchmarks: the cost of the StateLoop runtime per event, against hand-written floors.
//
// The per-event figures (`baseline.queue`, `runtime.send`, `.restart`, `.stream`, `.set`) are
// measured together, alternated run by run, and each is the median of its runs: the ratios of
// Docs/Effects.md §11 then compare figures taken under the same load. Only the measurements that
// the figures selected by the command line's filter need are taken, so that
// `stateloop-bench runtime.restart` under callgrind runs the restart loop and its baseline only.

import DequeModule
import Dispatch
import Foundation
import StateLoop

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The counter's one event.
enum CounterEvent: Sendable {
    case increment
}

/// The counter's reducer; never inlined, so the baseline and the runtime call the same code.
@inline(never)
@Sendable
func reduceCounter(_ count: inout Int, _ event: CounterEvent) {
    switch event {
    case .increment: count &+= 1
    }
}

/// `events` self-sent events: every state answers with the next event at once, so the queue
/// never runs empty until the last one. The shape of an app whose observer or effects answer
/// every state, or of a steady producer.
func runSelfSentEvents(_ events: Int) {
    let done = DispatchSemaphore(value: 0)
    let system = System(initial: 0, reduce: reduceCounter, feedbacks: [])
    let run = system.start { count, run in
        if count > 0 && count < events { run.send(.increment) }
        if count == events { done.signal() }
    }
    // Drains one budget of events on this thread and hands the rest on to a task (E60).
    run.send(.increment)
    done.wait()
    run.stop()
}

/// The floor under `runtime.send`: the runtime's protocol written by hand, with nothing else.
///
/// A `Deque` of events and a "draining" flag under a pthread mutex (the lock the runtime uses on
/// Linux); the sender that finds nobody draining takes the role and reduces, through a stored
/// closure, the same non-inlined reducer, then pops until the queue is empty. No observer, no
/// feedbacks, no tasks, no stale check.
final class BaselineQueue: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // Guarded by `mutex`, or owned by the drainer (as in the runtime, without dynamic checks).
    @exclusivity(unchecked) private var queue = Deque<CounterEvent>()
    @exclusivity(unchecked) private var isDraining = false
    @exclusivity(unchecked) private(set) var count = 0
    private let reduce: @Sendable (inout Int, CounterEvent) -> Void

    init(reduce: @escaping @Sendable (inout Int, CounterEvent) -> Void) {
        self.reduce = reduce
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    func send(_ event: CounterEvent) {
        pthread_mutex_lock(mutex)
        if isDraining {
            queue.append(event)
            pthread_mutex_unlock(mutex)
            return
        }
        isDraining = true
        pthread_mutex_unlock(mutex)
        reduce(&count, event)
        while true {
            pthread_mutex_lock(mutex)
            guard let next = queue.popFirst() else {
                isDraining = false
                pthread_mutex_unlock(mutex)
                return
            }
            pthread_mutex_unlock(mutex)
            reduce(&count, next)
        }
    }
}

/// Instants that the observer of a system records and the measuring thread reads once the
/// system has signalled; the runtime never calls the observer concurrently with itself.
final class Marks: @unchecked Sendable {
    var first: ContinuousClock.Instant?
    var last: ContinuousClock.Instant?
    /// Transitions a hook has seen.
    var count = 0
}

/// `events` sends into a `BaselineQueue`.
@inline(never)
func baselineQueueLoop(_ events: Int) -> Duration {
    let queue = BaselineQueue(reduce: reduceCounter)
    let elapsed = ContinuousClock().measure {
        for _ in 0..<events { queue.send(.increment) }
    }
    guard queue.count == events else { fatalError("baseline.queue reduced \(queue.count) of \(events) events") }
    return elapsed
}

/// `events` sends into a counter with three quiet feedbacks (their requests stay `nil`: the
/// price of asking them on every event).
@inline(never)
func sendLoop(_ events: Int) -> Duration {
    let quiet = Feedback<Int, CounterEvent>.react(
        request: { (_: Int) -> Int? in nil }, effect: { _ in .increment })
    let system = System(initial: 0, reduce: reduceCounter, feedbacks: [quiet, quiet, quiet])
    let run = system.start { state in blackHole(state) }
    let elapsed = ContinuousClock().measure {
        for _ in 0..<events { run.send(.increment) }
    }
    run.stop()
    return elapsed
}

/// `events` sends of `next` into the generated Flat machine (Benchmarks/Specs), with the opt-in
/// transition hook of `system(onTransition:)` or without it: what transition coverage costs a
/// running machine, and that it costs nothing when off.
@inline(never)
func generatedSendLoop(_ events: Int, traced: Bool) -> Duration {
    let taken = Marks()
    let system = traced ? Flat.system(onTransition: { _ in taken.count &+= 1 }) : Flat.system()
    let run = system.start { state in blackHole(state) }
    let elapsed = ContinuousClock().measure {
        for _ in 0..<events { run.send(.next) }
    }
    run.stop()
    guard taken.count == (traced ? events : 0) else { fatalError("runtime.generated: the hook saw \(taken.count) of \(events) transitions") }
    return elapsed
}

/// `events` events, each of which changes the request, so each cancels one effect run and starts
/// another, whose answer (at once) comes back through the queue.
@inline(never)
func restartLoop(_ events: Int) -> Duration {
    let done = DispatchSemaphore(value: 0)
    let restarting = Feedback<Int, CounterEvent>.react(
        request: { count in count < events ? count : nil }, effect: { _ in .increment })
    let system = System(initial: 0, reduce: reduceCounter, feedbacks: [restarting])
    let clock = ContinuousClock()
    let start = clock.now
    let run = system.start { count in
        if count == events { done.signal() }
    }
    done.wait()
    let elapsed = clock.now - start
    run.stop()
    return elapsed
}

/// `rearms` events, each a new request of one 60 s `ContinuousClock` timer, so each re-arms it:
/// a debounce state re-entered `rearms` times (Docs/Runtime.md, E59). Stops the instance and
/// lets a second pass, then returns: what is still resident is what re-arming left behind.
func rearmTimer(_ rearms: Int) {
    let system = System<Int, CounterEvent>(
        initial: 0, reduce: reduceCounter,
        feedbacks: [.timer(request: { $0 }, clock: ContinuousClock(), delay: { _ in .seconds(60) }, event: { _ in .increment })])
    let run = system.start { _ in }
    for _ in 0..<rearms { run.send(.increment) }
    run.stop()
    Thread.sleep(forTimeInterval: 1)
}

/// `replacements` events, each replacing the one element of a 60 s `ContinuousClock` timer set:
/// a debounce by `send: {id:}`, whose pending send is the set (Docs/Runtime.md, E59; S129).
/// Stops the instance and lets a second pass, then returns: what is still resident is what the
/// replaced sends left behind.
func replaceSends(_ replacements: Int) {
    let system = System<Int, CounterEvent>(
        initial: 0, reduce: reduceCounter,
        feedbacks: [.timers(requests: { [$0] }, clock: ContinuousClock(), delay: { _ in .seconds(60) }, event: { _ in .increment })])
    let run = system.start { _ in }
    for _ in 0..<replacements { run.send(.increment) }
    run.stop()
    Thread.sleep(forTimeInterval: 1)
}

/// One stream effect whose `AsyncStream` (unbounded buffer) is fed `events` elements by a
/// producer task, each fed back into the counter; timed from the first element's state to the
/// last one's.
@inline(never)
func streamLoop(_ events: Int) -> Duration {
    let done = DispatchSemaphore(value: 0)
    let marks = Marks()
    let streaming = Feedback<Int, CounterEvent>.react(
        request: { _ in true },
        run: { _, send in
            let stream = AsyncStream<CounterEvent>(bufferingPolicy: .unbounded) { continuation in
                Task {
                    for _ in 0..<events { continuation.yield(.increment) }
                    continuation.finish()
                }
            }
            for await event in stream { send(event) }
        })
    let system = System(initial: 0, reduce: reduceCounter, feedbacks: [streaming])
    let clock = ContinuousClock()
    let run = system.start { count in
        if count == 1 { marks.first = clock.now }
        if count == events {
            marks.last = clock.now
            done.signal()
        }
    }
    done.wait()
    run.stop()
    guard let first = marks.first, let last = marks.last else { fatalError("runtime.stream: no first or last state") }
    return (last - first) * (Double(events) / Double(events - 1))
}

/// The set benchmark's state: the window `low ..< low + 8`, which of its elements have answered
/// (bit `i` for `low + i`), and how many events were reduced.
struct Window: Sendable {
    var low = 0
    var answered: UInt8 = 0
    var events = 0
}

/// An element's run has answered.
enum WindowEvent: Sendable {
    case answered(Int)
}

/// Marks the element answered and moves the window past every answered element at its start:
/// by one when the runs answer in the order they started, and no element leaves before its
/// event is reduced (so none is ever dropped as stale and the benchmark cannot stall).
@inline(never)
@Sendable
func reduceWindow(_ window: inout Window, _ event: WindowEvent) {
    switch event {
    case .answered(let element):
        window.events &+= 1
        window.answered |= UInt8(1) << UInt8(element - window.low)
        while window.answered & 1 != 0 {
            window.low += 1
            window.answered >>= 1
        }
    }
}

/// A set effect over the window of 8 consecutive integers; each element's run answers at once,
/// and its event moves the window by one (one element leaves, one arrives).
@inline(never)
func setLoop(_ events: Int) -> Duration {
    let done = DispatchSemaphore(value: 0)
    let window = Feedback<Window, WindowEvent>.react(
        requests: { window in window.events < events ? Set(window.low..<window.low + 8) : [] },
        effect: { element in .answered(element) })
    let system = System(initial: Window(), reduce: reduceWindow, feedbacks: [window])
    let clock = ContinuousClock()
    let start = clock.now
    let run = system.start { window in
        if window.events == events { done.signal() }
    }
    done.wait()
    let elapsed = clock.now - start
    run.stop()
    return elapsed
}

/// The per-event measurements behind the runtime's figures.
enum RuntimeMeasurement: CaseIterable, Hashable, Sendable {
    case queue, send, restart, stream, set, generated, traced

    /// Events per timed run.
    var events: Int { 1_000_000 }

    /// One run's nanoseconds per event.
    func measure() -> Double {
        let elapsed: Duration
        switch self {
        case .queue: elapsed = baselineQueueLoop(events)
        case .send: elapsed = sendLoop(events)
        case .restart: elapsed = restartLoop(events)
        case .stream: elapsed = streamLoop(events)
        case .set: elapsed = setLoop(events)
        case .generated: elapsed = generatedSendLoop(events, traced: false)
        case .traced: elapsed = generatedSendLoop(events, traced: true)
        }
        return nanoseconds(per: events, in: elapsed)
    }
}

/// Timed runs of each measurement, alternated, of which each figure is the median: 5, or 1 with
/// `STATELOOP_BENCH_RUNS=1` (for callgrind), after one untimed warm-up run of each.
let runtimeRuns = Int(ProcessInfo.processInfo.environment["STATELOOP_BENCH_RUNS"] ?? "") ?? 5

/// One runtime figure: its name, the measurements it needs, and how it combines them.
struct RuntimeFigure: Sendable {
    let name: String
    var goal: Double? = nil
    let needs: [RuntimeMeasurement]
    let value: @Sendable ([RuntimeMeasurement: Double]) -> Double
}

/// The per-event figures. Ratios are of medians measured in the same process, alternated.
let runtimeFigures: [RuntimeFigure] = [
    RuntimeFigure(name: "baseline.queue.ns_per_event", needs: [.queue]) { $0[.queue]! },
    RuntimeFigure(name: "runtime.send.ns_per_event", needs: [.send]) { $0[.send]! },
    RuntimeFigure(name: "runtime.send_over_queue.ratio", goal: 1.2, needs: [.send, .queue]) { $0[.send]! / $0[.queue]! },
    RuntimeFigure(name: "runtime.restart.ns_per_event", goal: 500, needs: [.restart]) { $0[.restart]! },
    RuntimeFigure(name: "runtime.restart_over_queue.ratio", goal: 8, needs: [.restart, .queue]) { $0[.restart]! / $0[.queue]! },
    RuntimeFigure(name: "runtime.stream.ns_per_event", needs: [.stream]) { $0[.stream]! },
    RuntimeFigure(name: "runtime.stream_over_send.ratio", goal: 2, needs: [.stream, .send]) { $0[.stream]! / $0[.send]! },
    RuntimeFigure(name: "runtime.set.ns_per_event", needs: [.set]) { $0[.set]! },
    RuntimeFigure(name: "runtime.set_over_restart.ratio", goal: 1.0, needs: [.set, .restart]) { $0[.set]! / $0[.restart]! },
    RuntimeFigure(name: "runtime.generated.ns_per_event", needs: [.generated]) { $0[.generated]! },
    RuntimeFigure(name: "runtime.generated_traced.ns_per_event", needs: [.traced]) { $0[.traced]! },
    RuntimeFigure(name: "runtime.traced_over_untraced.ratio", needs: [.traced, .generated]) { $0[.traced]! / $0[.generated]! },
]

/// The measurements, taken once per process: those that the figures the filter selects need.
final class RuntimeTimes: @unchecked Sendable {
    static let shared = RuntimeTimes()
    private let lock = NSLock()
    private var measured: [RuntimeMeasurement: Double]?

    /// Nanoseconds per event of every needed measurement.
    func nanosecondsPerEvent() -> [RuntimeMeasurement: Double] {
        lock.lock()
        defer { lock.unlock() }
        if let measured { return measured }
        let filter = CommandLine.arguments.dropFirst().first
        let selected = runtimeFigures.filter { figure in filter.map(figure.name.contains) ?? true }
        let needed = RuntimeMeasurement.allCases.filter { measurement in
            selected.contains { $0.needs.contains(measurement) }
        }
        var samples: [RuntimeMeasurement: [Double]] = [:]
        for run in 0...runtimeRuns {
            for measurement in needed {
                let value = measurement.measure()
                if run > 0 { samples[measurement, default: []].append(value) }  // run 0 warms up
            }
        }
        let result = samples.mapValues(median)
        measured = result
        return result
    }
}

/// The runtime's child modes of this executable (see main.swift): reduce N self-sent events, or
/// N restarting events, then print the process's peak resident memory in MiB.
enum RuntimeChildMode {
    static let selfSent = "--child-self-sent-events"
    static let restarts = "--child-restarting-events"
    static let rearms = "--child-rearmed-timers"
    static let replacedSends = "--child-replaced-sends"

    /// Runs the mode named by `arguments` and exits; returns when they name none.
    static func runIfRequested(_ arguments: [String]) {
        guard let mode = arguments.dropFirst().first, [selfSent, restarts, rearms, replacedSends].contains(mode),
            arguments.count == 3, let events = Int(arguments[2])
        else { return }
        if mode == selfSent {
            runSelfSentEvents(events)
        } else if mode == rearms {
            rearmTimer(events)
        } else if mode == replacedSends {
            replaceSends(events)
        } else {
            _ = restartLoop(events)
        }
        print(peakResidentMiB())
        exit(0)
    }
}

/// The runtime's figures: the physical limit, the hand-written queue, plain sends, effects
/// restarted on every event, a stream, a set, and whether memory stays flat.
let runtimeBenchmarks: [Benchmark] = [
    Benchmark(name: "baseline.loop.ns_per_event") {
        let events = 10_000_000
        var count = 0
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for _ in 0..<events { reduceCounter(&count, .increment) }
        }
        blackHole(count)
        return nanoseconds(per: events, in: elapsed)
    },
] + runtimeFigures.map { figure in
    Benchmark(name: figure.name, goal: figure.goal) { figure.value(RuntimeTimes.shared.nanosecondsPerEvent()) }
} + [
    Benchmark(name: "runtime.memory.rss_ratio_10M_1M", goal: 1.1) {
        // Peak resident memory of a fresh child after 10 M self-sent events, over that of one
        // after 1 M: 1.0 when the queue holds only the waiting events.
        do {
            let oneMillion = try runChild([RuntimeChildMode.selfSent, "1000000"])
            let tenMillion = try runChild([RuntimeChildMode.selfSent, "10000000"])
            return tenMillion / oneMillion
        } catch {
            fatalError("\(error)")
        }
    },

    Benchmark(name: "runtime.memory.timer_rearm_rss_ratio_1M_100K", goal: 1.1) {
        // Peak resident memory of a fresh child that re-armed a 60 s timer 1 M times and
        // stopped, over that of one that re-armed it 100 K times: 1.0 when a re-arm leaves
        // nothing behind (E59; ~8 when every arming kept its cancelled sleep).
        do {
            let hundredThousand = try runChild([RuntimeChildMode.rearms, "100000"])
            let oneMillion = try runChild([RuntimeChildMode.rearms, "1000000"])
            return oneMillion / hundredThousand
        } catch {
            fatalError("\(error)")
        }
    },

    Benchmark(name: "runtime.memory.send_replace_rss_ratio_1M_100K", goal: 1.1) {
        // The same for a pending send replaced by its id 1 M and 100 K times (a debounce, S129):
        // its timer waits in the timer set's one wait, so a replaced send leaves nothing behind
        // (E59; each replaced send kept ~750 bytes until its old deadline before).
        do {
            let hundredThousand = try runChild([RuntimeChildMode.replacedSends, "100000"])
            let oneMillion = try runChild([RuntimeChildMode.replacedSends, "1000000"])
            return oneMillion / hundredThousand
        } catch {
            fatalError("\(error)")
        }
    },

    Benchmark(name: "runtime.memory.restart_rss_ratio_10M_1M", goal: 1.1) {
        // The same for 10 M and 1 M events that each restart an effect: 1.0 when a finished or
        // cancelled run leaves nothing behind.
        do {
            let oneMillion = try runChild([RuntimeChildMode.restarts, "1000000"])
            let tenMillion = try runChild([RuntimeChildMode.restarts, "10000000"])
            return tenMillion / oneMillion
        } catch {
            fatalError("\(error)")
        }
    },
]
