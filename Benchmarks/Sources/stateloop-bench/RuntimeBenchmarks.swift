// RuntimeBenchmarks: the cost of the StateLoop runtime per event, against a hand-written loop.

import Dispatch
import Foundation
import StateLoop

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

/// A run handle that the counter's observer sends to (set once `start` has returned).
final class RunHandle: @unchecked Sendable {
    var run: SystemRun<Int, CounterEvent>?
}

/// `events` self-sent events: every state answers with the next event at once, so the queue
/// never runs empty until the last one. The shape of an app whose observer or effects answer
/// every state, or of a steady producer.
func runSelfSentEvents(_ events: Int) {
    let handle = RunHandle()
    let system = System(initial: 0, reduce: reduceCounter, feedbacks: [])
    let run = system.start { count in
        if count > 0 && count < events { handle.run?.send(.increment) }
    }
    handle.run = run
    run.send(.increment)  // drains all `events` on this thread
    handle.run = nil
    run.stop()
}

/// The runtime's child mode of this executable (see main.swift): reduce N self-sent events, then
/// print the process's peak resident memory in MiB.
enum RuntimeChildMode {
    static let selfSent = "--child-self-sent-events"

    /// Runs the mode named by `arguments` and exits; returns when they name none.
    static func runIfRequested(_ arguments: [String]) {
        guard arguments.dropFirst().first == selfSent, arguments.count == 3, let events = Int(arguments[2])
        else { return }
        runSelfSentEvents(events)
        print(peakResidentMiB())
        exit(0)
    }
}

/// The runtime's figures: physical limit, plain sends, an effect restarted on every event, and
/// whether memory stays flat while a queue never runs empty.
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

    Benchmark(name: "runtime.send.ns_per_event") {
        // Three loops whose requests stay nil: the price of asking them on every event.
        let quiet = Feedback<Int, CounterEvent>.react(
            request: { (_: Int) -> Int? in nil }, effect: { _ in .increment })
        let system = System(initial: 0, reduce: reduceCounter, feedbacks: [quiet, quiet, quiet])
        let run = system.start { state in blackHole(state) }
        let events = 1_000_000
        for _ in 0..<10_000 { run.send(.increment) }  // warm-up
        let elapsed = ContinuousClock().measure {
            for _ in 0..<events { run.send(.increment) }
        }
        run.stop()
        return nanoseconds(per: events, in: elapsed)
    },

    Benchmark(name: "runtime.restart.ns_per_event") {
        // Every event changes the request, so every event cancels one effect task and starts
        // another, whose answer comes back through the queue.
        let target = 1_000_000
        let done = DispatchSemaphore(value: 0)
        let restarting = Feedback<Int, CounterEvent>.react(
            request: { count in count < target ? count : nil }, effect: { _ in .increment })
        let system = System(initial: 0, reduce: reduceCounter, feedbacks: [restarting])
        let clock = ContinuousClock()
        let start = clock.now
        let run = system.start { count in
            if count == target { done.signal() }
        }
        done.wait()
        let elapsed = clock.now - start
        run.stop()
        return nanoseconds(per: target, in: elapsed)
    },

    Benchmark(name: "runtime.memory.rss_ratio_10M_1M") {
        // Peak resident memory of a fresh child after 10 M self-sent events, over that of one
        // after 1 M: 1.0 when the queue holds only the waiting events (goal: at most 1.1).
        do {
            let oneMillion = try runChild([RuntimeChildMode.selfSent, "1000000"])
            let tenMillion = try runChild([RuntimeChildMode.selfSent, "10000000"])
            return tenMillion / oneMillion
        } catch {
            fatalError("\(error)")
        }
    },
]
