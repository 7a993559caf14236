// The diagrams the page shows: the project's own SVG of each spec, through Graphviz (I34).

import Foundation
import StateLoop
import StateLoopDiagram
import StateLoopInspector
import StateLoopSpec

/// Finds a spec by the file name a hello gives, and draws it: `DOTRenderer` then `dot -Tsvg`.
/// The SVG's states are Graphviz's `<title>`s (the DOT node ids: a state's name, a composite's
/// `cluster_<name>`) and each transition's arrow is `<g id="branch-N">`, N its branch id (I35).
/// With the hello's `fingerprint`, only a spec whose branches give the same is drawn (I76).
public actor Diagrams {
    /// The specs named on the command line: searched first.
    private let specs: [String]
    /// Where other specs are looked for: the folder and every folder below it (not `.build*`).
    private let searchRoot: String
    /// By file name and fingerprint: one entry per spec the instances named (I72).
    private var drawn: [String: Result<String, InspectorError>] = [:]

    /// Finds specs among `specs` first, then below `searchRoot`.
    public init(specs: [String], searchRoot: String = FileManager.default.currentDirectoryPath) {
        self.specs = specs
        self.searchRoot = searchRoot
    }

    /// The SVG of the spec named `fileName` (`Door.machine.yml`) whose branches give
    /// `fingerprint` (any, without one), or why there is none. The server asks only for the specs
    /// its instances' hellos name (I72), so `drawn` holds one entry per spec of an instance.
    public func svg(forSpecNamed fileName: String, fingerprint: String? = nil) -> Result<String, InspectorError> {
        let key = fileName + "\n" + (fingerprint ?? "")
        if let done = drawn[key] { return done }
        let result = Result { () throws(InspectorError) -> String in try draw(fileName, fingerprint: fingerprint) }
        drawn[key] = result
        return result
    }

    private func draw(_ fileName: String, fingerprint: String?) throws(InspectorError) -> String {
        // Only a spec's file name: no other file is read, and no folder is climbed out of (I73).
        guard !fileName.contains("/"), !fileName.hasPrefix("."), SpecFileNaming.isSpec(fileName: fileName) else {
            throw .spec("'\(fileName)' is not a spec's file name (NAME.machine.yml): the app's machine must be generated from a *.machine.yml")
        }
        let candidates = find(fileName)
        guard let first = candidates.first else {
            throw .spec("no spec \(fileName) was given on the command line or found in the folder stateloop inspect runs in or below it: name it, `stateloop inspect path/to/\(fileName)`")
        }
        guard let fingerprint else { return try render(load(first)) }
        var failure: InspectorError?
        for candidate in candidates {
            do throws(InspectorError) {
                let spec = try load(candidate)
                if Self.fingerprint(of: spec) == fingerprint { return try render(spec) }
            } catch {
                failure = failure ?? error
            }
        }
        // Every file of that name failed to load: say why the first did; else none is the app's.
        if let failure, candidates.count == 1 { throw failure }
        let files = candidates.map(\.shown).joined(separator: ", ")
        throw .spec("no spec \(fileName) found is the one the app was generated from (its branches differ: \(files)): name the app's own, `stateloop inspect path/to/\(fileName)`")
    }

    private func load(_ candidate: (path: String, shown: String)) throws(InspectorError) -> CheckedMachineSpec {
        guard let bytes = FileManager.default.contents(atPath: candidate.path) else { throw .spec("cannot read \(candidate.shown)") }
        let loaded = SpecLoader.load(contents: Array(bytes), path: candidate.shown, library: Self.library(beside: candidate.path))
        guard let spec = loaded.spec else {
            throw .spec("\(candidate.shown) has errors (`stateloop check \(candidate.shown)` lists them):\n" + loaded.diagnostics.map(\.description).joined(separator: "\n"))
        }
        return spec
    }

    private func render(_ spec: CheckedMachineSpec) throws(InspectorError) -> String {
        do {
            return String(decoding: try Graphviz().render(DOTRenderer(branchIDs: true).render(spec), format: .svg), as: UTF8.self)
        } catch {
            throw .spec("\(error)")
        }
    }

    /// The fingerprint the generated machine of `spec` sends (its `transitions`, I76).
    static func fingerprint(of spec: CheckedMachineSpec) -> String {
        BranchFingerprint.of(spec.semantics.transitions.entries.map {
            TransitionInfo(id: $0.id, line: $0.location.line, column: $0.location.column, description: $0.description)
        })
    }

    /// The specs named `fileName`, each with the path to read and the one to name in messages: those
    /// given on the command line as given, then those below the search root by their path there
    /// (never the root's absolute path, I73), the shallowest first.
    private func find(_ fileName: String) -> [(path: String, shown: String)] {
        let given = specs.filter { ($0 as NSString).lastPathComponent == fileName }.map { ($0, $0) }
        guard let walker = FileManager.default.enumerator(atPath: searchRoot) else { return given }
        var found: [String] = []
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") || name == "node_modules" { walker.skipDescendants(); continue }
            if name == fileName { found.append(relative) }
        }
        // The shallowest, then the first in order: `Specs/Door.machine.yml` before a fixture's copy.
        return given + found.sorted { ($0.split(separator: "/").count, $0) < ($1.split(separator: "/").count, $1) }
            .map { ((searchRoot as NSString).appendingPathComponent($0), $0) }
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
