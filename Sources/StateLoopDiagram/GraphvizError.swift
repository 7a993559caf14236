/// Why `Graphviz.render` produced no picture. Each description says what to do about it.
public enum GraphvizError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No executable `dot` in any folder of the search path.
    case dotNotFound(searchPath: String)
    /// `dot` was found but could not be started.
    case launchFailed(executable: String, reason: String)
    /// `dot` ran and exited with a non-zero status; `standardError` is what it printed.
    case dotFailed(executable: String, status: Int32, standardError: String)

    /// What went wrong and what to do about it, for printing to a person.
    public var description: String {
        switch self {
        case .dotNotFound(let searchPath):
            let folders = searchPath.isEmpty ? "PATH is empty" : "searched PATH: \(searchPath)"
            return """
                Graphviz is not installed: no executable `dot` was found (\(folders)). \
                Install it with `apt-get install graphviz` (Debian, Ubuntu) or `brew install graphviz` (macOS), \
                or render DOT or Mermaid text instead, which needs no Graphviz.
                """
        case .launchFailed(let executable, let reason):
            return "could not start Graphviz `\(executable)`: \(reason). Check that it is an executable Graphviz `dot`."
        case .dotFailed(let executable, let status, let standardError):
            let message = standardError.trimmingCharacters(in: .whitespacesAndNewlines)
            return "Graphviz `\(executable)` failed with exit status \(status)"
                + (message.isEmpty ? "." : ":\n\(message)")
        }
    }
}
