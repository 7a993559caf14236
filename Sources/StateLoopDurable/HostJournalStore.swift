// HostJournalStore: what a store promises a MachineHost (Docs/Hosting.md H63, the design's
// "The store"): the writes of many instances in one transaction, each instance's part applied or
// refused alone (H22), and the rows that index the journals - an instance's row, its timers and
// pending sends with their deadlines - under checksums as the entries are (D111, H37).
//
// Invariants:
// - A part is all or nothing: its records (checked as `append(_:to:)` checks them, D2, D3), its
//   snapshot, its timer rows and its instance row are kept together, or none of them is.
// - A part after a refused part of the same instance is refused too, with the same error.
// - A batch that fails as a whole (its transaction did not commit) fails every part in it (H24).
// - The store decides nothing about what is shown: it only answers, per instance, what it kept.
//
// `commit` is synchronous: a host's writer thread (CommitPipeline) calls it and waits, so a networked
// store blocks that thread, never one of the cooperative pool. The reads are asynchronous, so that a
// networked store can answer from its own connection; a store whose reads block (SQLite) conforms
// with synchronous functions.

/// An armed timer or pending send of one instance, as a row of the journal keeps it (H26).
public struct HostTimer: Hashable, Sendable {
    /// The event the timer sends, in its `JournalCodable` bytes: the row's key within its instance.
    public var event: [UInt8]
    /// When it falls due: nanoseconds since the Unix epoch (D38).
    public var deadline: Int64
    /// The instance's order of arming, unique among its rows: due rows of one instant fire in it (S134).
    public var armed: Int64

    /// The timer that sends `event` at `deadline`, armed `armed`-th.
    public init(event: [UInt8], deadline: Int64, armed: Int64) {
        self.event = event
        self.deadline = deadline
        self.armed = armed
    }
}

/// A timer row of an instance, as the scheduler reads it (H30).
public struct TimerRow: Hashable, Sendable {
    /// Where a row stands in the order due rows are read (by deadline, then instance, then arming,
    /// then event), the cursor of ``HostJournalStore/dueTimers(through:after:limit:)``.
    public struct Key: Hashable, Sendable, Comparable {
        public var deadline: Int64
        public var machine: String
        public var armed: Int64
        public var event: [UInt8]

        /// The key of the row of `machine` whose event is `event`.
        public init(deadline: Int64, machine: String, armed: Int64, event: [UInt8]) {
            self.deadline = deadline
            self.machine = machine
            self.armed = armed
            self.event = event
        }

        /// Ids and events compare by their bytes, as SQLite's BINARY collation and its BLOBs do.
        public static func < (lhs: Key, rhs: Key) -> Bool {
            if lhs.deadline != rhs.deadline { return lhs.deadline < rhs.deadline }
            if lhs.machine != rhs.machine { return lhs.machine.utf8.lexicographicallyPrecedes(rhs.machine.utf8) }
            if lhs.armed != rhs.armed { return lhs.armed < rhs.armed }
            return lhs.event.lexicographicallyPrecedes(rhs.event)
        }
    }

    /// The instance whose timer it is.
    public var machine: String
    /// The timer.
    public var timer: HostTimer

    /// The row of `timer` of `machine`.
    public init(machine: String, timer: HostTimer) {
        self.machine = machine
        self.timer = timer
    }

    /// This row's place in the order of due rows.
    public var key: Key { Key(deadline: timer.deadline, machine: machine, armed: timer.armed, event: timer.event) }

    /// The checksum kept beside the row (H37): over the instance's id, the deadline, the event and
    /// the arming order, as ``JournalChecksum`` counts an entry's parts.
    package var checksum: UInt32 {
        JournalChecksum.of(machine, timer.deadline, [timer.event, withUnsafeBytes(of: timer.armed.littleEndian) { Array($0) }])
    }
}

/// The row a host keeps for each instance it runs (H48, H67): which host runs it, and whether its
/// state has work (awake) or it finished.
public struct HostedInstanceRow: Hashable, Sendable {
    /// The host's machine, as `journalName` names it.
    public var host: String
    /// Whether its state pins it (H48): the host loads it when it starts.
    public var awake: Bool
    /// Whether it finished (H46).
    public var finished: Bool

    /// The row of an instance run by the host of `host`.
    public init(host: String, awake: Bool, finished: Bool) {
        self.host = host
        self.awake = awake
        self.finished = finished
    }

    /// The checksum kept beside the row of `machine` (H37's, for instance rows).
    package func checksum(of machine: String) -> UInt32 {
        JournalChecksum.of(machine, (awake ? 1 : 0) | (finished ? 2 : 0), [Array(host.utf8)])
    }
}

/// A row as a store read it back, and whether its checksum matched (H37): a row that does not
/// is reported, never dropped, so that its instance can be loaded and its rows rewritten (H38).
public struct CheckedRow<Row: Hashable & Sendable>: Hashable, Sendable {
    /// The row as it was read.
    public var row: Row
    /// Whether the checksum beside it is the checksum of what was read.
    public var checksumMatches: Bool

    /// `row`, read with a checksum that matched or not.
    public init(row: Row, checksumMatches: Bool) {
        self.row = row
        self.checksumMatches = checksumMatches
    }
}

/// One instance's writes in a host's transaction (H18): kept all together or not at all (H22).
public struct HostBatchPart: Sendable, Equatable {
    /// The instance.
    public var machine: String
    /// Its records, in order, each above the one before and above its last durable one (D3).
    public var records: [JournalRecord]
    /// A snapshot written with them (its first, H3, or a due one, H25), after the records.
    public var snapshot: JournalSnapshot?
    /// Whether every timer row the instance had goes first: a load's opening, which writes its
    /// rows again from its restored bookkeeping (H38), so that no row outlives the journal's word.
    public var replacesTimers: Bool
    /// The rows of the timers the part's steps disarmed or fired, by their events (H26, H33).
    public var deletedTimers: [[UInt8]]
    /// The rows of the timers they armed, written after the deletions, replacing a row of the
    /// same event (H26).
    public var armedTimers: [HostTimer]
    /// The instance's row, when the steps changed it (H3, H46, H48).
    public var instance: HostedInstanceRow?
    /// The owner whose claim of the instance (D117) goes with the part, when it holds it: a
    /// passivation's (H42).
    public var releasedBy: JournalOwner?

    /// Whether the part writes nothing.
    public var isEmpty: Bool {
        records.isEmpty && snapshot == nil && !replacesTimers && deletedTimers.isEmpty && armedTimers.isEmpty && instance == nil && releasedBy == nil
    }

    /// The part of `machine`.
    public init(
        machine: String, records: [JournalRecord] = [], snapshot: JournalSnapshot? = nil, replacesTimers: Bool = false,
        deletedTimers: [[UInt8]] = [], armedTimers: [HostTimer] = [], instance: HostedInstanceRow? = nil,
        releasedBy: JournalOwner? = nil
    ) {
        self.machine = machine
        self.records = records
        self.snapshot = snapshot
        self.replacesTimers = replacesTimers
        self.deletedTimers = deletedTimers
        self.armedTimers = armedTimers
        self.instance = instance
        self.releasedBy = releasedBy
    }
}

/// The parts of one host transaction, applied in their order (H18).
public struct HostBatch: Sendable, Equatable {
    /// The parts. An instance may have several, in the order of its steps: a store applies them
    /// together, all or none (H22), so that no record follows a gap and no sender is told that an
    /// event the journal holds is not durable.
    public var parts: [HostBatchPart]

    /// The batch of `parts`.
    public init(parts: [HostBatchPart]) {
        self.parts = parts
    }

    /// The indices in `parts` of each instance's parts, in their order, the instances in the order
    /// of their first part: what a store applies all or none (H22). Indices, not parts, so that no
    /// part is copied on the writer's path.
    public var byInstance: [[Int]] {
        var groups: [[Int]] = []
        var group: [String: Int] = [:]
        group.reserveCapacity(parts.count)
        for index in parts.indices {
            if let at = group[parts[index].machine] {
                groups[at].append(index)
            } else {
                group[parts[index].machine] = groups.count
                groups.append([index])
            }
        }
        return groups
    }

    /// Every part's error: what a batch whose transaction failed answers (H24).
    package func failingEveryPart(with error: JournalError) -> [String: JournalError] {
        Dictionary(parts.map { ($0.machine, error) }, uniquingKeysWith: { first, _ in first })
    }
}

/// Which instances ``HostJournalStore/instances(_:after:limit:)`` lists.
public enum HostedInstanceKind: Hashable, Sendable {
    /// The instances of the host of `host` whose row says they are awake (H48).
    case awake(host: String)
    /// The machine ids with a journal and no instance row, child machines (`parent/child`, D100)
    /// aside: what a host may adopt (H67).
    case unhosted
}

/// A journal store that a `MachineHost` writes through (Docs/Hosting.md H63): batches of many
/// instances' writes in one transaction, and the rows that index their journals.
public protocol HostJournalStore: JournalStore {
    /// Applies `batch` in one transaction, each part under a savepoint of its own: a part the
    /// store refuses is rolled back alone (H22), and when the transaction fails every part does
    /// (H24). Returns the error of each part that was not kept, by instance; empty when all were.
    func commit(_ batch: HostBatch) -> [String: JournalError]

    /// The timer rows due by `deadline` (nanoseconds since the Unix epoch), after `cursor` in the
    /// order of ``TimerRow/Key``, at most `limit` of them, each with whether its checksum matched (H37).
    func dueTimers(through deadline: Int64, after cursor: TimerRow.Key?, limit: Int) async throws(JournalError) -> [CheckedRow<TimerRow>]

    /// The row of instance `machine`, or `nil` when no host wrote one.
    func hostedInstance(_ machine: String) async throws(JournalError) -> CheckedRow<HostedInstanceRow>?

    /// What `recover(_:)` reads of `machine` (D5, D111, D114), read so that it does not wait for
    /// the store's commits (H11): on a read connection of its own. Named apart from the
    /// synchronous `recover(_:)`, since an overload on `async` alone would pick one silently.
    func load(_ machine: String) async throws(JournalError) -> JournalRecovery

    /// The ids of the instances of `kind`, by their bytes, after `machine`, at most `limit`.
    func instances(_ kind: HostedInstanceKind, after machine: String?, limit: Int) async throws(JournalError) -> [String]

    /// Takes the machine `host` for the host of `owner`, unless another owner whose process is
    /// still running holds it: then returns that owner and takes nothing (H54, as D117 for ids).
    func claimHost(_ host: String, for owner: JournalOwner) async throws(JournalError) -> JournalOwner?

    /// Gives `host` back, when `owner` holds it (H55). Synchronous, as `release(_:by:)` of an id
    /// is: a host's `stop()` gives its machine back before it returns, so a host made next may
    /// claim it.
    func releaseHost(_ host: String, by owner: JournalOwner) throws(JournalError)

    /// Whether the store was indexed for the host of `host`: the unhosted instances of its
    /// machine adopted once, when it first ran (H67).
    func isIndexed(_ host: String) async throws(JournalError) -> Bool

    /// Marks the store as indexed for `host`, when `owner` holds it (H67).
    func markIndexed(_ host: String, by owner: JournalOwner) async throws(JournalError)

    /// How long a host's claim lasts without a renewal, for a store whose claims are leases that
    /// processes on several machines share (Docs/Postgres.md G8); `nil` for a store whose claims
    /// last while their process runs (SQLite, in memory: D117).
    var leaseDuration: Duration? { get }

    /// Extends the lease of `host` that `owner` holds (G41), without waiting for a commit; `false`
    /// when the store no longer gives it to `owner`. Synchronous: the host calls it from a thread
    /// of its own (LeaseKeeper), which it blocks for the round trip.
    func renewHost(_ host: String, by owner: JournalOwner) throws(JournalError) -> Bool
}

extension HostJournalStore {
    /// A claim that lasts while its process runs needs no renewal.
    public var leaseDuration: Duration? { nil }

    /// A claim that lasts while its process runs is renewed by running.
    public func renewHost(_ host: String, by owner: JournalOwner) throws(JournalError) -> Bool { true }
}
