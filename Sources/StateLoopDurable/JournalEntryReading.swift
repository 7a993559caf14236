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
        kind = try reader.readCase(below: 2) == 0 ? .event : .runReturnedNothing
        self.version = try reader.read(Int.self)
        version = self.version
        wallTime = try reader.readSigned()
        let runStart = reader.offset
        let number = try reader.readVarint()
        guard number <= UInt64(Int.max) else { throw .invalid(offset: runStart, reason: "a run number too large for Int") }
        run = number == 0 ? nil : Int(number) - 1
        self.bytes = bytes
        eventOffset = reader.offset
        if kind == .runReturnedNothing {
            guard run != nil else { throw .invalid(offset: runStart, reason: "a finished run without a number") }
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
    /// At the state's first byte; the caller reads the state from it.
    public var reader: JournalReader

    /// What a snapshot holds besides the state (D34).
    public struct Bookkeeping<Run, Event> {
        /// How many one-shot runs the state has ever queued.
        public var runsQueued: Int
        /// The runs not known finished: each one's key (its number) and the run.
        public var runs: [(key: Int, run: Run)]
        /// The armed timers: the event each sends, the wall-clock time it was armed, whether it fired.
        public var timers: [(event: Event, armedAt: Int64, fired: Bool)]
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
        _ = try reader.readCase(below: 1)
        self.version = try reader.read(Int.self)
        version = self.version
        wallTime = try reader.readSigned()
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
        guard reader.isAtEnd else { throw .invalid(offset: reader.offset, reason: "bytes after the snapshot") }
        return book
    }
}
