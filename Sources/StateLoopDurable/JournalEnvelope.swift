// JournalEnvelope: what a durable system writes into a store's records and snapshots, around the
// machine's own bytes (Docs/Durability.md, "The record envelope"; D32). A store keeps bytes; this
// file alone decides what they hold.
//
// Invariants:
// - Every envelope starts with its kind and the spec's `journalVersion`, so a reader knows what
//   it holds and which version of the spec wrote it before it reads the machine's bytes.
// - Reading never traps: bad bytes throw `JournalDecodingError`.

import StateLoop

/// What one journal record holds (`JournalRecord.event`; its `stateAfter` is empty: recovery
/// replays the events, so the state after each is their reduction).
enum RecordEnvelope<M: DurableMachine>: Equatable {
    /// A reduced event: the wall-clock time of its step and the one-shot run that sent it, if any.
    case event(M.Event, wallTime: Int64, run: Int?)
    /// The one-shot run `run` returned without an event: it is finished (D37).
    case runReturnedNothing(run: Int, wallTime: Int64)

    /// `[kind][journalVersion][wall time][run + 1, or 0][event]`: varints, the time zigzagged.
    var bytes: [UInt8] {
        var writer = JournalWriter(capacity: 32)
        switch self {
        case let .event(event, wallTime, run):
            writer.writeVarint(0)
            writer.write(M.journalVersion)
            writer.writeSigned(wallTime)
            writer.writeVarint(run.map { UInt64($0) + 1 } ?? 0)
            writer.write(event)
        case let .runReturnedNothing(run, wallTime):
            writer.writeVarint(1)
            writer.write(M.journalVersion)
            writer.writeSigned(wallTime)
            writer.writeVarint(UInt64(run) + 1)
        }
        return writer.bytes
    }

    /// Reads a record written by ``bytes``; `version` is set before the machine's bytes are read,
    /// so a caller can say which version wrote bytes it cannot read.
    init(from bytes: [UInt8], version: inout Int?) throws(JournalDecodingError) {
        var reader = JournalReader(bytes)
        let kind = try reader.readCase(below: 2)
        let written = try reader.read(Int.self)
        version = written
        guard written == M.journalVersion else { throw .invalid(offset: 1, reason: "written by version \(written)") }
        let wallTime = try reader.readSigned()
        let runStart = reader.offset
        let run = try reader.readVarint()
        guard run <= UInt64(Int.max) else { throw .invalid(offset: runStart, reason: "a run number too large for Int") }
        if kind == 0 {
            self = .event(try reader.read(M.Event.self), wallTime: wallTime, run: run == 0 ? nil : Int(run) - 1)
        } else {
            guard run > 0 else { throw .invalid(offset: runStart, reason: "a finished run without a number") }
            self = .runReturnedNothing(run: Int(run) - 1, wallTime: wallTime)
        }
        guard reader.isAtEnd else { throw .invalid(offset: reader.offset, reason: "bytes after the record") }
    }
}

/// What one snapshot holds (`JournalSnapshot.state`): the state and the bookkeeping that the state
/// alone does not tell: the one-shot runs not known finished and the armed timers (D34).
struct SnapshotEnvelope<M: DurableMachine> {
    var state: M.State
    var wallTime: Int64
    var book: DurableBookkeeping<M>

    /// `[0][journalVersion][wall time][state][runs queued][n][key, run]…[m][event, armed at, fired]…`.
    var bytes: [UInt8] {
        var writer = JournalWriter(capacity: 256)
        writer.writeVarint(0)
        writer.write(M.journalVersion)
        writer.writeSigned(wallTime)
        writer.write(state)
        writer.write(book.runsQueued)
        writer.writeVarint(UInt64(book.runs.count))
        for run in book.runs {
            writer.write(run.key)
            writer.write(run.run)
        }
        writer.writeVarint(UInt64(book.timers.count))
        for timer in book.timers {
            writer.write(timer.event)
            writer.writeSigned(timer.armedAt)
            writer.write(timer.fired)
        }
        return writer.bytes
    }

    init(state: M.State, wallTime: Int64, book: DurableBookkeeping<M>) {
        self.state = state
        self.wallTime = wallTime
        self.book = book
    }

    /// Reads a snapshot written by ``bytes``; `version` as for ``RecordEnvelope``.
    init(from bytes: [UInt8], version: inout Int?) throws(JournalDecodingError) {
        var reader = JournalReader(bytes)
        _ = try reader.readCase(below: 1)
        let written = try reader.read(Int.self)
        version = written
        guard written == M.journalVersion else { throw .invalid(offset: 1, reason: "written by version \(written)") }
        wallTime = try reader.readSigned()
        state = try reader.read(M.State.self)
        let runsQueued = try reader.read(Int.self)
        var runs: [(key: Int, run: M.Run)] = []
        for _ in 0..<(try Self.count(&reader)) { runs.append((try reader.read(Int.self), try reader.read(M.Run.self))) }
        var timers: [DurableBookkeeping<M>.Timer] = []
        for _ in 0..<(try Self.count(&reader)) {
            timers.append(.init(event: try reader.read(M.Event.self), armedAt: try reader.readSigned(), fired: try reader.read(Bool.self)))
        }
        guard reader.isAtEnd else { throw .invalid(offset: reader.offset, reason: "bytes after the snapshot") }
        book = DurableBookkeeping(timers: timers, runs: runs, runsQueued: runsQueued)
    }

    /// A count of elements, each at least one byte long (a larger count is corrupt).
    private static func count(_ reader: inout JournalReader) throws(JournalDecodingError) -> Int {
        let start = reader.offset
        let count = try reader.readVarint()
        guard count <= UInt64(reader.bytes.count - reader.offset) else {
            throw .invalid(offset: start, reason: "\(count) elements in \(reader.bytes.count - reader.offset) bytes")
        }
        return Int(count)
    }
}
