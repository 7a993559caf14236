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

    /// Reads `specs` and `children` (an unreadable one is an error at its path, exit status 2)
    /// and the specs beside each spec; a sibling that cannot be read or decoded is left out, as
    /// it is reported when it is checked itself.
    init(specs: [String], children: [String] = []) throws {
        var contents: [String: [UInt8]] = [:]
        var decoded: [MachineSpec] = []
        var seen: Set<String> = []
        for path in specs + children {
            guard seen.insert(Self.key(path)).inserted else { continue }
            let bytes = try Console.readSpec(path)
            if specs.contains(path) { contents[Self.key(path)] = bytes }
            if let spec = SpecLoader.decode(contents: bytes, path: path) { decoded.append(spec) }
        }
        for path in specs {
            for sibling in Self.siblings(of: path) where seen.insert(Self.key(sibling)).inserted {
                guard let bytes = try? FileReader.contents(of: sibling) else { continue }
                if let spec = SpecLoader.decode(contents: bytes, path: sibling) { decoded.append(spec) }
            }
        }
        self.contents = contents
        self.library = MachineLibrary(decoded)
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
