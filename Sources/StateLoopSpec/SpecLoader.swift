/// The front end in one call: bytes of a `.machine.yml` -> a checked `MachineSpec`, or diagnostics.
///
/// Stages: libyaml events -> `YAMLNode` tree with marks (`YAMLReader`) -> `MachineSpec`
/// (`SpecDecoder`) -> `[Diagnostic]` (`SpecChecker`). No file system access: the caller reads.
public enum SpecLoader {
    /// Reads, decodes and checks one spec. `spec` is `nil` exactly when an error was found;
    /// warnings come with a spec. Diagnostics are sorted by position.
    public static func load(contents: [UInt8], path: String) -> SpecLoadResult {
        fatalError("not implemented yet")
    }
}

/// What `SpecLoader.load` found.
public struct SpecLoadResult: Sendable {
    /// The spec, when no error was found.
    public var spec: MachineSpec?
    /// Every error and warning of the file, sorted by position.
    public var diagnostics: [Diagnostic]

    public init(spec: MachineSpec?, diagnostics: [Diagnostic]) {
        self.spec = spec
        self.diagnostics = diagnostics
    }
}
