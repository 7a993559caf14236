import Testing
@testable import StateLoopDiagram

/// Whole-machine outputs against checked-in files in `Golden/`. A changed rendering shows up
/// as a diff here; after looking at the new picture, `STATELOOP_UPDATE_GOLDEN=1 swift test
/// --filter StateLoopDiagramTests` rewrites the files.
@Suite struct GoldenTests {
    @Test(arguments: ["GitHubSearch", "Movies", "TrafficLight"], [DiagramDetail.standard, .full])
    func dotMatchesGoldenFile(machine: String, detail: DiagramDetail) throws {
        let spec = try exampleSpec(machine)
        try expectGolden(DOTRenderer(detail: detail).render(spec), named: "\(machine).\(detail).dot")
    }

    @Test(arguments: ["GitHubSearch", "Movies", "TrafficLight"], [DiagramDetail.standard, .full])
    func mermaidMatchesGoldenFile(machine: String, detail: DiagramDetail) throws {
        let spec = try exampleSpec(machine)
        try expectGolden(MermaidRenderer(detail: detail).render(spec), named: "\(machine).\(detail).mmd")
    }
}
