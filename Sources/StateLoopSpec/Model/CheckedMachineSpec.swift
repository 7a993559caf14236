/// A `MachineSpec` that passed every check: what the code generator and the diagrams take.
///
/// Only `SpecLoader` makes one (the initializer is internal), so a later stage holding a
/// `CheckedMachineSpec` may rely on the checks' guarantees without checking again: names are
/// identifiers that clash with nothing generated, every reference (target, field, event, state)
/// resolves, every event is covered in every state, embedded Swift stays in its place.
@dynamicMemberLookup
public struct CheckedMachineSpec: Sendable {
    /// The spec as decoded.
    public let spec: MachineSpec
    /// The specs of the child machines its effects run, by `machine:` name (E23): every one
    /// named is here, checked against the parent's `input:`, `forward:` and `onDone:`.
    public let children: [String: MachineSpec]
    /// Its statechart rules, decided once (Docs/Statecharts.md S95–S99): what the generator prints.
    public let semantics: MachineSemantics
    /// The lock beside a spec that persists, which it was checked against (D50–D58): the generator
    /// prints the readers of its older versions from it (D92); `nil` when none was given.
    public let lock: LockFile?

    /// Made by `SpecLoader` once the checks found no error, with the semantics they followed
    /// (and by tests of this module).
    init(_ spec: MachineSpec, children: [String: MachineSpec] = [:], semantics: MachineSemantics? = nil, lock: LockFile? = nil) {
        self.spec = spec
        self.children = children
        self.semantics = semantics ?? MachineSemantics(spec: spec)
        self.lock = lock
    }

    /// The spec's properties, read through: `checked.states`, `checked.name`.
    public subscript<Value>(dynamicMember keyPath: KeyPath<MachineSpec, Value>) -> Value {
        spec[keyPath: keyPath]
    }
}
