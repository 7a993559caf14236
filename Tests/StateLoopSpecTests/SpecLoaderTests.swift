import Testing
@testable import StateLoopSpec

@Suite struct SpecLoaderTests {
    @Test func gitHubSearchFixtureLoadsWithoutDiagnostics() throws {
        let result = SpecLoader.load(contents: try fixture("GitHubSearch.machine.yml"), path: "GitHubSearch.machine.yml")
        #expect(result.diagnostics.map(\.description) == [])
        let spec = try #require(result.spec)
        #expect(spec.name.value == "GitHubSearch")
        #expect(spec.states.map(\.name.value) == ["idle", "loading", "ready", "failed"])
        #expect(spec.events.map(\.source) == [.anyone, .anyone, .effects, .effects])
        #expect(spec.effects.first?.emits.map(\.value) == ["loaded", "failed"])
        #expect(spec.states[3].after.first?.milliseconds == 5_000)
    }
}

@Suite struct MachineSpecQueryTests {
    @Test func anEffectRunsInTheStatesItsInListNames() throws {
        let spec = try #require(SpecLoader.load(contents: try fixture("GitHubSearch.machine.yml"), path: "GitHubSearch.machine.yml").spec?.spec)
        #expect(spec.effects(runningIn: "loading").map(\.name.value) == ["loadNextPage"])
        #expect(spec.effects(runningIn: "idle").isEmpty)
    }
}
