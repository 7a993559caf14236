/// What may be a Swift identifier in generated code, and how to write it there.
///
/// Spec names (machine, states, events, fields, effects) must be ASCII identifiers
/// (`[A-Za-z_][A-Za-z0-9_]*`). Swift keywords are allowed and written with backticks; the few
/// names that backticks cannot rescue in every position are rejected by the checks with advice.
public enum SwiftName {
    /// True for `[A-Za-z_][A-Za-z0-9_]*`, not `_` alone.
    public static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, name != "_" else { return false }
        func isLetter(_ c: UInt8) -> Bool { (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 95 }
        func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }
        return isLetter(first) && name.utf8.allSatisfy { isLetter($0) || isDigit($0) }
    }

    /// Names that cannot stand as enum cases, members or types even in backticks
    /// (`self`, `Self`, `Type`, `init`, ...). The checks reject them.
    public static let unusable: Set<String> = ["self", "Self", "Type", "Protocol", "init", "deinit", "subscript", "super"]

    /// Swift keywords and contextual words that must be backticked to be used as names.
    public static let keywords: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension",
        "fileprivate", "func", "import", "init", "inout", "internal", "let", "nonisolated",
        "open", "operator", "precedencegroup", "private", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch",
        "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in",
        "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await", "false",
        "is", "nil", "self", "Self", "super", "throws", "true", "try", "_", "some", "any",
        "async", "actor", "package", "each", "copy", "discard", "then",
    ]

    /// The name as written in Swift source: backticked when it is a keyword.
    public static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// `loadNextPage` -> `LoadNextPage`, for type names derived from member names.
    public static func upperCamel(_ name: String) -> String {
        guard let first = name.first else { return name }
        return first.uppercased() + name.dropFirst()
    }
}
