// An inspected durable machine (Docs/Inspector.md I50, I51): the generated Reminder (persisted),
// run durably on a SQLite file and attached with `durable(…, attach:)` to the inspector the test
// plays, for two lives of the process.
import Foundation
import StateLoop
import StateLoopDurable
import StateLoopInspector
import StateLoopTestSupport
import Testing

@Suite struct InspectorDurableTests {
    /// A wall clock that never moves, so two journals of the same events are byte for byte the same.
    static let options = DurableOptions(wallClock: WallClock { 1_795_651_200_000_000_000 })

    /// Two lives of the durable Reminder `reminder` on a new file: arm and two pings, stop; one
    /// more ping after the restart, stop. Each life's system goes through `attach`. Returns the file.
    static func twoLives(attach: @escaping @Sendable (System<Reminder.State, Reminder.Event>) -> System<Reminder.State, Reminder.Event>) async throws -> String {
        let folder = FileManager.default.temporaryDirectory.appending(path: "inspector-durable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appending(path: "reminder.journal").path
        try await writeDurableJournal(Reminder.self, id: "reminder", at: path, initial: .initial, events: [.arm, .ping, .ping], options: options, attach: attach)
        try await writeDurableJournal(Reminder.self, id: "reminder", at: path, initial: .initial, events: [.ping], options: options, attach: attach)
        return path
    }

    @Test("I50, I51: a durable machine attached says hello from the state it starts in, the restored one after a restart, and journals as it would unattached")
    func i50ADurableMachineResumes() async throws {
        let server = try InspectorServer()
        defer { server.close() }
        let inspector = Inspector(url: server.url)
        let inspected = try await Self.twoLives { $0.inspected(Reminder.self, by: inspector) }
        // Each life is an instance of its own: two hellos, two byes.
        let messages = await server.messages { messages in
            messages.filter { $0["type"] as? String == "bye" && ($0["instance"] as? String)?.hasPrefix("Reminder#") == true }.count == 2
        }
        let hellos = messages.filter { $0["type"] as? String == "hello" && $0["machine"] as? String == "Reminder" }
        try #require(hellos.count == 2)
        #expect(hellos.allSatisfy { $0["journalVersion"] as? Int == 1 && $0["parent"] is NSNull })
        let lives = hellos.map { hello in InspectorTests.of(messages, type: "step", instance: hello["instance"] as! String) }
        #expect(lives.map { $0.map { $0["event"] as? String ?? "initial" } } == [["initial", ".arm", ".ping", ".ping"], ["initial", ".ping"]])
        // The second life starts in the restored state, the events before it reduced, and goes on from there.
        #expect((lives[1][0]["state"] as? String)?.contains("pings: 2") == true, "\(lives[1][0])")
        #expect((lives[1][1]["state"] as? String)?.contains("pings: 3") == true, "\(lives[1][1])")

        // I51: the same records and snapshots, byte for byte, as the same lives unattached.
        let plain = try await Self.twoLives { $0 }
        let attachedHistory = try SQLiteJournalFile(path: inspected).history(of: "reminder")
        #expect(attachedHistory.records.count == 4 && !attachedHistory.snapshots.isEmpty)
        #expect(attachedHistory == (try SQLiteJournalFile(path: plain).history(of: "reminder")))
    }
}
