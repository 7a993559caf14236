// ReadConnections: the connections a store reads through beside its writer (Docs/Hosting.md H11),
// so that a load never waits behind a commit; SQLiteJournalStore's read connections on its file and
// PostgresJournalStore's on its server (Docs/Postgres.md G11) are both kept by one.
//
// Invariants: at most `limit` are open; each serves one read at a time; one is opened only when a
// read finds none idle; a read waits for one to be given back when `limit` are busy; a connection
// that no longer serves (its server closed it) is dropped, and a new one is opened in its place.

import Foundation

/// Up to `limit` connections of a store's, opened when first needed, lent to one read at a time.
package final class ReadConnections<Connection>: @unchecked Sendable {
    private let condition = NSCondition()
    private var idle: [Connection] = []
    private var opened = 0
    private let limit: Int
    private let open: () throws(JournalError) -> Connection

    /// At most `limit` (1 at the least) connections, each opened by `open`.
    package init(limit: Int, open: @escaping () throws(JournalError) -> Connection) {
        self.limit = max(1, limit)
        self.open = open
    }

    /// `read` on an idle connection (one opened when none is idle and fewer than `limit` are open,
    /// or the next one given back), given back once `read` returned, unless `broken` says it no
    /// longer serves.
    package func reading<T>(
        _ read: (Connection) throws(JournalError) -> T, broken: (Connection) -> Bool = { _ in false }
    ) throws(JournalError) -> T {
        let connection = try take()
        defer { giveBack(connection, broken: broken(connection)) }
        return try read(connection)
    }

    private func take() throws(JournalError) -> Connection {
        condition.lock()
        while idle.isEmpty, opened >= limit { condition.wait() }
        if let connection = idle.popLast() {
            condition.unlock()
            return connection
        }
        opened += 1
        condition.unlock()
        do {
            return try open()
        } catch {
            giveBack(nil, broken: true)
            throw error
        }
    }

    private func giveBack(_ connection: Connection?, broken: Bool) {
        condition.lock()
        if broken || connection == nil {
            opened -= 1
        } else if let connection {
            idle.append(connection)
        }
        condition.signal()
        condition.unlock()
    }
}
