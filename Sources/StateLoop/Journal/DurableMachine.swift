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

    /// The pure reducer the system runs (no trace).
    static func reduce(_ state: inout State, _ event: Event)

    /// How many one-shot runs `state` has ever queued, and the runs its last step queued
    /// (numbered `queued - runs.count ..< queued`): the number of a run is its idempotency key.
    static func pendingRuns(in state: State) -> (queued: Int, runs: [Run])
}

/// The `Run` of a machine without `run:` actions: a type no one can make a value of.
public struct NoRun: JournalCodable, Equatable, Sendable {
    private init() {}
    public func encode(to writer: inout JournalWriter) {}
    public init(from reader: inout JournalReader) throws(JournalDecodingError) {
        throw .invalid(offset: reader.offset, reason: "a one-shot run of a machine that has none")
    }
}
