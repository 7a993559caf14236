@testable import StateLoopCodegen
import Testing

/// Text from the YAML file that lands in a comment or a string literal cannot end it early.
@Suite struct SwiftLiteralTests {
    @Test func aCommentStaysOneLineAndCannotCloseOrOpenABlockComment() {
        #expect(SwiftLiteral.comment("a */ b /* c\nd\re\u{2028}f\u{85}g\u{0}h") == "a * / b / * c d e f g h")
    }

    @Test func aStringLiteralEscapesQuotesBackslashesAndControlCharacters() {
        #expect(SwiftLiteral.string("a\"\"\"b\\c#d\ne\tf\u{7}g\u{2029}") == #""a\"\"\"b\\c#d\ne\tf\u{7}g\u{2029}""#)
    }

    @Test func aSourceLocationPathTurnsBackslashesIntoSlashes() {
        // swiftc prints the literal's text verbatim, so `\\` would show doubled; `/` works on Windows.
        #expect(SwiftLiteral.sourceLocationFile(#"C:\specs\Door.machine.yml"#) == #""C:/specs/Door.machine.yml""#)
        #expect(SwiftLiteral.sourceLocationFile("Specs/Door.machine.yml") == #""Specs/Door.machine.yml""#)
    }
}
