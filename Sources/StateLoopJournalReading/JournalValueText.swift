// JournalValueText: a persisted machine's journal bytes read back as text, with the layout the
// generator prints the machine's journal coding from (`JournalLayout`, Docs/Durability.md D84):
// `stateloop journal --spec` and `stateloop inspect --journal` never re-derive the encoding, so it reads what the generated code
// writes. Spec types are recognised by their spelling: the standard library's scalars, strings
// and `Duration`, and optionals, arrays, sets and dictionaries of them, are read in the
// journal's own encoding (JournalCodable+Standard.swift); any other type (`Money`, `URL?`, an
// array of `Date`) was written through the `Codable` fallback (D23), whose tagged tree is stepped
// over and shown as its byte count.
import StateLoop
import StateLoopCodegen
import StateLoopSpec

public struct JournalValueText: Sendable {
    /// Why a value could not be read.
    public enum Failure: Error {
        /// The bytes are not a value of the type (damaged, or another spec wrote them).
        case unreadable(JournalDecodingError)
        /// An event of a child machine whose spec was not found: the bytes after it cannot be read.
        case childNotLoaded(String)
    }

    /// The layout the values are read with.
    public let layout: JournalLayout
    /// The layouts of the child machines, by machine name: a forwarded event is one of theirs.
    public let children: [String: JournalLayout]
    /// The names whose values print `<redacted>`: the spec's and its children's `redact: true`
    /// fields (`JournalLayouts.redacted`), as fields or payload labels at any depth, as the app's
    /// dumps print them (Docs/Inspector.md I22, I70).
    public let redacting: Set<String>

    /// Reads values with `layout`, a forwarded event with its machine's of `children`, and prints
    /// the values named in `redacting` as `<redacted>`; no caller may forget it, hence no default.
    public init(layout: JournalLayout, children: [String: JournalLayout], redacting: Set<String>) {
        self.layout = layout
        self.children = children
        self.redacting = redacting
    }

    /// The text of one value of `value`'s type, read from `reader`.
    public func text(_ value: JournalLayout.Value, from reader: inout JournalReader) throws(Failure) -> String {
        switch value {
        case .spec(let written, _), .standard(let written):
            guard let type = StandardType(written) else {
                do {
                    return "<\(try reader.skipFallbackValue()) bytes>"
                } catch {
                    throw .unreadable(error)
                }
            }
            return try type.text(from: &reader)
        case .generated(let name):
            return try text(ofType: name, from: &reader)
        case .childEvent(let machine):
            guard let child = children[machine] else { throw .childNotLoaded(machine + "." + GeneratedNames.event) }
            return try JournalValueText(layout: child, children: children, redacting: redacting).text(ofType: GeneratedNames.event, from: &reader)
        case .optional(let wrapped):
            return try Self.unreadable { () throws(JournalDecodingError) in try reader.readCase(below: 2) } == 0
                ? "nil" : try text(wrapped, from: &reader)
        case .array(let element):
            let count = try Self.unreadable { () throws(JournalDecodingError) in try reader.readCount() }
            var elements: [String] = []
            for _ in 0..<count { elements.append(try text(element, from: &reader)) }
            return "[" + elements.joined(separator: ", ") + "]"
        }
    }

    /// The text of a value of the layout's type `name`: `case(payload)` or `(field: value, ...)`.
    public func text(ofType name: String, from reader: inout JournalReader) throws(Failure) -> String {
        switch layout[name] {
        case .enumeration(let cases):
            let index = try Self.unreadable { () throws(JournalDecodingError) in try reader.readCase(below: cases.count) }
            let chosen = cases[index]
            guard !chosen.payload.isEmpty else { return chosen.name }
            // A state holding a struct of regions prints them as its own: `working(books: idle, checks: quiet)`.
            if chosen.payload.count == 1, chosen.payload[0].name.isEmpty, case .generated(let inner) = chosen.payload[0].value,
               case .structure = layout[inner] {
                return chosen.name + (try text(ofType: inner, from: &reader))
            }
            return chosen.name + "(" + (try fields(chosen.payload, from: &reader)) + ")"
        case .structure(let properties):
            return "(" + (try fields(properties, from: &reader)) + ")"
        case nil:
            // The layout names only its own types (MachineContextBuilder+Journal).
            throw .unreadable(.invalid(offset: reader.offset, reason: "a value of \(name), which the layout does not describe"))
        }
    }

    private func fields(_ fields: [JournalLayout.Field], from reader: inout JournalReader) throws(Failure) -> String {
        var texts: [String] = []
        for field in fields {
            texts.append((field.name.isEmpty ? "" : field.name + ": ") + (try text(of: field, from: &reader)))
        }
        return texts.joined(separator: ", ")
    }

    /// The state read from `reader` (the machine's `State`, its bookkeeping stepped over): its
    /// `mode` and each context field, by name, in order.
    public func stateFields(from reader: inout JournalReader) throws(Failure) -> [(name: String, text: String)] {
        guard case .structure(let fields) = layout[GeneratedNames.state] else {
            throw .unreadable(.invalid(offset: reader.offset, reason: "a state, which the layout does not describe"))
        }
        var shown: [(name: String, text: String)] = []
        for field in fields {
            let value = try text(of: field, from: &reader)
            // The mode and the context fields: the rest is the generated code's own bookkeeping.
            if field.name == "mode" {
                shown.append((field.name, value))
            } else if case .spec = field.value {
                shown.append((field.name, value))
            }
        }
        return shown
    }

    /// The text of `field`'s value, read from `reader` even when it is redacted (the bytes after
    /// it are the next value's).
    private func text(of field: JournalLayout.Field, from reader: inout JournalReader) throws(Failure) -> String {
        let value = try text(field.value, from: &reader)
        return redacting.contains(field.name) ? ValueDump.redacted : value
    }

    public static func unreadable<T>(_ body: () throws(JournalDecodingError) -> T) throws(Failure) -> T {
        do {
            return try body()
        } catch {
            throw .unreadable(error)
        }
    }
}

/// A type the journal writes in its own encoding, as the spec spells it (`Int`, `[String: Int]`,
/// `Set<UInt8>`, `Duration?`); `nil` for any other spelling.
indirect enum StandardType {
    case signed(bits: Int), unsigned(bits: Int), bool, double, float, string, duration
    case optional(StandardType), array(StandardType), set(StandardType), dictionary(StandardType, StandardType)

    init?(_ written: String) {
        var name = written.filter { !$0.isWhitespace }[...]
        if name.hasPrefix("Swift.") { name = name.dropFirst(6) }
        if name.hasSuffix("?") {
            guard let wrapped = StandardType(String(name.dropLast())) else { return nil }
            self = .optional(wrapped)
            return
        }
        if name.hasPrefix("["), name.hasSuffix("]") {
            let inner = name.dropFirst().dropLast()
            if let colon = Self.topLevel(":", in: inner) {
                guard let key = StandardType(String(inner[..<colon])), let value = StandardType(String(inner[inner.index(after: colon)...])) else { return nil }
                self = .dictionary(key, value)
            } else {
                guard let element = StandardType(String(inner)) else { return nil }
                self = .array(element)
            }
            return
        }
        if let open = name.firstIndex(of: "<"), name.hasSuffix(">") {
            let arguments = name[name.index(after: open)..<name.index(before: name.endIndex)]
            switch name[..<open] {
            case "Optional": guard let wrapped = StandardType(String(arguments)) else { return nil }; self = .optional(wrapped)
            case "Array", "ContiguousArray": guard let element = StandardType(String(arguments)) else { return nil }; self = .array(element)
            case "Set": guard let element = StandardType(String(arguments)) else { return nil }; self = .set(element)
            case "Dictionary":
                guard let comma = Self.topLevel(",", in: arguments), let key = StandardType(String(arguments[..<comma])),
                      let value = StandardType(String(arguments[arguments.index(after: comma)...])) else { return nil }
                self = .dictionary(key, value)
            default: return nil
            }
            return
        }
        switch name {
        case "Int", "Int64": self = .signed(bits: 64)
        case "Int32": self = .signed(bits: 32)
        case "Int16": self = .signed(bits: 16)
        case "Int8": self = .signed(bits: 8)
        case "UInt", "UInt64": self = .unsigned(bits: 64)
        case "UInt32": self = .unsigned(bits: 32)
        case "UInt16": self = .unsigned(bits: 16)
        case "UInt8": self = .unsigned(bits: 8)
        case "Bool": self = .bool
        case "Double": self = .double
        case "Float": self = .float
        case "String": self = .string
        case "Duration": self = .duration
        default: return nil
        }
    }

    /// The first `separator` outside brackets in `text`.
    private static func topLevel(_ separator: Character, in text: Substring) -> Substring.Index? {
        var depth = 0
        for index in text.indices {
            switch text[index] {
            case "[", "<", "(": depth += 1
            case "]", ">", ")": depth -= 1
            case separator where depth == 0: return index
            default: break
            }
        }
        return nil
    }

    /// Reads a value of this type, as its `JournalCodable` conformance does, and prints it as Swift would.
    func text(from reader: inout JournalReader) throws(JournalValueText.Failure) -> String {
        try JournalValueText.unreadable { () throws(JournalDecodingError) in try read(&reader) }
    }

    private func read(_ reader: inout JournalReader) throws(JournalDecodingError) -> String {
        switch self {
        case .signed(let bits):
            switch bits {
            case 8: return "\(try reader.read(Int8.self))"
            case 16: return "\(try reader.read(Int16.self))"
            case 32: return "\(try reader.read(Int32.self))"
            default: return "\(try reader.read(Int64.self))"
            }
        case .unsigned(let bits):
            switch bits {
            case 8: return "\(try reader.read(UInt8.self))"
            case 16: return "\(try reader.read(UInt16.self))"
            case 32: return "\(try reader.read(UInt32.self))"
            default: return "\(try reader.read(UInt64.self))"
            }
        case .bool: return "\(try reader.read(Bool.self))"
        case .double: return "\(try reader.read(Double.self))"
        case .float: return "\(try reader.read(Float.self))"
        case .string: return String(reflecting: try reader.read(String.self))
        case .duration: return "\(try reader.read(Duration.self))"
        case .optional(let wrapped): return try reader.readCase(below: 2) == 0 ? "nil" : try wrapped.read(&reader)
        case .array(let element), .set(let element):
            var elements: [String] = []
            for _ in 0..<(try reader.readCount()) { elements.append(try element.read(&reader)) }
            return "[" + elements.joined(separator: ", ") + "]"
        case .dictionary(let key, let value):
            var entries: [String] = []
            for _ in 0..<(try reader.readCount()) { entries.append(try key.read(&reader) + ": " + (try value.read(&reader))) }
            return entries.isEmpty ? "[:]" : "[" + entries.joined(separator: ", ") + "]"
        }
    }
}
