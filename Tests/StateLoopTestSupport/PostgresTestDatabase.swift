// The PostgreSQL server the tests run on (Docs/Postgres.md G30-G32): the one Scripts/postgres.sh
// starts, named by STATELOOP_POSTGRES_URL; each store in a schema of its own, so that tests run in
// parallel on one database.

#if Postgres
import Foundation
import StateLoopPostgres

/// The test server, when there is one.
public enum PostgresTestDatabase {
    /// The server's URL, from `STATELOOP_POSTGRES_URL`.
    public static let url: String? = ProcessInfo.processInfo.environment["STATELOOP_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

    /// Whether the tests that need the server must run (`STATELOOP_REQUIRE_POSTGRES=1`, as
    /// Scripts/test.sh sets it): then a missing URL fails them instead of skipping them (G32).
    public static let required = ProcessInfo.processInfo.environment["STATELOOP_REQUIRE_POSTGRES"] == "1"

    /// Whether the tests that need the server run: a URL was given, or they are required.
    public static let enabled = url != nil || required

    /// The reason a skipped test gives.
    public static let reason = "needs a PostgreSQL server: export STATELOOP_POSTGRES_URL=$(bash Scripts/postgres.sh start $(mktemp -d)) (Docs/Postgres.md G32)"

    /// Why a required test had no server.
    public struct Missing: Error, CustomStringConvertible {
        public var description: String { "STATELOOP_REQUIRE_POSTGRES=1 but STATELOOP_POSTGRES_URL is not set: run the tests through Scripts/test.sh, or set it" }
    }

    /// The server's URL, or the error that fails a test run without one.
    public static func requireURL() throws -> String {
        guard let url else { throw Missing() }
        return url
    }

    /// A schema name no other test uses.
    public static func freshSchema() -> String {
        "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    /// A store on the test server in `schema` (a new one unless given).
    /// Its lease is ten minutes unless given: a host in the parallel tier, whose threads may wait
    /// seconds, keeps its lease while it runs (the lease rules, timed, give theirs).
    public static func store(schema: String = freshSchema(), readConnections: Int = 4, leaseDuration: Duration = .seconds(600)) throws -> PostgresJournalStore {
        try PostgresJournalStore(url: requireURL(), schema: schema, readConnections: readConnections, leaseDuration: leaseDuration)
    }
}
#endif
