// A MachineHost on PostgreSQL (Docs/Postgres.md G14): events per second through a host of 1,000
// instances, each send answered once its group commit is durable on the server, beside the same
// host on a SQLite file measured in the same run. The server is STATELOOP_POSTGRES_URL's (Scripts/
// bench.sh starts one with Scripts/postgres.sh); without it these figures are not measured.

import Foundation
import StateLoopDurable
import StateLoopPostgres

/// A store in a schema of its own on the server of STATELOOP_POSTGRES_URL.
private func postgresStore(_ url: String) -> any HostJournalStore {
    try! PostgresJournalStore(url: url, schema: "bench_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))
}

let postgresBenchmarks: [Benchmark] = ProcessInfo.processInfo.environment["STATELOOP_POSTGRES_URL"].map { url in
    [
        Benchmark(name: "host.postgres.events_per_s") { hostRate(instances: 1_000, senders: 256, events: 50_000) { _ in postgresStore(url) } },
        Benchmark(name: "host.postgres.ratio_to_sqlite") {
            // In one run: the host on PostgreSQL over the same host on a SQLite file.
            let postgres = hostRate(instances: 1_000, senders: 256, events: 50_000) { _ in postgresStore(url) }
            return postgres / hostRate(instances: 1_000, senders: 256, events: 50_000)
        },
    ]
} ?? []
