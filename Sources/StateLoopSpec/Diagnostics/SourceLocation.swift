/// A position in a spec file, 1-based, as editors and compilers print it.
///
/// libyaml marks are 0-based; the reader converts them once, so everything downstream of the
/// reader speaks 1-based lines and columns.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The path of the spec file as given by the caller (printed verbatim in diagnostics).
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column, counted in UTF-8 bytes of the line as swiftc counts them (whatever the
    /// file's encoding), so that the spec's diagnostics and swiftc's errors about its Swift agree.
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
    /// Where each part of a text value was written, when the value is not the spec's characters
    /// as they stand from `location` on one line (see `SourceMap`); `nil` when it is.
    public var sourceMap: SourceMap?

    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }

    public init(_ value: Value, at location: SourceLocation, sourceMap: SourceMap?) {
        self.value = value
        self.location = location
        self.sourceMap = sourceMap
    }
}

/// Where the characters of a text value were written in the spec, when YAML changed them on the
/// way: escapes (`\"`, `\n`, `''`) are wider in the file than in the value, line breaks of a
/// multi-line scalar become spaces (folding), a block scalar's lines start at its indentation.
/// The generator uses it to put every character of a Swift expression at its YAML line and
/// column, so that swiftc's errors land there.
public struct SourceMap: Hashable, Sendable {
    /// A run of the value's characters written one after the other on one line of the file, or
    /// text YAML made from line breaks (a folding space, the newline of a block's line).
    public struct Piece: Hashable, Sendable {
        /// Where the run starts in the value, in Unicode scalars.
        public var offset: Int
        /// The 1-based line the run was written on; 0 for text YAML made from line breaks, which
        /// was written nowhere.
        public var line: Int
        /// The 1-based column (UTF-8 bytes) where the run starts.
        public var column: Int
        /// How many columns further right the run may also stand: an escape is wider in the file
        /// than the one character it stands for, and that character stands anywhere in it.
        public var slack: Int

        public init(offset: Int, line: Int, column: Int, slack: Int = 0) {
            self.offset = offset
            self.line = line
            self.column = column
            self.slack = slack
        }
    }

    /// The runs in the order of the value; the first starts at offset 0.
    public var pieces: [Piece]

    public init(_ pieces: [Piece]) {
        self.pieces = pieces
    }
}

extension Located: Equatable where Value: Equatable {}
extension Located: Hashable where Value: Hashable {}
