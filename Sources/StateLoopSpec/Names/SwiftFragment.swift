/// Owns the question "can this Swift text from the spec leave the place the generator puts it?".
///
/// Expressions are pasted into the body of a generated member and types into declarations, as
/// they are, so that swiftc checks them. Text that closes a brace it did not open, opens a string
/// or comment it does not close, or carries a `#sourceLocation`/`#if` directive would end the
/// member early and turn the rest of the generated file into errors swiftc reports there, not at
/// the YAML line. This is a lexical look, not a parser: brackets, string literals (with
/// interpolation, multi-line and raw forms), comments and directives. What it accepts may still be
/// wrong Swift; swiftc then reports it at the YAML line, through `#sourceLocation`.
///
/// Not modelled: bare regex literals (`/"}/`; the `#/.../#` form is). Swift 6 reads one where this scan sees a division
/// and a string, so a spec can still hide a `}` from the scan inside one; closing that gap needs
/// Swift's own rules for where a regex literal may start.
package enum SwiftFragment {
    /// Why `text`, used as an expression, could leave its member; `nil` when it cannot.
    static func expressionProblem(_ text: String) -> String? {
        var scanner = Scanner(Array(text.unicodeScalars))
        do {
            try scanner.code(closingInterpolation: false)
            return nil
        } catch {
            return error.reason
        }
    }

    /// The parts of `text` where spaces and line breaks are not Swift's whitespace: its string
    /// literals (their interpolations left out), comments and regex literals, as ranges of
    /// Unicode scalars. Only meaningful for text `expressionProblem` accepts.
    package static func literalRanges(in text: [Unicode.Scalar]) -> [Range<Int>] {
        var scanner = Scanner(text)
        try? scanner.code(closingInterpolation: false)
        return scanner.literals
    }

    /// True when `text` (a type, or an expression) names `identifier` on its own: not after a
    /// `.` (a member of something else), not before a `.` (a namespace, as `M.Mode` names the
    /// machine's own types) unless `orAsBase` (`event.x` reads `event`), and not inside a string
    /// literal or comment.
    static func namesBare(_ identifier: String, in text: String, isType: Bool, orAsBase: Bool = false) -> Bool {
        // Almost no fragment holds the name at all: a search of its bytes rules those out without
        // the scan below, which copies the text and finds its literals (S83 asks every fragment).
        guard contains(text, identifier) else { return false }
        let scalars = Array(text.unicodeScalars)
        let literals = isType ? [] : literalRanges(in: scalars)
        let wanted = Array(identifier.unicodeScalars)
        func isWord(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
        }
        var index = 0
        while index < scalars.count {
            guard isWord(scalars[index]) else { index += 1; continue }
            var end = index
            while end < scalars.count, isWord(scalars[end]) { end += 1 }
            defer { index = end }
            guard Array(scalars[index..<end]) == wanted, !literals.contains(where: { $0.contains(index) }) else { continue }
            var before = index - 1
            if before >= 0, scalars[before] == "`" { before -= 1 }
            while before >= 0, scalars[before] == " " || scalars[before] == "\t" { before -= 1 }
            var after = end
            if after < scalars.count, scalars[after] == "`" { after += 1 }
            let isMember = before >= 0 && scalars[before] == "."
            let isNamespace = after < scalars.count && scalars[after] == "."
            if !isMember && (orAsBase || !isNamespace) { return true }
        }
        return false
    }

    /// True when `text`'s UTF-8 holds `part`'s (and `part` is not empty): a byte loop, where the
    /// standard library's generic `firstRange(of:)` costs about 14,000 instructions a fragment.
    private static func contains(_ text: String, _ part: String) -> Bool {
        var text = text, part = part
        return text.withUTF8 { text in
            part.withUTF8 { part in
                guard let first = part.first, part.count <= text.count else { return false }
                for start in 0...(text.count - part.count) where text[start] == first {
                    if (1..<part.count).allSatisfy({ text[start + $0] == part[$0] }) { return true }
                }
                return false
            }
        }
    }

    /// Why `text`, used as a type, could leave its declaration; `nil` when it cannot.
    ///
    /// A type is one line of names, `.`, `?`, `!`, `&`, `@`, `~`, spaces, `->`, and `()`, `[]`, `<>`
    /// in matching pairs, with `,` and `:` only inside them (`[String: Int]`, `(Int, Int) -> Void`):
    /// at the top level a comma or colon would declare a second thing next to the generated one.
    static func typeProblem(_ text: String) -> String? {
        if text.unicodeScalars.allSatisfy({ $0 == " " || $0 == "\t" }) { return "the type is empty" }
        var open: [Unicode.Scalar] = []
        var previous: Unicode.Scalar = " "
        for scalar in text.unicodeScalars {
            defer { previous = scalar }
            if scalar.properties.generalCategory == .control || isLineBreak(scalar) {
                return "the type has a line break or a control character"
            }
            switch scalar {
            case "(", "[", "<":
                open.append(scalar)
            case ")", "]", ">":
                if scalar == ">" && previous == "-" { continue }  // `->`
                guard let last = open.popLast(), closer(of: last) == scalar else {
                    return "the type has a '\(scalar)' that closes nothing it opened"
                }
            case ",", ":":
                if open.isEmpty { return "the type has a '\(scalar)' outside brackets" }
            case "{", "}", ";", "=", "\"", "'", "\\", "#", "/":
                return "the type contains '\(scalar)', which no type needs"
            default:
                break
            }
        }
        if let last = open.last { return "the type opens a '\(last)' it does not close" }
        if text.unicodeScalars.first == " " || text.unicodeScalars.last == " " || text.unicodeScalars.last == "\t" {
            // The generator appends `?` to request types; `T ?` is not an optional.
            return "the type has spaces at its start or end"
        }
        return wordsProblem(text)
    }

    /// Words that may stand before another word in a type (`any P`, `@Sendable (Int) -> Void`).
    static let typePrefixes: Set<String> = ["any", "some", "inout", "borrowing", "consuming", "sending", "each", "repeat"]
    /// Words that may stand after another word in a type (`(Int) async throws -> Int`).
    static let typeSuffixes: Set<String> = ["async", "throws", "rethrows"]

    /// Two names in a row (`Int Int`) end the type and begin something else in the declaration.
    static func wordsProblem(_ text: String) -> String? {
        var previous: String?
        var word = ""
        func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isAlphabetic || scalar.properties.numericType != nil || "_.`@$".unicodeScalars.contains(scalar)
        }
        for scalar in text.unicodeScalars + [","] {
            if isWordScalar(scalar) {
                word.unicodeScalars.append(scalar)
                continue
            }
            if !word.isEmpty {
                if let first = previous, !typePrefixes.contains(first), !first.hasPrefix("@"), !typeSuffixes.contains(word) {
                    return "the type has two names in a row, '\(first) \(word)'"
                }
                previous = word
                word = ""
            }
            if scalar != " " && scalar != "\t" { previous = nil }
        }
        return nil
    }

    static func closer(of opener: Unicode.Scalar) -> Unicode.Scalar {
        switch opener {
        case "(": ")"
        case "[": "]"
        case "<": ">"
        default: "}"
        }
    }

    /// Line feed, carriage return, NEL, and the Unicode line and paragraph separators.
    static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\n" || scalar == "\r" || scalar.value == 0x85 || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    /// Why a scan stopped.
    struct Problem: Error {
        let reason: String
    }

    /// A cursor over the text. Nesting (brackets inside interpolations inside strings) is followed
    /// by recursion, bounded by `maximumDepth` so that hostile input cannot exhaust the stack.
    struct Scanner {
        let text: [Unicode.Scalar]
        var index = 0
        var depth = 0
        /// The string literals, comments and regex literals passed, in order (see `literalRanges`).
        var literals: [Range<Int>] = []
        static let maximumDepth = 32

        init(_ text: [Unicode.Scalar]) { self.text = text }

        func peek(_ offset: Int = 0) -> Unicode.Scalar? {
            index + offset < text.count ? text[index + offset] : nil
        }

        /// Code up to the end of the text, or with `closingInterpolation` up to the `)` that ends a
        /// string interpolation (consumed).
        mutating func code(closingInterpolation: Bool) throws(Problem) {
            depth += 1
            defer { depth -= 1 }
            if depth > Self.maximumDepth { throw Problem(reason: "the expression nests strings and brackets too deeply") }
            var open: [Unicode.Scalar] = []
            while let scalar = peek() {
                switch scalar {
                case "(", "[", "{":
                    open.append(scalar)
                    index += 1
                case ")", "]", "}":
                    if open.isEmpty && closingInterpolation && scalar == ")" {
                        index += 1
                        return
                    }
                    guard let last = open.popLast(), closer(of: last) == scalar else {
                        throw Problem(reason: "the expression has a '\(scalar)' that closes nothing it opened, which would end the generated member")
                    }
                    index += 1
                case "/" where peek(1) == "/":
                    let start = index
                    while let next = peek(), !isLineBreak(next) { index += 1 }
                    literals.append(start..<index)
                case "/" where peek(1) == "*":
                    let start = index
                    try blockComment()
                    literals.append(start..<index)
                case "\"":
                    try string(hashes: 0)
                case "#":
                    var hashes = 0
                    while peek(hashes) == "#" { hashes += 1 }
                    if peek(hashes) == "\"" {
                        index += hashes
                        try string(hashes: hashes)
                    } else if peek(hashes) == "/" {
                        let start = index
                        try extendedRegex(hashes: hashes)
                        literals.append(start..<index)
                    } else {
                        try directive()
                    }
                default:
                    index += 1
                }
            }
            if closingInterpolation { throw Problem(reason: "the expression has a string interpolation '\\(' that is not closed") }
            if let last = open.last {
                throw Problem(reason: "the expression opens a '\(last)' it does not close, which would swallow the rest of the generated member")
            }
        }

        /// `/* ... */`, nested as Swift nests them.
        mutating func blockComment() throws(Problem) {
            var level = 0
            while index < text.count {
                if peek() == "/" && peek(1) == "*" {
                    level += 1
                    index += 2
                } else if peek() == "*" && peek(1) == "/" {
                    level -= 1
                    index += 2
                    if level == 0 { return }
                } else {
                    index += 1
                }
            }
            throw Problem(reason: "the expression opens a '/*' comment it does not close, which would swallow the rest of the generated file")
        }

        /// `#/.../#`: an extended regex literal, whose quotes and brackets are not code.
        mutating func extendedRegex(hashes: Int) throws(Problem) {
            index += hashes + 1
            while index < text.count {
                if peek() == "/" && (0..<hashes).allSatisfy({ peek(1 + $0) == "#" }) {
                    index += 1 + hashes
                    return
                }
                index += peek() == "\\" ? 2 : 1
            }
            throw Problem(reason: "the expression opens a '#/' regex literal it does not close")
        }

        /// A `#name` outside strings: the compiler directives that would change what follows.
        mutating func directive() throws(Problem) {
            index += 1
            var name = ""
            while let next = peek(), next.properties.isAlphabetic || next == "_" {
                name.unicodeScalars.append(next)
                index += 1
            }
            if ["sourceLocation", "if", "else", "elseif", "endif"].contains(name) {
                throw Problem(reason: "the expression contains the directive '#\(name)', which would change the code around it")
            }
        }

        /// A string literal whose opening quote is at `index`, after `hashes` `#`s (raw string).
        mutating func string(hashes: Int) throws(Problem) {
            var segmentStart = index - hashes
            let multiline = peek(1) == "\"" && peek(2) == "\""
            index += multiline ? 3 : 1
            while let scalar = peek() {
                if scalar == "\\" && (0..<hashes).allSatisfy({ peek(1 + $0) == "#" }) {
                    index += 1 + hashes
                    if peek() == "(" {
                        index += 1
                        literals.append(segmentStart..<index)
                        try code(closingInterpolation: true)
                        segmentStart = index - 1  // the `)` that closes the interpolation
                    } else {
                        index += 1  // the escaped character
                    }
                } else if scalar == "\"" && (!multiline || (peek(1) == "\"" && peek(2) == "\"")) {
                    let quotes = multiline ? 3 : 1
                    if (0..<hashes).allSatisfy({ peek(quotes + $0) == "#" }) {
                        index += quotes + hashes
                        literals.append(segmentStart..<index)
                        return
                    }
                    index += 1
                } else if isLineBreak(scalar) && !multiline {
                    break
                } else {
                    index += 1
                }
            }
            throw Problem(reason: multiline
                ? "the expression opens a '\"\"\"' string it does not close, which would swallow the rest of the generated file"
                : "the expression has a string literal that is not closed on its line")
        }
    }
}
