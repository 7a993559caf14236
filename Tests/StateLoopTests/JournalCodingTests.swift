import Foundation
import StateLoop
import StateLoopTestSupport
import Testing

/// The journal's binary encoding (Docs/Durability.md D22–D26): the standard conformances, the
/// `Codable` fallback, which of the two Swift picks, and reading bad bytes.
@Suite struct JournalCodingTests {
    // MARK: Helpers

    /// The bytes of `value` in the journal's own encoding.
    static func bytes<T: JournalCodable>(_ value: T) -> [UInt8] {
        var writer = JournalWriter()
        writer.write(value)
        return writer.bytes
    }

    /// The bytes of `value` through the fallback.
    static func fallbackBytes<T: Encodable>(_ value: T) -> [UInt8] {
        var writer = JournalWriter()
        writer.write(value)
        return writer.bytes
    }

    /// `value` written and read back in the journal's own encoding; every byte must be read.
    static func roundTrip<T: JournalCodable>(_ value: T) throws -> T {
        var reader = JournalReader(bytes(value))
        let read: T = try reader.read()
        #expect(reader.isAtEnd)
        return read
    }

    /// `value` written and read back through the fallback; every byte must be read.
    static func fallbackRoundTrip<T: Codable>(_ value: T) throws -> T {
        var reader = JournalReader(fallbackBytes(value))
        let read: T = try reader.read()
        #expect(reader.isAtEnd)
        return read
    }

    // MARK: Standard conformances

    @Test func integersOfEveryWidthRoundTripAtTheirBounds() throws {
        func check<T: FixedWidthInteger & JournalCodable>(_: T.Type) throws {
            for value in [T.min, T.max, 0, 1, T.max / 3] { #expect(try Self.roundTrip(value) == value) }
        }
        try check(Int.self)
        try check(Int8.self)
        try check(Int16.self)
        try check(Int32.self)
        try check(Int64.self)
        try check(UInt.self)
        try check(UInt8.self)
        try check(UInt16.self)
        try check(UInt32.self)
        try check(UInt64.self)
        #expect(Self.bytes(Int8(-1)) == [0xFF])
        #expect(Self.bytes(UInt8(200)) == [200])
        #expect(Self.bytes(Int32(-1)) == [1])  // zigzag: small negative numbers are short
    }

    @Test func anIntegerTooLargeForItsTypeIsInvalidNotTruncated() throws {
        var reader = JournalReader(Self.bytes(Int64(70_000)))
        #expect(throws: JournalDecodingError.invalid(offset: 0, reason: "an integer too large for Int16")) { try reader.read(Int16.self) }
        reader = JournalReader(Self.bytes(UInt64(70_000)))
        #expect(throws: JournalDecodingError.invalid(offset: 0, reason: "an integer too large for UInt16")) { try reader.read(UInt16.self) }
        #expect(try reader.read(UInt32.self) == 70_000)
    }

    @Test func floatingPointNumbersRoundTripBitForBit() throws {
        for value: Float in [0, -0.0, 1.5, .infinity, -.greatestFiniteMagnitude, .leastNonzeroMagnitude] {
            #expect(try Self.roundTrip(value).bitPattern == value.bitPattern)
        }
        #expect(try Self.roundTrip(Float.nan).isNaN)
        #expect(try Self.roundTrip(Double(-0.0)).bitPattern == Double(-0.0).bitPattern)
        #expect(Self.bytes(Float(1)) == [0, 0, 0x80, 0x3F])
    }

    @Test func collectionsRoundTrip() throws {
        #expect(try Self.roundTrip(ContiguousArray([1, 2, 3])) == [1, 2, 3])
        #expect(try Self.roundTrip(Set(["a", "b", "c"])) == ["a", "b", "c"])
        #expect(try Self.roundTrip(["x": [1, 2], "y": []]) == ["x": [1, 2], "y": []])
        #expect(try Self.roundTrip([Int: Set<String>]()) == [:])
        #expect(try Self.roundTrip([Int8?.none, 3]) == [nil, 3])
    }

    @Test("D22: equal sets and dictionaries give equal bytes whatever their order in memory, in the order of their elements' bytes")
    func d22SetsAndDictionariesAreCanonical() throws {
        let words = (0..<200).map { "word\($0)" }
        var small = Set<String>()
        var large = Set<String>(minimumCapacity: 4096)
        for word in words { small.insert(word) }
        for word in words.reversed() { large.insert(word) }
        #expect(small == large)
        #expect(Array(small) != Array(large), "the two sets must differ in memory for the test to mean anything")
        #expect(Self.bytes(small) == Self.bytes(large))
        // The order is the elements' bytes, which no hash seed changes.
        #expect(Self.bytes(Set(["b", "a", "ab"])) == [3, 1, 0x61, 1, 0x62, 2, 0x61, 0x62])

        var smallMap = [String: Int]()
        var largeMap = [String: Int](minimumCapacity: 4096)
        for (index, word) in words.enumerated() { smallMap[word] = index }
        for (index, word) in words.enumerated().reversed() { largeMap[word] = index }
        #expect(Array(smallMap.keys) != Array(largeMap.keys))
        #expect(Self.bytes(smallMap) == Self.bytes(largeMap))
        #expect(Self.bytes([2: true, 1: false]) == [2, 2, 0, 4, 1])
    }

    @Test("D22: a set or dictionary with an element written twice is invalid")
    func d22RepeatedElementsAreInvalid() {
        var reader = JournalReader([2, 1, 0x61, 1, 0x61])
        #expect(throws: JournalDecodingError.invalid(offset: 3, reason: "a set with an element written twice")) { try reader.read(Set<String>.self) }
        reader = JournalReader([2, 2, 1, 2, 0])
        #expect(throws: JournalDecodingError.invalid(offset: 3, reason: "a dictionary with a key written twice")) { try reader.read([Int: Bool].self) }
    }

    // MARK: The Codable fallback

    struct Point: Codable, Hashable {
        var x: Int
        var y: Double
    }

    enum Shape: Codable, Equatable {
        case dot
        case line(from: Point, to: Point)
        case label(String, size: Float?)
    }

    struct Drawing: Codable, Equatable {
        var title: String
        var shapes: [Shape]
        var marks: Set<Point>
        var owners: [Point: String]
        var tags: [String: [UInt8]]
        var scale: Float?
        var origin: Point?
        var big: UInt64
        var small: Int8
    }

    class Base: Codable {
        var id: Int
        init(id: Int) { self.id = id }
    }

    final class Derived: Base, @unchecked Sendable {
        var name: String
        init(id: Int, name: String) {
            self.name = name
            super.init(id: id)
        }
        enum CodingKeys: CodingKey { case name }
        required init(from decoder: any Decoder) throws {
            name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
            try super.init(from: decoder.container(keyedBy: CodingKeys.self).superDecoder())
        }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try super.encode(to: container.superEncoder())
        }
    }

    static let drawing = Drawing(
        title: "plan", shapes: [.dot, .line(from: Point(x: -1, y: 2.5), to: Point(x: 3, y: -0.0)), .label("é", size: nil), .label("", size: 2)],
        marks: Set((0..<50).map { Point(x: $0, y: Double($0) / 3) }),
        owners: [Point(x: 1, y: 1): "ann", Point(x: 2, y: 2): "bob", Point(x: 3, y: 3): "cy"],
        tags: ["a": [1, 255], "b": []], scale: 0.5, origin: nil, big: .max, small: -128)

    @Test("D24: a user's Codable types, Foundation's and a class with a super encoder round-trip through the fallback")
    func d24FallbackRoundTrips() throws {
        #expect(try Self.fallbackRoundTrip(Self.drawing) == Self.drawing)
        let derived = try Self.fallbackRoundTrip(Derived(id: 7, name: "seven"))
        #expect(derived.id == 7 && derived.name == "seven")
        let url = try #require(URL(string: "https://example.com/a?b=c"))
        #expect(try Self.fallbackRoundTrip(url) == url)
        #expect(try Self.fallbackRoundTrip(Data([0, 1, 2, 255])) == Data([0, 1, 2, 255]))
        let date = Date(timeIntervalSinceReferenceDate: 123_456.789)
        #expect(try Self.fallbackRoundTrip(date) == date)
        #expect(try Self.fallbackRoundTrip([Point(x: 1, y: 2)]) == [Point(x: 1, y: 2)])
        #expect(try Self.fallbackRoundTrip(Point?.none) == nil)
    }

    @Test("D24: keyed containers are written with their keys in key order, and read back by key")
    func d24KeysInOrderReadByKey() throws {
        struct BA: Codable { var b: Bool; var a: Bool }
        struct AB: Codable, Equatable { var a: Bool; var b: Bool }
        // keyed, 2 entries, "a" true, "b" false: the order of the declaration does not matter.
        let written = Self.fallbackBytes(BA(b: false, a: true))
        #expect(written == [8, 2, 1, 0x61, 2, 1, 0x62, 1])
        var reader = JournalReader(written)
        #expect(try reader.read(AB.self) == AB(a: true, b: false))
    }

    @Test("D22, D24: equal values with sets and dictionaries inside give equal fallback bytes")
    func d24FallbackIsCanonical() throws {
        var other = Self.drawing
        other.marks = Set(minimumCapacity: 4096)
        for point in Self.drawing.marks.sorted(by: { $0.x > $1.x }) { other.marks.insert(point) }
        other.owners = Dictionary(minimumCapacity: 1024)
        for (point, name) in Self.drawing.owners.sorted(by: { $0.key.x > $1.key.x }) { other.owners[point] = name }
        #expect(other == Self.drawing)
        #expect(Array(other.marks) != Array(Self.drawing.marks))
        #expect(Self.fallbackBytes(other) == Self.fallbackBytes(Self.drawing))
    }

    // MARK: Which encoding Swift picks

    /// Both `JournalCodable` and `Codable`, with a different byte in each, to see which one runs.
    struct Both: JournalCodable, Codable, Equatable {
        func encode(to writer: inout JournalWriter) { writer.bytes.append(0xAB) }
        init(from reader: inout JournalReader) throws(JournalDecodingError) {
            guard try reader.readByte() == 0xAB else { throw .invalid(offset: reader.offset - 1, reason: "not Both") }
        }
        init() {}
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode("Codable")
        }
        init(from decoder: any Decoder) throws {}
    }

    /// Generic code sees only the constraint it states: the choice is made where `T` is known.
    static func writtenGenerically<T: JournalCodable & Codable>(_ value: T) -> [UInt8] {
        var writer = JournalWriter()
        writer.write(value)
        return writer.bytes
    }

    @Test("D23: a type that is JournalCodable and Codable takes the journal's own encoding; one only Codable takes the fallback")
    func d23OverloadRanking() throws {
        var writer = JournalWriter()
        writer.write(Both())
        #expect(writer.bytes == [0xAB])
        #expect(Self.writtenGenerically(Both()) == [0xAB])
        var reader = JournalReader([0xAB])
        #expect(try reader.read(Both.self) == Both())
        // Standard types are both: where their type is known, the fast path, no fallback tag.
        writer = JournalWriter()
        writer.write(5)
        writer.write("a")
        writer.write([Int?.none])
        #expect(writer.bytes == [10, 1, 0x61, 1, 0])
        // Only Codable: a keyed container of the fallback, with Int's fallback tag inside.
        writer = JournalWriter()
        writer.write(Point(x: 1, y: 0))
        #expect(writer.bytes.prefix(7) == [8, 2, 1, 0x78, 3, 2, 1])
        // In generic code that knows only `Encodable`, the fallback (the choice is static).
        #expect(Self.fallbackBytes(5) == [3, 10])
    }

    // MARK: Bad bytes

    @Test("D25: every truncation of valid bytes throws, for the journal's encoding and the fallback")
    func d25TruncatedBytesThrow() {
        let standard = Self.bytes(["key": [Int64.max, -5], "other": []] as [String: [Int64]])
        for end in 0..<standard.count {
            var reader = JournalReader(Array(standard[..<end]))
            #expect(throws: JournalDecodingError.self) { try reader.read([String: [Int64]].self) }
        }
        let fallback = Self.fallbackBytes(Self.drawing)
        for end in 0..<fallback.count {
            var reader = JournalReader(Array(fallback[..<end]))
            #expect(throws: JournalDecodingError.self) { try reader.read(Drawing.self) }
        }
    }

    @Test("D25: random bytes throw JournalDecodingError or read a value, never trap")
    func d25RandomBytesNeverTrap() {
        var generator = SeededGenerator(seed: 21)
        for length in 0..<2_000 {
            let bytes = (0..<(length % 97)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            func attempt<T>(_ read: (inout JournalReader) throws -> T) {
                var reader = JournalReader(bytes)
                do { _ = try read(&reader) } catch let error as JournalDecodingError { _ = error.description } catch {
                    Issue.record("not a JournalDecodingError: \(error)")
                }
            }
            attempt { try $0.read(Drawing.self) }
            attempt { try $0.read([Shape].self) }
            attempt { try $0.read([String: Set<Int16>].self) }
            attempt { try $0.read([Double?].self) }
            attempt { try $0.read(URL.self) }
        }
    }

    @Test("D25: a huge count, an unknown tag, deep nesting and a type's own DecodingError are invalid, at the value's offset")
    func d25CorruptBytesAreInvalid() {
        var reader = JournalReader([0xFF, 0xFF, 0x03, 1])
        #expect(throws: JournalDecodingError.invalid(offset: 0, reason: "a collection of 65535 elements in 1 bytes")) { try reader.read([Bool].self) }
        reader = JournalReader([7, 42])
        #expect(throws: JournalDecodingError.invalid(offset: 1, reason: "tag 42 of a Codable value (0 to 9)")) { _ = try reader.readByte(); _ = try reader.read(Point.self) }
        // Nest {inner: [Nest {inner: [...]}]}: each level a keyed and an unkeyed container, 10 bytes.
        let level: [UInt8] = [8, 1, 5] + Array("inner".utf8) + [9, 1]
        reader = JournalReader(Array(repeating: level, count: 300).flatMap { $0 } + [8, 0])
        #expect(throws: JournalDecodingError.invalid(offset: 1280, reason: "Codable containers nested deeper than 256 levels")) { try reader.read(Nest.self) }
        reader = JournalReader(Self.fallbackBytes(["x": 1]))
        #expect(throws: JournalDecodingError.invalid(offset: 0, reason: "not a Point: no value for the key 'y'")) { try reader.read(Point.self) }
        reader = JournalReader(Self.fallbackBytes(TextA(a: "text")))
        #expect(throws: JournalDecodingError.invalid(offset: 0, reason: "not a NumberA: expected Int, found a String at 'a'")) { try reader.read(NumberA.self) }
        #expect(reader.offset == 0)
    }

    struct TextA: Codable { var a: String }
    struct Nest: Codable { var inner: [Nest] }
    struct NumberA: Codable { var a: Int }

    @Test("D26: an encode(to:) that throws while journaling stops the process, naming the type")
    func d26ThrowingEncodeStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            struct Refuses: Encodable {
                struct Refusal: Error {}
                func encode(to encoder: any Encoder) throws { throw Refusal() }
            }
            var writer = JournalWriter()
            writer.write(Refuses())
        }
    }
}
