import Foundation
import Testing
@testable import StateLoopDiagram
import StateLoopSpec

/// The `Graphviz` runner: real `dot` on every example machine, and the errors a user sees when
/// Graphviz is missing or fails.
@Suite struct GraphvizTests {
    @Test(.enabled(if: dotIsInstalled, "Graphviz `dot` is not installed (apt-get install graphviz / brew install graphviz)"),
          arguments: try exampleSpecFiles(), DiagramDetail.allCases)
    func everyExampleMachineRendersWithoutWarningsShowingEveryStateAndEffect(file: URL, detail: DiagramDetail) throws {
        let spec = try loadSpec(at: file)
        let dot = DOTRenderer(detail: detail).render(spec)
        try expectDotRendersWithoutWarnings(dot)
        let svg = svgText(try Graphviz().render(dot, format: .svg))
        #expect(svg.hasPrefix("<?xml"))
        for node in StateTree(spec.states).nodes where !node.spec.isHistory {
            #expect(svg.contains(">\(node.name)</text>"), "state \(node.name) is not drawn")
        }
        let lines = svgTextLines(try Graphviz().render(dot, format: .svg))
        for effect in spec.effects {
            // A query-triggered effect is drawn in its states (`⟳ name`, `⇶ name`, `❐ name: Child`,
            // …), a one-shot one where `run:` starts it.
            if effect.isOneShot {
                #expect(svg.contains("▶ \(effect.name.value)"), "effect \(effect.name.value) is not drawn")
            } else {
                let line = DiagramModel.Effect(effect, detail: detail).lines[0]
                #expect(lines.contains(line), "effect \(effect.name.value) is not drawn as \(line)")
            }
        }
    }

    @Test(.enabled(if: dotIsInstalled, "Graphviz `dot` is not installed"))
    func pngOutputIsAPNGImage() throws {
        let png = try Graphviz().render(DOTRenderer().render(try exampleSpec("TrafficLight")), format: .png)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    @Test func missingDotSaysHowToInstallGraphviz() throws {
        let emptyFolder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: emptyFolder) }
        for searchPath in ["", emptyFolder.path] {
            #expect(throws: GraphvizError.dotNotFound(searchPath: searchPath)) {
                try Graphviz(searchPath: searchPath).render("digraph {}", format: .svg)
            }
            let message = GraphvizError.dotNotFound(searchPath: searchPath).description
            #expect(message.contains("apt-get install graphviz"))
            #expect(message.contains("brew install graphviz"))
        }
    }

    @Test func dotLookupSkipsFoldersAndFilesThatCannotRun() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let folderNamedDot = folder.appendingPathComponent("a")
        let plainFileNamedDot = folder.appendingPathComponent("b")
        let executableDot = folder.appendingPathComponent("c")
        try FileManager.default.createDirectory(at: folderNamedDot.appendingPathComponent("dot"), withIntermediateDirectories: true)
        for (parent, permissions) in [(plainFileNamedDot, 0o644), (executableDot, 0o755)] {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
            let dot = parent.appendingPathComponent("dot").path
            #expect(FileManager.default.createFile(atPath: dot, contents: Data("#!/bin/sh\n".utf8)))
            try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: dot)
        }
        #expect(Graphviz.findDot(searchPath: "\(folderNamedDot.path):\(plainFileNamedDot.path)") == nil)
        #expect(
            Graphviz.findDot(searchPath: "::\(folderNamedDot.path):\(plainFileNamedDot.path):\(executableDot.path)")
                == executableDot.appendingPathComponent("dot").path
        )
    }

    @Test(.enabled(if: dotIsInstalled, "Graphviz `dot` is not installed"))
    func failingDotReportsItsStandardError() throws {
        do {
            _ = try Graphviz().render("digraph { a -> }", format: .svg)
            Issue.record("invalid DOT was accepted")
        } catch {
            guard case .dotFailed(_, let status, let standardError) = error else {
                Issue.record("expected dotFailed, got \(error)")
                return
            }
            #expect(status != 0)
            #expect(standardError.contains("syntax error"))
            #expect(error.description.contains("syntax error"))
        }
    }

    @Test func executableThatCannotStartIsReported() throws {
        let missing = "/nonexistent-\(UUID().uuidString)/dot"
        do {
            _ = try Graphviz(executablePath: missing).render("digraph {}", format: .svg)
            Issue.record("a missing executable was run")
        } catch {
            guard case .launchFailed(let executable, _) = error else {
                Issue.record("expected launchFailed, got \(error)")
                return
            }
            #expect(executable == missing)
        }
    }

    /// Input and output both larger than a pipe buffer (64 KiB on Linux): written and read one
    /// after the other, `dot` and the runner would wait for each other forever.
    @Test(.enabled(if: dotIsInstalled, "Graphviz `dot` is not installed"))
    func largeGraphsDoNotDeadlockThePipes() throws {
        let nodes = (0..<3000).map { "    \"state number \($0) with a long name\";\n" }.joined()
        let dot = "digraph {\n\(nodes)}\n"
        #expect(dot.utf8.count > 100_000)
        let svg = svgText(try Graphviz().render(dot, format: .svg))
        #expect(svg.contains(">state number 2999 with a long name</text>"))
    }

    /// A `dot` that stops reading at a syntax error closes the pipe under the runner's feet; the
    /// runner must report the error, not die of SIGPIPE.
    @Test(.enabled(if: dotIsInstalled, "Graphviz `dot` is not installed"))
    func dotThatStopsReadingEarlyIsAnErrorNotACrash() throws {
        let dot = "digraph { -> ;\n" + String(repeating: "// padding to overflow the pipe buffer\n", count: 50_000) + "}\n"
        #expect(throws: GraphvizError.self) {
            try Graphviz().render(dot, format: .svg)
        }
    }

    private func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stateloop-diagram-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
