/// A position in a spec file, 1-based, as editors and compilers print it.
///
/// libyaml marks are 0-based; the reader converts them once, so everything downstream of the
/// reader speaks 1-based lines and columns.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The path of the spec file as given by the caller (printed verbatim in diagnostics).
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column, counted in Unicode scalars as libyaml counts them.
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// The file as a whole (line and column 0), for problems no line is to blame for: a file
    /// that cannot be read, an output that cannot be written. Printed as `path`.
    public static func wholeFile(_ path: String) -> SourceLocation {
        SourceLocation(file: path, line: 0, column: 0)
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }

    /// `file:line:column` (or `file` for the whole file), the prefix of a diagnostic line.
    public var description: String { line == 0 ? file : "\(file):\(line):\(column)" }
}

/// A value read from the spec together with where it was written.
public struct Located<Value: Sendable>: Sendable {
    public var value: Value
    public var location: SourceLocation

    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }
}

extension Located: Equatable where Value: Equatable {}
extension Located: Hashable where Value: Hashable {}
