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
func appendRate(_ durability: SQLiteJournalStore.Durability, batches: Int) -> Double {
    let batchSize = 1_000
    let records = (0..<batches).map { batch in
        (1...batchSize).map { index in
            let sequence = Int64(batch * batchSize + index)
            let event = withUnsafeBytes(of: sequence, Array.init)
            return JournalRecord(sequence: sequence, event: event, stateAfter: event + event)
        }
    }
    return medianOfRuns {
        withTemporaryFolder { folder in
            let store = try! SQLiteJournalStore(path: folder.appending(path: "journal.sqlite").path, durability: durability)
            let start = ContinuousClock.now
            for batch in records { try! store.append(batch, to: "bench") }
            let elapsed = ContinuousClock.now - start
            return 1e9 / nanoseconds(per: batches * batchSize, in: elapsed)
        }
    }
}
