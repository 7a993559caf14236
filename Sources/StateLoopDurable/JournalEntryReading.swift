// JournalEntryReading: a journal entry's envelope read without the machine's Swift types: the one
// reader of "The record envelope" (Docs/Durability.md). The tools that read a journal of code they
// do not link (`stateloop journal`, D83–D85) stop there; a durable system's `RecordEnvelope` and
// `SnapshotEnvelope` (JournalEnvelope.swift, which also writes entries) read the machine's values
// after it, with `DurableMachine`'s readers of the entry's version.
//
// Invariants:
// - Reading never traps: bad bytes throw `JournalDecodingError` with their offset.
// - The machine's own values are read by the caller (`readValue`), or left as bytes.

import StateLoop

/// A journal record's envelope (`JournalRecord.event`), its event left as bytes: what every reader
/// of a record reads first (the durable system's `RecordEnvelope` too).
public struct JournalRecordEnvelope: Sendable, Equatable {
    /// A reduced event, or a one-shot run that returned nothing.
    public enum Kind: Sendable, Equatable { case event, runReturnedNothing }

    public var kind: Kind
    /// The `journalVersion` of the spec that wrote it.
    public var version: Int
    /// The wall-clock time of its step, in nanoseconds since the Unix epoch.
    public var wallTime: Int64
    /// The number of the one-shot run that sent the event, or that returned nothing.
    public var run: Int?
    /// For the output of a child machine, the parent's effect that ran it (D104).
    public var child: String?
    /// For an event a parent forwarded to this machine, which one (D105).
    public var forwarded: ForwardedFrom?
    /// The record's bytes; the event's start at ``eventOffset``.
    public var bytes: [UInt8]
    /// Where the event's bytes start in ``bytes`` (at their end for `.runReturnedNothing`).
    public var eventOffset: Int

    /// The event's bytes in the machine's encoding (empty for `.runReturnedNothing`).
    public var event: [UInt8] { Array(bytes[eventOffset...]) }

    /// Reads the envelope of a record's bytes.
    @inlinable
    public init(_ bytes: [UInt8]) throws(JournalDecodingError) {
        var version: Int?
        try self.init(bytes, version: &version)
    }

    /// Reads the envelope of a record's bytes; `version` is set as soon as it is read, so that a
    /// caller can say which version wrote bytes that end too soon.
    @inlinable
    public init(_ bytes: [UInt8], version: inout Int?) throws(JournalDecodingError) {
        var reader = JournalReader(bytes)
        // 0 an event, 1 a run that returned nothing, 2 a child's output, 3 a forwarded event.
        let written = try reader.readCase(below: 4)
        kind = written == 1 ? .runReturnedNothing : .event
        self.version = try reader.read(Int.self)
        version = self.version
        wallTime = try reader.readSigned()
        let sourceStart = reader.offset
        switch written {
        case 2:
            child = try reader.read(String.self)
        case 3:
            let from = ForwardedFrom(parentStep: try reader.read(Int64.self), index: try reader.read(Int.self))
            guard from.parentStep >= 0, from.index >= 0 else { throw .invalid(offset: sourceStart, reason: "a forwarded event's negative step or index") }
            forwarded = from
        default:
            let number = try reader.readVarint()
            guard number <= UInt64(Int.max) else { throw .invalid(offset: sourceStart, reason: "a run number too large for Int") }
            run = number == 0 ? nil : Int(number) - 1
        }
        self.bytes = bytes
        eventOffset = reader.offset
        if kind == .runReturnedNothing {
            guard run != nil else { throw .invalid(offset: sourceStart, reason: "a finished run without a number") }
            guard reader.isAtEnd else { throw .invalid(offset: reader.offset, reason: "bytes after the record") }
        }
    }
}

/// A snapshot's envelope (`JournalSnapshot.state`): its header, then, once the caller has read the
/// state from ``reader``, the one-shot runs and timers with ``readBookkeeping(run:event:)``.
public struct JournalSnapshotEnvelope {
    /// The `journalVersion` of the spec that wrote it.
    public var version: Int
    /// The wall-clock time it was taken, in nanoseconds since the Unix epoch.
    public var wallTime: Int64
    /// The `journalName` of the machine that wrote it (D120); `nil` in a snapshot written before
    /// snapshots named their machine (kind 0).
    public var machine: String?
    /// At the state's first byte; the caller reads the state from it.
    public var reader: JournalReader

    /// What a snapshot holds besides the state (D34, D101, D105).
    public struct Bookkeeping<Run, Event> {
        /// How many one-shot runs the state has ever queued.
        public var runsQueued: Int
        /// The runs not known finished: each one's key (its number) and the run.
        public var runs: [(key: Int, run: Run)]
        /// The armed timers: the event each sends, the wall-clock time it was armed, whether it fired.
        public var timers: [(event: Event, armedAt: Int64, fired: Bool)]
        /// The sequence number of the last event record.
        public var step: Int64 = 0
        /// The child machines the state runs: each one's effect, the step that names its journal
        /// (`"<id>/<effect>@<since>"`) and whether its output is journaled.
        public var children: [(effect: String, since: Int64, reported: Bool)] = []
        /// The last event a parent forwarded to this machine that its journal holds.
        public var forwarded: ForwardedFrom?
    }

    /// Reads the header of a snapshot's bytes.
    @inlinable
    public init(_ bytes: [UInt8]) throws(JournalDecodingError) {
        var version: Int?
        try self.init(bytes, version: &version)
    }

    /// Reads the header of a snapshot's bytes; `version` as for ``JournalRecordEnvelope``.
    @inlinable
    public init(_ bytes: [UInt8], version: inout Int?) throws(JournalDecodingError) {
        reader = JournalReader(bytes)
        // 0: written before snapshots named their machine; 1: the machine's name after the time.
        let kind = try reader.readCase(below: 2)
        self.version = try reader.read(Int.self)
        version = self.version
        wallTime = try reader.readSigned()
        machine = kind == 1 ? try reader.read(String.self) : nil
    }

    /// Reads the runs and timers after the state, each run and timer event with the caller's reader.
    public mutating func readBookkeeping<Run, Event>(
        run readRun: (inout JournalReader) throws(JournalDecodingError) -> Run,
        event readEvent: (inout JournalReader) throws(JournalDecodingError) -> Event
    ) throws(JournalDecodingError) -> Bookkeeping<Run, Event> {
        var book = Bookkeeping<Run, Event>(runsQueued: try reader.read(Int.self), runs: [], timers: [])
        for _ in 0..<(try reader.readCount()) { book.runs.append((try reader.read(Int.self), try readRun(&reader))) }
        for _ in 0..<(try reader.readCount()) {
            book.timers.append((try readEvent(&reader), try reader.readSigned(), try reader.read(Bool.self)))
        }
        book.step = try reader.read(Int64.self)
        for _ in 0..<(try reader.readCount()) {
            book.children.append((try reader.read(String.self), try reader.read(Int64.self), try reader.read(Bool.self)))
        }
        let forwardedStart = reader.offset
        if let mark = try reader.read([Int64]?.self) {
            guard mark.count == 2, mark[0] >= 0, mark[1] >= 0, mark[1] <= Int64(Int.max) else {
                throw .invalid(offset: forwardedStart, reason: "a last forwarded event that is not a step and an index")
            }
            book.forwarded = ForwardedFrom(parentStep: mark[0], index: Int(mark[1]))
        }
        guard reader.isAtEnd else { throw .invalid(offset: reader.offset, reason: "bytes after the snapshot") }
        return book
    }
}
