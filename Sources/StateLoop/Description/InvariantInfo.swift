// InvariantInfo: one entry of a spec's `invariants:`, with where it is written: the table every
// generated machine with invariants declares as `invariants` (Docs/Testing.md V4).
//
// Invariants:
// - Lines and columns are 1-based, the spec's own, of the invariant's name.
// - `brokenInvariants(_:)` returns entries of `invariants`, in their order.

/// What must hold of a machine's state after every step: a name, a Swift `Bool` expression, the
/// state it belongs to (`nil`: the machine's own, checked always) and where it is written.
public struct InvariantInfo: Hashable, Sendable, CustomStringConvertible {
    /// The name the spec gives it, unique in the machine.
    public var name: String
    /// The Swift expression, as written in the spec.
    public var expression: String
    /// The state whose `invariants:` declare it (checked while that state is active); `nil` for
    /// the machine's own.
    public var state: String?
    /// The spec file (as `StateMachine.specFile` names it) and where the invariant's name is written, 1-based.
    public var file: String
    public var line: Int
    public var column: Int

    public init(name: String, expression: String, state: String?, file: String, line: Int, column: Int) {
        self.name = name
        self.expression = expression
        self.state = state
        self.file = file
        self.line = line
        self.column = column
    }

    /// `invariant 'withinTotal' (Upload.machine.yml:12:7, in sending): sent <= total`.
    public var description: String {
        "invariant '\(name)' (\(file):\(line):\(column)" + (state.map { ", in \($0)" } ?? "") + "): \(expression)"
    }
}

extension StateMachine {
    /// No `invariants:`: nothing is checked.
    public static var invariants: [InvariantInfo] { [] }

    /// No `invariants:`: nothing is ever broken.
    public static func brokenInvariants(_ state: State) -> [InvariantInfo] { [] }
}
