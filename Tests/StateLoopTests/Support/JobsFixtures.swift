// JobsFixtures: a test machine that queues one-shot runs and can finish, as generated
// statecharts do (`_runsQueued`, `runs`, `isDone`), and the runs feedback of the tests.

import StateLoop
import StateLoopTestSupport

/// One one-shot run of the tests: it sleeps `delay` seconds on the test's `ManualClock` (0:
/// it returns at once) and then returns `.result(id)`, or nothing unless `emits`.
struct Job: Hashable, Sendable {
    var id: Int
    var delay = 0
    var emits = true
}

/// The state of the jobs machine: every run it ever queued (`_runsQueued`), the runs queued by
/// the latest step (`runs`), what runs reported back, and whether it is finished.
struct Jobs: Equatable, Sendable {
    var _runsQueued = 0
    var runs: [Job] = []
    var count = 0
    var query: Int?
    var results: [Int] = []
    var isDone = false
}

/// The events of the jobs machine.
enum JobStep: Equatable, Sendable {
    /// A step that queues `jobs` after every run queued before (and replaces `runs`).
    case queue([Job])
    /// Shows these numbers as they are: a repeated or stale view of the queue.
    case show(queued: Int, runs: [Job])
    /// Counts, leaving the runs as they are: the same runs are shown again.
    case tick
    case query(Int?)
    case result(Int)
    /// Queues `jobs` and finishes.
    case finish([Job])
}

/// The jobs machine's reducer. It does not ignore events once finished (a generated reducer
/// would): the tests see that the runtime drops them.
@Sendable func reduceJobs(_ state: inout Jobs, _ step: JobStep) {
    switch step {
    case .queue(let jobs):
        state.runs = jobs
        state._runsQueued += jobs.count
    case .show(let queued, let runs):
        state._runsQueued = queued
        state.runs = runs
    case .tick: state.count += 1
    case .query(let query): state.query = query
    case .result(let id): state.results.append(id)
    case .finish(let jobs):
        state.runs = jobs
        state._runsQueued += jobs.count
        state.isDone = true
    }
}

/// What the test runs did: the ids of those whose effect began, and the ids of those that were
/// cancelled, recorded and as a stream to wait on.
final class JobLog: Sendable {
    let started = Recorder<Int>()
    let cancelled = Recorder<Int>()
    let cancellations: AsyncStream<Int>
    private let cancellation: AsyncStream<Int>.Continuation

    init() { (cancellations, cancellation) = AsyncStream.makeStream(of: Int.self) }

    /// The runs feedback, written as generated code writes it: each run sleeps its delay on
    /// `clock`, then returns its event.
    func feedback(_ clock: ManualClock, onReturn: @escaping @Sendable (Job) -> Void = { _ in })
        -> Feedback<Jobs, JobStep>
    {
        .runs(pending: { state in (state._runsQueued, state.runs) }, effect: { run in
            self.started.append(run.id)
            do {
                try await clock.sleep(for: .seconds(run.delay))
            } catch {
                self.cancelled.append(run.id)
                self.cancellation.yield(run.id)
                return nil
            }
            onReturn(run)
            return run.emits ? .result(run.id) : nil
        })
    }
}

extension AsyncStream {
    /// Every element, until the sequence finishes.
    func all() async -> [Element] {
        var elements: [Element] = []
        for await element in self { elements.append(element) }
        return elements
    }
}
