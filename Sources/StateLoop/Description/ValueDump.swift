// ValueDump: values as text, read through `Mirror`: the test harness's messages and diffs (T3 in
// Docs/Testing.md) and the inspector's dumps of states and events.

/// Renders any value as Swift-like text: a struct or class as its type name and one field per
/// line (a struct's underscored fields left out), an enum case as `.loaded(repositories: [...], nextURL: nil)`, an optional as its value
/// or `nil`, a string quoted, and collections with their elements; sets and dictionaries sorted
/// by their rendered text so that the output is deterministic.
///
/// Values of the standard library and Foundation (`Int`, `Duration`, `URL`, ...) print as their
/// `description`, not their private fields.
public enum ValueDump {
    /// `value` over as many lines as a diff needs: structs and classes one field per line,
    /// other composites on one line when every part fits on one (up to 80 characters).
    ///
    /// - Parameter redacting: Labels whose values print as `<redacted>`, at any depth: a struct's
    ///   or class's field, an enum payload's or a tuple's label. The inspector passes the fields a
    ///   spec marks `redact: true` (Docs/Inspector.md I22).
    public static func lines(of value: Any, redacting: Set<String> = []) -> [String] {
        render(value, style: .lines, path: [], redacting: redacting)
    }

    /// `value` on one line, for messages that name an event or a call.
    public static func line(of value: Any, redacting: Set<String> = []) -> String {
        render(value, style: .line, path: [], redacting: redacting).joined()
    }

    /// What a redacted value prints as.
    public static let redacted = "<redacted>"

    private enum Style { case lines, line }

    /// One part of a composite: its label (a field name, a dictionary key) and its lines.
    private typealias Item = (label: String?, lines: [String])

    /// The longest composite other than a struct or class that `lines(of:)` keeps on one line.
    private static let lineWidth = 80

    /// `path` holds the classes being rendered around `value`, to cut reference cycles.
    private static func render(_ value: Any, style: Style, path: [ObjectIdentifier], redacting: Set<String>) -> [String] {
        let mirror = Mirror(reflecting: value)
        func render(_ value: Any, path: [ObjectIdentifier] = path) -> [String] {
            Self.render(value, style: style, path: path, redacting: redacting)
        }
        func items(_ children: Mirror.Children, path: [ObjectIdentifier] = path) -> [Item] {
            children.map { child in
                let label = child.label.flatMap { $0.hasPrefix(".") ? nil : $0 }
                if let label, redacting.contains(label) { return (label, [redacted]) }
                return (label, render(child.value, path: path))
            }
        }
        if value is String || value is Substring || value is Character {
            return [String(reflecting: value)]
        }
        switch mirror.displayStyle {
        case nil:
            return [String(describing: value)]
        case .struct? where isLibraryType(value):
            return [String(describing: value)]
        case .optional?:
            guard let wrapped = mirror.children.first else { return ["nil"] }
            return render(wrapped.value)
        case .enum?:
            guard let payload = mirror.children.first else { return [".\(value)"] }
            let fields = Mirror(reflecting: payload.value)
            let parts = fields.displayStyle == .tuple
                ? items(fields.children)
                : [(nil, render(payload.value))]
            return composite(".\(payload.label ?? "")(", parts, ")", style: style, breaks: false)
        case .collection?:
            return composite("[", items(mirror.children), "]", style: style, breaks: false)
        case .set?:
            return composite("[", items(mirror.children).sorted(by: rendered), "]", style: style, breaks: false)
        case .dictionary?:
            let entries: [Item] = mirror.children.map { entry in
                let pair = Array(Mirror(reflecting: entry.value).children)
                return (line(of: pair[0].value, redacting: redacting), render(pair[1].value))
            }
            if entries.isEmpty { return ["[:]"] }
            return composite("[", entries.sorted { $0.label! < $1.label! }, "]", style: style, breaks: false)
        case .tuple?:
            return composite("(", items(mirror.children), ")", style: style, breaks: false)
        case .class?:
            let id = ObjectIdentifier(value as AnyObject)
            if path.contains(id) { return ["\(typeName(value))(↩︎)"] }
            var fields = [Item]()
            var level: Mirror? = mirror
            while let current = level {
                fields = items(current.children, path: path + [id]) + fields
                level = current.superclassMirror
            }
            return composite("\(typeName(value))(", fields, ")", style: style, breaks: true)
        default:
            // Underscored fields (`_entries`, `_history_x`) are what only the reducer writes: the
            // harness copies them into the expectation, so they never differ and only add noise.
            let fields = mirror.children.filter { !($0.label?.hasPrefix("_") ?? false) }
            return composite("\(typeName(value))(", items(Mirror.Children(fields)), ")", style: style, breaks: true)
        }
    }

    /// `open`, the items separated by commas, `close`: on one line for `.line`, or when
    /// `breaks` is false and every item fits on one short line; else one item per line.
    private static func composite(_ open: String, _ items: [Item], _ close: String, style: Style, breaks: Bool) -> [String] {
        func labelled(_ item: Item) -> String { item.label.map { "\($0): " } ?? "" }
        if items.isEmpty { return [open + close] }
        if style == .line || !breaks && items.allSatisfy({ $0.lines.count == 1 }) {
            let inline = open + items.map { labelled($0) + $0.lines[0] }.joined(separator: ", ") + close
            if style == .line || inline.count <= lineWidth { return [inline] }
        }
        var lines = [open]
        for (index, item) in items.enumerated() {
            var itemLines = item.lines
            itemLines[0] = labelled(item) + itemLines[0]
            if index < items.count - 1 { itemLines[itemLines.count - 1] += "," }
            lines += itemLines.map { "  " + $0 }
        }
        return lines + [close]
    }

    private static func rendered(_ a: Item, _ b: Item) -> Bool {
        a.lines.joined(separator: "\n") < b.lines.joined(separator: "\n")
    }

    /// True for a value of the standard library or Foundation that describes itself:
    /// `Duration`, `URL`, `Date` print better as their `description` than as their fields.
    private static func isLibraryType(_ value: Any) -> Bool {
        let module = String(reflecting: type(of: value)).prefix { $0 != "." }
        return value is CustomStringConvertible && libraryModules.contains(String(module))
    }

    /// The standard library and Foundation, whose types on Linux live in `FoundationEssentials`
    /// and `FoundationInternationalization`.
    private static let libraryModules: Set = ["Swift", "Foundation", "FoundationEssentials", "FoundationInternationalization"]

    private static func typeName(_ value: Any) -> String {
        typeName(type(of: value))
    }

    /// The type's name without its module and without the contexts of local types:
    /// `GitHubSearch.State`.
    public static func typeName(_ type: Any.Type) -> String {
        var name = String(reflecting: type)
        while let start = name.firstRange(of: "(unknown context at "), let end = name[start.upperBound...].firstRange(of: ").") {
            name.removeSubrange(start.lowerBound..<end.upperBound)
        }
        guard let dot = name.firstIndex(of: ".") else { return name }
        return String(name[name.index(after: dot)...])
    }
}
