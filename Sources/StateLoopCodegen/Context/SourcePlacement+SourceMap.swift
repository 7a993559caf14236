import StateLoopSpec

// Text that YAML changed on the way from the file to the value (escapes, folded lines, a block's
// indentation) carries a `SourceMap`: where each part was written. Laying it out character for
// character at those places takes whitespace the value does not have — spaces where an escape was
// wider than its character, line breaks where YAML folded one into a space — so it is added only
// where Swift reads whitespace as nothing but a separator: outside string literals and comments,
// next to whitespace or brackets, never before a `(`, `[` or `{` that would then start a line.
// Where that is impossible the value is laid out from its start as if written there verbatim.

extension SourcePlacement {
    /// The lines of `text` with each character at its line and column in the spec: the first
    /// line from the text's column on (what stands before is the caller's), later lines from
    /// column 1. `nil` when that would need whitespace where Swift does not ignore it.
    static func exactLines(_ text: Located<String>, map: SourceMap) -> [String]? {
        var layout = Layout(Array(text.value.unicodeScalars), line: text.location.line, column: text.location.column)
        for (number, piece) in map.pieces.enumerated() {
            let end = number + 1 < map.pieces.count ? map.pieces[number + 1].offset : layout.scalars.count
            guard piece.offset <= end, end <= layout.scalars.count, layout.place(piece, upTo: end) else { return nil }
        }
        layout.flushPending()
        return layout.finish()
    }

    /// The state of one `exactLines`: the lines so far and the column where the next character goes.
    private struct Layout {
        let scalars: [Unicode.Scalar]
        /// The string literals, comments and regex literals of the text, where whitespace is text.
        let literals: [Range<Int>]
        let firstColumn: Int
        var lines: [String] = []
        var current = String.UnicodeScalarView()
        var line: Int
        var column: Int
        /// Text YAML made from line breaks that waits for the next written piece: `pendingStart..<pendingEnd`.
        var pendingStart: Int?
        var pendingEnd = 0

        init(_ scalars: [Unicode.Scalar], line: Int, column: Int) {
            self.scalars = scalars
            self.literals = SwiftFragment.literalRanges(in: scalars)
            self.line = line
            self.column = column
            self.firstColumn = column
        }

        static func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" || scalar == "\n" }

        /// True when no literal covers the characters `start..<end`, or, for an empty range, the
        /// boundary at `start`: whitespace there is Swift's whitespace.
        func isCode(_ start: Int, _ end: Int) -> Bool {
            literals.allSatisfy { $0.upperBound <= start || $0.lowerBound >= end }
        }

        /// True when spaces may be put before the character at `offset` without changing the Swift.
        func canWiden(at offset: Int) -> Bool {
            guard offset > 0 else { return true }
            guard offset < scalars.count, isCode(offset, offset) else { return false }
            let before = scalars[offset - 1], after = scalars[offset]
            return Self.isSpace(before) || Self.isSpace(after) || "([{,;".unicodeScalars.contains(before) || ")]},;".unicodeScalars.contains(after)
        }

        /// True when a line may end before the character at `offset`: the line after must not
        /// start with what continues the one before (a call's `(`, a subscript's `[`, a closure's `{`).
        func canBreak(at offset: Int) -> Bool {
            let next = scalars[offset...].first { !Self.isSpace($0) }
            return next.map { !"([{".unicodeScalars.contains($0) } ?? true
        }

        mutating func place(_ piece: SourceMap.Piece, upTo end: Int) -> Bool {
            if piece.line == 0 {
                if pendingStart == nil { pendingStart = piece.offset }
                pendingEnd = end
                return true
            }
            let gapStart = pendingStart ?? piece.offset
            let gap = scalars[gapStart..<piece.offset]
            pendingStart = nil
            pendingEnd = piece.offset
            if piece.line > line {
                let breaks = piece.line - line
                let gapBreaks = gap.count { $0 == "\n" }
                let asWritten = gapBreaks == breaks && gap.allSatisfy { $0 == "\n" }
                if !asWritten {
                    // Line breaks in place of the folded whitespace: only where whitespace is whitespace.
                    let whitespace = !gap.isEmpty || (gapStart > 0 && Self.isSpace(scalars[gapStart - 1])) || Self.isSpace(scalars[piece.offset])
                    guard gapBreaks <= breaks, whitespace, isCode(gapStart, piece.offset), canBreak(at: piece.offset) else { return false }
                }
                lines.append(String(current))
                lines += Array(repeating: "", count: breaks - 1)
                current = String.UnicodeScalarView()
                line = piece.line
                column = 1
                // Inside a multi-line string, only the indentation every line of it has is not text.
                guard isCode(piece.offset, piece.offset) || piece.column == firstColumn else { return false }
                current.append(contentsOf: SourcePlacement.spaces(piece.column - 1).unicodeScalars)
                column = piece.column
            } else if piece.line < line {
                return false
            } else {
                current.append(contentsOf: gap)
                column += gap.reduce(0) { $0 + UTF8.width($1) }
            }
            let latest = piece.column + piece.slack
            guard column <= latest else { return false }
            if canWiden(at: piece.offset) {
                current.append(contentsOf: SourcePlacement.spaces(latest - column).unicodeScalars)
                column = latest
            }
            // Where the next character belongs. Inside a string literal a character may stand
            // left of it (an escape before it was wider than its character; no error points
            // there), until whitespace after the literal makes the difference up; code may not.
            var target = max(column, piece.column)
            for offset in piece.offset..<end {
                if column < target, offset > piece.offset, canWiden(at: offset) {
                    current.append(contentsOf: SourcePlacement.spaces(target - column).unicodeScalars)
                    column = target
                }
                guard column == target || !isCode(offset, offset + 1) else { return false }
                var scalar = scalars[offset]
                if scalar == "\n" {
                    // An escaped `\n` between tokens: a space keeps the line, outside literals,
                    // and where no comment ends at it (the line break would have ended it).
                    guard isCode(offset, offset + 1), literals.allSatisfy({ $0.upperBound != offset }), canBreak(at: offset + 1) else { return false }
                    scalar = " "
                }
                current.append(scalar)
                column += UTF8.width(scalar)
                target += UTF8.width(scalar)
            }
            return true
        }

        /// Text YAML made at the end of the value (a block's last line break): as it is.
        mutating func flushPending() {
            guard let start = pendingStart else { return }
            current.append(contentsOf: scalars[start..<pendingEnd])
            pendingStart = nil
        }

        func finish() -> [String] {
            (lines + [String(current)]).flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
        }
    }
}
