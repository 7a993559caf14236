// CommitPipeline: the writer of a host (Docs/Hosting.md H17-H19, H22, H24) - instances queue the
// parts their steps write; one thread forms transactions of what is waiting and commits them, one
// at a time, in the order it formed them, while the next one fills.
//
// Invariants:
// - One writer thread; the queue is touched only under `condition`. Parts leave the queue in the
//   order they entered it, so each instance's parts commit in the order its steps made them.
// - A transaction starts when the writer is free and either `batchSize` records wait or the
//   oldest waiting part has waited `maxDelay` (H19); it takes the waiting parts from the front,
//   up to `batchSize` records, and always at least one part (H18).
// - Each part goes on the `Chain` of the incarnation that made it. Once a part fails, every later
//   part of its chain fails with the same error without being written: a refused record is never
//   followed by one of its successors, so no journal gets a gap (the store refuses only records
//   not after its last, D3). A reloaded incarnation has a chain of its own, so however soon it
//   loads, the failed incarnation's parts still queued stay unwritten.
// - Each part's completion is called once, on the writer thread, after its transaction ended:
//   completions must not block (a host hands its work on, H13).

import DequeModule
import Foundation

/// Commits the parts of many instances in few transactions, through one writer thread.
@usableFromInline
final class CommitPipeline: @unchecked Sendable {
    /// When a transaction starts and how much it holds (H18, H19).
    struct Settings: Sendable {
        /// The most records one transaction holds (a part is never split; one larger than this
        /// commits alone).
        var batchSize: Int
        /// How long the oldest waiting part may wait for more to join it; zero: a transaction
        /// starts as soon as the writer is free.
        var maxDelay: Duration

        init(batchSize: Int = 1_000, maxDelay: Duration = .zero) {
            self.batchSize = max(1, batchSize)
            self.maxDelay = max(.zero, maxDelay)
        }
    }

    /// What becomes of a part: `nil` once its transaction committed it, else why it was not kept.
    @usableFromInline typealias Completion = @Sendable (JournalError?) -> Void

    /// The parts of one incarnation of an instance, in the order it made them: once one fails,
    /// the later ones fail with the same error without being written (H22).
    @usableFromInline
    final class Chain: @unchecked Sendable {
        /// The first error of a part of the chain; guarded by the pipeline's `condition`.
        fileprivate var failure: JournalError?

        @usableFromInline
        init() {}
    }

    private struct Waiting {
        let part: HostBatchPart
        let chain: Chain
        let completion: Completion
        let queued: ContinuousClock.Instant
    }

    private let commit: @Sendable (HostBatch) -> [String: JournalError]
    private let settings: Settings
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var queue = Deque<Waiting>()
    private var queuedRecords = 0
    private var closing = false
    private let stopped = DispatchSemaphore(value: 0)

    /// A pipeline that commits each transaction with `commit` (a store's batch commit, H63),
    /// which answers the error of each part it did not keep.
    init(settings: Settings, commit: @escaping @Sendable (HostBatch) -> [String: JournalError]) {
        self.settings = settings
        self.commit = commit
        // The writer holds the pipeline until `close()` stops it.
        let writer = Thread { [self] in run() }
        writer.name = "StateLoop host writer"
        writer.start()
    }

    /// Queues `part` on `chain`; `completion` is called once its transaction has ended. A part
    /// whose chain failed before it was taken fails with that error, unwritten; after `close()`,
    /// every part fails with `JournalError.writerStopped`.
    @usableFromInline
    func enqueue(_ part: HostBatchPart, on chain: Chain, completion: @escaping Completion) {
        condition.lock()
        if closing {
            condition.unlock()
            return completion(.writerStopped)
        }
        queue.append(Waiting(part: part, chain: chain, completion: completion, queued: .now))
        queuedRecords += part.records.count
        condition.signal()
        condition.unlock()
    }

    /// Commits what is queued, then stops the writer; returns once it has stopped (the first
    /// call; a later one returns at once).
    func close() {
        let first = condition.withLock { () -> Bool in
            defer { closing = true }
            condition.signal()
            return !closing
        }
        if first { stopped.wait() }
    }

    // MARK: The writer thread

    private func run() {
        while let (batch, waiting) = nextTransaction() {
            // A batch of empty parts (an instance's release waiting for its queued parts) needs no transaction.
            let refused = batch.parts.allSatisfy(\.isEmpty) ? [:] : commit(batch)
            let failures = condition.withLock { () -> [JournalError?] in
                waiting.map { entry in
                    // A chain whose part failed before this one was taken fails here too.
                    let error = entry.chain.failure ?? refused[entry.part.machine]
                    if entry.chain.failure == nil { entry.chain.failure = error }
                    return error
                }
            }
            for (entry, error) in zip(waiting, failures) { entry.completion(error) }
        }
        stopped.signal()
    }

    /// Waits until a transaction is due (H19) and takes its parts (H18), leaving out those of
    /// chains that failed, which it hands back to fail; `nil` once closed with nothing left.
    private func nextTransaction() -> (HostBatch, [Waiting])? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let oldest = queue.first {
                if closing || queuedRecords >= settings.batchSize || settings.maxDelay == .zero { break }
                let due = oldest.queued + settings.maxDelay
                if ContinuousClock.now >= due { break }
                _ = condition.wait(until: Date(timeIntervalSinceNow: Self.seconds(due - ContinuousClock.now)))
            } else {
                if closing { return nil }
                condition.wait()
            }
        }
        var waiting: [Waiting] = []
        var parts: [HostBatchPart] = []
        var records = 0
        while let next = queue.first, waiting.isEmpty || records + next.part.records.count <= settings.batchSize {
            queue.removeFirst()
            queuedRecords -= next.part.records.count
            records += next.part.records.count
            waiting.append(next)
            if next.chain.failure == nil { parts.append(next.part) }
        }
        return (HostBatch(parts: parts), waiting)
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return max(0, Double(seconds) + Double(attoseconds) / 1e18)
    }
}
