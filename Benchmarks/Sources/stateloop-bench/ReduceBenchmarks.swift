// ReduceBenchmarks: what a transition between two sibling leaves four composites deep costs in the
// generated reducer, against a transition between two states of a flat machine (issue 9: "a
// transition in a 4-deep machine reduces within 2x a flat one").
//
// The two machines are Benchmarks/Specs/Hierarchical4.machine.yml and Flat.machine.yml; their
// generated Swift is checked in under Generated/ (regenerate with Benchmarks/Specs/generate.sh;
// the figures refuse to run on a stale copy). Each event is `next`, which moves x -> y -> x with
// `set: {count: count + 1}`; in Hierarchical4 the transition's domain is the innermost composite
// `d`, in Flat it is the machine. Both reducers are called the way `System` calls them, through a
// closure, with an event the optimizer cannot see, so the loop measures `reduce` and not a
// constant-folded copy of it.
//
// FlatSends.machine.yml is Flat with a `send:`, a `raise:` and a `cancel:` off the measured path:
// the reducer of a machine that has the raised queue and pending sends, on a transition that uses
// neither. A machine that neither raises nor sends pays nothing for them: its generated Swift is
// what it was before either existed (Generated/Flat.machine.swift has not changed since, and
// SendGenerationTests and RaiseTests check that no such machine gets their code).

import Foundation
import StateLoopCodegen

/// Events per timed run.
let reduceEvents = 10_000_000

/// Timed runs of each machine, alternated, of which each figure is the median: 7, or 1 with
/// `STATELOOP_BENCH_RUNS=1` (for callgrind), after one untimed warm-up run of each.
let reduceRuns = Int(ProcessInfo.processInfo.environment["STATELOOP_BENCH_RUNS"] ?? "") ?? 7

/// Hides `value` from the optimizer.
@inline(never)
func opaque<T>(_ value: T) -> T { value }

/// `events` steps of `reduce` from `initial`, each with `event`; returns the final state.
/// Not inlined, so that callgrind shows each machine's loop as a function of its own.
@inline(never)
func reduceLoopHierarchical4(_ events: Int) -> Hierarchical4.State {
    let reduce: (inout Hierarchical4.State, Hierarchical4.Event) -> Void = opaque({ Hierarchical4.reduce(&$0, $1) })
    let event = opaque(Hierarchical4.Event.next)
    var state = Hierarchical4.State.initial
    for _ in 0..<events { reduce(&state, event) }
    return state
}

@inline(never)
func reduceLoopFlat(_ events: Int) -> Flat.State {
    let reduce: (inout Flat.State, Flat.Event) -> Void = opaque({ Flat.reduce(&$0, $1) })
    let event = opaque(Flat.Event.next)
    var state = Flat.State.initial
    for _ in 0..<events { reduce(&state, event) }
    return state
}

@inline(never)
func reduceLoopFlatSends(_ events: Int) -> FlatSends.State {
    let reduce: (inout FlatSends.State, FlatSends.Event) -> Void = opaque({ FlatSends.reduce(&$0, $1) })
    let event = opaque(FlatSends.Event.next)
    var state = FlatSends.State.initial
    for _ in 0..<events { reduce(&state, event) }
    return state
}

/// Fails when the checked-in Swift of a reduce benchmark's spec is not what the generator now
/// writes for it, so a figure is never measured on old code. Skipped when the sources are not
/// where this file was compiled (a copied executable).
func checkGeneratedMachinesAreCurrent() {
    let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    let specs = here.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Specs")
    for name in ["Hierarchical4", "Flat", "FlatSends"] {
        let spec = specs.appendingPathComponent("\(name).machine.yml")
        let swift = here.appendingPathComponent("Generated/\(name).machine.swift")
        guard let yaml = try? Data(contentsOf: spec), let checkedIn = try? String(contentsOf: swift, encoding: .utf8) else { continue }
        let output = GeneratorPipeline().generate(contents: [UInt8](yaml), path: "\(name).machine.yml")
        guard output.source == checkedIn, output.diagnostics.isEmpty else {
            fatalError("\(swift.path) is not what the generator writes for \(spec.lastPathComponent) now: run Benchmarks/Specs/generate.sh and rebuild")
        }
    }
}

/// The reduce figures, measured once per process, the machines in the same process and
/// alternated run by run, so that a change in the machine's load touches them alike.
final class ReduceTimes: @unchecked Sendable {
    /// Nanoseconds per event of each machine.
    struct Figures {
        var hierarchical: Double
        var flat: Double
        var flatSends: Double
    }

    static let shared = ReduceTimes()
    private let lock = NSLock()
    private var measured: Figures?

    func nanosecondsPerEvent() -> Figures {
        lock.lock()
        defer { lock.unlock() }
        if let measured { return measured }
        checkGeneratedMachinesAreCurrent()
        let clock = ContinuousClock()
        var hierarchical: [Double] = []
        var flat: [Double] = []
        var flatSends: [Double] = []
        for run in 0...reduceRuns {
            var h = Hierarchical4.State.initial
            var f = Flat.State.initial
            var s = FlatSends.State.initial
            let hTime = clock.measure { h = reduceLoopHierarchical4(reduceEvents) }
            let fTime = clock.measure { f = reduceLoopFlat(reduceEvents) }
            let sTime = clock.measure { s = reduceLoopFlatSends(reduceEvents) }
            // The machines did the same: reduceEvents transitions, ending where they started.
            guard h.count == reduceEvents, h.mode == .a(.b(.c(.d(.x)))), f.count == reduceEvents, f.mode == .x,
                  s.count == reduceEvents, s.mode == .x, s.pendingSends.isEmpty
            else {
                fatalError("the reduce benchmarks' machines did not take every transition: \(h), \(f), \(s)")
            }
            if run > 0 {  // run 0 warms up
                hierarchical.append(nanoseconds(per: reduceEvents, in: hTime))
                flat.append(nanoseconds(per: reduceEvents, in: fTime))
                flatSends.append(nanoseconds(per: reduceEvents, in: sTime))
            }
        }
        let result = Figures(hierarchical: median(hierarchical), flat: median(flat), flatSends: median(flatSends))
        measured = result
        return result
    }
}

/// The reducer's figures.
let reduceBenchmarks: [Benchmark] = [
    Benchmark(name: "reduce.hierarchical4.ns_per_event") { ReduceTimes.shared.nanosecondsPerEvent().hierarchical },
    Benchmark(name: "reduce.flat.ns_per_event") { ReduceTimes.shared.nanosecondsPerEvent().flat },
    Benchmark(name: "reduce.hierarchical4_over_flat.ratio", goal: 2.0) {
        let times = ReduceTimes.shared.nanosecondsPerEvent()
        return times.hierarchical / times.flat
    },
    Benchmark(name: "reduce.flat_sends.ns_per_event") { ReduceTimes.shared.nanosecondsPerEvent().flatSends },
    Benchmark(name: "reduce.flat_sends_over_flat.ratio", goal: 1.3) {
        let times = ReduceTimes.shared.nanosecondsPerEvent()
        return times.flatSends / times.flat
    },
]
