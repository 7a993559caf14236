// JournalCodable+Standard: the standard library's types in the journal's binary form.

extension Int: JournalCodable {
    @inlinable public func encode(to writer: inout JournalWriter) { writer.writeSigned(Int64(self)) }
    @inlinable public init(from reader: inout JournalReader) throws(JournalDecodingError) {
        let start = reader.offset
        guard let value = Int(exactly: try reader.readSigned()) else {
            throw .invalid(offset: start, reason: "an integer too large for Int")
        }
        self = value
    }
}

extension Int64: JournalCodable {
    @inlinable public func encode(to writer: inout JournalWriter) { writer.writeSigned(self) }
    @inlinable public init(from reader: inout JournalReader) throws(JournalDecodingError) { self = try reader.readSigned() }
}

extension UInt64: JournalCodable {
    @inlinable public func encode(to writer: inout JournalWriter) { writer.writeVarint(self) }
    @inlinable public init(from reader: inout JournalReader) throws(JournalDecodingError) { self = try reader.readVarint() }
}

extension Bool: JournalCodable {
    @inlinable public func encode(to writer: inout JournalWriter) { writer.bytes.append(self ? 1 : 0) }
    @inlinable public init(from reader: inout JournalReader) throws(JournalDecodingError) {
        self = try reader.readCase(below: 2) == 1
    }
}

extension Double: JournalCodable {
    @inlinable public func encode(to writer: inout JournalWriter) {
        withUnsafeBytes(of: bitPattern.littleEndian) { writer.bytes.append(contentsOf: $0) }
    }
    @inlinable public init(from reader: inout JournalReader) throws(JournalDecodingError) {
        guard reader.bytes.count - reader.offset >= 8 else { throw .truncated(offset: reader.offset) }
        var bits: UInt64 = 0
        for index in 0..<8 { bits |= UInt64(reader.bytes[reader.offset + index]) << (8 * UInt64(index)) }
        reader.offset += 8
        self = Double(bitPattern: bits)
    }
}

extension String: JournalCodable {
    @inlinable public func encode(to writer: inout JournalWriter) {
        var copy = self
        copy.withUTF8 { writer.writeBytes($0) }
    }
    @inlinable public init(from reader: inout JournalReader) throws(JournalDecodingError) {
        let start = reader.offset
        let raw = try reader.readBytes()
        guard let value = String(validating: raw, as: UTF8.self) else {
            throw .invalid(offset: start, reason: "a string that is not UTF-8")
        }
        self = value
    }
}

extension Duration: JournalCodable {
    @inlinable public func encode(to writer: inout JournalWriter) {
        writer.writeSigned(components.seconds)
        writer.writeSigned(components.attoseconds)
    }
    @inlinable public init(from reader: inout JournalReader) throws(JournalDecodingError) {
        self.init(secondsComponent: try reader.readSigned(), attosecondsComponent: try reader.readSigned())
    }
}

extension Optional: JournalCodable where Wrapped: JournalCodable {
    @inlinable public func encode(to writer: inout JournalWriter) {
        switch self {
        case .none: writer.bytes.append(0)
        case .some(let value):
            writer.bytes.append(1)
            value.encode(to: &writer)
        }
    }
    @inlinable public init(from reader: inout JournalReader) throws(JournalDecodingError) {
        self = try reader.readCase(below: 2) == 0 ? nil : try Wrapped(from: &reader)
    }
}

extension Array: JournalCodable where Element: JournalCodable {
    @inlinable public func encode(to writer: inout JournalWriter) {
        writer.writeVarint(UInt64(count))
        for element in self { element.encode(to: &writer) }
    }
    @inlinable public init(from reader: inout JournalReader) throws(JournalDecodingError) {
        let start = reader.offset
        let count = try reader.readVarint()
        // Every element takes at least one byte: a larger count is corrupt, not a huge array.
        guard count <= UInt64(reader.bytes.count - reader.offset) else {
            throw .invalid(offset: start, reason: "an array of \(count) elements in \(reader.bytes.count - reader.offset) bytes")
        }
        self = []
        reserveCapacity(Int(count))
        for _ in 0..<count { append(try Element(from: &reader)) }
    }
}
