import Foundation
import StateLoopTesting
import Testing

/// The promises to v1 specs (flat, none of the statechart keys) in Docs/Statecharts.md: they
/// keep their meaning (S78) and their generated API compiles unchanged (S79), whichever writer
/// prints them. TrafficLight and Turnstile are v1 specs with timers, GitHubSearch one with an effect.
@Suite struct V1FormatTests {
    @Test func s78AV1SpecKeepsItsMeaning() {
        // Timers, a guard with an `ignore` else, an internal transition, a machine-wide ignore:
        // the states, fields and entry counts v1 gave, step by step.
        var light = TrafficLight.State.initial
        var visited: [TrafficLight.Mode] = [light.mode]
        for event: TrafficLight.Event in [.pedestrianWaiting, .powerRestored, .powerFailed, .powerFailed, .powerRestored] {
            TrafficLight.reduce(&light, event)
            visited.append(light.mode)
        }
        for _ in 0..<3 {
            let timed = light.mode
            TrafficLight.reduce(&light, ._timer(.init(mode: timed, index: 0, entry: light._entries)))
            visited.append(light.mode)
        }
        #expect(visited == [.red, .red, .red, .flashing, .flashing, .red, .green, .yellow, .red])
        #expect(light == TrafficLight.State(mode: .red, cycles: 1, _entries: 5))

        let turnstile = reduced(Turnstile.State.initial, [.coin(value: 20), .coin(value: 50), .coin(value: 5), .push, .push, .coin(value: 1), .logged(ok: true), .reset], by: Turnstile.reduce)
        #expect(turnstile == Turnstile.State(mode: .locked, coins: 55, passes: 1, alarm: nil, _entries: 4))

        // An effect's request where it runs, and the effects-only events ignored where none runs.
        #expect(reduced(GitHubSearch.State.initial, [.loaded(repositories: [], nextURL: nil)], by: GitHubSearch.reduce) == .initial)
        let test = MachineTest(GitHubSearch.self, state: .initial, coverage: TransitionCoverage())
        test.send(.searchChanged(search: "v1")) {
            $0.mode = .loading
            $0.search = "v1"
            $0.nextPageURL = GitHub.searchURL("v1")
        }
        #expect(test.pendingRuns == [.loadNextPage(GitHub.searchURL("v1")!)])
        test.skipPendingRuns()
        test.finish()
    }

    @Test func s79AV1SpecsGeneratedAPICompilesUnchanged() {
        // `Mode`: payload-free cases, `CaseIterable`, compared with `==`.
        #expect(TrafficLight.Mode.allCases == [.red, .green, .yellow, .flashing])
        let state = TrafficLight.State(mode: .green, cycles: 2, _entries: 3)
        #expect(state.mode == .green)
        #expect(state._entries == 3)
        // The timer event a test builds, by mode; its description names the state.
        let timer = TrafficLight.Event.Timer(mode: .green, index: 0, entry: state._entries)
        #expect(timer.description == "after #0 in green")
        #expect(timer.mode == .green && timer.index == 0 && timer.entry == 3)
        var next = state
        TrafficLight.reduce(&next, ._timer(timer))
        #expect(next == TrafficLight.State(mode: .yellow, cycles: 2, _entries: 4))
        // Every effect type stays: the `Effects` method, its result enum.
        let result: GitHubSearch.LoadNextPageResult = .failed(error: .offline)
        #expect(result == .failed(error: .offline))
        // The additions: `isIn`, `StateName`, `isDone`.
        #expect(state.isIn(.green) && !state.isIn(TrafficLight.StateName.red) && !state.isDone)
    }
}
