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
    /// Text that YAML changed on the way (escapes, folded lines, a block scalar) has a
    /// `sourceMap`, and each of its characters goes where the map says (`exactLines`), as far as
    /// Swift allows; where it does not, and for text without a map, the text is laid out from its
    /// start as written, every later line padded to the column of the first (and a multi-line
    /// string literal in it keeps its content).
    ///
    /// - Parameters:
    ///   - text: the spec text and where it was written.
    ///   - prefix: Swift that must stand before it (`_next.count = `, `if `), or empty.
    ///   - indent: the indentation of `prefix` when it stands on a line of its own.
    func lines(_ text: Located<String>, after prefix: String = "", indent: String) -> [String] {
        let line = text.location.line
        let room = max(0, text.location.column - 1)
        if let map = text.sourceMap, let placed = Self.exactLines(text, map: map) {
            return lines(placed, line: line, room: room, after: prefix, indent: indent)
        }
        // Most spec text is one line: no split, no array of pieces.
        guard text.value.utf8.contains(UInt8(ascii: "\n")) else {
            return lines([text.value], line: line, room: room, after: prefix, indent: indent)
        }
        let padding = Self.spaces(room)
        let raw = text.value.split(separator: "\n", omittingEmptySubsequences: false)
        let placed = [String(raw[0])] + raw.dropFirst().map { $0.isEmpty ? "" : padding + $0 }
        return lines(placed, line: line, room: room, after: prefix, indent: indent)
    }

    /// `placed` (the first line from the text's column on, later lines complete) after `prefix`,
    /// as `lines(_:after:indent:)` lays out text as written.
    private func lines(_ placed: [String], line: Int, room: Int, after prefix: String, indent: String) -> [String] {
        if prefix.utf8.count <= room || (line <= 1 && !prefix.isEmpty) {
            return [directive(line: line), Self.spaces(max(0, room - prefix.utf8.count)) + prefix + placed[0]] + placed.dropFirst()
        }
        return [directive(line: line - 1), indent + prefix.trimmingSuffix(" "), Self.spaces(room) + placed[0]] + placed.dropFirst()
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
