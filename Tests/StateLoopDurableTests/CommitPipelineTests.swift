// A host's writer (Docs/Hosting.md H17-H19, H22, H24): CommitPipeline forms transactions of the
// parts waiting and commits them one at a time; what each part became reaches its completion.

import CSQLite
import Dispatch
import Foundation
@testable import StateLoopDurable
import StateLoopTestSupport
import Testing

/// A commit that records each batch it is given and can hold the writer inside a commit until the
/// test lets it go, answering through `store` (or keeping nothing and refusing nothing).
final class RecordingCommit: @unchecked Sendable {
    private let lock = NSLock()
    private var batches: [HostBatch] = []
    private var inside = 0
    private var mostInside = 0
    private var held: DispatchSemaphore?
    private let entered = DispatchSemaphore(value: 0)
    let store: InMemoryJournalStore?

    init(store: InMemoryJournalStore? = nil) { self.store = store }

    var committed: [HostBatch] { lock.withLock { batches } }
    var mostAtOnce: Int { lock.withLock { mostInside } }

    /// The next commit waits inside until `release()`; returns once the writer is inside it.
    func holdNext() -> () -> Void {
        let gate = DispatchSemaphore(value: 0)
        lock.withLock { held = gate }
        return { gate.signal() }
    }

    /// Waits until the writer entered a commit.
    func waitUntilInside() { entered.wait() }

    func commit(_ batch: HostBatch) -> [String: JournalError] {
        let gate = lock.withLock { () -> DispatchSemaphore? in
            batches.append(batch)
            inside += 1
            mostInside = max(mostInside, inside)
            defer { held = nil }
            return held
        }
        entered.signal()
        gate?.wait()
        let refused = store?.commit(batch) ?? [:]
        lock.withLock { inside -= 1 }
        return refused
    }
}

/// What became of each part, by a name the test gives it.
final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [String: JournalError?] = [:]
    private let done = DispatchSemaphore(value: 0)

    func completion(_ name: String) -> CommitPipeline.Completion {
        { error in
            self.lock.withLock { self.results[name] = .some(error) }
            self.done.signal()
        }
    }

    /// Waits for `count` completions, then gives every result so far.
    func wait(for count: Int) -> [String: JournalError?] {
        for _ in 0..<count { done.wait() }
        return lock.withLock { results }
    }
}

/// The chain of each instance's incarnation in a test, by the instance's id.
final class Chains: @unchecked Sendable {
    private let lock = NSLock()
    private var chains: [String: CommitPipeline.Chain] = [:]

    subscript(_ machine: String) -> CommitPipeline.Chain {
        lock.withLock {
            if let chain = chains[machine] { return chain }
            let chain = CommitPipeline.Chain()
            chains[machine] = chain
            return chain
        }
    }

    /// A new incarnation of `machine`: its parts go on a chain of their own.
    func reload(_ machine: String) { lock.withLock { chains[machine] = nil } }
}

/// A pipeline over a store in which instance "a" holds records 1...2, its first transaction held
/// until `release()`: where the H22 tests refuse a part of "a".
struct HeldPipeline {
    /// What the store answers a part of "a" that starts at 2.
    static let refused = JournalError.sequenceNotAfter(machine: "a", sequence: 2, last: 2)

    let store = InMemoryJournalStore()
    let commit: RecordingCommit
    let pipeline: CommitPipeline
    let outcomes = Outcomes()
    let chains = Chains()
    let release: () -> Void

    init() throws {
        try store.append(records(1...2), to: "a")
        commit = RecordingCommit(store: store)
        pipeline = CommitPipeline(settings: .init(batchSize: 100), commit: commit.commit)
        release = commit.holdNext()
    }
}

func part(_ machine: String, _ range: ClosedRange<Int64>) -> HostBatchPart {
    HostBatchPart(machine: machine, records: records(range))
}

@Suite struct CommitPipelineTests {
    @Test("H17: one writer commits the host's transactions one at a time, in the order it formed them, while the next one fills; H18: a transaction holds every part waiting when it starts, of any number of instances, each instance's in order")
    func h17OneWriterCommitsInOrderWhileTheNextFills() {
        let commit = RecordingCommit()
        let pipeline = CommitPipeline(settings: .init(batchSize: 1_000), commit: commit.commit)
        let outcomes = Outcomes()
        let chains = Chains()
        let release = commit.holdNext()
        pipeline.enqueue(part("a", 1...1), on: chains["a"], completion: outcomes.completion("a1"))
        commit.waitUntilInside()
        // While the writer is inside the first commit, the next transaction fills.
        pipeline.enqueue(part("b", 1...2), on: chains["b"], completion: outcomes.completion("b1"))
        pipeline.enqueue(part("a", 2...2), on: chains["a"], completion: outcomes.completion("a2"))
        pipeline.enqueue(part("c", 1...1), on: chains["c"], completion: outcomes.completion("c1"))
        pipeline.enqueue(part("b", 3...3), on: chains["b"], completion: outcomes.completion("b3"))
        release()
        #expect(outcomes.wait(for: 5).values.allSatisfy { $0 == nil })
        pipeline.close()
        #expect(commit.committed.map { $0.parts.map(\.machine) } == [["a"], ["b", "a", "c", "b"]])
        #expect(commit.committed[1].parts.map { $0.records.map(\.sequence) } == [[1, 2], [2], [1], [3]])
        #expect(commit.mostAtOnce == 1, "two transactions were committed at once")
    }

    @Test("H18: a transaction holds at most batchSize records, a part never split (one larger commits alone)")
    func h18ATransactionHoldsAtMostTheBatchSize() {
        let commit = RecordingCommit()
        let pipeline = CommitPipeline(settings: .init(batchSize: 3), commit: commit.commit)
        let outcomes = Outcomes()
        let chains = Chains()
        let release = commit.holdNext()
        pipeline.enqueue(part("x", 1...1), on: chains["x"], completion: outcomes.completion("x"))
        commit.waitUntilInside()
        for (index, size) in [1, 1, 1, 1, 5, 2, 2].enumerated() {
            pipeline.enqueue(part("m\(index)", 1...Int64(size)), on: chains["m\(index)"], completion: outcomes.completion("m\(index)"))
        }
        release()
        _ = outcomes.wait(for: 8)
        pipeline.close()
        #expect(commit.committed.map { $0.parts.map(\.records.count) } == [[1], [1, 1, 1], [1], [5], [2], [2]])
    }

    @Test("H19: with a longest wait, a transaction starts once batchSize records wait or the oldest part has waited that long, not before")
    func h19ATransactionWaitsForTheBatchOrTheLongestWait() {
        let commit = RecordingCommit()
        let pipeline = CommitPipeline(settings: .init(batchSize: 10, maxDelay: .milliseconds(300)), commit: commit.commit)
        let outcomes = Outcomes()
        let chains = Chains()
        let started = ContinuousClock.now
        pipeline.enqueue(part("a", 1...1), on: chains["a"], completion: outcomes.completion("a"))
        _ = outcomes.wait(for: 1)
        #expect(ContinuousClock.now - started >= .milliseconds(300), "committed before the longest wait")
        #expect(commit.committed.count == 1)

        // A full batch does not wait: a minute's wait would time the test out.
        let full = CommitPipeline(settings: .init(batchSize: 10, maxDelay: .seconds(60)), commit: commit.commit)
        full.enqueue(part("b", 1...4), on: chains["b"], completion: outcomes.completion("b"))
        full.enqueue(part("c", 1...6), on: chains["c"], completion: outcomes.completion("c"))
        _ = outcomes.wait(for: 2)
        #expect(commit.committed.last?.parts.map(\.machine) == ["b", "c"])
        pipeline.close()
        full.close()
    }

    @Test("H22 (writer): a refused part fails alone, and every later part of its incarnation fails with the same error without being written, while a new incarnation's parts commit")
    func h22ARefusedPartFailsItsInstanceAlone() throws {
        let held = try HeldPipeline()
        let (store, commit, pipeline, outcomes, chains) = (held.store, held.commit, held.pipeline, held.outcomes, held.chains)
        pipeline.enqueue(part("a", 2...2), on: chains["a"], completion: outcomes.completion("a2"))  // not after 2: refused
        commit.waitUntilInside()
        pipeline.enqueue(part("a", 4...4), on: chains["a"], completion: outcomes.completion("a4"))  // would leave a gap
        pipeline.enqueue(part("b", 1...1), on: chains["b"], completion: outcomes.completion("b1"))
        held.release()
        let results = outcomes.wait(for: 3)
        let refused = HeldPipeline.refused
        #expect(results["a2"] == .some(refused) && results["a4"] == .some(refused) && results["b1"] == .some(nil))
        #expect(store.lastSequence(of: "a") == 2, "a record after the refused one was written")
        #expect(commit.committed.last?.parts.map(\.machine) == ["b"], "the failed instance's part reached the store")
        chains.reload("a")
        pipeline.enqueue(part("a", 3...3), on: chains["a"], completion: outcomes.completion("a3"))
        #expect(outcomes.wait(for: 1)["a3"] == .some(nil))
        #expect(store.lastSequence(of: "a") == 3)
        pipeline.close()
        pipeline.enqueue(part("b", 2...2), on: chains["b"], completion: outcomes.completion("late"))
        #expect(outcomes.wait(for: 1)["late"] == .some(.writerStopped))
    }

    @Test("H22 (writer): a new incarnation that queues its parts the moment the failed one's part failed does not make the failed one's queued parts written: no record follows a gap")
    func h22AFailedIncarnationsQueuedPartsStayUnwritten() throws {
        let held = try HeldPipeline()
        let (store, commit, pipeline, outcomes, chains) = (held.store, held.commit, held.pipeline, held.outcomes, held.chains)
        let failed = chains["a"]
        // The failed part's completion runs on the writer before it forms the next transaction:
        // the soonest a host can reload the instance.
        let reloaded = outcomes.completion("a3")
        let refusedCompletion = outcomes.completion("a2")
        pipeline.enqueue(part("a", 2...2), on: failed) { error in
            refusedCompletion(error)
            chains.reload("a")
            pipeline.enqueue(part("a", 3...3), on: chains["a"], completion: reloaded)
        }
        commit.waitUntilInside()
        pipeline.enqueue(part("a", 4...4), on: failed, completion: outcomes.completion("a4"))  // would leave a gap
        held.release()
        let results = outcomes.wait(for: 3)
        let refused = HeldPipeline.refused
        #expect(results["a2"] == .some(refused) && results["a4"] == .some(refused))
        #expect(results["a3"] == .some(nil), "the new incarnation's part was not committed")
        #expect(store.recover("a").records.map(\.sequence) == [1, 2, 3])
        pipeline.close()
    }

    @Test("H24 (writer): a transaction that fails fails every part in it, and the writer goes on with the next one")
    func h24AFailedTransactionFailsEveryPartAndTheWriterGoesOn() throws {
        let path = try TemporaryFolder().file("journal.sqlite")
        let store = try SQLiteJournalStore(path: path)
        _ = try store.pragma("busy_timeout = 50")
        let other = WriteLockHolder(path)
        let pipeline = CommitPipeline(settings: .init(batchSize: 100), commit: store.commit)
        let outcomes = Outcomes()
        let chains = Chains()
        pipeline.enqueue(part("a", 1...1), on: chains["a"], completion: outcomes.completion("a"))
        let busy = JournalError.database(code: SQLITE_BUSY, message: "database is locked")
        #expect(outcomes.wait(for: 1)["a"] == .some(busy))
        other.release()
        pipeline.enqueue(part("b", 1...1), on: chains["b"], completion: outcomes.completion("b"))
        #expect(outcomes.wait(for: 1)["b"] == .some(nil))
        #expect(try store.lastSequence(of: "b") == 1 && store.lastSequence(of: "a") == nil)
        pipeline.close()
    }
}
