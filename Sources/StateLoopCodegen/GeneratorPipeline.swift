import StateLoopSpec

// The generator in one file. A spec goes through three stages, each with a named output:
//
//   load       bytes of a .machine.yml -> SpecLoadResult (CheckedMachineSpec or diagnostics)  StateLoopSpec
//   translate  CheckedMachineSpec -> MachineContext (names, layout, switch tables)             Context/
//   render     MachineContext -> Swift source, through the templates                           Render/
//
// Only `load` can fail: it is the only stage that makes a `CheckedMachineSpec`, and the later
// stages take nothing else, so whatever they rely on has been checked. Warnings travel along.
// Nothing here touches the file system: the caller reads the spec and writes the result
// (`OutputWriter`).

/// Generates the Swift source of one machine spec: load, translate, render.
public struct GeneratorPipeline: Sendable {
    /// The templates the render stage prints with.
    public var templates: TemplateSet
    /// The access level of the generated declarations.
    public var accessLevel: AccessLevel

    /// A pipeline rendering with `templates` (the built-in ones unless the user has their own),
    /// generating declarations with `accessLevel`.
    public init(templates: TemplateSet = .builtIn, accessLevel: AccessLevel = .public) {
        self.templates = templates
        self.accessLevel = accessLevel
    }

    /// Generates Swift from the bytes of a `.machine.yml`.
    ///
    /// - Parameters:
    ///   - contents: the file's bytes.
    ///   - path: the file's path as the user gave it; diagnostics and `#sourceLocation` print it.
    ///   - library: the specs it may run as child machines (`machine:` effects).
    ///   - lock: the lock file beside the spec, which a spec that persists must read (D54).
    /// - Returns: the source, or `nil` and the errors; warnings in either case.
    public func generate(contents: [UInt8], path: String, library: MachineLibrary = MachineLibrary(), lock: LockInput? = nil) -> GeneratorOutput {
        let loaded = SpecLoader.load(contents: contents, path: path, library: library, lock: lock)
        guard let spec = loaded.spec else {
            return GeneratorOutput(source: nil, diagnostics: loaded.diagnostics)
        }
        return GeneratorOutput(source: generate(spec: spec), diagnostics: loaded.diagnostics)
    }

    /// The Swift source of a checked spec (the stages after `load`, which cannot fail).
    public func generate(spec: CheckedMachineSpec) -> String {
        SwiftRenderer(templates: templates).render(MachineContextBuilder.build(spec, access: accessLevel))
    }
}
