// Escaping for Graphviz DOT. Names become quoted IDs; every visible text goes into HTML-like
// labels, which escape by XML entities — simpler and stricter than DOT's own label escapes
// (`\n`, `\l`, `\N`, `\G` would otherwise turn parts of a guard into layout commands).

/// Text transformations that make spec text safe inside DOT.
enum DOTText {
    /// A quoted DOT ID. Inside quotes DOT only unescapes `\"`; `\\` is kept as two characters,
    /// which is fine for an ID (it is never displayed: labels carry the text), and keeps the
    /// mapping one-to-one so distinct names stay distinct nodes. Newlines and other control
    /// characters become visible `\n`/`\u{…}` text so a name cannot end a line or a comment.
    static func quotedID(_ name: String) -> String {
        var result = "\""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// Text for an HTML-like label: `&<>"` as entities, line breaks as `<br/>` (left-aligned, as
    /// all our multi-line labels are), and other control characters, which XML forbids even as
    /// character references, as their visible Unicode "control pictures" (␀, ␉, …).
    static func html(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\n": result += "<br align=\"left\"/>"
            case "\r": break
            default:
                if scalar.value < 0x20 {
                    result.unicodeScalars.append(Unicode.Scalar(0x2400 + scalar.value)!)
                } else if scalar.value == 0x7F {
                    result += "\u{2421}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// Text for a `//` comment line: control characters would end the comment early.
    static func comment(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
    }

    /// Breaks `text` at spaces into lines of at most `width` characters (a longer word stays
    /// whole), so a long guard does not stretch its edge across the whole picture.
    static func wrap(_ text: String, width: Int) -> [String] {
        wrap(words: text.split(separator: " ", omittingEmptySubsequences: false).map(String.init), width: width)
    }

    /// Joins `words` with single spaces into lines of at most `width` characters, breaking
    /// only between words (a longer word gets a line of its own).
    static func wrap(words: [String], width: Int) -> [String] {
        var lines: [String] = []
        var line: String?
        for word in words {
            if let current = line, current.count + 1 + word.count <= width {
                line = current + " " + word
            } else {
                if let current = line { lines.append(current) }
                line = word
            }
        }
        lines.append(line ?? "")
        return lines
    }
}
