import Testing
@testable import StateLoopDiagram

/// Whole-machine outputs against checked-in files in `Golden/`. A changed rendering shows up
/// as a diff here; after looking at the new picture, `STATELOOP_UPDATE_GOLDEN=1 swift test
/// --filter StateLoopDiagramTests` rewrites the files.
@Suite struct GoldenTests {
    /// The example machines of `Specs/` with golden files: Checkout and its child Payment use
    /// every effect shape of Docs/Effects.md.
    static let machines = ["Checkout", "GitHubSearch", "Movies", "Payment", "TrafficLight"]

    @Test(arguments: machines, [DiagramDetail.standard, .full])
    func dotMatchesGoldenFile(machine: String, detail: DiagramDetail) throws {
        let spec = try exampleSpec(machine)
        try expectGolden(DOTRenderer(detail: detail).render(spec), named: "\(machine).\(detail).dot")
    }

    @Test(arguments: machines, [DiagramDetail.standard, .full])
    func mermaidMatchesGoldenFile(machine: String, detail: DiagramDetail) throws {
        let spec = try exampleSpec(machine)
        try expectGolden(MermaidRenderer(detail: detail).render(spec), named: "\(machine).\(detail).mmd")
    }
}
