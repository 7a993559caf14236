// JournalCoding: the compact binary form of the values a durable machine journals
// (Docs/Durability.md). Generated `State`, `Event` and their parts conform when a spec persists;
// the standard types below conform here.
//
// Invariants:
// - The encoding is canonical: equal values give equal bytes, in every process (a `Set`'s or a
//   `Dictionary`'s elements are written in the order of their encoded bytes, not in the order of
//   their process-seeded hash), so a digest of the bytes is stable and two snapshots compare by
//   their bytes (D22). Floating-point numbers are written bit for bit: `0.0` and `-0.0` differ.
// - A type that conforms is written in this encoding; a `Codable` type that does not goes through
//   the fallback of JournalCodingFallback.swift, chosen by overload at compile time (D23).
// - Reading never traps: truncated or malformed bytes throw `JournalDecodingError` with the offset.

/// A value a durable machine's journal can hold: written to and read back from compact bytes.
///
/// Generated machines conform their `State`, `Event`, modes, runs and timer records when their
/// spec persists; a `context:` type that is not one of the standard types below is written with
/// its `Codable` conformance.
public protocol JournalCodable {
    /// Appends this value's bytes to `writer`.
    func encode(to writer: inout JournalWriter)
    /// Reads a value written by ``encode(to:)`` from `reader`, advancing it past the value.
    init(from reader: inout JournalReader) throws(JournalDecodingError)
}

/// Why bytes could not be read back as a value.
public enum JournalDecodingError: Error, Equatable, CustomStringConvertible {
    /// The bytes ended before the value did.
    case truncated(offset: Int)
    /// The bytes at `offset` are not a value of the expected type: `reason` says what was found.
    case invalid(offset: Int, reason: String)

    public var description: String {
        switch self {
        case .truncated(let offset): "journal bytes end at offset \(offset) in the middle of a value"
        case let .invalid(offset, reason): "journal bytes at offset \(offset) are not valid: \(reason)"
        }
    }
}

/// Appends values to a byte buffer: integers as LEB128 varints (signed ones zigzagged), strings
/// and byte runs with their length first.
public struct JournalWriter: Sendable {
    /// The bytes written so far.
    public var bytes: [UInt8]

    /// An empty writer; `capacity` reserves room up front.
    @inlinable
    public init(capacity: Int = 64) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Writes `value` as an unsigned LEB128 varint (1 byte below 128).
    @inlinable
    public mutating func writeVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// Writes `value` zigzagged, so that small negative numbers are short too.
    @inlinable
    public mutating func writeSigned(_ value: Int64) {
        writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// Writes the length of `raw`, then `raw`.
    @inlinable
    public mutating func writeBytes(_ raw: some Collection<UInt8>) {
        writeVarint(UInt64(raw.count))
        bytes.append(contentsOf: raw)
    }

    /// Writes `value`'s bytes little-endian, at their full width (floating-point bit patterns).
    @inlinable
    public mutating func writeFixed<T: FixedWidthInteger & UnsignedInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Writes the count of `entries`, then each entry in the order of its bytes: how a `Set` or a
    /// `Dictionary` is written the same in every process (D22).
    @inlinable
    public mutating func writeSortedEntries(_ entries: [[UInt8]]) {
        writeVarint(UInt64(entries.count))
        for entry in entries.sorted(by: { $0.lexicographicallyPrecedes($1) }) { bytes.append(contentsOf: entry) }
    }

    /// Writes `value` (the spelling generated code uses for every field): the journal's own
    /// encoding, which Swift picks over the `Codable` fallback whenever `T` conforms (D23).
    @inlinable
    public mutating func write<T: JournalCodable>(_ value: T) {
        value.encode(to: &self)
    }

    /// Writes `value`, a type that is both `JournalCodable` and `Encodable`, in the journal's own
    /// encoding: the overload that makes the choice unambiguous (D23).
    @inlinable
    public mutating func write<T: JournalCodable & Encodable>(_ value: T) {
        value.encode(to: &self)
    }
}

/// Reads values back from bytes written by a ``JournalWriter``.
public struct JournalReader {
    /// The bytes being read.
    public let bytes: [UInt8]
    /// Where the next value starts.
    public var offset: Int

    /// A reader at the start of `bytes`.
    @inlinable
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        offset = 0
    }

    /// True once every byte was read.
    @inlinable
    public var isAtEnd: Bool { offset >= bytes.count }

    /// Reads an unsigned LEB128 varint.
    @inlinable
    public mutating func readVarint() throws(JournalDecodingError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        let start = offset
        while true {
            guard offset < bytes.count else { throw .truncated(offset: offset) }
            let byte = bytes[offset]
            offset += 1
            guard shift < 64, shift < 63 || byte <= 1 else {
                throw .invalid(offset: start, reason: "a varint longer than 64 bits")
            }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
    }

    /// Reads a zigzagged signed integer.
    @inlinable
    public mutating func readSigned() throws(JournalDecodingError) -> Int64 {
        let raw = try readVarint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    /// Reads a zigzagged signed integer that must fit `T`.
    @inlinable
    public mutating func readSigned<T: FixedWidthInteger & SignedInteger>(_: T.Type) throws(JournalDecodingError) -> T {
        let start = offset
        guard let value = T(exactly: try readSigned()) else {
            offset = start
            throw .invalid(offset: start, reason: "an integer too large for \(T.self)")
        }
        return value
    }

    /// Reads an unsigned varint that must fit `T`.
    @inlinable
    public mutating func readUnsigned<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) throws(JournalDecodingError) -> T {
        let start = offset
        guard let value = T(exactly: try readVarint()) else {
            offset = start
            throw .invalid(offset: start, reason: "an integer too large for \(T.self)")
        }
        return value
    }

    /// Reads one byte.
    @inlinable
    public mutating func readByte() throws(JournalDecodingError) -> UInt8 {
        guard offset < bytes.count else { throw .truncated(offset: offset) }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Reads a value written by ``JournalWriter/writeFixed(_:)``.
    @inlinable
    public mutating func readFixed<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) throws(JournalDecodingError) -> T {
        let width = MemoryLayout<T>.size
        guard bytes.count - offset >= width else { throw .truncated(offset: offset) }
        var value: T = 0
        for index in 0..<width { value |= T(bytes[offset + index]) << (8 * index) }
        offset += width
        return value
    }

    /// Reads the element count of a collection. Every element takes at least one byte, so a
    /// count above the bytes left is corrupt, not a huge collection (and is never allocated).
    @inlinable
    public mutating func readCount() throws(JournalDecodingError) -> Int {
        let start = offset
        let count = try readVarint()
        let left = bytes.count - offset
        guard count <= UInt64(left) else {
            offset = start
            throw .invalid(offset: start, reason: "a collection of \(count) elements in \(left) bytes")
        }
        return Int(count)
    }

    /// Reads a length-prefixed run of bytes.
    @inlinable
    public mutating func readBytes() throws(JournalDecodingError) -> ArraySlice<UInt8> {
        let start = offset
        let count = try readVarint()
        guard count <= UInt64(bytes.count - offset) else {
            offset = start
            throw .truncated(offset: start)
        }
        let end = offset + Int(count)
        defer { offset = end }
        return bytes[offset..<end]
    }

    /// Reads a case number below `count` (an enum's discriminator).
    @inlinable
    public mutating func readCase(below count: Int) throws(JournalDecodingError) -> Int {
        let start = offset
        let raw = try readVarint()
        guard raw < UInt64(count) else {
            throw .invalid(offset: start, reason: "case \(raw) of a type with \(count) cases")
        }
        return Int(raw)
    }

    /// Reads a value of type `T` (the spelling generated code uses for every field): the
    /// journal's own encoding, which Swift picks over the `Codable` fallback whenever `T`
    /// conforms (D23).
    @inlinable
    public mutating func read<T: JournalCodable>(_: T.Type = T.self) throws(JournalDecodingError) -> T {
        try T(from: &self)
    }

    /// Reads a value of a type that is both `JournalCodable` and `Decodable` in the journal's
    /// own encoding: the overload that makes the choice unambiguous (D23).
    @inlinable
    public mutating func read<T: JournalCodable & Decodable>(_: T.Type = T.self) throws(JournalDecodingError) -> T {
        try T(from: &self)
    }
}
