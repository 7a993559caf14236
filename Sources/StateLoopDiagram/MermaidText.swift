// Escaping for Mermaid `stateDiagram-v2`.
//
// Mermaid has no string escapes. Its lexer ends a transition or description label at `:`, `;`
// and a newline; treats `%%` as a comment even mid-line; reads any line that contains
// `direction LR` (TB, BT, RL) as a direction statement; and renders labels as HTML. Before
// parsing, Mermaid replaces entity codes `#name;` / `#123;` by placeholders and turns them into
// HTML entities after layout — the one way to get those characters through. So labels carry
// `#quot;`-style codes for every character that could end, comment out or re-mark up a label:
//
//   "  #quot;     #  #35;     %  #37;     &  #38;     :  #58;     ;  #59;
//   <  #60;       >  #62;     [  #91;     ]  #93;     `  #96;     {  #123;    }  #125;
//
// (`[` `]` only matter in `state "…"` lines, where `[[fork]]` turns a state into a fork; they
// are left readable in transition labels, where guards use them often.) Line breaks and other
// control characters become spaces: a label is one line. State IDs that are not plain
// identifiers, or that Mermaid's lexer would read as a keyword, are replaced by generated
// aliases (`state "display name" as s1`).

/// Text transformations that make spec text safe inside Mermaid.
enum MermaidText {
    /// Label text for `a --> b : label`, `id : description` and `state "…" as id`.
    /// - Parameter inStateName: also encodes `[` and `]` (see the file comment).
    static func label(_ text: String, inStateName: Bool = false) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "#quot;"
            case "#", "%", "&", ":", ";", "<", ">", "`", "{", "}":
                result += "#\(scalar.value);"
            case "[" where inStateName, "]" where inStateName:
                result += "#\(scalar.value);"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += " "
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return breakingDirectionKeyword(in: result)
    }

    /// Mermaid's lexer takes any line matching `direction\s+(TB|BT|RL|LR)` (any case) for a
    /// direction statement. Encoding the blank after such a `direction` keeps the words and
    /// defeats the match.
    private static func breakingDirectionKeyword(in text: String) -> String {
        guard text.lowercased().contains("direction") else { return text }
        let scalars = Array(text.unicodeScalars)
        let keyword = Array("direction".unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let end = index + keyword.count
            if end < scalars.count,
               zip(scalars[index..<end], keyword).allSatisfy({ String($0.0).lowercased() == String($0.1) }),
               scalars[end] == " " {
                result.append(contentsOf: scalars[index..<end])
                result.append(contentsOf: "#32;".unicodeScalars)
                index = end + 1
            } else {
                result.append(scalars[index])
                index += 1
            }
        }
        return String(result)
    }

    /// True when `name` can stand as a state ID as it is: an ASCII identifier (Mermaid's lexer
    /// ends IDs at `-`, `:`, blanks and `{`) that its lexer does not read as a keyword. The
    /// lexer matches keywords case-insensitively and by prefix (`default` even inside
    /// `defaultMode`), so the checks are too.
    static func isPlainID(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first,
              first == "_" || ("a"..."z").contains(first) || ("A"..."Z").contains(first),
              name.unicodeScalars.allSatisfy({ $0 == "_" || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) })
        else { return false }
        let lowered = name.lowercased()
        let keywords: Set = ["state", "note", "class", "classdef", "scale", "direction", "end", "style", "click", "hide", "as"]
        return !keywords.contains(lowered)
            && !lowered.hasPrefix("default")
            && !lowered.hasPrefix("acc")
            && !lowered.hasPrefix("statediagram")
    }

    /// Text for a `%%` comment line: a line break would end the comment early.
    static func comment(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
    }
}
