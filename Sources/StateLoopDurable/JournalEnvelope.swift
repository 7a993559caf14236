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
@usableFromInline
enum RecordEnvelope<M: DurableMachine>: Equatable {
    /// A reduced event: the wall-clock time of its step and the one-shot run that sent it, if any.
    case event(M.Event, wallTime: Int64, run: Int?)
    /// The one-shot run `run` returned without an event: it is finished (D37).
    case runReturnedNothing(run: Int, wallTime: Int64)
    /// The output of the child machine that the effect `effect` runs (D104).
    case childOutput(M.Event, wallTime: Int64, effect: String)
    /// An event the parent forwarded to this machine, a child (D105).
    case forwarded(M.Event, wallTime: Int64, from: ForwardedFrom)

    /// An event record of `event` from `origin`.
    @inlinable
    init(_ event: M.Event, wallTime: Int64, origin: EventOrigin) {
        switch origin {
        case .local(let run): self = .event(event, wallTime: wallTime, run: run)
        case .childOutput(let effect): self = .childOutput(event, wallTime: wallTime, effect: effect)
        case .forwarded(let from): self = .forwarded(event, wallTime: wallTime, from: from)
        }
    }

    /// The event, and where it came from; `nil` for a run that returned nothing.
    @inlinable
    var event: (event: M.Event, wallTime: Int64, origin: EventOrigin)? {
        switch self {
        case let .event(event, wallTime, run): (event, wallTime, .local(run: run))
        case let .childOutput(event, wallTime, effect): (event, wallTime, .childOutput(effect: effect))
        case let .forwarded(event, wallTime, from): (event, wallTime, .forwarded(from))
        case .runReturnedNothing: nil
        }
    }

    /// `[kind][journalVersion][wall time]`, then for an event (0) `[run + 1, or 0][event]`, for a
    /// run that returned nothing (1) `[run + 1]`, for a child's output (2) `[effect][event]`, for a
    /// forwarded event (3) `[parent step][index][event]`: varints, the time zigzagged.
    @inlinable
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
        case let .childOutput(event, wallTime, effect):
            writer.writeVarint(2)
            writer.write(M.journalVersion)
            writer.writeSigned(wallTime)
            writer.write(effect)
            writer.write(event)
        case let .forwarded(event, wallTime, from):
            writer.writeVarint(3)
            writer.write(M.journalVersion)
            writer.writeSigned(wallTime)
            writer.write(from.parentStep)
            writer.write(from.index)
            writer.write(event)
        }
        return writer.bytes
    }

    /// Reads a record written by ``bytes`` (its envelope with ``JournalRecordEnvelope``, the
    /// event with `M.readEvent`, whichever version wrote it: an older one's reader migrates it,
    /// D93); `version` is set before the machine's bytes are read, so a caller can say which
    /// version wrote bytes it cannot read. `nil` for an event its version's migration drops
    /// (`events: {old: null}`) that no run sent; one a run sent says that run is finished.
    @inlinable
    static func read(from bytes: [UInt8], version: inout Int?) throws(JournalDecodingError) -> Self? {
        let envelope = try JournalRecordEnvelope(bytes, version: &version)
        switch envelope.kind {
        case .event:
            var reader = JournalReader(bytes)
            reader.offset = envelope.eventOffset
            let event = try M.readEvent(from: &reader, version: envelope.version)
            guard reader.isAtEnd else { throw .invalid(offset: reader.offset, reason: "bytes after the record") }
            // An event a migration drops (D55) that a run sent says that run is finished; a
            // dropped child's output or forwarded event is skipped like any other.
            guard let event else {
                guard envelope.child == nil, envelope.forwarded == nil else { return nil }
                return envelope.run.map { .runReturnedNothing(run: $0, wallTime: envelope.wallTime) }
            }
            if let child = envelope.child { return .childOutput(event, wallTime: envelope.wallTime, effect: child) }
            if let from = envelope.forwarded { return .forwarded(event, wallTime: envelope.wallTime, from: from) }
            return .event(event, wallTime: envelope.wallTime, run: envelope.run)
        case .runReturnedNothing:
            // The envelope checked that it has a number.
            return .runReturnedNothing(run: envelope.run ?? 0, wallTime: envelope.wallTime)
        }
    }
}

/// What one snapshot holds (`JournalSnapshot.state`): the state and the bookkeeping that the state
/// alone does not tell: the one-shot runs not known finished, the armed timers (D34), and the step,
/// the children's journals and the last forwarded event (D101, D105).
@usableFromInline
struct SnapshotEnvelope<M: DurableMachine> {
    @usableFromInline var state: M.State
    @usableFromInline var wallTime: Int64
    @usableFromInline var book: DurableBookkeeping<M>

    /// `[1][journalVersion][wall time][journalName][state][runs queued][n][key, run]…[m][event, armed at, fired]…`
    /// `[step][c][effect, since, reported]…[last forwarded: 0, or 1 step index]` (a child's request
    /// is the state's: `childRequests(in:)` gives it back).
    @inlinable
    var bytes: [UInt8] {
        var writer = JournalWriter(capacity: 256)
        writer.writeVarint(1)
        writer.write(M.journalVersion)
        writer.writeSigned(wallTime)
        writer.write(M.journalName)
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
        writer.write(book.step)
        writer.writeVarint(UInt64(book.children.count))
        for child in book.children {
            writer.write(child.effect)
            writer.write(child.since)
            writer.write(child.reported)
        }
        writer.write(book.forwarded.map { [$0.parentStep, Int64($0.index)] })
        return writer.bytes
    }

    @inlinable
    init(state: M.State, wallTime: Int64, book: DurableBookkeeping<M>) {
        self.state = state
        self.wallTime = wallTime
        self.book = book
    }

    /// Reads a snapshot written by ``bytes`` (its header and bookkeeping with
    /// ``JournalSnapshotEnvelope``, the machine's values with `M.readState`, `M.readRun` and
    /// `M.readEvent`); `version` as for ``RecordEnvelope``.
    @inlinable
    init(from bytes: [UInt8], version: inout Int?) throws(JournalDecodingError) {
        var envelope = try JournalSnapshotEnvelope(bytes, version: &version)
        let written = envelope.version
        wallTime = envelope.wallTime
        state = try M.readState(from: &envelope.reader, version: written)
        // A run or a timer's event that a migration drops (D55) is left out: the run never runs
        // again, the timer is not restored (D94).
        let book = try envelope.readBookkeeping(
            run: { (reader: inout JournalReader) throws(JournalDecodingError) -> M.Run? in try M.readRun(from: &reader, version: written) },
            event: { (reader: inout JournalReader) throws(JournalDecodingError) -> M.Event? in try M.readEvent(from: &reader, version: written) })
        self.book = DurableBookkeeping(
            timers: book.timers.compactMap { timer in timer.event.map { .init(event: $0, armedAt: timer.armedAt, fired: timer.fired) } },
            runs: book.runs.compactMap { run in run.run.map { (run.key, $0) } }, runsQueued: book.runsQueued, step: book.step,
            children: try Self.children(book.children, of: state),
            forwarded: book.forwarded)
    }

    /// The saved children of `state`, each with its request, which `childRequests(in:)` gives;
    /// a saved child that the state does not run is damage.
    @inlinable
    static func children(
        _ saved: [(effect: String, since: Int64, reported: Bool)], of state: M.State
    ) throws(JournalDecodingError) -> [DurableBookkeeping<M>.Child] {
        let requests = M.childRequests(in: state)
        guard requests.map(\.effect) == saved.map(\.effect) else {
            throw .invalid(offset: 0, reason: "children \(saved.map(\.effect)) saved with a state that runs \(requests.map(\.effect))")
        }
        return zip(saved, requests).map { .init(effect: $0.effect, request: $1.request, since: $0.since, reported: $0.reported) }
    }
}
