// JournalCodingFallback: how a `Codable` type that is not `JournalCodable` (a user's struct, or
// Foundation's `URL`, `Data`, `Date`) is journaled: through a small binary `Encoder` and `Decoder`
// of our own (Docs/Durability.md D23–D25).
//
// Invariants:
// - The bytes are a tree of tagged values: a keyed container is written with its keys, in the
//   order of their UTF-8 bytes, and read back by key; an unkeyed container in its order, except
//   that a `Set`'s elements and a `Dictionary`'s key-value pairs are written in the order of their
//   bytes. So equal values give equal bytes in every process, as in the journal's own encoding.
// - The tree is read whole before the value is decoded from it; malformed bytes (a truncated tree,
//   an unknown tag, a count above the bytes left, nesting deeper than `maximumDepth`) and a
//   `DecodingError` of the type's own `init(from:)` throw `JournalDecodingError`, never trap.

extension JournalWriter {
    /// Writes `value`, a `Codable` type that is not `JournalCodable`, through its `Encodable`
    /// conformance. Swift picks this overload only when `T` is not `JournalCodable` (D23).
    ///
    /// `JournalCodable.encode(to:)` cannot throw, so an `encode(to:)` of `T` that throws stops
    /// the process with the type and the error: it is a bug of that conformance (D25).
    public mutating func write<T: Encodable>(_ value: T) {
        let root = FallbackNode()
        do {
            try root.encode(value, codingPath: [])
        } catch {
            preconditionFailure("journaling a \(T.self): its encode(to:) threw \(error)")
        }
        root.write(to: &self)
    }
}

extension JournalReader {
    /// Reads a value of `T`, a `Codable` type that is not `JournalCodable`, written by
    /// `JournalWriter.write(_:)` (its `Encodable` overload). Swift picks this overload only when `T` is not
    /// `JournalCodable` (D23).
    public mutating func read<T: Decodable>(_: T.Type = T.self) throws(JournalDecodingError) -> T {
        let start = offset
        let tree = try FallbackValue(from: &self, depth: 0)
        do {
            return try T(from: FallbackDecoder(value: tree, codingPath: []))
        } catch {
            offset = start
            throw .invalid(offset: start, reason: "not a \(T.self): \(FallbackDecoder.describe(error))")
        }
    }

    /// Reads past one value the fallback wrote, whatever its type, and returns how many bytes it
    /// took: how a tool that does not know the type (`stateloop journal`) steps over it.
    public mutating func skipFallbackValue() throws(JournalDecodingError) -> Int {
        let start = offset
        _ = try FallbackValue(from: &self, depth: 0)
        return offset - start
    }
}

/// The tag byte before each value of the fallback's tree.
enum FallbackTag: UInt8 {
    case null, `false`, `true`, signed, unsigned, float, double, string, keyed, unkeyed
}

/// A `Set` or a `Dictionary`: `Codable` writes their elements in the order of the process's
/// hash seed, so the fallback writes them in the order of their bytes instead.
protocol UnorderedEncodable {
    /// How many elements of the unkeyed container make one entry (a dictionary's key and value).
    static var entryWidth: Int { get }
}

extension Set: UnorderedEncodable {
    static var entryWidth: Int { 1 }
}

extension Dictionary: UnorderedEncodable {
    static var entryWidth: Int { 2 }
}

// MARK: Encoding

/// A value being encoded: containers hand out references to their children, which may be filled
/// in later (`nestedContainer`, `superEncoder`), so the tree is written once the root is done.
final class FallbackNode {
    enum Content {
        /// Nothing was encoded yet (written as an empty keyed container).
        case empty
        case scalar(FallbackScalar)
        case keyed([String: FallbackNode])
        case unkeyed([FallbackNode])
    }

    var content = Content.empty
    /// For a `Set` (1) or a `Dictionary` encoded as an unkeyed list (2): its entries are written
    /// in the order of their bytes.
    var unorderedEntryWidth: Int?

    /// Encodes `value` into this node.
    func encode<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws {
        try value.encode(to: FallbackEncoder(node: self, codingPath: codingPath))
        if let unordered = value as? any UnorderedEncodable, case .unkeyed = content {
            unorderedEntryWidth = type(of: unordered).entryWidth
        }
    }

    /// The child under `key`, made empty (a key encoded twice keeps the last value).
    func child(forKey key: String) -> FallbackNode {
        let node = FallbackNode()
        if case .keyed(var entries) = content {
            content = .empty  // keeps `entries` uniquely referenced
            entries[key] = node
            content = .keyed(entries)
        }
        return node
    }

    /// A new last element.
    func appendedChild() -> FallbackNode {
        let node = FallbackNode()
        if case .unkeyed(var elements) = content {
            content = .empty
            elements.append(node)
            content = .unkeyed(elements)
        }
        return node
    }

    func write(to writer: inout JournalWriter) {
        switch content {
        case .empty:
            writer.bytes.append(FallbackTag.keyed.rawValue)
            writer.writeVarint(0)
        case .scalar(let value):
            value.write(to: &writer)
        case .keyed(let entries):
            writer.bytes.append(FallbackTag.keyed.rawValue)
            writer.writeVarint(UInt64(entries.count))
            for key in entries.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                key.encode(to: &writer)
                entries[key]!.write(to: &writer)
            }
        case .unkeyed(let elements):
            writer.bytes.append(FallbackTag.unkeyed.rawValue)
            guard let width = unorderedEntryWidth else {
                writer.writeVarint(UInt64(elements.count))
                for element in elements { element.write(to: &writer) }
                return
            }
            var entries: [[UInt8]] = []
            for start in stride(from: 0, to: elements.count, by: width) {
                var entry = JournalWriter(capacity: 16)
                for element in elements[start..<min(start + width, elements.count)] { element.write(to: &entry) }
                entries.append(entry.bytes)
            }
            writer.writeVarint(UInt64(elements.count))
            for entry in entries.sorted(by: { $0.lexicographicallyPrecedes($1) }) { writer.bytes.append(contentsOf: entry) }
        }
    }
}

/// The `Encoder` handed to an `Encodable` value; also its single-value container.
struct FallbackEncoder: Encoder, SingleValueEncodingContainer {
    let node: FallbackNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .keyed = node.content {} else { node.content = .keyed([:]) }
        return KeyedEncodingContainer(KeyedFallbackEncoder(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .unkeyed = node.content {} else { node.content = .unkeyed([]) }
        return UnkeyedFallbackEncoder(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() { node.content = .scalar(.null) }
    func encode(_ value: Bool) { node.content = .scalar(.bool(value)) }
    func encode(_ value: String) { node.content = .scalar(.string(value)) }
    func encode(_ value: Double) { node.content = .scalar(.double(value)) }
    func encode(_ value: Float) { node.content = .scalar(.float(value)) }
    func encode(_ value: Int) { node.content = .scalar(.signed(Int64(value))) }
    func encode(_ value: Int8) { node.content = .scalar(.signed(Int64(value))) }
    func encode(_ value: Int16) { node.content = .scalar(.signed(Int64(value))) }
    func encode(_ value: Int32) { node.content = .scalar(.signed(Int64(value))) }
    func encode(_ value: Int64) { node.content = .scalar(.signed(value)) }
    func encode(_ value: UInt) { node.content = .scalar(.unsigned(UInt64(value))) }
    func encode(_ value: UInt8) { node.content = .scalar(.unsigned(UInt64(value))) }
    func encode(_ value: UInt16) { node.content = .scalar(.unsigned(UInt64(value))) }
    func encode(_ value: UInt32) { node.content = .scalar(.unsigned(UInt64(value))) }
    func encode(_ value: UInt64) { node.content = .scalar(.unsigned(value)) }
    func encode<T: Encodable>(_ value: T) throws { try node.encode(value, codingPath: codingPath) }
}

struct KeyedFallbackEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: FallbackNode
    let codingPath: [any CodingKey]

    func encodeNil(forKey key: Key) { node.child(forKey: key.stringValue).content = .scalar(.null) }

    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try node.child(forKey: key.stringValue).encode(value, codingPath: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        FallbackEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        FallbackEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superEncoder() -> any Encoder {
        FallbackEncoder(node: node.child(forKey: FallbackDecoder.superKey.stringValue), codingPath: codingPath + [FallbackDecoder.superKey])
    }

    func superEncoder(forKey key: Key) -> any Encoder {
        FallbackEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
    }
}

struct UnkeyedFallbackEncoder: UnkeyedEncodingContainer {
    let node: FallbackNode
    let codingPath: [any CodingKey]

    var count: Int {
        if case .unkeyed(let elements) = node.content { return elements.count }
        return 0
    }

    private var nextPath: [any CodingKey] { codingPath + [FallbackDecoder.IndexKey(count)] }

    func encodeNil() { node.appendedChild().content = .scalar(.null) }

    func encode<T: Encodable>(_ value: T) throws {
        let path = nextPath
        try node.appendedChild().encode(value, codingPath: path)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = nextPath
        return FallbackEncoder(node: node.appendedChild(), codingPath: path).container(keyedBy: keyType)
    }

    func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = nextPath
        return FallbackEncoder(node: node.appendedChild(), codingPath: path).unkeyedContainer()
    }

    func superEncoder() -> any Encoder {
        let path = nextPath
        return FallbackEncoder(node: node.appendedChild(), codingPath: path)
    }
}

// MARK: Decoding

/// A value that is not a container, as the fallback writes it after its tag.
enum FallbackScalar {
    case null
    case bool(Bool)
    case signed(Int64)
    case unsigned(UInt64)
    case float(Float)
    case double(Double)
    case string(String)

    func write(to writer: inout JournalWriter) {
        switch self {
        case .null: writer.bytes.append(FallbackTag.null.rawValue)
        case .bool(let value): writer.bytes.append((value ? FallbackTag.true : .false).rawValue)
        case .signed(let value):
            writer.bytes.append(FallbackTag.signed.rawValue)
            writer.writeSigned(value)
        case .unsigned(let value):
            writer.bytes.append(FallbackTag.unsigned.rawValue)
            writer.writeVarint(value)
        case .float(let value):
            writer.bytes.append(FallbackTag.float.rawValue)
            value.encode(to: &writer)
        case .double(let value):
            writer.bytes.append(FallbackTag.double.rawValue)
            value.encode(to: &writer)
        case .string(let value):
            writer.bytes.append(FallbackTag.string.rawValue)
            value.encode(to: &writer)
        }
    }
}

/// A value of the fallback's tree, as read from the bytes.
indirect enum FallbackValue {
    case scalar(FallbackScalar)
    case keyed([String: FallbackValue])
    case unkeyed([FallbackValue])

    /// How deep containers may nest: deeper bytes are refused rather than read by recursion
    /// that could exhaust the stack.
    static let maximumDepth = 256

    /// Reads one value, its tag first.
    init(from reader: inout JournalReader, depth: Int) throws(JournalDecodingError) {
        let start = reader.offset
        guard depth < Self.maximumDepth else {
            throw .invalid(offset: start, reason: "Codable containers nested deeper than \(Self.maximumDepth) levels")
        }
        guard let tag = FallbackTag(rawValue: try reader.readByte()) else {
            throw .invalid(offset: start, reason: "tag \(reader.bytes[start]) of a Codable value (0 to \(FallbackTag.unkeyed.rawValue))")
        }
        switch tag {
        case .null: self = .scalar(.null)
        case .false: self = .scalar(.bool(false))
        case .true: self = .scalar(.bool(true))
        case .signed: self = .scalar(.signed(try reader.readSigned()))
        case .unsigned: self = .scalar(.unsigned(try reader.readVarint()))
        case .float: self = .scalar(.float(try Float(from: &reader)))
        case .double: self = .scalar(.double(try Double(from: &reader)))
        case .string: self = .scalar(.string(try String(from: &reader)))
        case .keyed:
            let count = try reader.readCount()
            var entries: [String: FallbackValue] = [:]
            for _ in 0..<count {
                let keyStart = reader.offset
                let key = try String(from: &reader)
                guard entries.updateValue(try FallbackValue(from: &reader, depth: depth + 1), forKey: key) == nil else {
                    throw .invalid(offset: keyStart, reason: "a Codable container with the key '\(key)' written twice")
                }
            }
            self = .keyed(entries)
        case .unkeyed:
            let count = try reader.readCount()
            var elements: [FallbackValue] = []
            elements.reserveCapacity(count)
            for _ in 0..<count { elements.append(try FallbackValue(from: &reader, depth: depth + 1)) }
            self = .unkeyed(elements)
        }
    }

    /// What the value is, for "expected ..., found ..." messages.
    var kind: String {
        switch self {
        case .scalar(.null): "nil"
        case .scalar(.bool): "a Bool"
        case .scalar(.signed), .scalar(.unsigned): "an integer"
        case .scalar(.float): "a Float"
        case .scalar(.double): "a Double"
        case .scalar(.string): "a String"
        case .keyed: "a keyed container"
        case .unkeyed: "an unkeyed container"
        }
    }
}

/// The `Decoder` handed to a `Decodable` type; also its single-value container.
struct FallbackDecoder: Decoder, SingleValueDecodingContainer {
    let value: FallbackValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The key `superEncoder()` writes under, as Foundation's encoders do.
    static let superKey = IndexKey(stringValue: "super")

    /// A position in an unkeyed container, in coding paths.
    struct IndexKey: CodingKey {
        let stringValue: String
        let intValue: Int?
        init(_ index: Int) {
            stringValue = "\(index)"
            intValue = index
        }
        init(stringValue: String) {
            self.stringValue = stringValue
            intValue = nil
        }
        init?(intValue: Int) { self.init(intValue) }
    }

    func mismatch(_ expected: Any.Type) -> DecodingError {
        .typeMismatch(expected, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.kind)"))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .keyed(let entries) = value else { throw mismatch([String: Any].self) }
        return KeyedDecodingContainer(KeyedFallbackDecoder(entries: entries, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .unkeyed(let elements) = value else { throw mismatch([Any].self) }
        return UnkeyedFallbackDecoder(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool {
        if case .scalar(.null) = value { return true }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .scalar(.bool(let bool)) = value else { throw mismatch(type) }
        return bool
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .scalar(.string(let string)) = value else { throw mismatch(type) }
        return string
    }

    func decode(_ type: Double.Type) throws -> Double {
        guard case .scalar(.double(let double)) = value else { throw mismatch(type) }
        return double
    }

    func decode(_ type: Float.Type) throws -> Float {
        guard case .scalar(.float(let float)) = value else { throw mismatch(type) }
        return float
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: self) }

    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let converted: T? = switch value {
        case .scalar(.signed(let integer)): T(exactly: integer)
        case .scalar(.unsigned(let integer)): T(exactly: integer)
        default: nil
        }
        guard let converted else { throw mismatch(type) }
        return converted
    }

    /// A decoding error in words: what was wrong, and at which coding path.
    static func describe(_ error: any Error) -> String {
        let context: DecodingError.Context
        switch error as? DecodingError {
        case .typeMismatch(_, let found), .valueNotFound(_, let found), .keyNotFound(_, let found), .dataCorrupted(let found): context = found
        default: return "\(error)"
        }
        let path = context.codingPath.map(\.stringValue).joined(separator: ".")
        return path.isEmpty ? context.debugDescription : "\(context.debugDescription) at '\(path)'"
    }
}

struct KeyedFallbackDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let entries: [String: FallbackValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { entries.keys.compactMap(Key.init(stringValue:)) }

    func contains(_ key: Key) -> Bool { entries[key.stringValue] != nil }

    private func decoder(_ key: any CodingKey) throws -> FallbackDecoder {
        guard let value = entries[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no value for the key '\(key.stringValue)'"))
        }
        return FallbackDecoder(value: value, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { try decoder(key).decodeNil() }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try T(from: decoder(key)) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try decoder(key).unkeyedContainer() }

    func superDecoder() throws -> any Decoder { try decoder(FallbackDecoder.superKey) }

    func superDecoder(forKey key: Key) throws -> any Decoder { try decoder(key) }
}

struct UnkeyedFallbackDecoder: UnkeyedDecodingContainer {
    let elements: [FallbackValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(elements: [FallbackValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The decoder of the next element, moving past it.
    private mutating func next(_ type: Any.Type) throws -> FallbackDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "the unkeyed container has only \(elements.count) elements"))
        }
        defer { currentIndex += 1 }
        return FallbackDecoder(value: elements[currentIndex], codingPath: codingPath + [FallbackDecoder.IndexKey(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, case .scalar(.null) = elements[currentIndex] else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: next(type)) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next([String: Any].self).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next([Any].self).unkeyedContainer() }

    mutating func superDecoder() throws -> any Decoder { try next(Any.self) }
}
