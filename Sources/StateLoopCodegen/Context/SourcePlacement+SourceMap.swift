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
        /// Where on the current line (in `current`'s scalars) each literal that starts on it starts,
        /// by the literal's offset in `scalars`: a string literal is widened there when code after
        /// it must move right.
        var literalStarts: [Int: (start: Int, padding: Int)] = [:]
        /// The spaces last put in to move text right: where they end in `current`, and how many.
        var lastPadding = (end: -1, count: 0)
        /// The starts of `literals`, to look up while writing.
        let literalLowerBounds: Set<Int>
        var pendingEnd = 0

        init(_ scalars: [Unicode.Scalar], line: Int, column: Int) {
            self.scalars = scalars
            self.literals = SwiftFragment.literalRanges(in: scalars)
            self.literalLowerBounds = Set(literals.map(\.lowerBound))
            self.line = line
            self.column = column
            self.firstColumn = column
        }

        static func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" }

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
                literalStarts = [:]
                line = piece.line
                column = 1
                // Inside a multi-line string, only the indentation every line of it has is not text.
                guard isCode(piece.offset, piece.offset) || piece.column == firstColumn else { return false }
                current.append(contentsOf: SourcePlacement.spaces(piece.column - 1).unicodeScalars)
                column = piece.column
            } else if piece.line < line {
                return false
            } else {
                // Line breaks YAML made on one line (an escaped `\r`): spaces, where that keeps the Swift.
                for offset in gap.indices where gap[offset] == "\n" || gap[offset] == "\r" {
                    guard isCode(offset, offset + 1), literals.allSatisfy({ $0.upperBound != offset }), canBreak(at: offset + 1) else { return false }
                }
                current.append(contentsOf: gap.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
                column += gap.reduce(0) { $0 + UTF8.width($1) }
            }
            let latest = piece.column + piece.slack
            guard column <= latest else { return false }
            if canWiden(at: piece.offset) {
                pad(latest - column)
                column = latest
            }
            // Where the next character belongs. Inside a string literal a character may stand
            // left of it (an escape before it was wider than its character; no error points
            // there), until whitespace after the literal makes the difference up; code may not.
            var target = max(column, piece.column)
            /// The column where the spec has the character at `offset`.
            var written = piece.column
            for offset in piece.offset..<end {
                if column < target, offset > piece.offset, canWiden(at: offset) {
                    pad(target - column)
                    column = target
                }
                // Code right after a string literal that YAML wrote wider than it is (`\"abc\"`):
                // the literal is written wider, with the same value (`#"abc"#`).
                if column < target, isCode(offset, offset + 1), widenLiteral(endingAt: offset, by: target - column) {
                    column = target
                }
                guard column == target || !isCode(offset, offset + 1) else { return false }
                var scalar = scalars[offset]
                if literalLowerBounds.contains(offset) {
                    // The spaces right before it may go, as far as its place in the spec allows.
                    let start = current.count
                    let padding = lastPadding.end == start ? min(lastPadding.count, column - written) : 0
                    literalStarts[offset] = (start, max(0, padding))
                }
                if scalar == "\n" || scalar == "\r" {
                    // An escaped `\n` or `\r` between tokens: a space keeps the line (swiftc counts
                    // either as a line break), outside literals, and where no comment ends at it
                    // (the line break would have ended it).
                    guard isCode(offset, offset + 1), literals.allSatisfy({ $0.upperBound != offset }), canBreak(at: offset + 1) else { return false }
                    scalar = " "
                }
                current.append(scalar)
                column += UTF8.width(scalar)
                target += UTF8.width(scalar)
                written += UTF8.width(scalar)
            }
            return true
        }

        /// Rewrites the string literal that ends right before `offset`, written on the current
        /// line, `amount` bytes wider with the same value (`SourcePlacement.widened`).
        /// When that width cannot be made, spaces put in right before the literal (an escape
        /// there left room) are taken out, and the literal made as much wider again.
        mutating func widenLiteral(endingAt offset: Int, by amount: Int) -> Bool {
            guard let range = literals.first(where: { $0.upperBound == offset }), let (start, padding) = literalStarts[range.lowerBound] else {
                return false
            }
            let written = Array(current)
            guard start < written.count else { return false }
            for removed in 0...padding {
                guard let wider = SourcePlacement.widened(Array(written[start...]), by: amount + removed) else { continue }
                current = String.UnicodeScalarView(written[..<(start - removed)] + wider)
                return true
            }
            return false
        }

        /// Puts in `count` spaces, to move what follows right.
        mutating func pad(_ count: Int) {
            guard count > 0 else { return }
            current.append(contentsOf: SourcePlacement.spaces(count).unicodeScalars)
            lastPadding = (current.count, count)
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

extension SourcePlacement {
    /// `literal`, a whole one-line string literal as written (`"abc"`, `#"a\#nb"#`), rewritten
    /// with the same value and `amount` UTF-8 bytes wider: each `#` added around it widens it by
    /// 2 and each escape in it by 1 (`\#n`), a character written as `\u{…}` by 4 or more minus
    /// its own width (`\u{61}` for `a`: 5, `\u{0061}`: 7), a `'` or tab written `\'`, `\t` by 1
    /// (and a `"` or `\` of a raw literal written `\#"`, `\#\` by 2). `nil` when no such rewriting
    /// has that width (only some widths up to 4 bytes, and odd ones for `""`), or when it is not
    /// such a literal (a multi-line one, one with an interpolation).
    static func widened(_ literal: [Unicode.Scalar], by amount: Int) -> [Unicode.Scalar]? {
        var hashes = 0
        while hashes < literal.count, literal[hashes] == "#" { hashes += 1 }
        let bodyStart = hashes + 1
        let bodyEnd = literal.count - 1 - hashes
        guard amount > 0, bodyStart <= bodyEnd, literal[hashes] == "\"", literal[bodyEnd] == "\"",
            literal[(bodyEnd + 1)...].allSatisfy({ $0 == "#" })
        else { return nil }
        let body = Array(literal[bodyStart..<bodyEnd])
        if body.starts(with: ["\"", "\""]) { return nil }  // a multi-line literal's `"""`

        /// A character of the value as written: itself, or an escape (what follows `\` and the `#`s).
        enum Unit {
            case plain(Unicode.Scalar)
            case escape([Unicode.Scalar])
        }
        var units: [Unit] = []
        var index = 0
        while index < body.count {
            let isEscape = body[index] == "\\" && index + hashes < body.count && body[(index + 1)..<(index + 1 + hashes)].allSatisfy { $0 == "#" }
            guard isEscape, index + 1 + hashes < body.count else {
                units.append(.plain(body[index]))
                index += 1
                continue
            }
            var end = index + 1 + hashes
            switch body[end] {
            case "(": return nil  // an interpolation
            case "u":
                guard let close = body[end...].firstIndex(of: "}") else { return nil }
                end = close
            default: break
            }
            units.append(.escape(Array(body[(index + 1 + hashes)...end])))
            index = end + 1
        }
        let escapes = units.count { if case .escape = $0 { true } else { false } }
        /// What a short escape may stand for: `\'`, `\t`, and in a raw literal `\#"` and `\#\`.
        let shortEscapes: Set<Unicode.Scalar> = ["'", "\t", "\"", "\\"]

        /// The widths a plain character may grow by, at `level` `#`s: as `\u{…}` with 1 to 8 hex
        /// digits (no fewer than it needs), or as a short escape.
        func growths(_ scalar: Unicode.Scalar, level: Int) -> [Int] {
            let width = UTF8.width(scalar)
            let digits = String(scalar.value, radix: 16).count
            var options = Array((4 + level + digits - width)...(4 + level + 8 - width))
            if shortEscapes.contains(scalar) { options.append(1 + level) }
            return options
        }
        for added in 0...(amount / 2) {
            let level = hashes + added
            let remaining = amount - added * (2 + escapes)
            guard remaining >= 0 else { break }
            // Which plain characters to rewrite, and by how much each, so that they add up to `remaining`.
            var reachable: [[Int?]] = [Array(repeating: nil, count: remaining + 1)]  // per unit: the growth chosen to reach each sum
            var sums: Set<Int> = [0]
            for unit in units {
                var choice = [Int?](repeating: nil, count: remaining + 1)
                var next = sums
                for sum in sums { choice[sum] = choice[sum] ?? 0 }
                if case .plain(let scalar) = unit {
                    for sum in sums {
                        for growth in growths(scalar, level: level) where sum + growth <= remaining && !next.contains(sum + growth) {
                            next.insert(sum + growth)
                            choice[sum + growth] = growth
                        }
                    }
                }
                reachable.append(choice)
                sums = next
            }
            guard sums.contains(remaining) else { continue }
            var growth = [Int](repeating: 0, count: units.count)
            var sum = remaining
            for position in units.indices.reversed() {
                let chosen = reachable[position + 1][sum] ?? 0
                growth[position] = chosen
                sum -= chosen
            }
            let fence = [Unicode.Scalar](repeating: "#", count: level)
            var result = fence + ["\""]
            for (position, unit) in units.enumerated() {
                switch unit {
                case .escape(let rest):
                    result += ["\\"] + fence + rest
                case .plain(let scalar) where growth[position] == 0:
                    result.append(scalar)
                case .plain(let scalar) where growth[position] == 1 + level && shortEscapes.contains(scalar):
                    result += ["\\"] + fence + [scalar == "\t" ? "t" : scalar]
                case .plain(let scalar):
                    let digits = growth[position] + UTF8.width(scalar) - 4 - level
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    result += ["\\"] + fence + Array("u{\(String(repeating: "0", count: digits - hex.count))\(hex)}".unicodeScalars)
                }
            }
            return result + ["\""] + fence
        }
        return nil
    }
}
