extension GeneratorPipeline {
    /// The name of the Swift file generated for a spec, known before the spec is read (a build
    /// plugin declares its outputs up front): `Specs/Door.machine.yml` -> `Door.machine.swift`,
    /// also for `.machine.yaml`; any other name has its last extension replaced (`Door.yml` ->
    /// `Door.machine.swift`).
    ///
    /// Not `Door.swift`: that is where a user puts the machine's effects, and swiftc rejects two
    /// files of one module with the same name. The build plugin names its outputs the same way.
    public static func outputFileName(forSpecAt path: String) -> String {
        specStem(ofSpecAt: path) + ".machine.swift"
    }

    /// The spec's file name without folder and without `.machine.yml`/`.machine.yaml` (or its last
    /// extension): `Specs/Door.machine.yml` -> `Door`. Diagrams are named after it too.
    public static func specStem(ofSpecAt path: String) -> String {
        var name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        if let suffix = [".machine.yml", ".machine.yaml"].first(where: { name.hasSuffix($0) && name.count > $0.count }) {
            name.removeLast(suffix.count)
        } else if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            name = String(name[..<dot])
        }
        return name
    }
}
