// A JSON Schema validator for exactly the subset `Docs/machine.schema.json` uses, and the YAML
// node tree as a YAML editor sees it (core schema: plain `true`, `5`, `~` are a boolean, a
// number, null). Self-contained, so the schema is checked without a package from the network.
import Foundation
@testable import StateLoopSpec

/// A JSON value: a schema, or a YAML document seen as JSON.
enum JSONValue: Equatable, Decodable, Sendable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// The JSON type names this value has ("integer" also counts as "number").
    var types: Set<String> {
        switch self {
        case .null: ["null"]
        case .bool: ["boolean"]
        case .number(let value): value.rounded() == value ? ["number", "integer"] : ["number"]
        case .string: ["string"]
        case .array: ["array"]
        case .object: ["object"]
        }
    }

    var object: [String: JSONValue]? {
        if case .object(let entries) = self { return entries }
        return nil
    }

    var array: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .number(let value): "\(value)"
        case .string(let text): "'\(text)'"
        case .array: "a list"
        case .object: "a mapping"
        }
    }

    /// A YAML node as yaml-language-server sees it: mappings are objects (keys stay text), plain
    /// scalars follow the YAML 1.2 core schema, quoted and block scalars are strings.
    init(yaml node: YAMLNode) {
        switch node.content {
        case .mapping(let entries):
            self = .object(Dictionary(entries.map { ($0.key.value, JSONValue(yaml: $0.value)) }, uniquingKeysWith: { first, _ in first }))
        case .sequence(let items):
            self = .array(items.map(JSONValue.init(yaml:)))
        case .scalar(let scalar):
            self = scalar.style == .plain ? Self.coreSchema(scalar.value) : .string(scalar.value)
        }
    }

    /// A plain scalar per the YAML 1.2 core schema (tag resolution of yaml-language-server).
    static func coreSchema(_ text: String) -> JSONValue {
        if ["", "~", "null", "Null", "NULL"].contains(text) { return .null }
        if ["true", "True", "TRUE"].contains(text) { return .bool(true) }
        if ["false", "False", "FALSE"].contains(text) { return .bool(false) }
        if text.wholeMatch(of: /[-+]?[0-9]+/) != nil, let value = Double(text) { return .number(value) }
        if text.wholeMatch(of: /0o[0-7]+/) != nil, let value = Int(text.dropFirst(2), radix: 8) { return .number(Double(value)) }
        if text.wholeMatch(of: /0x[0-9a-fA-F]+/) != nil, let value = Int(text.dropFirst(2), radix: 16) { return .number(Double(value)) }
        if text.wholeMatch(of: /[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?/) != nil, let value = Double(text) { return .number(value) }
        if text.wholeMatch(of: /[-+]?\.(inf|Inf|INF)/) != nil { return .number(text.hasPrefix("-") ? -.infinity : .infinity) }
        if text.wholeMatch(of: /\.(nan|NaN|NAN)/) != nil { return .number(.nan) }
        return .string(text)
    }
}

/// Validates instances against a draft-07 schema that uses only the keywords of `supported`;
/// any other keyword is an error of the schema (so the subset cannot grow by accident).
struct JSONSchemaValidator {
    /// Keywords that constrain an instance.
    static let assertions: Set<String> = [
        "type", "properties", "additionalProperties", "patternProperties", "required", "enum", "const",
        "items", "minItems", "minLength", "oneOf", "anyOf", "$ref", "dependencies",
    ]
    /// Keywords that only annotate or hold definitions.
    static let annotations: Set<String> = ["$schema", "title", "description", "$defs"]
    static let supported = assertions.union(annotations)

    let root: JSONValue
    /// The `patternProperties` patterns, compiled once; `nil` for one that does not compile.
    private let patterns: [String: Regex<AnyRegexOutput>?]

    init(schema: JSONValue) {
        root = schema
        func patterns(in schema: JSONValue) -> [String] {
            switch schema {
            case .object(let entries):
                (entries["patternProperties"]?.object?.keys.map { $0 } ?? []) + entries.values.flatMap(patterns(in:))
            case .array(let items): items.flatMap(patterns(in:))
            default: []
            }
        }
        self.patterns = Dictionary(patterns(in: schema).map { ($0, try? Regex($0)) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every keyword of the schema, wherever it is; the caller checks them against `supported`.
    static func keywords(of schema: JSONValue) -> Set<String> {
        guard let object = schema.object else { return [] }
        var found = Set(object.keys)
        for (keyword, value) in object {
            switch keyword {
            case "properties", "patternProperties", "$defs":
                for sub in value.object?.values.map({ $0 }) ?? [] { found.formUnion(keywords(of: sub)) }
            case "dependencies":
                for sub in value.object?.values.map({ $0 }) ?? [] where sub.object != nil { found.formUnion(keywords(of: sub)) }
            case "oneOf", "anyOf":
                for sub in value.array ?? [] { found.formUnion(keywords(of: sub)) }
            case "additionalProperties", "items":
                found.formUnion(keywords(of: value))
            default: continue
            }
        }
        return found
    }

    /// Every `$ref` of the schema, wherever it is.
    static func references(in schema: JSONValue) -> [String] {
        switch schema {
        case .object(let entries):
            return entries.flatMap { key, value in (key == "$ref" ? [value.string ?? "?"] : []) + references(in: value) }
        case .array(let items):
            return items.flatMap(references(in:))
        default:
            return []
        }
    }

    /// The schema a local reference (`#/$defs/name`) points at.
    func resolve(_ reference: String) -> JSONValue? {
        guard reference.hasPrefix("#") else { return nil }
        var node = root
        for part in reference.dropFirst().split(separator: "/") {
            let key = part.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            guard let next = node.object?[key] else { return nil }
            node = next
        }
        return node
    }

    /// The problems of `instance`, each as "path: what is wrong"; empty when it is valid.
    func errors(of instance: JSONValue) -> [String] {
        errors(of: instance, against: root, at: "")
    }

    func errors(of instance: JSONValue, against schema: JSONValue, at path: String) -> [String] {
        let place = path.isEmpty ? "/" : path
        if case .bool(let allowed) = schema { return allowed ? [] : ["\(place): not allowed here"] }
        guard let keywords = schema.object else { return ["\(place): the schema is neither an object nor a boolean"] }
        var errors: [String] = []
        for (keyword, value) in keywords.sorted(by: { $0.key < $1.key }) {
            switch keyword {
            case "$ref":
                guard let reference = value.string, let target = resolve(reference) else {
                    errors.append("\(place): unresolved $ref \(value)")
                    continue
                }
                errors += self.errors(of: instance, against: target, at: path)
            case "type":
                let allowed = value.string.map { [$0] } ?? value.array?.compactMap(\.string) ?? []
                if instance.types.isDisjoint(with: allowed) {
                    errors.append("\(place): expected \(allowed.joined(separator: " or ")), found \(instance)")
                }
            case "enum":
                if !(value.array ?? []).contains(instance) {
                    errors.append("\(place): \(instance) is not one of \((value.array ?? []).map(\.description).joined(separator: ", "))")
                }
            case "const":
                if instance != value { errors.append("\(place): expected \(value), found \(instance)") }
            case "minLength":
                if case .string(let text) = instance, case .number(let minimum) = value, Double(text.count) < minimum {
                    errors.append("\(place): shorter than \(Int(minimum)) characters")
                }
            case "minItems":
                if let items = instance.array, case .number(let minimum) = value, Double(items.count) < minimum {
                    errors.append("\(place): fewer than \(Int(minimum)) items")
                }
            case "items":
                for (index, item) in (instance.array ?? []).enumerated() {
                    errors += self.errors(of: item, against: value, at: "\(path)/\(index)")
                }
            case "required":
                guard let object = instance.object else { continue }
                for key in value.array?.compactMap(\.string) ?? [] where object[key] == nil {
                    errors.append("\(place): missing required key '\(key)'")
                }
            case "properties", "patternProperties", "additionalProperties":
                continue  // together, below
            case "dependencies":
                guard let object = instance.object else { continue }
                for (key, dependency) in value.object ?? [:] where object[key] != nil {
                    if let needed = dependency.array {
                        for other in needed.compactMap(\.string) where object[other] == nil {
                            errors.append("\(place): '\(key)' needs '\(other)'")
                        }
                    } else {
                        errors += self.errors(of: instance, against: dependency, at: path).map { "\($0) (because of '\(key)')" }
                    }
                }
            case "oneOf", "anyOf":
                let alternatives = value.array ?? []
                let results = alternatives.map { self.errors(of: instance, against: $0, at: path) }
                let matches = results.filter(\.isEmpty).count
                if matches == 0 {
                    // The alternatives of another kind of node say little; show the others' reasons.
                    let otherKind = { (result: [String]) in result.count == 1 && result[0].hasPrefix("\(place): expected ") }
                    let relevant = results.contains { !otherKind($0) } ? results.filter { !otherKind($0) } : results
                    errors.append("\(place): matches none of the \(keyword) alternatives (\(relevant.map { $0.joined(separator: "; ") }.joined(separator: " | ")))")
                } else if keyword == "oneOf", matches > 1 {
                    errors.append("\(place): matches \(matches) oneOf alternatives, not exactly one")
                }
            case _ where Self.annotations.contains(keyword):
                continue
            default:
                errors.append("\(place): the validator does not support the keyword '\(keyword)'")
            }
        }
        if ["properties", "patternProperties", "additionalProperties"].contains(where: { keywords[$0] != nil }) {
            errors += propertyErrors(of: instance, against: keywords, at: path)
        }
        return errors
    }

    /// `properties`, `patternProperties` and `additionalProperties` together: a key is checked
    /// against its property, every pattern it matches, and `additionalProperties` when neither.
    func propertyErrors(of instance: JSONValue, against keywords: [String: JSONValue], at path: String) -> [String] {
        guard let object = instance.object else { return [] }
        let properties = keywords["properties"]?.object ?? [:]
        let patterns = keywords["patternProperties"]?.object ?? [:]
        var errors: [String] = []
        for (key, value) in object.sorted(by: { $0.key < $1.key }) {
            var matched = false
            if let property = properties[key] {
                matched = true
                errors += self.errors(of: value, against: property, at: "\(path)/\(key)")
            }
            for (pattern, schema) in patterns.sorted(by: { $0.key < $1.key }) {
                guard let regex = self.patterns[pattern] ?? nil else {
                    errors.append("\(path): the pattern \(pattern) is not a regular expression")
                    continue
                }
                if key.contains(regex) {
                    matched = true
                    errors += self.errors(of: value, against: schema, at: "\(path)/\(key)")
                }
            }
            if !matched, let additional = keywords["additionalProperties"] {
                if case .bool(false) = additional {
                    errors.append("\(path.isEmpty ? "/" : path): unknown key '\(key)'")
                } else {
                    errors += self.errors(of: value, against: additional, at: "\(path)/\(key)")
                }
            }
        }
        return errors
    }
}
