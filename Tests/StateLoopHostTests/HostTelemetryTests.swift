// A host's logs, metrics and statistics (Docs/Hosting.md H58-H60), and the host as a service in a
// ServiceGroup (H55, H57), on the example Tab machine (Specs/Tab.machine.yml: a 50 ms timer
// settles a tab, a round asks for a reminder 20 ms later).

import Foundation
import InMemoryLogging
import Logging
import MetricsTestKit
import ServiceLifecycle
import StateLoop
import StateLoopDurable
import StateLoopExamples
import StateLoopHost
import StateLoopTestSupport
import Testing

@Suite struct HostTelemetryTests {
    /// A host of Tab on `store` whose telemetry records into `metrics` and logs into `logs`.
    static func host(
        _ store: InMemoryJournalStore, _ metrics: TestMetrics, _ logs: InMemoryLogHandler, idleTimeout: Duration = .seconds(120)
    ) -> (MachineHost<Tab>, HostTelemetry) {
        var logger = Logger(label: "stateloop.host") { _ in logs }
        logger.logLevel = .debug
        let telemetry = HostTelemetry(Tab.self, logger: logger, factory: metrics)
        let host = MachineHost<Tab>(
            store: store, initial: { $0 == "unknown" ? nil : .initial }, options: HostOptions(idleTimeout: idleTimeout, observer: telemetry))
        return (host, telemetry)
    }

    static func counter(_ metrics: TestMetrics, _ label: String, _ more: [(String, String)] = []) -> Int64 {
        (try? metrics.expectCounter(label, [("machine", "Tab")] + more))?.totalValue ?? 0
    }

    @Test("H59: the host reports, with the dimension machine, the events journaled, each transaction's records and time, each send's time to its receipt, its loads by result and their time, its passivations by reason, the timers fired and their lag, the events dropped by reason, and the commit failures")
    func h59TheHostReportsThroughSwiftMetrics() async throws {
        let store = InMemoryJournalStore()
        store.writeSnapshot(JournalSnapshot(sequence: 0, state: [0xFF, 0xFF]), of: "bad")
        _ = store.commit(HostBatch(parts: [HostBatchPart(machine: "bad", instance: HostedInstanceRow(host: "Tab", awake: false, finished: false))]))
        let metrics = TestMetrics()
        let (host, _) = Self.host(store, metrics, InMemoryLogHandler(), idleTimeout: .milliseconds(4))
        let running = Task { try await host.run() }
        _ = try await host.send(.order(n: 1, amount: 5), to: "t1")
        _ = try await host.send(.order(n: 2, amount: 6), to: "t1")
        _ = try await host.send(.round(n: 3), to: "t2")
        await #expect(throws: HostError.self) { try await host.send(.remind, to: "bad") }
        await #expect(throws: HostError.unknownInstance("unknown")) { try await host.send(.remind, to: "unknown") }
        // Both tabs settle by their timers (t2 after its reminder), loaded again once idle.
        #expect(await eventually { Self.counter(metrics, "stateloop_host_timers_fired_total") >= 3 ? true : nil } == true)
        #expect(await eventually { Self.counter(metrics, "stateloop_host_passivations_total", [("reason", "idle")]) >= 2 ? true : nil } == true)
        host.shutdown()
        try await running.value

        #expect(Self.counter(metrics, "stateloop_host_events_total") == store.lastSequence(of: "t1")! + store.lastSequence(of: "t2")!)
        #expect(try metrics.expectTimer("stateloop_host_ack_seconds", [("machine", "Tab")]).values.count == 3)
        let records = try metrics.expectRecorder("stateloop_host_commit_records", [("machine", "Tab")]).values
        #expect(!records.isEmpty && records.allSatisfy { $0 >= 0 })
        #expect(try metrics.expectTimer("stateloop_host_commit_seconds", [("machine", "Tab")]).values.count == records.count)
        #expect(Self.counter(metrics, "stateloop_host_loads_total", [("result", "created")]) == 2)
        #expect(Self.counter(metrics, "stateloop_host_loads_total", [("result", "recovered")]) >= 1)
        #expect(Self.counter(metrics, "stateloop_host_loads_total", [("result", "failed")]) == 2, "bad and unknown")
        let loads = try metrics.expectTimer("stateloop_host_load_seconds", [("machine", "Tab")]).values
        #expect(Int64(loads.count) == ["created", "recovered", "failed"].reduce(0) { $0 + Self.counter(metrics, "stateloop_host_loads_total", [("result", $1)]) })
        let lags = try metrics.expectTimer("stateloop_host_timer_lag_seconds", [("machine", "Tab")]).values
        #expect(Int64(lags.count) == Self.counter(metrics, "stateloop_host_timers_fired_total"))
        #expect(Self.counter(metrics, "stateloop_host_events_dropped_total", [("reason", "failed")]) == 2, "the sends to bad and unknown")
        #expect(Self.counter(metrics, "stateloop_host_commit_failures_total") == 0)
    }

    @Test("H58: the host logs through its telemetry's Logger with the metadata machine and instance: a failure at error with the instance id and the error's description, loads and passivations at debug")
    func h58TheHostLogsThroughSwiftLog() async throws {
        let store = InMemoryJournalStore()
        store.writeSnapshot(JournalSnapshot(sequence: 0, state: [0xFF, 0xFF]), of: "bad")
        _ = store.commit(HostBatch(parts: [HostBatchPart(machine: "bad", instance: HostedInstanceRow(host: "Tab", awake: false, finished: false))]))
        let logs = InMemoryLogHandler()
        let (host, _) = Self.host(store, TestMetrics(), logs)
        let running = Task { try await host.run() }
        _ = try await host.send(.order(n: 1, amount: 5), to: "t1")
        var refusal: HostError?
        do { _ = try await host.send(.remind, to: "bad") } catch { refusal = error as? HostError }
        host.shutdown()
        try await running.value

        let errors = logs.entries.filter { $0.level == .error }
        #expect(errors.count == 1)
        #expect(errors.first?.message.description == refusal?.description)
        #expect(errors.first?.metadata["instance"] == "bad" && errors.first?.metadata["machine"] == "Tab")
        let debug = logs.entries.filter { $0.level == .debug }.map { "\($0.metadata["instance"] ?? "-") \($0.message)" }
        #expect(debug.contains("t1 loaded (created)"))
        #expect(debug.contains("bad could not load"))
        #expect(debug.contains("t1 left memory (shutdown)"))
    }

    @Test("H45, H58: pinned instances over the limit are logged at warning, at most once a minute, and the gauge says by how many")
    func h45OverTheLimitIsWarnedOnceAMinute() throws {
        let logs = InMemoryLogHandler()
        let metrics = TestMetrics()
        let telemetry = HostTelemetry(Tab.self, logger: Logger(label: "stateloop.host") { _ in logs }, factory: metrics)
        for _ in 0..<3 { telemetry.observe(.overLimit(inMemory: 12, limit: 10), machine: "Tab") }
        #expect(logs.entries.filter { $0.level == .warning }.map(\.message.description) == [
            "12 instances are in memory, over the limit of 10: those past it are pinned by their effects or children"
        ])
        telemetry.record(HostStatistics(instancesInMemory: 12, instancesPinned: 12, queuedEvents: 0, lastCommitRecords: 0, lastCommitSeconds: 0), limit: 10)
        #expect(try metrics.expectGauge("stateloop_host_instances_over_limit", [("machine", "Tab")]).lastValue == 2)
    }

    @Test("H60: statistics gives the instances in memory and pinned, the queued events, the last commit's records and time, and the timer lag's p50 and p99 over the last minute; HostService sets the gauges from it")
    func h60StatisticsAreOneValue() async throws {
        let store = InMemoryJournalStore()
        let metrics = TestMetrics()
        let (host, telemetry) = Self.host(store, metrics, InMemoryLogHandler())
        let before = host.statistics
        #expect(before.instancesInMemory == 0 && before.queuedEvents == 0 && before.timerLagP50 == nil && before.timerLagP99 == nil)
        let group = ServiceGroup(configuration: .init(services: [HostService(host, telemetry: telemetry, gaugeInterval: .milliseconds(5))], logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        for tab in 0..<3 { _ = try await host.send(.order(n: 1, amount: tab), to: "t\(tab)") }
        let now = host.statistics
        #expect(now.instancesInMemory == 3 && now.instancesPinned == 0 && now.queuedEvents == 0)
        #expect(now.lastCommitRecords >= 1 && now.lastCommitSeconds >= 0)
        #expect(await eventually { host.statistics.timerLagP99 != nil ? true : nil } == true, "no timer fired")
        let lag = host.statistics
        #expect(lag.timerLagP50! >= 0 && lag.timerLagP50! <= lag.timerLagP99!)
        #expect(await eventually { (try? metrics.expectGauge("stateloop_host_instances_in_memory", [("machine", "Tab")]))?.lastValue == 3 ? true : nil } == true)
        #expect(try metrics.expectGauge("stateloop_host_instances_over_limit", [("machine", "Tab")]).lastValue == 0)
        await group.triggerGracefulShutdown()
        try await running.value
    }

    @Test("H55, H57: as a service, a graceful shutdown of its group shuts the host down gracefully (the sends before it acknowledged, each instance's snapshot written, run() returned), and a cancelled group stops it at once")
    func h55HostServiceShutsDownWithItsGroup() async throws {
        let store = InMemoryJournalStore()
        let (host, telemetry) = Self.host(store, TestMetrics(), InMemoryLogHandler())
        let group = ServiceGroup(configuration: .init(services: [HostService(host, telemetry: telemetry)], logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        let sends = (1...20).map { k in Task { try await host.send(.order(n: k, amount: k), to: "t\(k % 4)") } }
        for send in sends { _ = try await send.value }
        await group.triggerGracefulShutdown()
        try await running.value
        await #expect(throws: HostError.shuttingDown) { try await host.send(.remind, to: "t1") }
        for tab in 0..<4 {
            // Five orders each, and the settling timer when it fired before the shutdown.
            let recovery = store.recover("t\(tab)")
            #expect(recovery.records.isEmpty && recovery.snapshot?.sequence == store.lastSequence(of: "t\(tab)"), "t\(tab)'s closing snapshot was not written")
            #expect((5...6).contains(store.lastSequence(of: "t\(tab)") ?? 0))
        }
        let closed = try #require(store.recover("t1").snapshot?.sequence)

        let stopped = MachineHost<Tab>(store: store, initial: { _ in .initial })
        let cancelled = ServiceGroup(configuration: .init(services: [HostService(stopped)], logger: Logger(label: "test")))
        let runningToo = Task { try await cancelled.run() }
        _ = try await stopped.send(.order(n: 6, amount: 1), to: "t1")
        runningToo.cancel()
        try? await runningToo.value
        await #expect(throws: HostError.shuttingDown) { try await stopped.send(.remind, to: "t1") }
        #expect(store.recover("t1").snapshot?.sequence == closed, "a stop at once wrote a snapshot")
        #expect(Int64(store.recover("t1").records.count) == store.lastSequence(of: "t1")! - closed)
        #expect(store.recover("t1").records.count >= 1)
    }
}
