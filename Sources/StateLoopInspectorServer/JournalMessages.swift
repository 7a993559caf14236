// JournalMessages: a durable machine's journal file shown offline (`stateloop inspect --journal`,
// Docs/Inspector.md I44-I48) as the messages an attached app sends, so that the page has one input.
// The values are read with the generator's layouts (StateLoopJournalReading), as
// `stateloop journal --spec` reads them; the reducer is the app's compiled code, which the
// inspector does not link, so the states are those the journal holds: its snapshots' (I46).

import Foundation
import StateLoop
import StateLoopCodegen
import StateLoopDurable
import StateLoopInspector
import StateLoopJournalReading
import StateLoopSpec

/// The messages of every machine of a journal file, in the order an app would send them.
public struct JournalMessages {
    /// The file's name, which each hello carries as `journal` (I44).
    public let fileName: String
    public let layouts: JournalLayouts

    /// Reads the spec at `specPath` (with the specs beside it, for its children, and its lock, for
    /// its older versions) and the journal at `path`; refuses a spec with errors or without
    /// `persist:` and a file that is not a journal, saying how to fix it (I45).
    public static func read(journal path: String, spec specPath: String) throws(InspectorError) -> [InspectorMessage] {
        let layouts = try layouts(ofSpecAt: specPath)
        let file: SQLiteJournalFile
        do {
            file = try SQLiteJournalFile(path: path)
        } catch {
            throw .spec("\(error)")
        }
        return try JournalMessages(fileName: (path as NSString).lastPathComponent, layouts: layouts).messages(of: file)
    }

    public init(fileName: String, layouts: JournalLayouts) {
        self.fileName = fileName
        self.layouts = layouts
    }

    /// Each machine id of `file` that the spec reads (its machine, its children), hello first,
    /// then its steps; a parent's `child` message where its child's journal starts (I44, I47).
    public func messages(of file: SQLiteJournalFile) throws(InspectorError) -> [InspectorMessage] {
        var messages: [InspectorMessage] = []
        let ids: [String]
        do {
            ids = try file.machineIDs()
        } catch {
            throw .spec("\(error)")
        }
        guard !ids.isEmpty else { throw .spec("the journal \(fileName) holds no machine: give the file the durable machine writes to") }
        for id in ids where layouts.layout(of: id) != nil {
            let history: JournalHistory
            do {
                history = try file.history(of: id)
            } catch {
                throw .spec("\(error)")
            }
            let children = ids.compactMap { child -> (id: String, step: Int64)? in
                guard child.hasPrefix(id + "/"), let at = child.lastIndex(of: "@"), !child[child.index(after: id.endIndex)...].contains("/"),
                      let step = Int64(child[child.index(after: at)...]) else { return nil }
                return (child, step)
            }
            for object in try machine(id, history, children: children) { messages.append(try InspectorMessage(object: object)) }
        }
        return messages
    }

    /// The messages of machine `id`: its hello, a step per event record, a run message per
    /// record of a one-shot run that returned nothing, and a `child` message after the step
    /// that started each child.
    private func machine(_ id: String, _ history: JournalHistory, children: [(id: String, step: Int64)]) throws(InspectorError) -> [[String: Any]] {
        guard let layout = layouts.layout(of: id) else { return [] }
        // The state after each sequence number the snapshots hold (the last one of a number).
        var states: [Int64: [(name: String, text: String)]] = [:]
        var start: Int64?
        var version: Int?
        for snapshot in history.snapshots {
            var envelope: JournalSnapshotEnvelope
            do {
                envelope = try JournalSnapshotEnvelope(snapshot.state)
            } catch {
                throw unreadable(id, "snapshot \(snapshot.sequence)", .unreadable(error), layout)
            }
            let values = layouts.values(try entryLayout(id, envelope.version, layout, "snapshot \(snapshot.sequence)"))
            do throws(JournalValueText.Failure) {
                states[snapshot.sequence] = try values.stateFields(from: &envelope.reader)
            } catch {
                throw unreadable(id, "snapshot \(snapshot.sequence)", error, layout)
            }
            start = start ?? envelope.wallTime
            version = envelope.version
        }
        var steps: [[String: Any]] = []
        if let initial = states[0] { steps.append(step(id, seq: 0, time: 0, event: nil, initial)) }
        for record in history.records {
            let envelope: JournalRecordEnvelope
            do {
                envelope = try JournalRecordEnvelope(record.event)
            } catch {
                throw unreadable(id, "record \(record.sequence)", .unreadable(error), layout)
            }
            start = start ?? envelope.wallTime
            version = envelope.version
            let time = Double(envelope.wallTime - (start ?? envelope.wallTime)) / 1e6
            switch envelope.kind {
            case .runReturnedNothing:
                steps.append([
                    "type": "run", "instance": id, "seq": Int(record.sequence), "phase": "finished",
                    "effect": "run \(envelope.run ?? 0)", "key": "returned nothing",
                ])
            case .event:
                var reader = JournalReader(envelope.event)
                let values = layouts.values(try entryLayout(id, envelope.version, layout, "record \(record.sequence)"))
                do throws(JournalValueText.Failure) {
                    let event = try values.text(ofType: GeneratedNames.event, from: &reader)
                    guard reader.isAtEnd else { throw .unreadable(.invalid(offset: reader.offset, reason: "bytes after the event")) }
                    steps.append(step(id, seq: record.sequence, time: time, event: event, states[record.sequence]))
                } catch {
                    throw unreadable(id, "record \(record.sequence)", error, layout)
                }
            }
            for child in children where child.step == record.sequence {
                steps.append(["type": "child", "instance": id, "seq": Int(record.sequence), "phase": "started", "child": child.id])
            }
        }
        let starting = children.filter { $0.step == 0 }.map { child -> [String: Any] in
            ["type": "child", "instance": id, "seq": 0, "phase": "started", "child": child.id]
        }
        if !starting.isEmpty { steps.insert(contentsOf: starting, at: states[0] == nil ? 0 : 1) }
        let parent = id.split(separator: "/", omittingEmptySubsequences: false).count == 2 ? String(id[..<id.firstIndex(of: "/")!]) : nil
        let hello: [String: Any] = [
            "type": "hello", "protocol": 1, "instance": id, "machine": layout.machine,
            "spec": (layouts.specFiles[layout.machine].map { ($0 as NSString).lastPathComponent } ?? layout.machine + ".machine.yml"),
            "parent": parent.map { $0 as Any } ?? NSNull(), "journalVersion": version ?? layout.version, "journal": fileName,
        ]
        return [hello] + steps
    }

    /// A step: `state` and `configuration` only when the journal holds the state after it (I46).
    private func step(_ id: String, seq: Int64, time: Double, event: String?, _ state: [(name: String, text: String)]?) -> [String: Any] {
        var step: [String: Any] = [
            "type": "step", "instance": id, "seq": Int(seq), "time": (time * 1000).rounded() / 1000,
            "event": event.map { $0 as Any } ?? NSNull(), "branches": [Any](),
        ]
        if let state {
            step["state"] = state.map { "\($0.name): \($0.text)" }.joined(separator: "\n")
            step["configuration"] = state.first { $0.name == "mode" }.map { ActiveStates.names(in: $0.text) } ?? []
        }
        return step
    }

    /// The layout of an entry of machine `id` written at `version`, or why there is none (I45).
    private func entryLayout(_ id: String, _ version: Int, _ layout: JournalLayout, _ entry: String) throws(InspectorError) -> JournalLayout {
        if let found = layouts.layout(of: id, version: version) { return found }
        let why = version > layout.version
            ? "a newer version of the spec wrote it: give that version's spec"
            : "the lock beside the spec holds no layout of version \(version): check out that version's spec and run `stateloop lock` on it (Docs/Durability.md D91)"
        throw .spec("machine '\(id)' of \(fileName): \(entry) was written by version \(version) of \(layout.machine), the spec is version \(layout.version); \(why)")
    }

    private func unreadable(_ id: String, _ entry: String, _ failure: JournalValueText.Failure, _ layout: JournalLayout) -> InspectorError {
        switch failure {
        case .unreadable(let error):
            return .spec("machine '\(id)' of \(fileName): \(entry) cannot be read with \(layout.machine)'s spec (\(error)): the file is damaged, or the spec is not the one that wrote it")
        case .childNotLoaded(let type):
            return .spec("machine '\(id)' of \(fileName): \(entry) holds a value of \(type), whose spec did not load: put the child's spec beside the spec given")
        }
    }

    /// The layouts of the spec at `path`, with the specs beside it and its lock (I45).
    static func layouts(ofSpecAt path: String) throws(InspectorError) -> JournalLayouts {
        let library = Diagrams.library(beside: path)
        func load(_ path: String) throws(InspectorError) -> CheckedMachineSpec {
            guard let bytes = FileManager.default.contents(atPath: path) else {
                throw .spec("cannot read the spec \(path): name the *.machine.yml of the machine that wrote the journal")
            }
            let lockPath = SpecFileNaming.lockPath(forSpecAt: path)
            let lock = LockInput(path: lockPath, contents: FileManager.default.contents(atPath: lockPath).map { Array($0) })
            let loaded = GeneratorPipeline.load(contents: Array(bytes), path: path, library: library, lock: lock)
            guard let spec = loaded.spec else {
                throw .spec("\(path) has errors (`stateloop check \(path)` lists them):\n" + loaded.diagnostics.map(\.description).joined(separator: "\n"))
            }
            return spec
        }
        let checked = try load(path)
        guard let layouts = try JournalLayouts(checked, path: path, loadChild: { child throws(InspectorError) in try load(child.file) }) else {
            throw .spec("machine '\(checked.name.value)' of \(path) does not persist, so it writes no journal: give the spec with 'persist:' that wrote it")
        }
        return layouts
    }
}
