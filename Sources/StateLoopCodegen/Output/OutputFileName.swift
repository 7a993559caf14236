/// The name of the Swift file generated for a spec, known before the spec is read (build plugins
/// must declare their outputs up front).
public enum OutputFileName {
    /// `Specs/Door.machine.yml` -> `Door.swift`; also `.machine.yaml`, and for any other name the
    /// last extension is replaced (`Door.yml` -> `Door.swift`).
    public static func swiftFile(forSpecAt path: String) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        for suffix in [".machine.yml", ".machine.yaml"] where name.hasSuffix(suffix) && name.count > suffix.count {
            return String(name.dropLast(suffix.count)) + ".swift"
        }
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return String(name[..<dot]) + ".swift"
        }
        return name + ".swift"
    }
}
