import Foundation
import StateLoopSpec
import Testing
@testable import StateLoopDiagram

/// Statecharts in both formats (Docs/Statecharts.md): nested states as frames, parallel regions,
/// history, final states, `always:` and `onDone:`, entry and exit actions, one-shot runs,
/// inherited and machine-wide handlers drawn once. The fixtures are `Fixtures/Player` (the
/// running example of Docs/Statecharts.md) and `Fixtures/Editor` (parallel regions, deep
/// history, `always:`, `onDone:`).
@Suite struct StatechartDiagramTests {
    @Test(arguments: statechartFixtures, [DiagramDetail.compact, .standard, .full])
    func dotMatchesGoldenFile(machine: String, detail: DiagramDetail) throws {
        try expectGolden(DOTRenderer(detail: detail).render(try fixtureSpec(machine)), named: "\(machine).\(detail).dot")
    }

    @Test(arguments: statechartFixtures, [DiagramDetail.compact, .standard, .full])
    func mermaidMatchesGoldenFile(machine: String, detail: DiagramDetail) throws {
        try expectGolden(MermaidRenderer(detail: detail).render(try fixtureSpec(machine)), named: "\(machine).\(detail).mmd")
    }

    /// Real Graphviz, in both picture formats, without a single warning: a warning such as
    /// "tail not inside tail cluster" means an arrow was not clipped at its frame.
    @Test(.enabled(if: dotIsInstalled, "Graphviz `dot` is not installed (apt-get install graphviz / brew install graphviz)"),
          arguments: statechartFixtures, DiagramDetail.allCases)
    func everyFixtureRendersWithoutWarningsShowingEveryState(machine: String, detail: DiagramDetail) throws {
        let dot = DOTRenderer(detail: detail).render(try fixtureSpec(machine))
        for format in ["svg", "png"] {
            let result = try dotDiagnostics(dot, format: format)
            #expect(result.status == 0)
            #expect(result.standardError == "")
            #expect(result.outputBytes > 0)
        }
        let lines = svgTextLines(try Graphviz().render(dot, format: .svg))
        let spec = try fixtureSpec(machine)
        for node in StateTree(spec.states).nodes {
            #expect(lines.contains(node.name), "state \(node.name) is not drawn")
        }
    }
}
