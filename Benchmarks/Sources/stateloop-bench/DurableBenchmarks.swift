// The journal store of StateLoopDurable (Docs/Durability.md): small events appended to a real
// SQLite file in a temporary folder, 1,000 per transaction, at each durability level.

import Foundation
import StateLoopDurable

let durableBenchmarks: [Benchmark] = [
    Benchmark(name: "durable.sqlite.append.events_per_s", floor: 500_000) {
        appendRate(.processCrash, batches: 500)
    },
    Benchmark(name: "durable.sqlite.append_fsync.events_per_s") {
        appendRate(.powerLoss, batches: 50)
    },
]

/// Events per second appended to a new file: `batches` appends of 1,000 records, each an 8-byte
/// event and a 16-byte state (the records are made before the clock starts), the median of
/// `STATELOOP_BENCH_RUNS` runs (5 unless set).
private func appendRate(_ durability: SQLiteJournalStore.Durability, batches: Int) -> Double {
    let batchSize = 1_000
    let records = (0..<batches).map { batch in
        (1...batchSize).map { index in
            let sequence = Int64(batch * batchSize + index)
            let event = withUnsafeBytes(of: sequence, Array.init)
            return JournalRecord(sequence: sequence, event: event, stateAfter: event + event)
        }
    }
    let runs = ProcessInfo.processInfo.environment["STATELOOP_BENCH_RUNS"].flatMap(Int.init) ?? 5
    var rates: [Double] = []
    for _ in 0..<runs {
        let folder = FileManager.default.temporaryDirectory.appending(path: "stateloop-bench-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try! SQLiteJournalStore(path: folder.appending(path: "journal.sqlite").path, durability: durability)
        let start = ContinuousClock.now
        for batch in records { try! store.append(batch, to: "bench") }
        let elapsed = ContinuousClock.now - start
        rates.append(1e9 / nanoseconds(per: batches * batchSize, in: elapsed))
    }
    return rates.sorted()[rates.count / 2]
}

// Durable machines: the Till of the durable demo (Specs/Till.machine.yml, generated into
// Generated/ by Specs/generate.sh) journaled through `Till.durable`, one record per event.

let durableSystemBenchmarks: [Benchmark] = [
    Benchmark(name: "durable.system.events_per_s") {
        Measurements.shared.value("durable.system") { Double(DurableJournal.shared.events) / DurableJournal.shared.writeSeconds }
    },
    Benchmark(name: "durable.recovery.1M_events.s", goal: 1) {
        DurableJournal.shared.recoverySeconds(fromSnapshot: false)
    },
    Benchmark(name: "durable.recovery.from_snapshot.ms", goal: 5) {
        DurableJournal.shared.recoverySeconds(fromSnapshot: true) * 1_000
    },
]

/// A journal of 1,000,000 Till events in a temporary SQLite file, written once per process
/// through a durable system with no snapshot but the initial state's (so a recovery replays
/// every event), kept running so that no stop snapshot is written until the snapshot figure.
final class DurableJournal: @unchecked Sendable {
    static let shared = DurableJournal()
    let events = 1_000_000
    let path: String
    let writeSeconds: Double
    private var writer: DurableSystem<Till>?

    private init() {
        let folder = FileManager.default.temporaryDirectory.appending(path: "stateloop-bench-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appending(path: "till.sqlite").path
        let store = try! SQLiteJournalStore(path: path)
        let done = DispatchSemaphore(value: 0)
        let target = events
        let till = Till.durable(
            id: "till", store: store, initial: .initial, feedbacks: Till.feedbacks(QuietTill(), clock: ContinuousClock()),
            options: DurableOptions(snapshotEvery: Int.max),
            onState: { state in if state.posted == target { done.signal() } })
        let start = ContinuousClock.now
        for k in 1...events { till.send(k % 10 == 0 ? .close(n: k) : .credit(n: k, amount: k % 1_000)) }
        done.wait()
        writeSeconds = seconds(ContinuousClock.now - start)
        writer = till
    }

    /// Seconds from the start of a second durable system on the same journal until it shows the
    /// restored state: replaying every event (measured first, while the writer runs and no
    /// snapshot but the initial one exists), or (`fromSnapshot`) reading the snapshot of the
    /// last event that the writer's stop leaves.
    func recoverySeconds(fromSnapshot: Bool) -> Double {
        if fromSnapshot, let writer {
            writer.stop()
            self.writer = nil
        }
        let store = try! SQLiteJournalStore(path: path)
        let restored = DispatchSemaphore(value: 0)
        let posted = ManagedCounter()
        let start = ContinuousClock.now
        let till = Till.durable(
            id: "till", store: store, initial: .initial, feedbacks: Till.feedbacks(QuietTill(), clock: ContinuousClock()),
            options: DurableOptions(snapshotEvery: Int.max),
            onState: { state in
                posted.value = state.posted
                restored.signal()
            })
        restored.wait()
        let elapsed = seconds(ContinuousClock.now - start)
        guard posted.value == events else { fatalError("durable.recovery restored \(posted.value) of \(events) events") }
        // Its stop writes a snapshot at the last event, which a later recovery reads.
        till.stop()
        return elapsed
    }
}

/// The first state a recovering system shows, read after its semaphore.
final class ManagedCounter: @unchecked Sendable {
    var value = 0
}

/// Till's effects, doing nothing.
struct QuietTill: Till.Effects {
    func audit(_ request: Int) async {}
    func archive(_ request: Int) async {}
}

private func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
