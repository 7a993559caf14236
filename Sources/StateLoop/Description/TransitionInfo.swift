// TransitionInfo: one branch of a spec, with where it is written: the table every generated
// machine declares as `transitions`.
//
// Invariants:
// - `transitions[id].id == id`: the table is numbered from 0 in the order the generator wrote it.
// - Lines and columns are 1-based, the spec's own.

/// One branch of a spec: a guarded or plain transition, an `ignore`, an `always:`, `after:` or
/// `onDone:` branch, with where it is written.
public struct TransitionInfo: Hashable, Sendable, CustomStringConvertible {
    /// Its index in `StateMachine.transitions`.
    public var id: Int
    /// Where the branch is written in the spec, 1-based.
    public var line: Int
    public var column: Int
    /// `paused --play--> playing`, `idle --scrolledNearBottom--> (ignored)`, `failed --after 5s--> loading`.
    public var description: String

    /// True for an `ignore` (`idle --scrolledNearBottom--> (ignored)`): coverage counts those apart
    /// from the branches that do something (Docs/Testing.md C8).
    public var isIgnore: Bool { description.hasSuffix("--> (ignored)") }

    public init(id: Int, line: Int, column: Int, description: String) {
        self.id = id
        self.line = line
        self.column = column
        self.description = description
    }

    /// The table a generated machine declares as one string, `LINE:COLUMN description` a line,
    /// ids counted from 0: swiftc compiles a string in no time, and an array literal of thousands
    /// of values in minutes.
    public static func table(_ text: String) -> [TransitionInfo] {
        text.split(separator: "\n").enumerated().map { id, line in
            let place = line.prefix { $0 != " " }
            let numbers = place.split(separator: ":").map { Int($0) ?? 0 }
            return TransitionInfo(
                id: id, line: numbers.first ?? 0, column: numbers.dropFirst().first ?? 0,
                description: String(line.dropFirst(place.count + 1)))
        }
    }
}
