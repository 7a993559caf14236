/// One entry of `persist: migrations:`: how a journal saved by locked version `from` is read by
/// the version after it (the next locked one, or the spec itself for the latest): Docs/Durability.md
/// D55.
///
/// ```yaml
/// persist:
///   version: 2
///   migrations:
///     1: {states: {locked: bolted}, fields: {code: null}, events: {lock: bolt}}
/// ```
public struct Migration: Hashable, Sendable {
    /// The locked version the migration reads, at its key.
    public var from: Located<Int>
    /// `states: {old: new}`: a saved state, and every state inside it, goes to `new`.
    public var states: [Renaming]
    /// `fields: {old: new}` carries a context field's value under a new name; `old: null` drops it.
    public var fields: [Renaming]
    /// `events: {old: new}` reads recorded events under a new name; `old: null` drops them.
    public var events: [Renaming]
    /// `runs: {old: new}` reads queued one-shot runs under a new effect; `old: null` drops them.
    public var runs: [Renaming]

    public init(from: Located<Int>, states: [Renaming] = [], fields: [Renaming] = [], events: [Renaming] = [], runs: [Renaming] = []) {
        self.from = from
        self.states = states
        self.fields = fields
        self.events = events
        self.runs = runs
    }
}

/// `old: new` or `old: null` in a migration.
public struct Renaming: Hashable, Sendable {
    /// The name in the version migrated from, at its key.
    public var from: Located<String>
    /// The name in the version migrated to; `nil` for `null` (dropped).
    public var to: Located<String>?

    public init(from: Located<String>, to: Located<String>?) {
        self.from = from
        self.to = to
    }
}
