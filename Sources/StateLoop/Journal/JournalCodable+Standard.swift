// JournalCodable+Standard: the standard library's types in the journal's binary form.
// Integers are varints (signed ones zigzagged), except the one-byte ones, which are their byte;
// floating-point numbers are their bit pattern, little-endian; collections write their count
// first; a `Set`'s and a `Dictionary`'s elements are written in the order of their bytes (D22).

// MARK: Integers

extension Int: JournalCodable {
    @inlinable public func encode(to writer: inout JournalWriter) { writer.writeSigned(Int64(self)) }
    @inlinable public init(from reader: inout JournalReader) throws(JournalDecodingError) { self = try reader.readSigned(Int.self) }
}

extension Int64: JournalCodable {
    @inlinable public func encode(to writer: inout JournalWriter) { writer.writeSigned(self) }
    @inlinable public init(from reader: inout JournalReader) throws(JournalDecodingError) { self = try reader.readSigned() }
}

extension Int32: JournalCodable {
    @inlinable public func encode(to writer: inout JournalWriter) { writer.writeSigned(Int64(self)) }
    @inlinable public init(from reader: inout JournalReader) throws(JournalDecodingError) { self = try reader.readSigned(Int32.self) }
}

extension Int16: JournalCodable {
    @inlinable public func encode(to writer: inout JournalWriter) { writer.writeSigned(Int64(self)) }
    @inlinable public init(from reader: inout JournalReader) throws(JournalDecodingError) { self = try reader.readSigned(Int16.self) }
}

extension Int8: JournalCodable {
    @inlinable public func encode(to writer: inout JournalWriter) { writer.bytes.append(UInt8(bitPattern: self)) }
    @inlinable public init(from reader: inout JournalReader) throws(JournalDecodingError) { self = Int8(bitPattern: try reader.readByte()) }
}

extension UInt: JournalCodable {
    @inlinable public func encode(to writer: inout JournalWriter) { writer.writeVarint(UInt64(self)) }
    @inlinable public init(from reader: inout JournalReader) throws(JournalDecodingError) { self = try reader.readUnsigned(UInt.self) }
}

extension UInt64: JournalCodable {
    @inlinable public func encode(to writer: inout JournalWriter) { writer.writeVarint(self) }
    @inlinable public init(from reader: inout JournalReader) throws(JournalDecodingError) { self = try reader.readVarint() }
}

extension UInt32: JournalCodable {
    @inlinable public func encode(to writer: inout JournalWriter) { writer.writeVarint(UInt64(self)) }
    @inlinable public init(from reader: inout JournalReader) throws(JournalDecodingError) { self = try reader.readUnsigned(UInt32.self) }
}

extension UInt16: JournalCodable {
    @inlinable public func encode(to writer: inout JournalWriter) { writer.writeVarint(UInt64(self)) }
    @inlinable public init(from reader: inout JournalReader) throws(JournalDecodingError) { self = try reader.readUnsigned(UInt16.self) }
}

extension UInt8: JournalCodable {
    @inlinable public func encode(to writer: inout JournalWriter) { writer.bytes.append(self) }
    @inlinable public init(from reader: inout JournalReader) throws(JournalDecodingError) { self = try reader.readByte() }
}

extension Bool: JournalCodable {
    @inlinable public func encode(to writer: inout JournalWriter) { writer.bytes.append(self ? 1 : 0) }
    @inlinable public init(from reader: inout JournalReader) throws(JournalDecodingError) {
        self = try reader.readCase(below: 2) == 1
    }
}

// MARK: Floating point

extension Double: JournalCodable {
    @inlinable public func encode(to writer: inout JournalWriter) { writer.writeFixed(bitPattern) }
    @inlinable public init(from reader: inout JournalReader) throws(JournalDecodingError) {
        self = Double(bitPattern: try reader.readFixed(UInt64.self))
    }
}

extension Float: JournalCodable {
    @inlinable public func encode(to writer: inout JournalWriter) { writer.writeFixed(bitPattern) }
    @inlinable public init(from reader: inout JournalReader) throws(JournalDecodingError) {
        self = Float(bitPattern: try reader.readFixed(UInt32.self))
    }
}

// MARK: Text and time

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

// MARK: Collections

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
        let count = try reader.readCount()
        self = []
        reserveCapacity(count)
        for _ in 0..<count { append(try Element(from: &reader)) }
    }
}

extension ContiguousArray: JournalCodable where Element: JournalCodable {
    @inlinable public func encode(to writer: inout JournalWriter) {
        writer.writeVarint(UInt64(count))
        for element in self { element.encode(to: &writer) }
    }
    @inlinable public init(from reader: inout JournalReader) throws(JournalDecodingError) {
        let count = try reader.readCount()
        self = []
        reserveCapacity(count)
        for _ in 0..<count { append(try Element(from: &reader)) }
    }
}

extension Set: JournalCodable where Element: JournalCodable {
    /// The elements in the order of their bytes, so that equal sets give equal bytes in every
    /// process (a set's own order follows its per-process hash seed).
    public func encode(to writer: inout JournalWriter) {
        writer.writeSortedEntries(map { element in
            var entry = JournalWriter(capacity: 16)
            element.encode(to: &entry)
            return entry.bytes
        })
    }
    public init(from reader: inout JournalReader) throws(JournalDecodingError) {
        let count = try reader.readCount()
        self = []
        reserveCapacity(count)
        for _ in 0..<count {
            let start = reader.offset
            guard insert(try Element(from: &reader)).inserted else {
                throw .invalid(offset: start, reason: "a set with an element written twice")
            }
        }
    }
}

extension Dictionary: JournalCodable where Key: JournalCodable, Value: JournalCodable {
    /// The entries in the order of their keys' bytes (keys are unique, so their bytes are), so
    /// that equal dictionaries give equal bytes in every process.
    public func encode(to writer: inout JournalWriter) {
        writer.writeSortedEntries(map { key, value in
            var entry = JournalWriter(capacity: 16)
            key.encode(to: &entry)
            value.encode(to: &entry)
            return entry.bytes
        })
    }
    public init(from reader: inout JournalReader) throws(JournalDecodingError) {
        let count = try reader.readCount()
        self = [:]
        reserveCapacity(count)
        for _ in 0..<count {
            let start = reader.offset
            let key = try Key(from: &reader)
            guard updateValue(try Value(from: &reader), forKey: key) == nil else {
                throw .invalid(offset: start, reason: "a dictionary with a key written twice")
            }
        }
    }
}
