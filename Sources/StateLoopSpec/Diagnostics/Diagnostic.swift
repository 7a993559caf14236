/// One finding about a spec: an error (generation stops) or a warning (generation goes on).
///
/// Printed as `path:line:column: error: message`, the form SwiftPM, Xcode and editors pick up and
/// show at the YAML line. Every message says how to fix the problem, in `fixIt` when there is a
/// concrete edit to suggest.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    public enum Severity: String, Hashable, Sendable {
        case error
        case warning
        case note
    }

    /// A secondary location that helps explain the diagnostic ("first declared here").
    public struct Note: Hashable, Sendable {
        public var message: String
        public var location: SourceLocation

        public init(_ message: String, at location: SourceLocation) {
            self.message = message
            self.location = location
        }
    }

    public var severity: Severity
    public var message: String
    public var location: SourceLocation
    public var notes: [Note]
    /// A concrete suggestion, printed after the message ("add `ignore: [reset]` to state 'idle'").
    public var fixIt: String?

    public init(
        _ severity: Severity, _ message: String, at location: SourceLocation,
        notes: [Note] = [], fixIt: String? = nil
    ) {
        self.severity = severity
        self.message = message
        self.location = location
        self.notes = notes
        self.fixIt = fixIt
    }

    public static func error(_ message: String, at location: SourceLocation, notes: [Note] = [], fixIt: String? = nil) -> Diagnostic {
        Diagnostic(.error, message, at: location, notes: notes, fixIt: fixIt)
    }

    public static func warning(_ message: String, at location: SourceLocation, notes: [Note] = [], fixIt: String? = nil) -> Diagnostic {
        Diagnostic(.warning, message, at: location, notes: notes, fixIt: fixIt)
    }

    /// The diagnostic as compilers print it: the main line, then one `note:` line per note.
    ///
    /// The fix-it is appended to the main line (`...; fix: add ...`) because SwiftPM and Xcode show
    /// only the first line in place.
    public var description: String {
        var text = "\(location): \(severity.rawValue): \(message)"
        if let fixIt { text += " (fix: \(fixIt))" }
        for note in notes {
            text += "\n\(note.location): note: \(note.message)"
        }
        return text
    }
}

extension Array where Element == Diagnostic {
    /// True when at least one diagnostic is an error.
    public var containsErrors: Bool { contains { $0.severity == .error } }

    /// Sorted by position, errors before warnings at the same position; stable otherwise.
    public func sortedByLocation() -> [Diagnostic] {
        enumerated().sorted { a, b in
            if a.element.location != b.element.location { return a.element.location < b.element.location }
            return a.offset < b.offset
        }.map(\.element)
    }
}
