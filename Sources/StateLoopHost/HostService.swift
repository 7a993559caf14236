// HostService: a MachineHost as a swift-service-lifecycle `Service` (Docs/Hosting.md H54-H57):
// `run()` runs the host, a graceful shutdown of the service group shuts it down gracefully, and a
// cancellation (a second signal) stops it at once.

import ServiceLifecycle
import StateLoop
import StateLoopDurable

/// Runs a `MachineHost` in a `ServiceGroup` (H54-H57), setting its telemetry's gauges from the
/// host's statistics every `gaugeInterval` while it runs (H59).
///
/// ```swift
/// let group = ServiceGroup(configuration: .init(services: [HostService(host, telemetry: telemetry), server],
///                          gracefulShutdownSignals: [.sigterm], logger: logger))
/// try await group.run()
/// ```
public struct HostService<M: DurableMachine>: Service {
    public let host: MachineHost<M>
    public let telemetry: HostTelemetry?
    let gaugeInterval: Duration

    public init(_ host: MachineHost<M>, telemetry: HostTelemetry? = nil, gaugeInterval: Duration = .seconds(1)) {
        self.host = host
        self.telemetry = telemetry
        self.gaugeInterval = gaugeInterval
    }

    public func run() async throws {
        let host = host
        try await withGracefulShutdownHandler {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await host.run() }
                if let telemetry {
                    let limit = host.options.maxInstancesInMemory
                    group.addTask { [gaugeInterval] in
                        while !Task.isCancelled {
                            telemetry.record(host.statistics, limit: limit)
                            do { try await Task.sleep(for: gaugeInterval) } catch { return }
                        }
                    }
                }
                // The host's run ended (shut down, stopped, or refused): so does the service.
                defer { group.cancelAll() }
                try await group.next()
            }
        } onGracefulShutdown: {
            host.shutdown()
        }
    }
}
