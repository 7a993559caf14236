// `stateloop journal DB` (Docs/Durability.md D83–D86) on real SQLite journals: one a Till
// (Specs/Till.machine.yml) writes in the test with a fixed wall clock, so the whole output is
// pinned; the durable demo's; and files that are not journals, damaged, or of a newer schema.
import CSQLite
import Foundation
import StateLoop
import StateLoopDurable
import StateLoopExamples
import StateLoopTestSupport
import Testing

@Suite struct JournalToolTests {
    /// 2026-11-26 00:00 UTC, in ns since the Unix epoch: every step of the test's journal.
    static let wallTime: Int64 = 1_795_651_200_000_000_000

    /// Ten entries posted to a Till: three batches closed, the last one still closing (its
    /// reminder timer armed); no effect runs, so the four `archive` runs stay unfinished.
    static let events: [Till.Event] = [
        .credit(n: 1, amount: 500), .debit(n: 2, amount: 20), .close(n: 3), .credit(n: 4, amount: 7), .close(n: 5),
        .debit(n: 6, amount: 1), .credit(n: 7, amount: 100), .close(n: 8), .credit(n: 9, amount: 3), .close(n: 10),
    ]

    /// A journal of `events` in a new SQLite file, machine id `till`, a snapshot every 4 records
    /// and one at the stop (0, 4, 8, 10). Returns the file's path.
    static func tillJournal() async throws -> String {
        let path = try StateLoopTool.temporaryDirectory().appending(path: "till.journal").path
        try await writeDurableJournal(
            Till.self, id: "till", at: path, initial: .initial, events: events,
            options: DurableOptions(snapshotEvery: 4, wallClock: WallClock { wallTime }))
        return path
    }

    @Test("D83: without --spec, every machine with its versions, records, latest snapshot and last events, raw")
    func d83ListsAJournalRaw() async throws {
        let path = try await Self.tillJournal()
        let result = try StateLoopTool.run(["journal", path, "--last", "3"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.output == """
            machine till
              versions 1
              records 10, sequence 1...10
              snapshots 4
              snapshot 10 at 2026-11-26T00:00:00.000Z
              snapshot bytes 48 (give --spec to read them)
              last 3 events
              event 8 at 2026-11-26T00:00:00.000Z: case 2, 2 bytes
              event 9 at 2026-11-26T00:00:00.000Z: case 0, 3 bytes
              event 10 at 2026-11-26T00:00:00.000Z: case 2, 2 bytes

            """)
    }

    @Test("D84: with --spec, events by name with their payloads, and the latest snapshot by mode, context fields, runs and timers")
    func d84ListsAJournalWithItsSpec() async throws {
        let path = try await Self.tillJournal()
        let result = try StateLoopTool.run(["journal", path, "--spec", "Specs/Till.machine.yml", "--machine", "till", "--last", "4"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.output == """
            machine till
              versions 1
              records 10, sequence 1...10
              snapshots 4
              snapshot 10 at 2026-11-26T00:00:00.000Z
              mode books(closing)
              field posted = 10
              field balance = 589
              field batches = 4
              field checksum = 14296315759
              runs not finished 4 of 4 queued
              run 0 = archive(1)
              run 1 = archive(2)
              run 2 = archive(3)
              run 3 = archive(4)
              timer _timer(state: closing, index: 0, entry: 10) armed at 2026-11-26T00:00:00.000Z
              last 4 events
              event 7 at 2026-11-26T00:00:00.000Z: credit(n: 7, amount: 100)
              event 8 at 2026-11-26T00:00:00.000Z: close(n: 8)
              event 9 at 2026-11-26T00:00:00.000Z: credit(n: 9, amount: 3)
              event 10 at 2026-11-26T00:00:00.000Z: close(n: 10)

            """)
    }

    @Test("D84: the durable demo's journal, read with Specs/Till.machine.yml")
    func d84ReadsTheDemosJournal() throws {
        let path = try StateLoopTool.temporaryDirectory().appending(path: "demo.journal").path
        let demo = try StateLoopTool.run(StateLoopTool.executable.deletingLastPathComponent().appending(path: "stateloop-demo"), ["durable", "--journal", path, "--events", "30"])
        #expect(demo.status == 0, "\(demo.stderr)")
        let result = try StateLoopTool.run(["journal", path, "--spec", "Specs/Till.machine.yml", "--last", "100"])
        #expect(result.status == 0, "\(result.stderr)")
        // 30 events (DurableDemo.event) and a record for each of the 3 `archive` runs, which
        // return nothing: the runs finish while events are journaled, so their places vary.
        let lines = result.output.replacing(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/, with: "TIME").split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(3)) == ["machine till", "  versions 1", "  records 33, sequence 1...33"])
        #expect(lines.contains("  field posted = 30"))
        #expect(lines.contains("  field batches = 3"))
        #expect(lines.contains("  runs not finished 0 of 3 queued"))
        let events = lines.filter { $0.hasPrefix("  event ") }.map { $0.replacing(/event \d+ at TIME/, with: "event at TIME") }
        #expect(events.count == 33)
        #expect(events.filter { $0.hasSuffix("returned nothing") }.count == 3)
        #expect(events.contains("  event at TIME: credit(n: 29, amount: 651)"))
        #expect(events.contains("  event at TIME: debit(n: 27, amount: 7)"))
        #expect(events.contains("  event at TIME: close(n: 30)"))
    }

    @Test("D85: a missing file, a file that is not a journal and a newer schema are errors with the fix (exit status 2), and left untouched")
    func d85RefusesWhatIsNotAJournal() throws {
        let directory = try StateLoopTool.temporaryDirectory()
        let missing = try StateLoopTool.run(["journal", "none.journal"], in: directory)
        #expect(missing.status == 2)
        #expect(missing.stderr == "error: none.journal: no such file: give the path of the journal file a durable system writes (SQLiteJournalStore(path:))\n")
        #expect(!FileManager.default.fileExists(atPath: directory.appending(path: "none.journal").path))

        try Data(String(repeating: "not a journal ", count: 20).utf8).write(to: directory.appending(path: "notes.txt"))
        let text = try StateLoopTool.run(["journal", "notes.txt"], in: directory)
        #expect(text.status == 2)
        #expect(text.stderr == "error: notes.txt: not a StateLoop journal (not a SQLite database): give the file a durable system writes with SQLiteJournalStore; it was left untouched\n")

        var db: OpaquePointer?
        #expect(sqlite3_open(directory.appending(path: "newer.journal").path, &db) == SQLITE_OK)
        #expect(sqlite3_exec(db, "PRAGMA user_version = 7", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(db)
        let newer = try StateLoopTool.run(["journal", "newer.journal"], in: directory)
        #expect(newer.status == 2)
        #expect(newer.stderr == "error: newer.journal: journal schema version 7 is newer than this build's \(SQLiteJournalStore.schemaVersion): read it with the newer StateLoop that wrote it; it was left untouched\n")
    }

    @Test("D85: a damaged entry, or a journal read with another spec, is named with the fix (exit status 2) and the rest is listed")
    func d85NamesDamagedEntries() async throws {
        let path = try await Self.tillJournal()
        try SQLiteJournalStore(path: path).append([JournalRecord(sequence: 11, event: [0, 2, 0, 0, 9], stateAfter: [])], to: "till")
        let damaged = try StateLoopTool.run(["journal", path, "--spec", "Specs/Till.machine.yml", "--last", "1"])
        #expect(damaged.status == 2)
        #expect(damaged.output.hasSuffix("  last 1 events\n  event 11 at 1970-01-01T00:00:00.000Z: unreadable, 1 bytes\n"))
        #expect(damaged.stderr == "error: machine 'till': record 11 cannot be read with Till's spec (journal bytes at offset 0 are not valid: case 9 of a type with 4 cases): the file is damaged, or --spec is not the spec that wrote it\n")

        // A record whose envelope is cut short: listed as unreadable, with or without --spec.
        try SQLiteJournalStore(path: path).append([JournalRecord(sequence: 12, event: [0, 2], stateAfter: [])], to: "till")
        let cut = try StateLoopTool.run(["journal", path, "--last", "1"])
        #expect(cut.status == 2)
        #expect(cut.output.hasSuffix("  last 1 events\n  event 12: unreadable, 2 bytes\n"))
        #expect(cut.stderr.hasPrefix("error: machine 'till': record 12 cannot be read ("))
        #expect(cut.stderr.hasSuffix("): the file is damaged\n"))
    }

    @Test("H69: after a hosted instance's entries, its host and whether it is awake or finished, then its timer rows with their deadlines; a row whose checksum fails is named as an error (exit status 2)")
    func h69ListsAHostedInstancesRows() async throws {
        let path = try StateLoopTool.temporaryDirectory().appending(path: "tabs.journal").path
        // A clock that never moves: the tab's settling timer stays armed.
        let host = MachineHost<Tab>(
            store: try SQLiteJournalStore(path: path), initial: { _ in .initial },
            options: HostOptions(clock: ManualHostClock(start: Self.wallTime)))
        let running = Task { try await host.run() }
        _ = try await host.send(.order(n: 1, amount: 12), to: "tab-1")
        host.shutdown()
        try await running.value
        let listed = try StateLoopTool.run(["journal", path, "--spec", "Specs/Tab.machine.yml", "--last", "1"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.output.hasSuffix("""
              last 1 events
              event 1 at 2026-11-26T00:00:00.000Z: order(n: 1, amount: 12)
              hosted by Tab, asleep
              timer _timer(state: open, index: 0, entry: 1) due 2026-11-26T00:00:00.050Z

            """), "\(listed.output)")
        let raw = try StateLoopTool.run(["journal", path, "--last", "0"])
        #expect(raw.status == 0 && raw.output.contains("\n  timer case "), "\(raw.output)")

        var db: OpaquePointer?
        #expect(sqlite3_open(path, &db) == SQLITE_OK)
        #expect(sqlite3_exec(db, "UPDATE host_timer SET crc = crc + 1; UPDATE host_instance SET awake = 1", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(db)
        let damaged = try StateLoopTool.run(["journal", path, "--last", "0"])
        #expect(damaged.status == 2)
        #expect(damaged.output.contains("\n  hosted by Tab, awake\n"))
        #expect(damaged.stderr == """
            error: machine 'tab-1': its instance row does not match its checksum: the file is damaged; a host writes the row again when it next loads the instance (Docs/Hosting.md H38)
            error: machine 'tab-1': the timer row due 2026-11-26T00:00:00.050Z does not match its checksum: the file is damaged; a host writes its rows again from the journal when it next loads the instance (Docs/Hosting.md H37, H38)

            """)
    }

    @Test("D115: an entry whose checksum fails and a missing record are named as errors (exit status 2), and the rest is listed")
    func d115NamesChecksumMismatchesAndGaps() async throws {
        let path = try await Self.tillJournal()
        var db: OpaquePointer?
        #expect(sqlite3_open(path, &db) == SQLITE_OK)
        // Record 9's bytes changed behind the store's back, record 6 deleted.
        #expect(sqlite3_exec(db, "UPDATE journal SET event = zeroblob(length(event)) WHERE seq = 9; DELETE FROM journal WHERE seq = 6", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(db)
        let result = try StateLoopTool.run(["journal", path, "--last", "1"])
        #expect(result.status == 2)
        #expect(result.output.hasPrefix("machine till\n"))
        #expect(result.output.contains("\n  records 9, sequence 1...10\n"))
        #expect(result.stderr.hasPrefix("""
            error: journal of 'till': record 9 does not match its checksum: the file is damaged (a disk error, or a copy taken without its -wal file); restore the file from a backup (`stateloop journal backup`)
            """))
        #expect(result.stderr.contains("\nerror: journal of 'till': record 6 is missing (the records after the snapshot must run without a gap to the last one)"))
    }

    @Test("D121: `stateloop journal backup DB OUT` writes one file with every commit, the -wal file's too, and refuses an OUT that exists")
    func d121BackupCopiesTheWAL() async throws {
        let directory = try StateLoopTool.temporaryDirectory()
        let path = directory.appending(path: "open.journal").path
        // A store left open: its last commits are in open.journal-wal, not yet in open.journal.
        let store = try SQLiteJournalStore(path: path)
        try store.append((1...50).map { JournalRecord(sequence: $0, event: [UInt8($0)], stateAfter: []) }, to: "m")
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        let result = try StateLoopTool.run(["journal", "backup", path, "copy.journal"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.output == "backup copy.journal: every commit of \(path)\n")
        let copy = try SQLiteJournalFile(path: directory.appending(path: "copy.journal").path)
        #expect(try copy.history(of: "m") == JournalHistory(snapshots: [], records: (1...50).map { JournalRecord(sequence: $0, event: [UInt8($0)], stateAfter: []) }))
        let again = try StateLoopTool.run(["journal", "backup", path, "copy.journal"], in: directory)
        #expect(again.status == 2)
        #expect(again.stderr == "error: copy.journal exists: give a backup a new file, so that no file is half overwritten; it was left untouched\n")
        withExtendedLifetime(store) {}
    }

    @Test("D122: `stateloop journal` warns when the file's -shm is there and its -wal is not: a journal that looks like it lost its WAL")
    func d122WarnsOfALostWAL() async throws {
        let path = try await Self.tillJournal()
        // What a crash leaves, with the -wal file deleted.
        FileManager.default.createFile(atPath: path + "-shm", contents: Data(count: 32_768))
        let result = try StateLoopTool.run(["journal", path, "--last", "0"])
        #expect(result.stderr.hasPrefix("warning: \(path)-shm is there and \(path)-wal is not: the journal looks like it lost its -wal file"), "\(result.stderr)")
        try FileManager.default.removeItem(atPath: path + "-shm")
        let whole = try StateLoopTool.run(["journal", path, "--last", "0"])
        #expect(whole.status == 0 && whole.stderr.isEmpty, "\(whole.stderr)")
    }

    @Test("D84: entries of a version neither --spec nor its lock lays out are shown raw, with both versions; a spec that does not persist is an error")
    func d84OtherVersionIsShownRaw() async throws {
        let path = try await Self.tillJournal()
        // Till at version 2, with no lock beside it; the Till journal was written by version 1.
        let directory = try StateLoopTool.temporaryDirectory()
        let till = try String(contentsOf: StateLoopTool.repositoryRoot.appending(path: "Specs/Till.machine.yml"), encoding: .utf8)
        try Data(till.replacingOccurrences(of: "persist: true", with: "persist: {version: 2}").utf8).write(to: directory.appending(path: "Till.machine.yml"))
        let other = try StateLoopTool.run(["journal", path, "--spec", directory.appending(path: "Till.machine.yml").path, "--last", "1"])
        #expect(other.status == 0, "\(other.stderr)")
        #expect(other.output.hasSuffix("""
              snapshot 10 at 2026-11-26T00:00:00.000Z
              snapshot bytes 48 (written by version 1, --spec is version 2, whose lock holds no layout of version 1)
              last 1 events
              event 10 at 2026-11-26T00:00:00.000Z: case 2, 2 bytes (written by version 1, --spec is version 2, whose lock holds no layout of version 1)

            """))
        let counter = try StateLoopTool.run(["journal", path, "--spec", "Specs/Counter.machine.yml"])
        #expect(counter.status == 1)
        #expect(counter.stderr == "Specs/Counter.machine.yml: error: machine 'Counter' does not persist, so it writes no journal: give the spec with 'persist:' that wrote it\n")
        #expect(counter.output.isEmpty)
    }

    @Test("D86: --replay says that the replay runs the machine's reducer, in a test or the demo, and names both (exit status 2)")
    func d86ReplayNamesTheAPI() async throws {
        let result = try StateLoopTool.run(["journal", "till.journal", "--replay"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("replayJournal(SQLiteJournalFile(path: \"till.journal\"), id: \"ID\")"))
        #expect(result.stderr.contains("stateloop-demo durable --journal till.journal --replay"))
    }
}
