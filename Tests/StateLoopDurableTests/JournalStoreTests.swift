import Foundation
import StateLoopDurable
import StateLoopTestSupport
import Testing

/// The stores the semantic rules hold for: a real SQLite file in a fresh temporary folder, memory,
/// and with the Postgres trait a schema of its own on the test server (Docs/Postgres.md G5), when
/// there is one (or when one is required, so that its absence fails the tests, G32).
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, memory
    #if Postgres
    case postgres
    #endif

    static var allCases: [StoreKind] {
        #if Postgres
        PostgresTestDatabase.enabled ? [.sqlite, .memory, .postgres] : [.sqlite, .memory]
        #else
        [.sqlite, .memory]
        #endif
    }

    var testDescription: String { rawValue }

    func make() throws -> any HostJournalStore {
        switch self {
        case .sqlite: try SQLiteJournalStore(path: TemporaryFolder().file("journal.sqlite"))
        case .memory: InMemoryJournalStore()
        #if Postgres
        case .postgres: try PostgresTestDatabase.store()
        #endif
        }
    }
}

/// A folder of its own under the system's temporary folder (left for the system to clean).
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appending(path: "stateloop-durable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { url.appending(path: name).path }
}

/// Records `range`, event and state made of the sequence number, so a mix-up shows.
func records(_ range: ClosedRange<Int64>) -> [JournalRecord] {
    range.map { JournalRecord(sequence: $0, event: Array("e\($0)".utf8), stateAfter: Array("s\($0)".utf8)) }
}

@Suite struct JournalStoreTests {
    @Test("D1: records are read back in the order of their sequence numbers", arguments: StoreKind.allCases)
    func d1ReadBackInOrder(kind: StoreKind) async throws {
        let store = try kind.make()
        try store.append(records(1...3), to: "m")
        try store.append(records(4...4), to: "m")
        try store.append([JournalRecord(sequence: 10, event: [], stateAfter: [0, 255])], to: "m")
        let recovery = try store.recover("m")
        #expect(recovery == JournalRecovery(snapshot: nil, records: records(1...4) + [JournalRecord(sequence: 10, event: [], stateAfter: [0, 255])]))
    }

    @Test("D2: a batch that fails part-way leaves nothing of it", arguments: StoreKind.allCases)
    func d2BatchIsAtomic(kind: StoreKind) async throws {
        let store = try kind.make()
        try store.append(records(1...3), to: "m")
        #expect(throws: JournalError.sequenceNotAfter(machine: "m", sequence: 5, last: 5)) {
            try store.append(records(4...5) + records(5...6), to: "m")
        }
        #expect(try store.recover("m").records == records(1...3))
        #expect(try store.lastSequence(of: "m") == 3)
        try store.append(records(4...5), to: "m")
        #expect(try store.recover("m").records == records(1...5))
    }

    @Test("D3: a sequence number not above the one before it is refused", arguments: StoreKind.allCases)
    func d3SequenceRisesStrictly(kind: StoreKind) async throws {
        let store = try kind.make()
        try store.append(records(1...2), to: "m")
        #expect(throws: JournalError.sequenceNotAfter(machine: "m", sequence: 2, last: 2)) {
            try store.append(records(2...3), to: "m")
        }
        #expect(throws: JournalError.sequenceNotAfter(machine: "m", sequence: 1, last: 2)) {
            try store.append(records(1...1), to: "m")
        }
        try store.writeSnapshot(JournalSnapshot(sequence: 7, state: [7]), of: "m")
        #expect(throws: JournalError.sequenceNotAfter(machine: "m", sequence: 7, last: 7)) {
            try store.append(records(7...8), to: "m")
        }
        try store.append(records(8...8), to: "m")
    }

    @Test("D4: machines sharing one store are kept apart", arguments: StoreKind.allCases)
    func d4MachinesKeptApart(kind: StoreKind) async throws {
        let store = try kind.make()
        try store.append(records(1...2), to: "parent")
        try store.append(records(1...5), to: "parent/child")
        try store.writeSnapshot(JournalSnapshot(sequence: 1, state: [1]), of: "parent")
        #expect(try store.recover("parent") == JournalRecovery(snapshot: JournalSnapshot(sequence: 1, state: [1]), records: records(2...2)))
        #expect(try store.recover("parent/child") == JournalRecovery(snapshot: nil, records: records(1...5)))
        #expect(try store.lastSequence(of: "parent") == 2)
        #expect(try store.lastSequence(of: "parent/child") == 5)
    }

    @Test("D5, G5: recovery reads the latest snapshot and the records after it, on every store", arguments: StoreKind.allCases)
    func d5SnapshotThenRecordsAfterIt(kind: StoreKind) async throws {
        let store = try kind.make()
        try store.append(records(1...4), to: "m")
        try store.writeSnapshot(JournalSnapshot(sequence: 4, state: [4]), of: "m")
        try store.writeSnapshot(JournalSnapshot(sequence: 2, state: [2]), of: "m")
        try store.append(records(5...6), to: "m")
        #expect(try store.recover("m") == JournalRecovery(snapshot: JournalSnapshot(sequence: 4, state: [4]), records: records(5...6)))
        try store.writeSnapshot(JournalSnapshot(sequence: 6, state: [6]), of: "m")
        #expect(try store.recover("m") == JournalRecovery(snapshot: JournalSnapshot(sequence: 6, state: [6]), records: []))
    }

    @Test("D6: the last sequence number is the highest durable one, nil for an unknown machine", arguments: StoreKind.allCases)
    func d6LastSequence(kind: StoreKind) async throws {
        let store = try kind.make()
        #expect(try store.lastSequence(of: "m") == nil)
        #expect(try store.recover("m") == JournalRecovery(snapshot: nil, records: []))
        try store.append(records(1...3), to: "m")
        #expect(try store.lastSequence(of: "m") == 3)
        try store.writeSnapshot(JournalSnapshot(sequence: 9, state: []), of: "m")
        #expect(try store.lastSequence(of: "m") == 9)
    }

    @Test("D12, G10: calls from many tasks at once are served one at a time, on every store", arguments: StoreKind.allCases)
    func d12ConcurrentCalls(kind: StoreKind) async throws {
        let store = try kind.make()
        try await withThrowingTaskGroup { group in
            for machine in 0..<8 {
                group.addTask {
                    for batch in Int64(0)..<25 { try store.append(records(batch * 4 + 1...batch * 4 + 4), to: "m\(machine)") }
                }
            }
            try await group.waitForAll()
        }
        for machine in 0..<8 {
            #expect(try store.recover("m\(machine)").records == records(1...100))
        }
    }
}
