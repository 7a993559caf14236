// The wire of Docs/Inspector.md: one JSON object per WebSocket text frame, with a "type".

import Foundation
import StateLoopInspector

/// One message of an app (or of a journal read offline), as the inspector keeps it: the JSON
/// object and the facts the store and the exporter read from it.
public struct InspectorMessage: @unchecked Sendable {
    /// The object as received, with what the inspector adds (a step's `diff`). Only JSON values
    /// (strings, numbers, arrays, dictionaries, `NSNull`), so it is safe to share.
    public private(set) var object: [String: Any]

    public var type: String { object["type"] as? String ?? "" }
    public var instance: String { object["instance"] as? String ?? "" }
    public var seq: Int? { (object["seq"] as? NSNumber)?.intValue }

    /// The text it was read from, and the keys set since, which `json` writes after that text.
    private var text: Substring?
    private var added: [String] = []

    /// The message in `text`, or a reason it is not one: not JSON, not an object, no `type` or `instance`.
    public init(text: String) throws(InspectorError) {
        guard let parsed = try? JSONSerialization.jsonObject(with: Data(text.utf8)), let object = parsed as? [String: Any] else {
            throw .badMessage("not a JSON object: \(text.prefix(120))")
        }
        try self.init(object: object)
        var end = text.endIndex
        while end > text.startIndex, text[text.index(before: end)].isWhitespace { end = text.index(before: end) }
        self.text = text[..<end]
    }

    public init(object: [String: Any]) throws(InspectorError) {
        guard object["type"] is String else { throw .badMessage("a message without a \"type\"") }
        guard object["instance"] is String else { throw .badMessage("a \(object["type"]!) message without an \"instance\"") }
        self.object = object
    }

    /// A string field.
    public subscript(key: String) -> String? { object[key] as? String }

    /// A number field.
    public func number(_ key: String) -> Double? { (object[key] as? NSNumber)?.doubleValue }

    /// A step's state dump, split into lines.
    public var stateLines: [String]? {
        (object["state"] as? String).map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
    }

    mutating func set(_ key: String, _ value: Any) {
        // A key its text has already: the text no longer says the message, which is written afresh.
        if object.updateValue(value, forKey: key) == nil { added.append(key) } else { text = nil }
    }

    /// The message as JSON: the text it was read from with the keys set since written before its
    /// closing brace, or else the whole object written afresh. Writing all of a step again (its
    /// keys sorted: Foundation compares strings by locale) took most of the server's time at
    /// 10,000 messages a second (I62).
    public var json: String {
        guard let text, text.last == "}" else { return Self.json(object, options: [.sortedKeys, .withoutEscapingSlashes]) }
        var json = String(text.dropLast())
        for key in added { json += "," + Self.json(key) + ":" + Self.json(object[key]!) }
        return json + "}"
    }

    private static func json(_ value: Any, options: JSONSerialization.WritingOptions = [.fragmentsAllowed, .withoutEscapingSlashes]) -> String {
        // A key, and a step's diff (the keys the server adds): written by hand, as the app writes
        // its messages; through `JSONSerialization`, which casts every value, the diff took a third
        // of the server's time at 10,000 messages a second (issue 30, 4.4).
        if options == [.fragmentsAllowed, .withoutEscapingSlashes] {
            if let string = value as? String { return JSONText.quoted(string) }
            if let strings = value as? [String] { return JSONText.array(strings) }
        }
        let data = (try? JSONSerialization.data(withJSONObject: value, options: options)) ?? Data("null".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// What goes wrong in the inspector, each saying how to fix it.
public enum InspectorError: Error, Equatable, CustomStringConvertible {
    case badMessage(String)
    case unknownInstance(String)
    case cannotExport(String)
    case spec(String)
    /// A message of an instance that another connection owns (I69).
    case taken(String)

    public var description: String {
        switch self {
        case .badMessage(let why): "a message the inspector cannot read (\(why)): the app must send the messages of Docs/Inspector.md"
        case .unknownInstance(let name): "no machine instance '\(name)' has said hello to this inspector"
        case .cannotExport(let why): "cannot export these steps as a test: \(why)"
        case .spec(let why): why
        case .taken(let name):
            "another connection attached \(name) first and is still open, so this connection's messages of \(name) are refused (I69): stop the other app, or attach this one to another inspector (--port)"
        }
    }
}
