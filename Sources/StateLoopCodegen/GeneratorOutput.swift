import StateLoopSpec

/// What the pipeline produced for one spec.
public struct GeneratorOutput: Sendable {
    /// The generated Swift, `nil` when an error was found.
    public var source: String?
    /// Every error and warning, sorted by position.
    public var diagnostics: [Diagnostic]

    /// An output of `source` with `diagnostics`.
    public init(source: String?, diagnostics: [Diagnostic]) {
        self.source = source
        self.diagnostics = diagnostics
    }
}
