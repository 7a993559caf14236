// The diagrams the page shows: the project's own SVG of each spec, through Graphviz (I34).

import Foundation
import StateLoopDiagram
import StateLoopSpec

/// Finds a spec by the file name a hello gives, and draws it: `DOTRenderer` then `dot -Tsvg`.
/// The SVG's states are Graphviz's `<title>`s (the DOT node ids: a state's name, a composite's
/// `cluster_<name>`) and each transition's arrow is `<g id="branch-N">`, N its branch id (I35).
public actor Diagrams {
    /// The specs named on the command line: searched first.
    private let specs: [String]
    /// Where other specs are looked for: the folder and every folder below it (not `.build*`).
    private let searchRoot: String
    private var drawn: [String: Result<String, InspectorError>] = [:]

    public init(specs: [String], searchRoot: String = FileManager.default.currentDirectoryPath) {
        self.specs = specs
        self.searchRoot = searchRoot
    }

    /// The SVG of the spec named `fileName` (`Door.machine.yml`), or why there is none.
    public func svg(forSpecNamed fileName: String) -> Result<String, InspectorError> {
        if let done = drawn[fileName] { return done }
        let result = Result { () throws(InspectorError) -> String in try draw(fileName) }
        drawn[fileName] = result
        return result
    }

    private func draw(_ fileName: String) throws(InspectorError) -> String {
        guard !fileName.isEmpty, !fileName.contains("/") else { throw .spec("'\(fileName)' is not a spec's file name") }
        guard let path = find(fileName) else {
            throw .spec("no spec \(fileName) was given on the command line or found under \(searchRoot): name it, `stateloop inspect path/to/\(fileName)`")
        }
        guard let bytes = FileManager.default.contents(atPath: path) else { throw .spec("cannot read \(path)") }
        let loaded = SpecLoader.load(contents: Array(bytes), path: path, library: Self.library(beside: path))
        guard let spec = loaded.spec else {
            throw .spec("\(path) has errors (`stateloop check \(path)` lists them):\n" + loaded.diagnostics.map(\.description).joined(separator: "\n"))
        }
        do {
            return String(decoding: try Graphviz().render(DOTRenderer(branchIDs: true).render(spec), format: .svg), as: UTF8.self)
        } catch {
            throw .spec("\(error)")
        }
    }

    private func find(_ fileName: String) -> String? {
        if let given = specs.first(where: { ($0 as NSString).lastPathComponent == fileName }) { return given }
        guard let walker = FileManager.default.enumerator(atPath: searchRoot) else { return nil }
        var found: [String] = []
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") || name == "node_modules" { walker.skipDescendants(); continue }
            if name == fileName { found.append(relative) }
        }
        // The shallowest, then the first in order: `Specs/Door.machine.yml` before a fixture's copy.
        return found.min { ($0.split(separator: "/").count, $0) < ($1.split(separator: "/").count, $1) }
            .map { (searchRoot as NSString).appendingPathComponent($0) }
    }

    /// The specs beside the spec at `path`, so that a parent's `machine:` effects find their children.
    static func library(beside path: String) -> MachineLibrary {
        let folder = (path as NSString).deletingLastPathComponent
        let siblings = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter(SpecFileNaming.isSpec(fileName:)).sorted()
        return MachineLibrary(siblings.compactMap { name in
            let sibling = (folder as NSString).appendingPathComponent(name)
            return FileManager.default.contents(atPath: sibling).flatMap { SpecLoader.decode(contents: Array($0), path: sibling) }
        })
    }
}
