import Foundation
import StateLoopCodegen
import StateLoopSpec

/// The specs a run reads, and the machines they may run as children (Docs/Effects.md E23): every
/// spec on the command line, each `--child`, and the other `*.machine.yml` files in each spec's
/// folder, in that order (the first spec of a name wins).
struct ChildSpecs {
    /// The command line's specs, each read once: a pipe, a FIFO or standard input can be read
    /// only once, so what the library decoded is also what is checked.
    let contents: [String: [UInt8]]
    let library: MachineLibrary
    /// E57: an error for each spec of the command line or `--child` that declares a `machine:`
    /// name an earlier one (in path order) declares too, so every run that reads both reports the
    /// same line.
    let duplicateNames: [Diagnostic]

    /// Reads `specs` and `children` (an unreadable one is an error at its path, exit status 2)
    /// and the specs beside each spec; a sibling that cannot be read or decoded is left out, as
    /// it is reported when it is checked itself.
    init(specs: [String], children: [String] = []) throws {
        var contents: [String: [UInt8]] = [:]
        var decoded: [(key: String, spec: MachineSpec)] = []
        var seen: Set<String> = []
        for path in specs + children {
            guard seen.insert(Self.key(path)).inserted else { continue }
            let bytes = try Console.readSpec(path)
            if specs.contains(path) { contents[Self.key(path)] = bytes }
            if let spec = SpecLoader.decode(contents: bytes, path: path) { decoded.append((Self.key(path), spec)) }
        }
        let named = decoded.count
        for path in specs {
            for sibling in Self.siblings(of: path) where seen.insert(Self.key(sibling)).inserted {
                guard let bytes = try? FileReader.contents(of: sibling) else { continue }
                if let spec = SpecLoader.decode(contents: bytes, path: sibling) { decoded.append((Self.key(sibling), spec)) }
            }
        }
        self.contents = contents
        self.library = MachineLibrary(decoded.map(\.spec))
        // The specs beside a spec are a convenience of the command line, not a target: a copy
        // lying there must not fail the spec (the plugin passes a target's specs as --child).
        self.duplicateNames = Self.duplicateNames(Array(decoded.prefix(named)))
    }

    /// E57: two specs of one `machine:` name would generate one Swift type twice ("'Payment' is
    /// ambiguous"), and a parent would be checked against whichever was read first.
    private static func duplicateNames(_ decoded: [(key: String, spec: MachineSpec)]) -> [Diagnostic] {
        let byName = Dictionary(grouping: decoded, by: \.spec.name.value)
        return byName.keys.sorted().flatMap { name -> [Diagnostic] in
            let specs = byName[name]!.sorted { $0.key < $1.key }
            return specs.dropFirst().map { later in
                .error(
                    "machine '\(name)' is declared by another spec read with this one too: both would generate the type '\(name)', and a parent would run either",
                    at: later.spec.name.location, notes: [Diagnostic.Note("'\(name)' is also declared here", at: specs[0].spec.name.location)],
                    fixIt: "rename one of the machines")
            }
        }
    }

    /// The bytes of a spec of the command line.
    func contents(of spec: String) -> [UInt8] {
        contents[Self.key(spec)] ?? []
    }

    /// One path of a file however it is spelt (`./A.machine.yml`, `A.machine.yml`).
    private static func key(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// The regular `*.machine.yml` files beside the regular file `path`, sorted; none for a pipe,
    /// a FIFO or standard input, and never another FIFO (reading it would wait for a writer).
    private static func siblings(of path: String) -> [String] {
        let url = URL(fileURLWithPath: path)
        guard Self.isRegularFile(url) else { return [] }
        let folder = url.deletingLastPathComponent()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.filter { SpecFileNaming.isSpec(fileName: $0) }.sorted()
            .map { folder.appending(path: $0) }
            .filter(isRegularFile)
            .map(\.path)
    }

    private static func isRegularFile(_ url: URL) -> Bool {
        (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true
    }
}
