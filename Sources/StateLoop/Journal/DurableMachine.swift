// DurableMachine: what a durable system (StateLoopDurable) needs of a machine beyond running it.
// Generated machines whose spec persists (`persist:`) conform; a hand-written reducer may too.

/// A machine whose states and events can be journaled and read back: see Docs/Durability.md.
/// (`SendableMetatype`: a durable system calls its static members from any thread.)
public protocol DurableMachine: StateMachine, SendableMetatype where State: JournalCodable, Event: JournalCodable {
    /// A one-shot effect queued by a `run:` action (the generated `Run`; `NoRun` without any).
    associatedtype Run: JournalCodable & Equatable & Sendable

    /// The spec's persisted version (`persist: {version: N}`): written with every record, so a
    /// journal of an older version is migrated when it is opened and one of a newer version is
    /// refused.
    static var journalVersion: Int { get }

    /// The name each snapshot of the machine's journal carries, so that a journal is opened only
    /// by the machine that wrote it (Docs/Durability.md D120); the default is the type's name.
    static var journalName: String { get }

    /// The pure reducer the system runs (no trace).
    static func reduce(_ state: inout State, _ event: Event)

    /// How many one-shot runs `state` has ever queued, and the runs its last step queued
    /// (numbered `queued - runs.count ..< queued`): the number of a run is its idempotency key.
    static func pendingRuns(in state: State) -> (queued: Int, runs: [Run])

    /// Whether `run`, queued and not known finished when the machine restarts, runs again (with
    /// its number as its key, D37) or is dropped and never runs (its effect's `afterRestart: drop`,
    /// D44–D46). The default is true: at least once.
    static func rerunsAfterRestart(_ run: Run) -> Bool

    /// The child machines `state` runs (its `machine:` effects whose request is not `nil`): each
    /// effect's name and its request. A durable system names each child's
    /// journal by the step since which its effect's request is what it is (D101), so a machine
    /// that runs durable children (``Feedback/child(effect:machine:request:start:forwarded:output:)``)
    /// lists every one here; the default lists none.
    static func childRequests(in state: State) -> [(effect: String, request: any Equatable & Sendable)]

    /// Reads a state that version `version` of the spec journaled (Docs/Durability.md D59, D60):
    /// the reader a durable system calls, with the version its envelope names, instead of
    /// `State(from:)`. The default reads `journalVersion`'s bytes and refuses any other version.
    static func readState(from reader: inout JournalReader, version: Int) throws(JournalDecodingError) -> State

    /// Reads an event that version `version` journaled; `nil` for one that a migration drops
    /// (`events: {old: null}`, D55), which a replay skips.
    static func readEvent(from reader: inout JournalReader, version: Int) throws(JournalDecodingError) -> Event?

    /// Reads a one-shot run that version `version` queued; `nil` for one that a migration drops
    /// (`runs: {old: null}`), which is not run again.
    static func readRun(from reader: inout JournalReader, version: Int) throws(JournalDecodingError) -> Run?
}

extension DurableMachine {
    /// The name each snapshot of the machine's journal carries, so that a journal is opened only
    /// by the machine that wrote it (Docs/Durability.md D120): the type's name (a generated
    /// machine's is its spec's `machine:`). A machine renamed in code keeps reading its journals
    /// by declaring its old name here.
    public static var journalName: String { String(describing: Self.self) }

    /// Every run runs again after a restart (D37, D45).
    public static func rerunsAfterRestart(_ run: Run) -> Bool { true }

    /// No child machine (D101).
    public static func childRequests(in state: State) -> [(effect: String, request: any Equatable & Sendable)] { [] }
}

/// The readers of a machine that reads only its own version (D59, D60): a hand-written machine's,
/// and a generated one's whose lock holds no older version; the generator prints readers of the
/// older locked versions, which migrate their values (D92), and calls these for the current one.
extension DurableMachine {
    public static func readState(from reader: inout JournalReader, version: Int) throws(JournalDecodingError) -> State {
        try requireJournalVersion(version, at: reader.offset)
        return try reader.read(State.self)
    }

    public static func readEvent(from reader: inout JournalReader, version: Int) throws(JournalDecodingError) -> Event? {
        try requireJournalVersion(version, at: reader.offset)
        return try reader.read(Event.self)
    }

    public static func readRun(from reader: inout JournalReader, version: Int) throws(JournalDecodingError) -> Run? {
        try requireJournalVersion(version, at: reader.offset)
        return try reader.read(Run.self)
    }

    /// Throws, before any byte of the value is read, unless `version` is `journalVersion`: a newer
    /// version's bytes may mean anything (D59), and an older one's need its migration (D60).
    public static func requireJournalVersion(_ version: Int, at offset: Int) throws(JournalDecodingError) {
        guard version != journalVersion else { return }
        throw .invalid(offset: offset, reason: version > journalVersion
            ? "written by version \(version) of the spec, newer than this build's version \(journalVersion): open it with a build of version \(version) or later"
            : "written by version \(version) of the spec, and this build of version \(journalVersion) has no reader of version \(version)")
    }
}

/// The `Run` of a machine without `run:` actions: a type no one can make a value of.
public struct NoRun: JournalCodable, Equatable, Sendable {
    private init() {}
    public func encode(to writer: inout JournalWriter) {}
    public init(from reader: inout JournalReader) throws(JournalDecodingError) {
        throw .invalid(offset: reader.offset, reason: "a one-shot run of a machine that has none")
    }
}
