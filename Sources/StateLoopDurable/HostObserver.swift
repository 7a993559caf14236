// HostObserver: what a MachineHost tells about its work (Docs/Hosting.md H58-H60), for logs and
// metrics. The host knows nothing of swift-log or swift-metrics: StateLoopHost's `HostTelemetry`
// turns these into both, and a user may write another.
//
// Invariants:
// - Without an observer the host reads no clock and builds no value for it.
// - `observe` is called on the thread where the thing happened, the writer's included: it must
//   not block, and must not call back into the host.

import DequeModule
import Foundation

/// Receives what a host does, as it does it (H58, H59): give one in `HostOptions.observer`.
public protocol HostObserver: Sendable {
    /// `activity` happened in the host of the machine named `machine` (`M.journalName`). Called on
    /// the thread where it happened, the host's writer included: do not block, and do not call the
    /// host.
    func observe(_ activity: HostActivity, machine: String)
}

/// One thing a host did.
public enum HostActivity: Sendable {
    /// A transaction ended: `records` records in `parts` parts, `seconds` long, of which
    /// `journaled` committed; `failed` names the instances whose parts did not, with the store's
    /// error (H22, H24).
    case committed(records: Int, journaled: Int, parts: Int, seconds: Double, failed: [String: JournalError])
    /// A send returned its receipt, `seconds` after the host accepted it (H12).
    case acknowledged(seconds: Double)
    /// An event was not journaled, for `reason`.
    case dropped(DropReason)
    /// An instance was loaded (recovered or created) in `seconds`, or could not be (`failed`).
    case loaded(instance: String, LoadResult, seconds: Double)
    /// An instance left memory, for `reason` (H41, H45, H46, H55).
    case passivated(instance: String, PassivationReason)
    /// A timer's event committed `lagSeconds` after its deadline (H30).
    case timerFired(instance: String, lagSeconds: Double)
    /// An instance stopped on an error (H23, H53): its senders were told `error`.
    case failed(instance: String, HostError)
    /// After a sweep, `inMemory` instances stayed in memory, over `limit`, because they are pinned (H45).
    case overLimit(inMemory: Int, limit: Int)
    /// The host stopped on an error of its own, not asked to: it lost its lease (Docs/Postgres.md G42).
    case hostStopped(HostError)

    /// Why an event was not journaled.
    public enum DropReason: String, Sendable {
        /// A timer's delivery whose timer was no longer armed, had fired or was not due (H31).
        case timerStale = "timer_stale"
        /// Its instance finished before it (H8).
        case finished
        /// The host shut down or stopped first (H55, H57).
        case shutdown
        /// Its instance failed first, or its commit did (H23).
        case failed
    }

    /// How a load ended.
    public enum LoadResult: String, Sendable {
        case recovered, created, failed
    }

    /// Why an instance left memory.
    public enum PassivationReason: String, Sendable {
        case idle, limit, finished, shutdown
    }
}

/// A host's figures at one moment, as one value (H60): for a health endpoint without a metrics
/// backend.
public struct HostStatistics: Sendable, Equatable {
    /// The instances in memory, and how many of them are pinned (H40).
    public var instancesInMemory: Int
    public var instancesPinned: Int
    /// The accepted events not yet durable, and the sends waiting for room (H10).
    public var queuedEvents: Int
    /// The records of the last transaction, and how long it took.
    public var lastCommitRecords: Int
    public var lastCommitSeconds: Double
    /// The median and the 99th percentile of the timers' lag (deadline to the commit of the
    /// timer's event) over the last minute of the host's clock; `nil` when no timer fired in it.
    public var timerLagP50: Double?
    public var timerLagP99: Double?

    public init(
        instancesInMemory: Int, instancesPinned: Int, queuedEvents: Int, lastCommitRecords: Int, lastCommitSeconds: Double,
        timerLagP50: Double? = nil, timerLagP99: Double? = nil
    ) {
        self.instancesInMemory = instancesInMemory
        self.instancesPinned = instancesPinned
        self.queuedEvents = queuedEvents
        self.lastCommitRecords = lastCommitRecords
        self.lastCommitSeconds = lastCommitSeconds
        self.timerLagP50 = timerLagP50
        self.timerLagP99 = timerLagP99
    }
}

/// What the host counts for its statistics, and the observer it tells.
@usableFromInline
final class HostTally: @unchecked Sendable {
    @usableFromInline let observer: (any HostObserver)?
    @usableFromInline let machine: String
    let clock: any HostClock
    private let lock = NSLock()
    // Guarded by `lock`.
    private var lastCommit = (records: 0, seconds: 0.0)
    /// The latest timer lags: (when, by the host's clock; lag in seconds), oldest first, at most `lagsKept`.
    private var lags = Deque<(at: Int64, seconds: Double)>()
    static let lagsKept = 4_096

    init(observer: (any HostObserver)?, machine: String, clock: any HostClock) {
        self.observer = observer
        self.machine = machine
        self.clock = clock
    }

    /// Tells the observer, when there is one.
    @inlinable
    func tell(_ activity: @autoclosure () -> HostActivity) {
        observer?.observe(activity(), machine: machine)
    }

    /// The time a duration starts at: 0 when nothing would be told of it (no clock is read).
    @inlinable
    var start: UInt64 { observer == nil ? 0 : DispatchTime.now().uptimeNanoseconds }

    @inlinable
    static func seconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds &- start) / 1e9
    }

    /// A transaction of `batch` ended, `seconds` long (on the writer's thread).
    func committed(_ batch: HostBatch, failed: [String: JournalError], seconds: Double) {
        let records = batch.parts.reduce(0) { $0 + $1.records.count }
        lock.withLock { lastCommit = (records, seconds) }
        guard observer != nil else { return }
        let journaled = failed.isEmpty ? records : batch.parts.reduce(0) { $0 + (failed[$1.machine] == nil ? $1.records.count : 0) }
        tell(.committed(records: records, journaled: journaled, parts: batch.parts.count, seconds: seconds, failed: failed))
    }

    /// A timer's event of `instance`, due at `deadline`, committed now.
    @usableFromInline
    func timerFired(_ instance: String, deadline: Int64) {
        let now = clock.now()
        let lag = Double(max(0, now &- deadline)) / 1e9
        lock.withLock {
            if lags.count == Self.lagsKept { lags.removeFirst() }
            lags.append((now, lag))
        }
        tell(.timerFired(instance: instance, lagSeconds: lag))
    }

    /// The last commit and the timer lag's percentiles over the last minute.
    func figures() -> (records: Int, seconds: Double, p50: Double?, p99: Double?) {
        let since = clock.now() &- 60_000_000_000
        let (commit, recent) = lock.withLock { (lastCommit, lags.filter { $0.at >= since }.map(\.seconds)) }
        guard !recent.isEmpty else { return (commit.records, commit.seconds, nil, nil) }
        let sorted = recent.sorted()
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)] }
        return (commit.records, commit.seconds, percentile(0.5), percentile(0.99))
    }
}

extension HostError {
    /// Why an event whose sender is told this was not journaled.
    @inlinable
    var dropReason: HostActivity.DropReason {
        switch self {
        case .finished: .finished
        case .shuttingDown, .hostTaken, .alreadyRun, .leaseLost: .shutdown
        default: .failed
        }
    }

    /// Whether an instance that ends for this failed (H58 logs it at `error`).
    @inlinable
    var isFailure: Bool {
        switch self {
        case .notDurable, .loadFailed, .claimed, .childMachine: true
        default: false
        }
    }
}
