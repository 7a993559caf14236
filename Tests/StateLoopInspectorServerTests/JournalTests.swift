// `stateloop inspect --journal` (Docs/Inspector.md I44–I48) on a real journal: a generated durable
// Till (Specs/Till.machine.yml) writes it in the test, with a snapshot every 4 records.
import Foundation
import StateLoopDurable
import StateLoopExamples
import StateLoopTestSupport
import Synchronization
import Testing
@testable import StateLoopInspectorServer

@Suite struct JournalTests {
    static let till = packageRoot.appending(path: "Specs/Till.machine.yml").path

    static let events: [Till.Event] = [
        .credit(n: 1, amount: 500), .debit(n: 2, amount: 20), .close(n: 3), .credit(n: 4, amount: 7), .close(n: 5),
    ]

    /// A Till's journal of `events` in a new file `till.journal`: snapshots at 0, at 4, and at the
    /// stop (5); its wall clock moves a millisecond each time it is read.
    static func tillJournal() async throws -> String {
        let folder = FileManager.default.temporaryDirectory.appending(path: "inspector-journal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appending(path: "till.journal").path
        let now = Mutex<Int64>(1_795_651_200_000_000_000)
        try await writeDurableJournal(
            Till.self, id: "till", at: path, initial: .initial, events: events,
            options: DurableOptions(snapshotEvery: 4, wallClock: WallClock { now.withLock { $0 += 1_000_000; return $0 } }))
        return path
    }

    /// `stateloop-inspect ARGS`, run until it exits: its status and standard error.
    static func refused(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = builtExecutable("stateloop-inspect")
        process.arguments = ["--port", "0"] + arguments
        process.currentDirectoryURL = packageRoot
        let error = Pipe()
        process.standardError = error
        process.standardOutput = Pipe()
        try process.run()
        let text = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test("I44: each machine of a journal is an instance: its hello, then a step per event record, in order")
    func i44AJournalAsMessages() async throws {
        let messages = try JournalMessages.read(journal: try await Self.tillJournal(), spec: Self.till)
        let hello = try #require(messages.first)
        #expect(hello.type == "hello" && hello.instance == "till" && hello["machine"] == "Till")
        #expect(hello["spec"] == "Till.machine.yml" && hello["journal"] == "till.journal")
        #expect(hello.object["parent"] is NSNull && hello.number("journalVersion") == 1)
        let steps = messages.dropFirst()
        #expect(steps.map(\.type) == Array(repeating: "step", count: 6))
        #expect(steps.map(\.seq) == [0, 1, 2, 3, 4, 5])
        #expect(steps.map { $0["event"] } == [nil, "credit(n: 1, amount: 500)", "debit(n: 2, amount: 20)", "close(n: 3)", "credit(n: 4, amount: 7)", "close(n: 5)"])
        #expect(steps.allSatisfy { ($0.object["branches"] as? [Any])?.isEmpty == true })
        // Milliseconds since the first snapshot, as the journal's wall clock said.
        let times = steps.map { $0.number("time") ?? -1 }
        #expect(times.first == 0 && times == times.sorted() && times.last! > 0, "\(times)")
    }

    @Test("I45: no --spec, no file, not a journal, a spec that does not persist or did not write it: said, with a non-zero status", .enabled(if: serverBuilt, "runs the server: build with --traits Inspector"))
    func i45Refusals() async throws {
        let journal = try await Self.tillJournal()
        let noSpec = try Self.refused(["--journal", journal])
        #expect(noSpec.status != 0 && noSpec.stderr.contains("--journal needs --spec SPEC"), "\(noSpec)")
        let missing = try Self.refused(["--journal", "/nonexistent/till.journal", "--spec", Self.till])
        #expect(missing.status != 0 && missing.stderr.contains("no journal file at /nonexistent/till.journal"), "\(missing)")
        let notJournal = try Self.refused(["--journal", Self.till, "--spec", Self.till])
        #expect(notJournal.status == 2 && notJournal.stderr.contains("not a StateLoop journal"), "\(notJournal)")
        let counter = try Self.refused(["--journal", journal, "--spec", "Specs/Counter.machine.yml"])
        #expect(counter.status == 2 && counter.stderr.contains("machine 'Counter' of Specs/Counter.machine.yml does not persist"), "\(counter)")

        // Version 2 of Till, without the lock that would hold version 1's layout.
        let folder = URL(fileURLWithPath: journal).deletingLastPathComponent()
        let spec = try String(contentsOfFile: Self.till, encoding: .utf8).replacingOccurrences(of: "persist: true", with: "persist: {version: 2}")
        let laterTill = folder.appending(path: "Till.machine.yml")
        try spec.write(to: laterTill, atomically: true, encoding: .utf8)
        #expect(throws: InspectorError.spec("machine 'till' of till.journal: snapshot 0 was written by version 1 of Till, the spec is version 2; the lock beside the spec holds no layout of version 1: check out that version's spec and run `stateloop lock` on it (Docs/Durability.md D91)")) {
            try JournalMessages.read(journal: journal, spec: laterTill.path)
        }
    }

    @Test("I46: a step holds the state where a snapshot does (the initial state, every snapshotEvery records, the stop), and only there")
    func i46StatesAtSnapshots() async throws {
        let messages = try JournalMessages.read(journal: try await Self.tillJournal(), spec: Self.till)
        let steps = messages.filter { $0.type == "step" }
        #expect(steps.filter { $0["state"] != nil }.map(\.seq) == [0, 4, 5])
        #expect(steps.filter { $0.object["configuration"] != nil }.map(\.seq) == [0, 4, 5])
        #expect(steps[0]["state"] == "mode: books(open)\nposted: 0\nbalance: 0\nbatches: 0\nchecksum: 0")
        #expect(steps[0].object["configuration"] as? [String] == ["books", "open"])
        #expect(steps[4]["state"]?.hasPrefix("mode: books(open)\nposted: 4\nbalance: 487\nbatches: 1") == true, "\(steps[4].object)")

        // The store: step 4 follows steps without a state, so it is shown whole; step 5 is diffed with it.
        let store = InspectorStore()
        for message in messages { await store.receive(message) }
        let kept = try await store.messages(of: "till").messages
        let diff = { (seq: Int) in kept.first { $0.seq == seq }?.object["diff"] as? [String] ?? [] }
        #expect(!diff(4).isEmpty && diff(4).allSatisfy { $0.hasPrefix("  ") }, "\(diff(4))")
        #expect(diff(5).contains("− mode: books(open)") && diff(5).contains("+ mode: books(closing)"), "\(diff(5))")
        #expect(diff(2).isEmpty)
    }

    /// Till's spec with its `balance` called `amount` (the same place, so the journal reads the
    /// same) and `redact: true`: a secret in every state, and as the events' payload label.
    static func secretTill(beside journal: String) throws -> String {
        let spec = try String(contentsOfFile: till, encoding: .utf8)
            .replacingOccurrences(of: "balance:  {type: Int, default: \"0\"}", with: "balance:  {type: Int, default: \"0\", redact: true}")
            .replacingOccurrences(of: "balance", with: "amount")
        let path = URL(fileURLWithPath: journal).deletingLastPathComponent().appending(path: "Till.machine.yml").path
        try spec.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("I70: stateloop inspect --journal redacts the spec's redact: true fields, in states and as payload labels")
    func i70RedactedOffline() async throws {
        let journal = try await Self.tillJournal()
        let messages = try JournalMessages.read(journal: journal, spec: try Self.secretTill(beside: journal))
        let steps = messages.filter { $0.type == "step" }
        #expect(steps[0]["state"] == "mode: books(open)\nposted: 0\namount: <redacted>\nbatches: 0\nchecksum: 0")
        #expect(steps.compactMap { $0["state"] }.allSatisfy { $0.contains("amount: <redacted>") })
        #expect(steps[1]["event"] == "credit(n: 1, amount: <redacted>)" && steps[2]["event"] == "debit(n: 2, amount: <redacted>)")
        // What the page and /page get: the store's messages.
        let store = InspectorStore()
        for message in messages { await store.receive(message) }
        let sent = await store.history().joined()
        #expect(!sent.contains("500") && !sent.contains("487") && sent.contains("<redacted>"))
    }

    @Test("I71: stateloop journal --spec prints the spec's redact: true fields as <redacted>")
    func i71RedactedListing() async throws {
        let journal = try await Self.tillJournal()
        let process = Process()
        process.executableURL = builtExecutable("stateloop")
        process.arguments = ["journal", journal, "--spec", try Self.secretTill(beside: journal)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("  field amount = <redacted>"), "\(text)")
        #expect(text.contains(": credit(n: 4, amount: <redacted>)"), "\(text)")
        #expect(!text.contains("amount: 7") && !text.contains("= 487"), "\(text)")
    }

    @Test("I47, I48: a journal's machine sends no replay mismatch, and its steps are not exported as a test", .enabled(if: serverBuilt, "runs the server: build with --traits Inspector"))
    func i48NoExportOfAJournal() async throws {
        let journal = try await Self.tillJournal()
        let messages = try JournalMessages.read(journal: journal, spec: Self.till)
        #expect(!messages.contains { $0.type == "mismatch" })
        let inspector = try RunningInspector(builtExecutable("stateloop-inspect"), ["--port", "0", "--journal", journal, "--spec", "Specs/Till.machine.yml"])
        #expect(try await inspector.get("/stats").body == #"{"kept":7,"limitPerInstance":20000}"#)
        let export = try await inspector.get("/export?instance=till&from=1&to=5")
        #expect(export.status == 400)
        #expect(export.body.contains("till was read from the journal till.journal, which holds events and the states of its snapshots only (I48)"), "\(export.body)")
    }
}
