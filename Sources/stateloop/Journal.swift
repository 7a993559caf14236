import ArgumentParser
import Foundation
import StateLoop
import StateLoopCodegen
import StateLoopDurable
import StateLoopJournalReading
import StateLoopSpec

/// `stateloop journal`: the tools of a durable machine's journal file (Docs/Durability.md "Tools
/// for a journal"): `show` (the default) and `backup`.
struct Journal: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what a durable machine's journal file holds, or copy it safely.",
        discussion: """
            `stateloop journal DB` is `stateloop journal show DB`. A journal is its file and its \
            -wal file: copy it with `stateloop journal backup DB OUT`, never with cp.
            """,
        subcommands: [JournalShow.self, JournalBackup.self],
        defaultSubcommand: JournalShow.self
    )
}

/// `stateloop journal [show] DB`: what a durable machine's journal file holds (Docs/Durability.md
/// "Tools for a journal", D83–D86). Reads the file read-only; every line starts with what it is,
/// so the output greps.
struct JournalShow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show what a durable machine's journal file holds.",
        discussion: """
            Lists every machine id of a SQLite journal (written by SQLiteJournalStore): its spec \
            version(s), record count and first and last sequence number, its latest snapshot \
            (sequence number and time) and its last events with their wall-clock times (UTC). \
            With --spec, the spec that wrote the journal, events are shown by name with their \
            payloads, and the latest snapshot by mode and context fields, its one-shot runs not \
            known finished and its armed timers (an older version's entries with the layout \
            the spec's lock holds of it); without it, events as case numbers and byte \
            counts. A child machine journals under "<parent id>/<effect>@<step>", listed after \
            its parent, and read with its own spec (found beside --spec). The file is only read. Exit status: 0 ok, 1 the spec has errors, 2 a file \
            that is not a journal, or an entry that cannot be read.
            """
    )

    @Argument(help: "The journal file (the path given to SQLiteJournalStore).")
    var database: String

    @Option(help: "The spec of the machine that wrote the journal (*.machine.yml), to show values by name.")
    var spec: String?

    @Option(name: .customLong("machine"), help: "Show only the machine of this id.")
    var machineID: String?

    @Option(help: "How many of the last events to show per machine.")
    var last = 10

    @Flag(help: "Check the journal by replaying it through the machine's reducer (not here: see the message).")
    var replay = false

    func validate() throws {
        guard last >= 0 else { throw ValidationError("--last takes a count of events, 0 or more") }
    }

    func run() throws {
        if replay {
            // The reducer is the user's compiled Swift, which this tool does not link (D86).
            Console.printError("""
                stateloop journal: --replay needs the machine's reducer, which is compiled into your app, not into stateloop. \
                Replay from a test of your package instead: `let report = try MyMachine.replayJournal(SQLiteJournalFile(path: "\(database)"), id: "ID")` \
                (StateLoopDurable; Docs/Durability.md, "Tools for a journal"); for the Till example, run `stateloop-demo durable --journal \(database) --replay`.
                """)
            throw ExitCode.usageOrIO
        }
        let layouts = try spec.map(Self.layouts(of:))
        let file: SQLiteJournalFile
        do {
            file = try SQLiteJournalFile(path: database)
        } catch {
            Console.printError("error: \(error)")
            throw ExitCode.usageOrIO
        }
        if file.lostWAL {
            // D122: the commits in a deleted -wal file are gone, and nothing inside the file says so.
            Console.printError("warning: \(database)-shm is there and \(database)-wal is not: the journal looks like it lost its -wal file (deleted or not copied after a crash), and with it the commits not yet in the file; what follows may lack them. Copy a journal with `stateloop journal backup`")
        }
        var lister = JournalListing(file: file, layouts: layouts, last: last)
        do {
            let ids = try machineID.map { [$0] } ?? file.machineIDs()
            if ids.isEmpty { print("no machines: the journal is empty") }
            for id in ids { try lister.list(id) }
        } catch {
            Console.printError("error: \(error)")
            throw ExitCode.usageOrIO
        }
        if !lister.unreadable.isEmpty {
            Console.printError(lister.unreadable.map { "error: \($0)" }.joined(separator: "\n"))
            throw ExitCode.usageOrIO
        }
    }

    /// The journal layouts of the spec at `path`, of its lock's older versions and of its children
    /// (found beside it); an error when the spec has errors or does not persist.
    static func layouts(of path: String) throws -> JournalLayouts {
        let read = try ChildSpecs(specs: [path])
        let lock = try Console.readLock(besideSpec: path)
        let result = GeneratorPipeline.load(contents: read.contents(of: path), path: path, library: read.library, lock: lock)
        Console.report(result.diagnostics)
        guard let checked = result.spec else { throw ExitCode.specErrors }
        let layouts = try JournalLayouts(checked, path: path) { child in
            let loaded = GeneratorPipeline.load(contents: try Console.readSpec(child.file), path: child.file, library: read.library, lock: try Console.readLock(besideSpec: child.file))
            Console.report(loaded.diagnostics)
            return loaded.spec
        }
        guard let layouts else {
            throw Console.fail("machine '\(checked.spec.name.value)' does not persist, so it writes no journal: give the spec with 'persist:' that wrote it", about: path, status: .specErrors)
        }
        return layouts
    }
}

/// Prints the machines of a journal file, one fact a line.
struct JournalListing {
    let file: SQLiteJournalFile
    /// The layouts of `--spec`, if given.
    let layouts: JournalLayouts?
    let last: Int
    /// The machine being listed.
    private var id = ""
    /// The entries that could not be read, each named: printed at the end, exit status 2.
    var unreadable: [String] = []

    init(file: SQLiteJournalFile, layouts: JournalLayouts?, last: Int) {
        self.file = file
        self.layouts = layouts
        self.last = last
    }

    /// The layout of the machine being listed (a child machine's values are read with its own spec's).
    private var layout: JournalLayout? { layouts?.layout(of: id) }

    private var children: [String: JournalLayout] { layouts?.children ?? [:] }
    /// The spec's `redact: true` fields, printed `<redacted>` (Docs/Inspector.md I71).
    private var redacted: Set<String> { layouts?.redacted ?? [] }

    /// Prints machine `id`.
    mutating func list(_ id: String) throws {
        let history = try file.history(of: id)
        print("machine \(id)")
        self.id = id
        // Damaged entries and missing records, each named (D115).
        unreadable += history.problems(of: id).map(\.description)
        try listEntries(id, history)
        if let hosting = try file.hosting(of: id) { listHosting(id, hosting) }
    }

    /// A hosted instance's rows (Docs/Hosting.md H69): its host and whether it is awake or
    /// finished, then its timers and pending sends by deadline; a row whose checksum fails is
    /// listed and named as an error.
    private mutating func listHosting(_ id: String, _ hosting: JournalHosting) {
        if let instance = hosting.instance {
            let row = instance.row
            print("  hosted by \(row.host), " + (row.finished ? "finished" : row.awake ? "awake" : "asleep"))
            if !instance.checksumMatches {
                unreadable.append("machine '\(id)': its instance row does not match its checksum: the file is damaged; a host writes the row again when it next loads the instance (Docs/Hosting.md H38)")
            }
        }
        for timer in hosting.timers {
            let due = Self.time(timer.row.deadline)
            print("  timer \(valueText(ofEvent: timer.row.event, version: layout?.version, in: "the timer row due \(due)")) due \(due)")
            if !timer.checksumMatches {
                unreadable.append("machine '\(id)': the timer row due \(due) does not match its checksum: the file is damaged; a host writes its rows again from the journal when it next loads the instance (Docs/Hosting.md H37, H38)")
            }
        }
    }

    private mutating func listEntries(_ id: String, _ history: JournalHistory) throws {
        guard !(history.records.isEmpty && history.snapshots.isEmpty) else {
            print("  empty: no record and no snapshot")
            return
        }
        // Each record's envelope, or `nil` for one that cannot be read (listed as unreadable).
        var records: [(record: JournalRecord, envelope: JournalRecordEnvelope?)] = []
        var versions: Set<Int> = []
        for record in history.records {
            do {
                let envelope = try JournalRecordEnvelope(record.event)
                records.append((record, envelope))
                versions.insert(envelope.version)
            } catch {
                records.append((record, nil))
                unreadable.append("machine '\(id)': record \(record.sequence) cannot be read (\(error)): the file is damaged")
            }
        }
        var snapshot: (sequence: Int64, envelope: JournalSnapshotEnvelope)?
        for saved in history.snapshots {
            do {
                let envelope = try JournalSnapshotEnvelope(saved.state)
                versions.insert(envelope.version)
                snapshot = (saved.sequence, envelope)
            } catch {
                unreadable.append("machine '\(id)': snapshot \(saved.sequence) cannot be read (\(error)): the file is damaged")
            }
        }
        print("  versions " + versions.sorted().map(String.init).joined(separator: ", "))
        if let first = history.records.first, let final = history.records.last {
            print("  records \(history.records.count), sequence \(first.sequence)...\(final.sequence)")
        } else {
            print("  records 0")
        }
        print("  snapshots \(history.snapshots.count)")
        if let (sequence, envelope) = snapshot { listSnapshot(id, sequence, envelope) }
        let shown = records.suffix(last)
        if !shown.isEmpty { print("  last \(shown.count) events") }
        for (record, envelope) in shown {
            let sequence = record.sequence
            guard let envelope else {
                print("  event \(sequence): unreadable, \(record.event.count) bytes")
                continue
            }
            let time = Self.time(envelope.wallTime)
            switch envelope.kind {
            case .runReturnedNothing:
                print("  event \(sequence) at \(time): run \(envelope.run ?? 0) returned nothing")
            case .event:
                let by = envelope.run.map { " (from run \($0))" }
                    ?? envelope.child.map { " (output of child \($0))" }
                    ?? envelope.forwarded.map { " (forwarded by parent step \($0.parentStep), #\($0.index))" } ?? ""
                print("  event \(sequence) at \(time)\(by): " + eventText(id, sequence, envelope))
            }
        }
    }

    /// The latest snapshot: its header, and with a layout its state, runs and timers.
    private mutating func listSnapshot(_ id: String, _ sequence: Int64, _ envelope: JournalSnapshotEnvelope) {
        print("  snapshot \(sequence) at \(Self.time(envelope.wallTime))")
        guard let layout = layout(ofVersion: envelope.version) else {
            print("  snapshot bytes \(envelope.reader.bytes.count - envelope.reader.offset) (" + versionNote(envelope.version) + ")")
            return
        }
        let values = JournalValueText(layout: layout, children: children, redacting: redacted)
        var envelope = envelope
        do throws(JournalValueText.Failure) {
            for field in try values.stateFields(from: &envelope.reader) {
                print(field.name == "mode" ? "  mode \(field.text)" : "  field \(field.name) = \(field.text)")
            }
            let book = try JournalValueText.unreadable { () throws(JournalDecodingError) in
                try envelope.readBookkeeping(
                    run: { reader throws(JournalDecodingError) in try Self.textOrThrow { () throws(JournalValueText.Failure) in try values.text(ofType: GeneratedNames.run, from: &reader) } },
                    event: { reader throws(JournalDecodingError) in try Self.textOrThrow { () throws(JournalValueText.Failure) in try values.text(ofType: GeneratedNames.event, from: &reader) } })
            }
            print("  runs not finished \(book.runs.count) of \(book.runsQueued) queued")
            for run in book.runs { print("  run \(run.key) = \(run.run)") }
            for timer in book.timers {
                print("  timer \(timer.event) armed at \(Self.time(timer.armedAt))" + (timer.fired ? ", fired" : ""))
            }
            for child in book.children {
                print("  child \(child.effect) journal \(id)/\(child.effect)@\(child.since)" + (child.reported ? ", output journaled" : ""))
            }
            if let forwarded = book.forwarded {
                print("  forwarded up to parent step \(forwarded.parentStep), #\(forwarded.index)")
            }
        } catch {
            unreadable.append("machine '\(id)': snapshot \(sequence) cannot be read with \(specName)'s spec (\(Self.describe(error))): the file is damaged, or --spec is not the spec that wrote it")
        }
    }

    /// An event by name and payload with a layout of its version, else its case number and size.
    private mutating func eventText(_ id: String, _ sequence: Int64, _ envelope: JournalRecordEnvelope) -> String {
        valueText(ofEvent: envelope.event, version: envelope.version, in: "record \(sequence)")
    }

    /// The event of `bytes`, written by spec `version` (`nil`: this spec's), read with its layout;
    /// without one, its case number and size. `entry` names where it is, for an error.
    private mutating func valueText(ofEvent bytes: [UInt8], version: Int?, in entry: String) -> String {
        var reader = JournalReader(bytes)
        guard let version, let layout = layout(ofVersion: version) else {
            let number = (try? reader.readVarint()).map { "case \($0), " } ?? ""
            // With --spec: why its layouts cannot read this version.
            let note = layout == nil ? nil : version.map { " (" + versionNote($0) + ")" }
            return number + "\(bytes.count) bytes" + (note ?? "")
        }
        do throws(JournalValueText.Failure) {
            let text = try JournalValueText(layout: layout, children: children, redacting: redacted).text(ofType: GeneratedNames.event, from: &reader)
            guard reader.isAtEnd else { throw .unreadable(.invalid(offset: reader.offset, reason: "bytes after the event")) }
            return text
        } catch {
            unreadable.append("machine '\(id)': \(entry) cannot be read with \(specName)'s spec (\(Self.describe(error))): the file is damaged, or --spec is not the spec that wrote it")
            return "unreadable, \(bytes.count) bytes"
        }
    }

    /// The layout entries of `version` are read with: the spec's own, or its lock's of an older version.
    private func layout(ofVersion version: Int) -> JournalLayout? {
        layouts?.layout(of: id, version: version)
    }

    /// The machine of `--spec`, as messages name it.
    private var specName: String { layout?.machine ?? "" }

    private func versionNote(_ version: Int) -> String {
        guard let layout else { return "give --spec to read them" }
        let why = version > layout.version ? "" : ", whose lock holds no layout of version \(version)"
        return "written by version \(version), --spec is version \(layout.version)\(why)"
    }

    /// A failure of a value inside `readBookkeeping`, as the decoding error it takes.
    private static func textOrThrow(_ body: () throws(JournalValueText.Failure) -> String) throws(JournalDecodingError) -> String {
        do {
            return try body()
        } catch {
            switch error {
            case .unreadable(let error): throw error
            case .childNotLoaded: throw .invalid(offset: 0, reason: describe(error))
            }
        }
    }

    private static func describe(_ failure: JournalValueText.Failure) -> String {
        switch failure {
        case .unreadable(let error): "\(error)"
        case .childNotLoaded(let type): "a value of \(type), whose spec did not load"
        }
    }

    /// `2026-11-26T10:55:04.123Z`: a wall-clock time (ns since the Unix epoch) in UTC.
    static func time(_ nanoseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: Double(nanoseconds) / 1e9))
    }
}
