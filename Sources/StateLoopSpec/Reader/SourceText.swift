import CYAML

/// The characters of a spec file as libyaml counts them, to turn its marks into the positions
/// swiftc would give and to find where each part of a scalar's value was written.
///
/// libyaml's marks count characters (Unicode scalars, after a byte order mark, in UTF-8 or
/// UTF-16 files alike); swiftc counts columns in UTF-8 bytes. In an ASCII file the two agree and
/// nothing is decoded; otherwise the file is decoded once into its scalars.
struct SourceText {
    /// The file's bytes when they are all ASCII: then a character index is a byte offset.
    private let ascii: [UInt8]?
    /// The file's characters without a byte order mark, when it is not all ASCII.
    private let scalars: [Unicode.Scalar]

    init(_ contents: [UInt8]) {
        if Self.isASCII(contents) {
            ascii = contents
            scalars = []
        } else {
            ascii = nil
            scalars = Self.decode(contents)
        }
    }

    /// The number of characters.
    var count: Int { ascii?.count ?? scalars.count }

    /// True when the file is ASCII, so that characters are bytes.
    var isASCII: Bool { ascii != nil }

    /// The character at a libyaml index.
    subscript(index: Int) -> Unicode.Scalar {
        if let ascii { return Unicode.Scalar(ascii[index]) }
        return scalars[index]
    }

    /// The 1-based UTF-8 column of a libyaml mark (0-based character index and column).
    func column(of mark: yaml_mark_t) -> Int {
        guard ascii == nil else { return mark.column + 1 }
        let end = min(mark.index, scalars.count)
        return scalars[max(0, end - mark.column)..<end].reduce(1) { $0 + UTF8.width($1) }
    }

    /// True when no byte has its high bit set; eight bytes at a time.
    private static func isASCII(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset + 8 <= raw.count {
                if raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
                offset += 8
            }
            return raw[offset...].allSatisfy { $0 < 0x80 }
        }
    }

    /// The characters as libyaml reads them: UTF-16 after its byte order mark, UTF-8 otherwise
    /// (after its mark, if any).
    private static func decode(_ bytes: [UInt8]) -> [Unicode.Scalar] {
        if bytes.count >= 2, (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF) {
            let littleEndian = bytes[0] == 0xFF
            let units = stride(from: 2, to: bytes.count - 1, by: 2).map { offset in
                littleEndian ? UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8 : UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
            }
            return Array(String(decoding: units, as: UTF16.self).unicodeScalars)
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        return Array(String(decoding: body, as: UTF8.self).unicodeScalars)
    }
}

// MARK: - Where a scalar's value was written

extension SourceText {
    /// Where a scalar's text was written: the map of its parts (`nil` when the value is the
    /// file's text as it stands from its start, on one line) and, for a block scalar, where its
    /// text starts.
    struct Placement {
        var map: SourceMap?
        /// The first line after a block scalar's header, at the block's indentation.
        var blockStart: (line: Int, column: Int)?
    }

    /// Where each part of `value` was written, for a scalar of `style` that libyaml found between
    /// `start` and `end`; `nil` when the file does not read back to the value (then callers
    /// place the value at its start).
    ///
    /// Reads the scalar's characters again with YAML's rules for where text goes — escapes, `''`,
    /// folding of line breaks and the blanks around them, a block's indentation — comparing each
    /// character with the value libyaml made, so any disagreement gives `nil`, never a wrong map.
    func placement(of value: [Unicode.Scalar], style: YAMLScalar.Style, start: yaml_mark_t, end: yaml_mark_t) -> Placement? {
        var reading = ScalarReading(text: self, value: value, line: start.line + 1, column: column(of: start))
        let read: Bool
        switch style {
        case .plain:
            read = reading.flow(from: start.index, to: end.index, quote: nil)
        case .singleQuoted, .doubleQuoted:
            reading.column += 1
            read = reading.flow(from: start.index + 1, to: end.index - 1, quote: style == .singleQuoted ? "'" : "\"")
        case .literal, .folded:
            read = reading.block(from: start.index, to: end.index, folded: style == .folded)
        }
        guard read, reading.valueIndex == value.count else { return nil }
        let pieces = reading.pieces
        let verbatim = pieces.isEmpty || (pieces.count == 1 && pieces[0].slack == 0 && pieces[0].line == start.line + 1 && !style.isBlock)
        return Placement(map: verbatim ? nil : SourceMap(pieces), blockStart: reading.blockStart)
    }

    /// LF, CR (alone or before LF), NEL, LS and PS: the line breaks libyaml counts.
    static func isBreak(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\n" || scalar == "\r" || scalar.value == 0x85 || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}

/// One reading of a scalar's characters against its value: a cursor in each, and the pieces found.
private struct ScalarReading {
    let text: SourceText
    let value: [Unicode.Scalar]
    var line: Int
    /// The 1-based UTF-8 column of the character at `index`.
    var column: Int
    var index = 0
    var valueIndex = 0
    var pieces: [SourceMap.Piece] = []
    /// Set by `block`: its first line after the header, at its indentation.
    var blockStart: (line: Int, column: Int)?
    /// True while the last piece is a run that the next character of the file continues.
    private var runOpen = false

    init(text: SourceText, value: [Unicode.Scalar], line: Int, column: Int) {
        self.text = text
        self.value = value
        self.line = line
        self.column = column
    }

    private static func isBlank(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" }

    /// The file's character at `index` is the value's next one, written there.
    private mutating func takeVerbatim() -> Bool {
        let scalar = text[index]
        guard valueIndex < value.count, value[valueIndex] == scalar else { return false }
        if !runOpen {
            pieces.append(.init(offset: valueIndex, line: line, column: column))
            runOpen = true
        }
        valueIndex += 1
        index += 1
        column += UTF8.width(scalar)
        return true
    }

    /// The value's next character stands for `width` ASCII characters of the file (an escape).
    private mutating func takeEscape(width: Int) -> Bool {
        guard valueIndex < value.count else { return false }
        pieces.append(.init(offset: valueIndex, line: line, column: column, slack: max(0, width - UTF8.width(value[valueIndex]))))
        runOpen = false
        valueIndex += 1
        index += width
        column += width
        return true
    }

    /// The value's next characters are `made`, made by YAML from line breaks.
    private mutating func takeMade(_ made: [Unicode.Scalar]) -> Bool {
        runOpen = false
        guard !made.isEmpty else { return true }
        guard valueIndex + made.count <= value.count, Array(value[valueIndex..<valueIndex + made.count]) == made else { return false }
        pieces.append(.init(offset: valueIndex, line: 0, column: 0))
        valueIndex += made.count
        return true
    }

    /// Steps over one line break (CR LF counts as one).
    private mutating func skipBreak(before end: Int) {
        if text[index] == "\r", index + 1 < end, text[index + 1] == "\n" { index += 1 }
        index += 1
        line += 1
        column = 1
    }

    /// A plain or quoted scalar's text between `start` and `end` (the quotes left out).
    mutating func flow(from start: Int, to end: Int, quote: Unicode.Scalar?) -> Bool {
        index = start
        guard start <= end, end <= text.count else { return false }
        while index < end {
            let scalar = text[index]
            if SourceText.isBreak(scalar) {
                guard fold(before: end, escaped: false) else { return false }
                continue
            }
            if Self.isBlank(scalar) {
                // Blanks before a line break are not part of the value.
                var next = index
                while next < end, Self.isBlank(text[next]) { next += 1 }
                if next < end, SourceText.isBreak(text[next]) {
                    column += next - index
                    index = next
                    runOpen = false
                    continue
                }
            }
            if quote == "'", scalar == "'" {
                guard index + 1 < end, text[index + 1] == "'", takeEscape(width: 2) else { return false }
                continue
            }
            if quote == "\"", scalar == "\\" {
                guard index + 1 < end else { return false }
                let escaped = text[index + 1]
                if SourceText.isBreak(escaped) {
                    index += 1
                    column += 1
                    guard fold(before: end, escaped: true) else { return false }
                    continue
                }
                let width = switch escaped {
                case "x": 4
                case "u": 6
                case "U": 10
                default: 2
                }
                guard index + width <= end, takeEscape(width: width) else { return false }
                continue
            }
            guard takeVerbatim() else { return false }
        }
        return true
    }

    /// The line breaks at `index` and the blanks around them: one break is a space, more are a
    /// newline each but the first; after an escaped break (`\` at the end of a line), each is a
    /// newline but the escaped one.
    private mutating func fold(before end: Int, escaped: Bool) -> Bool {
        var breaks = 0
        while index < end {
            let scalar = text[index]
            if SourceText.isBreak(scalar) {
                skipBreak(before: end)
                breaks += 1
            } else if Self.isBlank(scalar) {
                index += 1
                column += 1
            } else {
                break
            }
        }
        let made: [Unicode.Scalar] = !escaped && breaks == 1 ? [" "] : Array(repeating: "\n", count: max(0, breaks - 1))
        return takeMade(made)
    }

    /// A block scalar from its `|` or `>` header to `end`: each line after the header at the
    /// block's indentation, the line breaks kept (literal) or folded (folded) as the value has them.
    mutating func block(from start: Int, to end: Int, folded: Bool) -> Bool {
        index = start
        guard start <= end, end <= text.count else { return false }
        while index < end, !SourceText.isBreak(text[index]) { index += 1 }
        guard index < end else { return value.isEmpty }
        skipBreak(before: end)
        // The indentation: the spaces of the first line with text, less the spaces the value
        // starts that line with (more than the indentation is text).
        var probe = index
        var lineStart = index
        while probe < end, text[probe] == " " || SourceText.isBreak(text[probe]) {
            if SourceText.isBreak(text[probe]) { lineStart = probe + 1 }
            probe += 1
        }
        let firstText = value.firstIndex { $0 != "\n" } ?? value.count
        let valueSpaces = value[firstText...].prefix { $0 == " " }.count
        let indent = max(0, probe - lineStart - valueSpaces)
        blockStart = (line, indent + 1)
        while index < end {
            var skipped = 0
            while skipped < indent, index < end, text[index] == " " {
                index += 1
                skipped += 1
            }
            column += skipped
            while index < end, !SourceText.isBreak(text[index]) {
                guard takeVerbatim() else { return false }
            }
            guard index < end else { break }
            skipBreak(before: end)
            runOpen = false
            if valueIndex < value.count, value[valueIndex] == "\n" {
                guard takeMade(["\n"]) else { return false }
            } else if folded, valueIndex < value.count, value[valueIndex] == " ", index < end, text[index] == " " || !SourceText.isBreak(text[index]) {
                guard takeMade([" "]) else { return false }
            }
        }
        return true
    }
}
