// Owns the escaping of text from the YAML file that lands in generated Swift outside of embedded
// expressions: string literals (the `#sourceLocation` file path) and comments. No input can close
// the literal or the comment early, or start a new line of code.
enum SwiftLiteral {
    /// `text` as a Swift string literal, quotes included. Backslashes, quotes and every control or
    /// line-breaking character are escaped, so the literal always ends where we end it; `#` needs no
    /// escape because the literal is not a raw one.
    static func string(_ text: String) -> String {
        "\"" + escaped(text) + "\""
    }

    /// `text` as the inside of a string literal: `string(text)` without its quotes.
    static func escaped(_ text: String) -> String {
        // Printable ASCII without a backslash or a quote needs no escape (most names and texts).
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "\"") }) {
            return text
        }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || isLineSeparator(scalar) {
                    result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// `path` as the `file:` literal of a `#sourceLocation` directive.
    ///
    /// swiftc takes that literal's text verbatim (it does not process escapes, and rejects raw
    /// strings), so a plain path goes in as it is and diagnostics name it exactly. The few
    /// characters that cannot stand in a literal are rewritten: a backslash becomes `/` (Windows
    /// accepts it as a separator; `\\` would print doubled), a quote and control characters are
    /// escaped, which keeps the literal closed at the cost of an odd-looking path.
    ///
    /// A line break (`\n`, `\r`) becomes a space: swiftc ignores a `#sourceLocation` whose file
    /// names one, escaped or not, and would then report the spec's errors inside the generated file.
    static func sourceLocationFile(_ path: String) -> String {
        let scalars = path.unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : $0 == "\\" ? "/" : $0 }
        return string(String(String.UnicodeScalarView(scalars)))
    }

    /// `text` made safe for a `//` or `///` comment: one line, no control characters, and no `*/` or
    /// `/*`, so it cannot end a comment or begin a nested one even if a template puts it in `/* */`.
    static func comment(_ text: String) -> String {
        // Most text (names, positions) is plain ASCII without a `/`: nothing to change, and skipping
        // the rewrite keeps generation of large specs fast.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") }) { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F || isLineSeparator(scalar) {
                result += " "
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
            .replacing("*/", with: "* /")
            .replacing("/*", with: "/ *")
    }

    /// Unicode line and paragraph separators and NEL: editors show a new line there.
    private static func isLineSeparator(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0x85 || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}
