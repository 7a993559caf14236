import StateLoopSpec

// The generator in one file. A spec goes through three stages, each with a named output:
//
//   load       bytes of a .machine.yml -> SpecLoadResult (CheckedMachineSpec or diagnostics)  StateLoopSpec
//   translate  CheckedMachineSpec -> MachineContext (names, layout, switch tables)             Context/
//   render     MachineContext -> Swift source, through the templates                           Render/
//
// Only `load` can fail: it is the only stage that makes a `CheckedMachineSpec`, and the later
// stages take nothing else, so whatever they rely on has been checked. Warnings travel along.
// One check of `load` needs the generator: a locked version's journal layout (D124), which only
// the translate stage knows; `GeneratorPipeline.load` adds it to `SpecLoader.load`.
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
        let loaded = Self.load(contents: contents, path: path, library: library, lock: lock)
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

extension GeneratorPipeline {
    /// `SpecLoader.load`, and the check only the generator can make (Docs/Durability.md D124): a
    /// spec whose `persist.version` is locked with a layout lays its journal out as the lock says,
    /// else what that version wrote would be read with another layout. `check`, `lock`, the build
    /// and `stateloop journal` all load through here.
    public static func load(contents: [UInt8], path: String, library: MachineLibrary = MachineLibrary(), lock: LockInput? = nil) -> SpecLoadResult {
        let loaded = SpecLoader.load(contents: contents, path: path, library: library, lock: lock)
        guard let checked = loaded.spec, let persist = checked.spec.persist,
              let locked = checked.lock?.version(persist.version), let lockedLayout = locked.layout,
              let layout = MachineContextBuilder.journalLayout(checked)
        else { return loaded }
        let changes = layout.differences(from: lockedLayout)
        guard !changes.isEmpty, let lockFile = checked.lock else { return loaded }
        let lockName = lockFile.path.split(separator: "/").last.map(String.init) ?? lockFile.path
        let change = changes.prefix(3).joined(separator: "; ") + (changes.count > 3 ? "; and \(changes.count - 3) more" : "")
        return loaded.adding([.error(
            "version \(persist.version) is locked in \(lockName) with another journal layout (\(change)): the journals that version wrote would be misread",
            at: persist.versionLocation,
            fixIt: "bump persist.version to \(persist.version + 1): journals of the shipped version \(persist.version) are read through its lock")])
    }
}
