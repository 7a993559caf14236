// The spellings `stateloop journal --spec` reads in the journal's own encoding (Docs/Durability.md
// D84): each reads what the standard conformance (JournalCodable+Standard.swift) writes.
import StateLoop
@testable import StateLoopJournalReading
import Testing

@Suite struct StandardTypeTests {
    /// The text `stateloop journal` prints for `value` written as the spec type `spelling`, and
    /// whether it read every byte.
    static func text<T: JournalCodable>(_ value: T, as spelling: String) throws -> String? {
        var writer = JournalWriter()
        writer.write(value)
        guard let type = StandardType(spelling) else { return nil }
        var reader = JournalReader(writer.bytes)
        let text = try type.text(from: &reader)
        #expect(reader.isAtEnd, "\(spelling): \(reader.bytes.count - reader.offset) bytes left")
        return text
    }

    @Test("D84: every standard spelling reads what its JournalCodable conformance writes")
    func d84StandardSpellingsRead() throws {
        #expect(try Self.text(-3, as: "Int") == "-3")
        #expect(try Self.text(Int64.min, as: "Swift.Int64") == "\(Int64.min)")
        #expect(try Self.text(Int32(-70_000), as: "Int32") == "-70000")
        #expect(try Self.text(Int16(-300), as: "Int16") == "-300")
        #expect(try Self.text(Int8(-128), as: "Int8") == "-128")
        #expect(try Self.text(UInt.max, as: "UInt") == "\(UInt.max)")
        #expect(try Self.text(UInt32(70_000), as: "UInt32") == "70000")
        #expect(try Self.text(UInt16(65_535), as: "UInt16") == "65535")
        #expect(try Self.text(UInt8(255), as: "UInt8") == "255")
        #expect(try Self.text(true, as: "Bool") == "true")
        #expect(try Self.text(-0.5, as: "Double") == "-0.5")
        #expect(try Self.text(Float(1.25), as: "Float") == "1.25")
        #expect(try Self.text("a \"b\" ✓", as: "String") == #""a \"b\" ✓""#)
        #expect(try Self.text(Duration.milliseconds(1_500), as: "Duration") == "1.5 seconds")
        #expect(try Self.text(Int?.none, as: "Int?") == "nil")
        #expect(try Self.text(Optional(Optional(2)), as: "Optional<Int?>") == "2")
        #expect(try Self.text([[1], [2, 3]], as: "[[Int]]") == "[[1], [2, 3]]")
        #expect(try Self.text(ContiguousArray([false]), as: "ContiguousArray<Bool>") == "[false]")
        #expect(try Self.text(Set([UInt8(2), 1]), as: "Set<UInt8>") == "[1, 2]")
        #expect(try Self.text(["b": [1], "a": []], as: "[String: [Int]]") == #"["a": [], "b": [1]]"#)
        #expect(try Self.text([String: Int](), as: "Dictionary<String, Int>") == "[:]")
    }

    @Test("D84: any other spelling is not read as the journal's own encoding (the Codable fallback wrote it)")
    func d84OtherSpellingsAreNotStandard() {
        for spelling in ["Money", "URL?", "[Date]", "Foundation.Data", "Set<Money>", "[String: URL]", "Result<Int, Error>", "(Int, Int)", "Int8x"] {
            #expect(StandardType(spelling) == nil, "\(spelling)")
        }
    }
}
