// SpecType: the alias every type written in a spec goes through in generated code.
//
// Invariants:
// - `_SpecType<T>.Checked` and `_PersistedSpecType<T>.Checked` are `T`: the aliases add
//   requirements, never a type.

/// For generated code only: `_SpecType<T>.Checked` is `T`.
///
/// Every type written in a `.machine.yml` (a context field's, a payload field's, a request's) is
/// declared in the generated code as an alias through this enum, in a `#sourceLocation` block at
/// its YAML line. Its requirement is what the generated `State`, `Event` and feedback loops need of
/// such a type, so swiftc reports a type that is not `Equatable` or not `Sendable` at the spec's
/// line, not inside the generated file.
public enum _SpecType<T: Equatable & Sendable> {
    /// `T` itself.
    public typealias Checked = T
}

/// For generated code only: `_PersistedSpecType<T>.Checked` is `T`, for the types a spec that
/// persists (`persist:`) journals: they must be `Codable` too (Docs/Durability.md D28), and the
/// generated alias through this enum stands at the type's YAML line, where swiftc says so. A type
/// that is also `JournalCodable` is written in the journal's own encoding, any other through the
/// `Codable` fallback (D23).
public enum _PersistedSpecType<T: Codable> {
    /// `T` itself.
    public typealias Checked = T
}
