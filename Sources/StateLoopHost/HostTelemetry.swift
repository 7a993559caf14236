// HostTelemetry: a MachineHost's logs (swift-log) and metrics (swift-metrics), Docs/Hosting.md
// H58 and H59. The host tells it what it does (`HostObserver`); `HostService` hands it the host's
// statistics every second for the gauges.
//
// Invariants:
// - Every metric is made once, at init, with the dimension `machine`; `observe` only records
//   into them, so it never blocks the host's writer on more than the backend's own lock.

import Foundation
import Logging
import Metrics
import StateLoop
import StateLoopDurable

/// The logs and metrics of the host of one machine (H58, H59): give it to the host in
/// `HostOptions(observer:)`, and to its `HostService` for the gauges.
///
/// ```swift
/// let telemetry = HostTelemetry(Order.self, logger: Logger(label: "stateloop.host"))
/// let host = MachineHost<Order>(store: store, initial: { _ in .initial }, options: HostOptions(observer: telemetry))
/// let service = HostService(host, telemetry: telemetry)
/// ```
public final class HostTelemetry: HostObserver {
    /// Where failures (`error`), pinned instances over the limit (`warning`), loads and
    /// passivations (`debug`) go, with the metadata `machine` and `instance`.
    public let logger: Logger
    let machine: String
    let events: Counter
    let dropped: [HostActivity.DropReason: Counter]
    let commitRecords: Recorder
    let commitSeconds: Timer
    let commitFailures: Counter
    let ackSeconds: Timer
    let queuedEvents: Gauge
    let inMemory: Gauge
    let pinned: Gauge
    let overLimit: Gauge
    let loads: [HostActivity.LoadResult: Counter]
    let loadSeconds: Timer
    let passivations: [HostActivity.PassivationReason: Counter]
    let timersFired: Counter
    let timerLag: Timer
    /// When the last warning of pinned instances over the limit was logged (at most one a minute, H45).
    private let warned = NSLock()
    nonisolated(unsafe) private var lastWarning: ContinuousClock.Instant?  // guarded by `warned`

    /// The telemetry of the host of `machine`, logging to `logger` and making its metrics with
    /// `factory` (the one `MetricsSystem` was bootstrapped with, unless given).
    public convenience init<M: DurableMachine>(
        _ machine: M.Type, logger: Logger = Logger(label: "stateloop.host"), factory: any MetricsFactory = MetricsSystem.factory
    ) {
        self.init(machine: M.journalName, logger: logger, factory: factory)
    }

    init(machine: String, logger: Logger, factory: any MetricsFactory) {
        var logger = logger
        logger[metadataKey: "machine"] = "\(machine)"
        self.logger = logger
        self.machine = machine
        let dimensions = [("machine", machine)]
        func counter(_ label: String, _ more: [(String, String)] = []) -> Counter {
            Counter(label: label, dimensions: dimensions + more, factory: factory)
        }
        func timer(_ label: String) -> Timer { Timer(label: label, dimensions: dimensions, factory: factory) }
        func gauge(_ label: String) -> Gauge { Gauge(label: label, dimensions: dimensions, factory: factory) }
        events = counter("stateloop_host_events_total")
        dropped = Dictionary(uniqueKeysWithValues: [HostActivity.DropReason.timerStale, .finished, .shutdown, .failed].map {
            ($0, counter("stateloop_host_events_dropped_total", [("reason", $0.rawValue)]))
        })
        commitRecords = Recorder(label: "stateloop_host_commit_records", dimensions: dimensions, factory: factory)
        commitSeconds = timer("stateloop_host_commit_seconds")
        commitFailures = counter("stateloop_host_commit_failures_total")
        ackSeconds = timer("stateloop_host_ack_seconds")
        queuedEvents = gauge("stateloop_host_queued_events")
        inMemory = gauge("stateloop_host_instances_in_memory")
        pinned = gauge("stateloop_host_instances_pinned")
        overLimit = gauge("stateloop_host_instances_over_limit")
        loads = Dictionary(uniqueKeysWithValues: [HostActivity.LoadResult.recovered, .created, .failed].map {
            ($0, counter("stateloop_host_loads_total", [("result", $0.rawValue)]))
        })
        loadSeconds = timer("stateloop_host_load_seconds")
        passivations = Dictionary(uniqueKeysWithValues: [HostActivity.PassivationReason.idle, .limit, .finished, .shutdown].map {
            ($0, counter("stateloop_host_passivations_total", [("reason", $0.rawValue)]))
        })
        timersFired = counter("stateloop_host_timers_fired_total")
        timerLag = timer("stateloop_host_timer_lag_seconds")
    }

    public func observe(_ activity: HostActivity, machine _: String) {
        switch activity {
        case let .committed(records, journaled, _, seconds, failed):
            commitRecords.record(records)
            commitSeconds.recordSeconds(seconds)
            events.increment(by: Int64(journaled))
            guard !failed.isEmpty else { return }
            commitFailures.increment(by: Int64(failed.count))
            for (instance, error) in failed.sorted(by: { $0.key < $1.key }) {
                logger.error("the commit of its records failed: \(error)", metadata: ["instance": "\(instance)"])
            }
        case let .acknowledged(seconds):
            ackSeconds.recordSeconds(seconds)
        case let .dropped(reason):
            dropped[reason]?.increment()
        case let .loaded(instance, result, seconds):
            loads[result]?.increment()
            loadSeconds.recordSeconds(seconds)
            logger.debug("\(result == .failed ? "could not load" : "loaded (\(result.rawValue))")", metadata: ["instance": "\(instance)"])
        case let .passivated(instance, reason):
            passivations[reason]?.increment()
            logger.debug("left memory (\(reason.rawValue))", metadata: ["instance": "\(instance)"])
        case let .timerFired(_, lag):
            timersFired.increment()
            timerLag.recordSeconds(lag)
        case let .failed(instance, error):
            logger.error("\(error)", metadata: ["instance": "\(instance)"])
        case let .hostStopped(error):
            logger.critical("\(error)")
        case let .overLimit(count, limit):
            let now = ContinuousClock.now
            let due = warned.withLock { () -> Bool in
                guard lastWarning.map({ now - $0 >= .seconds(60) }) ?? true else { return false }
                lastWarning = now
                return true
            }
            if due {
                logger.warning("\(count) instances are in memory, over the limit of \(limit): those past it are pinned by their effects or children")
            }
        }
    }

    /// Sets the gauges from the host's `statistics` and its limit of instances in memory.
    public func record(_ statistics: HostStatistics, limit: Int) {
        queuedEvents.record(statistics.queuedEvents)
        inMemory.record(statistics.instancesInMemory)
        pinned.record(statistics.instancesPinned)
        overLimit.record(max(0, statistics.instancesInMemory - limit))
    }
}
