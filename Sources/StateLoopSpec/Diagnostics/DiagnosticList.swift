/// The diagnostics of one stage, bounded in number.
///
/// Messages quote names, often the name of a container once per entry under it ("state 'idle'
/// handles 'x', which is not an event"), so on hostile input the diagnostics could grow with the
/// file's size squared. Past `limit` a diagnostic is only counted, not built (its text is an
/// autoclosure), and `finished()` ends the list with one diagnostic that says how many were left
/// out — an error when any of them was, so a spec is still rejected exactly when it has an error.
struct DiagnosticList {
    /// How many diagnostics a stage reports before it only counts them; a person fixes a file
    /// long before reading a thousand diagnostics.
    static let defaultLimit = 1_000

    let limit: Int
    private(set) var items: [Diagnostic] = []
    private var omitted = 0
    private var omittedError = false
    private var firstOmitted: SourceLocation?

    init(limit: Int = defaultLimit) {
        self.limit = limit
    }

    mutating func append(
        _ severity: Diagnostic.Severity, _ message: @autoclosure () -> String, at location: SourceLocation,
        notes: @autoclosure () -> [Diagnostic.Note] = [], fixIt: @autoclosure () -> String? = nil
    ) {
        if severity == .error { errorCount += 1 }
        guard items.count < limit else {
            omitted += 1
            omittedError = omittedError || severity == .error
            if firstOmitted == nil { firstOmitted = location }
            return
        }
        items.append(Diagnostic(severity, message(), at: location, notes: notes(), fixIt: fixIt()))
    }

    /// How many errors were reported, shown or not: a part decoded without a new one is whole.
    private(set) var errorCount = 0

    /// True when at least one error was reported, shown or not.
    var containsErrors: Bool { omittedError || items.containsErrors }

    /// The diagnostics, followed by one that counts those left out (at the first one left out).
    func finished() -> [Diagnostic] {
        guard omitted > 0, let firstOmitted else { return items }
        return items + [Diagnostic(
            omittedError ? .error : .warning,
            "\(omitted) more \(omitted == 1 ? "problem" : "problems") of this file \(omitted == 1 ? "is" : "are") not shown; this is the first of them",
            at: firstOmitted, fixIt: "fix the problems shown first; the rest often follow from them")]
    }
}
