// SpecType: the alias every type written in a spec goes through in generated code.
//
// Invariants:
// - `_SpecType<T>.Checked` is `T`: the alias adds a requirement, never a type.

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
