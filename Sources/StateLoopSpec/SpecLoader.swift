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
    ///
    /// `library` holds the specs this one may run as child machines (`machine:` effects, E23).
    /// `lock` is the lock file beside the spec (Docs/Durability.md D50–D58): a spec that persists
    /// must read every version it locks, and a lock that cannot be read fails the spec (D53).
    public static func load(contents: [UInt8], path: String, library: MachineLibrary = MachineLibrary(), lock: LockInput? = nil) -> SpecLoadResult {
        let read = YAMLReader().read(contents, path: path)
        if read.diagnostics.containsErrors {
            return SpecLoadResult(spec: nil, diagnostics: read.diagnostics.sortedByLocation())
        }
        let decoded = SpecDecoder().decode(read.root, path: path)
        guard let spec = decoded.spec, !decoded.diagnostics.containsErrors else {
            return SpecLoadResult(spec: nil, diagnostics: (read.diagnostics + decoded.diagnostics).sortedByLocation())
        }
        let checked = SpecChecker(library: library).checkDeciding(spec)
        var evolution: [Diagnostic] = []
        var lockFile: LockFile?
        if let lock {
            let locked = LockFile.read(lock.contents, path: lock.path)
            lockFile = locked.lock
            evolution = locked.diagnostics + (locked.lock.map { EvolutionCheck.check(spec, against: $0) } ?? [])
        }
        let diagnostics = (read.diagnostics + decoded.diagnostics + checked.diagnostics + evolution).sortedByLocation()
        return SpecLoadResult(
            spec: diagnostics.containsErrors ? nil : CheckedMachineSpec(spec, children: library.children(of: spec), semantics: checked.semantics, lock: lockFile),
            diagnostics: diagnostics)
    }

    /// Reads and decodes a spec without checking it: what a `MachineLibrary` holds. `nil` when
    /// the file has errors (they are reported when the spec itself is loaded).
    public static func decode(contents: [UInt8], path: String) -> MachineSpec? {
        let read = YAMLReader().read(contents, path: path)
        guard !read.diagnostics.containsErrors else { return nil }
        let decoded = SpecDecoder().decode(read.root, path: path)
        return decoded.diagnostics.containsErrors ? nil : decoded.spec
    }
}

/// The specs a spec may run as child machines, by their `machine:` name (E23): the other specs
/// of the same target (the plugin) or command line and folder (`stateloop`). Decoded, not
/// checked: each is checked when it is generated itself.
public struct MachineLibrary: Sendable {
    /// The specs, by `machine:` name; the first of two with one name wins.
    public let specs: [String: MachineSpec]

    public init(_ specs: [MachineSpec] = []) {
        self.specs = Dictionary(specs.map { ($0.name.value, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The child machines `spec`'s effects name that the library holds.
    func children(of spec: MachineSpec) -> [String: MachineSpec] {
        var children: [String: MachineSpec] = [:]
        for effect in spec.effects {
            if let name = effect.child?.machine.value { children[name] = specs[name] }
        }
        return children
    }
}

/// The lock file beside a spec, as the caller read it (the loader does no I/O).
public struct LockInput: Sendable {
    /// Where the lock lies (or would lie): diagnostics name it.
    public var path: String
    /// Its bytes; `nil` when there is no lock yet, which locks no version.
    public var contents: [UInt8]?

    public init(path: String, contents: [UInt8]?) {
        self.path = path
        self.contents = contents
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

    /// The result with the diagnostics of a later stage's check added (the generator's, which
    /// knows what the loader cannot: D124): sorted again, and without the spec when one is an error.
    public func adding(_ more: [Diagnostic]) -> SpecLoadResult {
        guard !more.isEmpty else { return self }
        let all = (diagnostics + more).sortedByLocation()
        return SpecLoadResult(spec: all.containsErrors ? nil : spec, diagnostics: all)
    }
}
