import StateLoopSpec

// Owns where text from the spec lands in the generated file: at its YAML line and column, so that
// swiftc's errors about it point into the spec. `#sourceLocation(file:line:)` sets the line of the
// line after it; the column is the text's own, so the text is preceded by as many characters as
// stand before it in the YAML file. Every layout of spec text in generated code goes through here.

/// Lays out Swift text from the spec at its YAML line and column.
struct SourcePlacement {
    /// `#sourceLocation(file: "Spec.machine.yml", line: `: every directive's start, made once
    /// (an interpolation per directive was a fifth of the translate stage).
    private let directiveStart: String

    /// Directives naming `fileLiteral`, the `file:` literal, quotes included.
    init(fileLiteral: String) {
        directiveStart = "#sourceLocation(file: \(fileLiteral), line: "
    }

    /// The closing directive: lines after it are the generated file's own again.
    static let end = "#sourceLocation()"

    /// `prefix` followed by `text`, with `text` at its YAML line and column: a directive, then
    /// either one line (`prefix` fits in the space before the column) or two (`prefix` alone on the
    /// line before). On line 1 with a long prefix only the line can be kept.
    ///
    /// Every line of a text spanning lines is padded, not only the first: such text comes from a
    /// literal block scalar (`|`), whose lines all start at the column of its first, so later lines
    /// keep their YAML columns too (and a multi-line string literal in it keeps its content).
    ///
    /// - Parameters:
    ///   - text: the spec text and where it was written.
    ///   - prefix: Swift that must stand before it (`let _0: _T1 = `, `guard `), or empty.
    ///   - indent: the indentation of `prefix` when it stands on a line of its own.
    func lines(_ text: Located<String>, after prefix: String = "", indent: String) -> [String] {
        let line = text.location.line
        let room = max(0, text.location.column - 1)
        let padding = Self.spaces(room)
        // Most spec text is one line: no split, no array of pieces.
        let first = text.value.utf8.contains(UInt8(ascii: "\n"))
            ? Substring(text.value.prefix { $0 != "\n" }) : Substring(text.value)
        var lines: [String]
        if prefix.utf8.count <= room || (line <= 1 && !prefix.isEmpty) {
            lines = [directive(line: line), Self.spaces(max(0, room - prefix.utf8.count)) + prefix + first]
        } else {
            lines = [directive(line: line - 1), indent + prefix.trimmingSuffix(" "), padding + first]
        }
        if first.utf8.count < text.value.utf8.count {
            let rest = text.value.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
            lines += rest.map { $0.isEmpty ? "" : padding + $0 }
        }
        return lines
    }

    /// `count` spaces. YAML columns are small and repeat, so the common ones are made once (making
    /// them per expression was a tenth of the translate stage on a 500-state machine).
    static func spaces(_ count: Int) -> String {
        count < commonSpaces.count ? commonSpaces[count] : String(repeating: " ", count: count)
    }

    private static let commonSpaces = (0..<160).map { String(repeating: " ", count: $0) }

    /// `#sourceLocation(file: "Spec.machine.yml", line: 7)`.
    func directive(line: Int) -> String {
        directiveStart + String(line) + ")"
    }
}

extension String {
    /// The string without trailing `character`s.
    fileprivate func trimmingSuffix(_ character: Character) -> String {
        var result = Substring(self)
        while result.last == character { result = result.dropLast() }
        return String(result)
    }
}
