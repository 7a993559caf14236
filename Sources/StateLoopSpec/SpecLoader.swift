/// The front end in one call: bytes of a `.machine.yml` -> a `CheckedMachineSpec`, or diagnostics.
///
/// Stages: libyaml events -> `YAMLNode` tree with marks (`YAMLReader`) -> `MachineSpec`
/// (`SpecDecoder`) -> `[Diagnostic]` (`SpecChecker`). No file system access: the caller reads.
public enum SpecLoader {
    /// Reads, decodes and checks one spec. `spec` is `nil` exactly when an error was found;
    /// warnings come with a spec. Diagnostics are sorted by position.
    ///
    /// Each stage runs only when the one before found no error: a tree with YAML errors is not
    /// what the author meant, and checking a partly decoded spec would report echoes of the
    /// decoding errors (every use of a misdeclared event as "unknown event").
    public static func load(contents: [UInt8], path: String) -> SpecLoadResult {
        let read = YAMLReader().read(contents, path: path)
        if read.diagnostics.containsErrors {
            return SpecLoadResult(spec: nil, diagnostics: read.diagnostics.sortedByLocation())
        }
        let decoded = SpecDecoder().decode(read.root, path: path)
        guard let spec = decoded.spec, !decoded.diagnostics.containsErrors else {
            return SpecLoadResult(spec: nil, diagnostics: (read.diagnostics + decoded.diagnostics).sortedByLocation())
        }
        let diagnostics = (read.diagnostics + decoded.diagnostics + SpecChecker().check(spec)).sortedByLocation()
        return SpecLoadResult(spec: diagnostics.containsErrors ? nil : CheckedMachineSpec(spec), diagnostics: diagnostics)
    }
}

/// What `SpecLoader.load` found.
public struct SpecLoadResult: Sendable {
    /// The spec, when no error was found.
    public var spec: CheckedMachineSpec?
    /// Every error and warning of the file, sorted by position.
    public var diagnostics: [Diagnostic]

    init(spec: CheckedMachineSpec?, diagnostics: [Diagnostic]) {
        self.spec = spec
        self.diagnostics = diagnostics
    }
}
