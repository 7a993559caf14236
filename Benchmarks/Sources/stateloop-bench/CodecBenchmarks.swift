// The journal's encoding (Docs/Durability.md D22–D29) on the durable demo's machine, Till
// (Specs/Till.machine.yml, generated into Generated/ by Specs/generate.sh): what replaying a
// journal costs per event, besides SQLite's read, and what a snapshot of its state costs to write
// and read.
//
// The goal of `event_decode_reduce_ns`: a 1,000,000-event replay in 1 s (issue 21) leaves SQLite's
// read about half of it, so decoding one small event and reducing it may take at most 500 ns.

import Foundation
import StateLoop

let codecBenchmarks: [Benchmark] = [
    Benchmark(name: "durable.codec.event_decode_reduce_ns", goal: 500) {
        medianNanoseconds(count: codecEvents) { eventDecodeReduceLoop() }
    },
    Benchmark(name: "durable.codec.state_encode_ns") {
        medianNanoseconds(count: codecStates) { stateEncodeLoop() }
    },
    Benchmark(name: "durable.codec.state_decode_ns") {
        medianNanoseconds(count: codecStates) { stateDecodeLoop() }
    },
    Benchmark(name: "durable.codec.state_bytes") {
        Double(encoded(codecState).count)
    },
]

/// Events per timed run of the replay figure, and states per run of the state figures.
private let codecEvents = 1_000_000
private let codecStates = 200_000

/// 1,000 encoded `credit(n:amount:)` events, as a journal's records hold them, one byte array
/// each: the replay reads each record's event into its own reader.
private let encodedEvents: [[UInt8]] = (0..<1_000).map { encoded(Till.Event.credit(n: 1_000_000 + $0, amount: 1 + $0 % 250)) }

/// Till after 10,000 entries, a batch closing: every context field set, a run queued, a timer armed.
private let codecState: Till.State = {
    var state = Till.State.initial
    for n in 1..<10_000 { Till.reduce(&state, .credit(n: n, amount: n % 97)) }
    Till.reduce(&state, .close(n: 10_000))
    return state
}()

private func encoded<T: JournalCodable>(_ value: T) -> [UInt8] {
    var writer = JournalWriter()
    writer.write(value)
    return writer.bytes
}

/// The median over `STATELOOP_BENCH_RUNS` runs (5 unless set) of nanoseconds per operation of
/// `loop`, which does `count` operations; a first run warms up.
private func medianNanoseconds(count: Int, _ loop: () -> Void) -> Double {
    let runs = ProcessInfo.processInfo.environment["STATELOOP_BENCH_RUNS"].flatMap(Int.init) ?? 5
    loop()
    var figures: [Double] = []
    for _ in 0..<runs {
        let start = ContinuousClock.now
        loop()
        figures.append(nanoseconds(per: count, in: ContinuousClock.now - start))
    }
    return figures.sorted()[figures.count / 2]
}

/// A replay: each event decoded from its record's bytes, then reduced.
@inline(never)
private func eventDecodeReduceLoop() {
    var state = codecState
    let records = encodedEvents
    for index in 0..<codecEvents {
        var reader = JournalReader(records[index % records.count])
        guard let event = try? Till.Event(from: &reader) else { fatalError("an event of the benchmark does not decode") }
        Till.reduce(&state, event)
    }
    blackHole(state)
}

@inline(never)
private func stateEncodeLoop() {
    let state = codecState
    var total = 0
    for _ in 0..<codecStates { total &+= encoded(state).count }
    blackHole(total)
}

@inline(never)
private func stateDecodeLoop() {
    let bytes = encoded(codecState)
    for _ in 0..<codecStates {
        var reader = JournalReader(bytes)
        guard let state = try? Till.State(from: &reader) else { fatalError("the state of the benchmark does not decode") }
        blackHole(state)
    }
}
