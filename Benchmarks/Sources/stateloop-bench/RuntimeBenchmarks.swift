// RuntimeBenchmarks: the cost of the StateLoop runtime per event, against a hand-written loop.

import Dispatch
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

/// The runtime's figures: physical limit, plain sends, and an effect restarted on every event.
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
]
