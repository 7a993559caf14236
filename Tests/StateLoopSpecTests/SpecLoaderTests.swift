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
    @Test func effectsOnlyEventsArriveOnlyWhereAnEmittingEffectRuns() throws {
        let spec = try #require(SpecLoader.load(contents: try fixture("GitHubSearch.machine.yml"), path: "GitHubSearch.machine.yml").spec?.spec)
        let loaded = try #require(spec.events.first { $0.name.value == "loaded" })
        let searchChanged = try #require(spec.events.first { $0.name.value == "searchChanged" })
        #expect(spec.effects(runningIn: "loading").map(\.name.value) == ["loadNextPage"])
        #expect(spec.effects(runningIn: "idle").isEmpty)
        #expect(spec.event(loaded, canArriveIn: "loading"))
        #expect(!spec.event(loaded, canArriveIn: "ready"))
        #expect(spec.event(searchChanged, canArriveIn: "ready"))
    }
}
