import Foundation
@testable import StateLoopSpec
import Testing
@testable import StateLoopDiagram

// Shared helpers of the diagram tests: the example machines of `Specs/`, golden files with a
// diff on mismatch, hand-built specs (for names the spec checks would reject), and SVG text.

/// The repository's `Specs/` folder, found from this file so tests run from any directory.
let specsFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Specs")

/// Every `*.machine.yml` of `Specs/`, sorted by name.
func exampleSpecFiles() throws -> [URL] {
    try specFiles(in: specsFolder)
}

/// Every `*.machine.yml` of `folder`, sorted by name.
func specFiles(in folder: URL) throws -> [URL] {
    try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        .filter { $0.lastPathComponent.hasSuffix(".machine.yml") }
        .sorted { $0.lastPathComponent < $1.lastPathComponent }
}

/// `Specs/<name>.machine.yml`, loaded and checked; fails the test on any error.
func exampleSpec(_ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> CheckedMachineSpec {
    try loadSpec(at: specsFolder.appendingPathComponent("\(name).machine.yml"), sourceLocation: sourceLocation)
}

/// The spec in the file at `url`, loaded and checked with the specs beside it as the machines it
/// may run as children (Docs/Effects.md E23); fails the test on any error.
func loadSpec(at url: URL, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> CheckedMachineSpec {
    let library = MachineLibrary(try specFiles(in: url.deletingLastPathComponent()).compactMap { sibling in
        SpecLoader.decode(contents: Array(try Data(contentsOf: sibling)), path: "Specs/\(sibling.lastPathComponent)")
    })
    let result = SpecLoader.load(contents: Array(try Data(contentsOf: url)), path: "Specs/\(url.lastPathComponent)", library: library)
    #expect(result.diagnostics.filter { $0.severity == .error }.map(\.description) == [], sourceLocation: sourceLocation)
    return try #require(result.spec, sourceLocation: sourceLocation)
}

/// The spec of `yaml`, loaded and checked as `test.machine.yml`; fails the test on any error.
func loadSpec(yaml: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> CheckedMachineSpec {
    let result = SpecLoader.load(contents: Array(yaml.utf8), path: "test.machine.yml")
    #expect(result.diagnostics.filter { $0.severity == .error }.map(\.description) == [], sourceLocation: sourceLocation)
    return try #require(result.spec, sourceLocation: sourceLocation)
}

/// True when Graphviz `dot` is on `PATH`; tests that run it are skipped (with that reason) otherwise.
let dotIsInstalled = Graphviz.findDot(searchPath: ProcessInfo.processInfo.environment["PATH"] ?? "") != nil

/// The text of an SVG with XML entities decoded, so label text can be searched as written.
func svgText(_ bytes: [UInt8]) -> String {
    xmlDecoded(String(decoding: bytes, as: UTF8.self))
}

/// The text of each `<text>` element of an SVG, decoded, with Graphviz's non-breaking spaces
/// as blanks: Graphviz writes each line of a label as its own element.
func svgTextLines(_ bytes: [UInt8]) -> [String] {
    String(decoding: bytes, as: UTF8.self).matches(of: #/<text[^>]*>([^<]*)</text>/#).map {
        xmlDecoded(String($0.output.1)).replacingOccurrences(of: "\u{A0}", with: " ")
    }
}

/// `text` with XML's five named entities and numeric character references decoded.
func xmlDecoded(_ text: String) -> String {
    // `&amp;` last, so an escaped `&amp;lt;` becomes `&lt;` and not `<`.
    text.replacing(#/&#(x[0-9A-Fa-f]+|[0-9]+);/#) { match in
        let body = match.output.1
        let value = body.hasPrefix("x") ? UInt32(body.dropFirst(), radix: 16) : UInt32(body)
        return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) } ?? "\u{FFFD}"
    }
    .replacingOccurrences(of: "&lt;", with: "<")
    .replacingOccurrences(of: "&gt;", with: ">")
    .replacingOccurrences(of: "&quot;", with: "\"")
    .replacingOccurrences(of: "&apos;", with: "'")
    .replacingOccurrences(of: "&amp;", with: "&")
}

// MARK: - Golden files

/// The folder of checked-in expected outputs.
let goldenFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

/// Compares `actual` with `Golden/<name>`, recording a line diff on mismatch. With
/// `STATELOOP_UPDATE_GOLDEN=1` in the environment the file is rewritten instead (and the test
/// still passes), for intended changes of the output.
func expectGolden(_ actual: String, named name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
    let url = goldenFolder.appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["STATELOOP_UPDATE_GOLDEN"] == "1" {
        try Data(actual.utf8).write(to: url, options: .atomic)
        return
    }
    guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
        Issue.record("missing golden file \(url.path); run with STATELOOP_UPDATE_GOLDEN=1 to create it", sourceLocation: sourceLocation)
        return
    }
    if actual != expected {
        let diff = lineDiff(expected: expected, actual: actual)
        Issue.record(
            "\(name) differs from the golden file (- expected, + actual; STATELOOP_UPDATE_GOLDEN=1 rewrites it):\n\(diff)",
            sourceLocation: sourceLocation
        )
    }
}

/// A minimal line diff (longest common subsequence): unchanged lines with two spaces, removed
/// with `- `, added with `+ `; long runs of unchanged lines are elided.
func lineDiff(expected: String, actual: String) -> String {
    let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
    var common = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
    for i in stride(from: old.count - 1, through: 0, by: -1) {
        for j in stride(from: new.count - 1, through: 0, by: -1) {
            common[i][j] = old[i] == new[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
        }
    }
    var lines: [(mark: Character, text: Substring)] = []
    var i = 0, j = 0
    while i < old.count || j < new.count {
        if i < old.count, j < new.count, old[i] == new[j] {
            lines.append((" ", old[i])); i += 1; j += 1
        } else if i < old.count, j == new.count || common[i + 1][j] >= common[i][j + 1] {
            lines.append(("-", old[i])); i += 1
        } else {
            lines.append(("+", new[j])); j += 1
        }
    }
    let changed = lines.indices.filter { lines[$0].mark != " " }
    return lines.indices
        .filter { index in changed.contains { abs($0 - index) <= 2 } }
        .map { "\(lines[$0].mark) \(lines[$0].text)" }
        .joined(separator: "\n")
}

// MARK: - Hand-built specs

/// A location for hand-built specs; the renderers never print locations.
let here = SourceLocation(file: "hand-built.machine.yml", line: 1, column: 1)

/// `value` at `here`.
func located(_ value: String) -> Located<String> { Located(value, at: here) }

/// A transition branch for hand-built specs.
func transition(to target: String?, guard guardExpression: String? = nil, set assignments: [(String, String)] = []) -> Branch {
    .transition(Transition(
        location: here,
        guardExpression: guardExpression.map(located),
        target: target.map(located),
        assignments: assignments.map { Assignment(field: located($0.0), expression: located($0.1)) }
    ))
}

/// A machine with the given states (the first is initial), events and effects, built by hand.
func handBuiltSpec(
    name: String = "HandBuilt", file: String = "Specs/HandBuilt.machine.yml", states: [StateSpec], events: [EventSpec] = [], ignore: [String] = [],
    effects: [EffectSpec] = [], delays: [(String, String)] = []
) -> CheckedMachineSpec {
    // Bypasses the checks on purpose: the renderers must stay valid DOT and Mermaid whatever they get.
    CheckedMachineSpec(MachineSpec(
        file: file, name: located(name), events: events, ignore: ignore.map(located),
        initial: states[0].name, states: states, effects: effects,
        delays: delays.map { Assignment(field: located($0.0), expression: located($0.1)) }
    ))
}

// MARK: - Statechart fixtures

/// The statechart specs of the diagram tests (`Fixtures/`), kept out of `Specs/` so that the
/// example machines stay the generator's and the runtime's.
let fixturesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

/// The statechart fixtures, by name.
let statechartFixtures = ["Player", "Editor", "Routing"]

/// `Fixtures/<name>.machine.yml`, loaded and checked; fails the test on any error.
func fixtureSpec(_ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> CheckedMachineSpec {
    try loadSpec(at: fixturesFolder.appendingPathComponent("\(name).machine.yml"), sourceLocation: sourceLocation)
}

/// What `dot -T<format>` prints on standard error for `dot` (warnings such as "tail not inside
/// tail cluster", which `Graphviz.render` does not report when `dot` succeeds), with its exit
/// status and output size.
func dotDiagnostics(_ dot: String, format: String = "svg") throws -> (status: Int32, standardError: String, outputBytes: Int) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(Graphviz.findDot(searchPath: ProcessInfo.processInfo.environment["PATH"] ?? "")))
    process.arguments = ["-T\(format)"]
    let input = FileManager.default.temporaryDirectory.appendingPathComponent("stateloop-dot-\(UUID().uuidString).dot")
    try Data(dot.utf8).write(to: input)
    defer { try? FileManager.default.removeItem(at: input) }
    process.arguments = ["-T\(format)", input.path]
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    // Small graphs: both pipes fit their buffers, but read them concurrently all the same.
    nonisolated(unsafe) var errorData = Data()
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) { errorData = error.fileHandleForReading.readDataToEndOfFile() }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: errorData, as: UTF8.self), outputData.count)
}

/// Expects `dot -Tsvg` and `dot -Tpng` to render `dot` without a single warning: a warning such
/// as "tail not inside tail cluster" means an arrow was not clipped at its frame.
func expectDotRendersWithoutWarnings(_ dot: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
    for format in ["svg", "png"] {
        let result = try dotDiagnostics(dot, format: format)
        #expect(result.status == 0, "dot -T\(format) failed", sourceLocation: sourceLocation)
        #expect(result.standardError == "", "dot -T\(format) warned", sourceLocation: sourceLocation)
        #expect(result.outputBytes > 0, "dot -T\(format) wrote nothing", sourceLocation: sourceLocation)
    }
}
