import Foundation
import StateLoopTesting
import Testing

/// The generated reducers, driven event by event: transitions, guards and their else branches,
/// `set:` from the old state, ignored events, timers of earlier entries.
@Suite struct ReducerTests {
    @Test func counterCountsAndTheGuardsElseIgnoresDecrementAtZero() {
        let state = reduced(Counter.State.initial, [.increment, .increment, .decrement, .decrement, .decrement], by: Counter.reduce)
        #expect(state == Counter.State(mode: .counting, count: 0))
        #expect(reduced(state, [.increment, .reset], by: Counter.reduce).count == 0)
    }

    @Test("S35: every set: value is computed from the old state, so a swap swaps")
    func everySetValueIsComputedFromTheOldState() {
        var state = Pair.State.initial
        Pair.reduce(&state, .swap)
        #expect(state == Pair.State(mode: .open, first: 2, second: 1))
        Pair.reduce(&state, .add(amount: 10))
        #expect(state == Pair.State(mode: .open, first: 12, second: 2))
    }

    @Test func aFailingGuardFallsToIgnore() {
        var state = Pair.State.initial
        Pair.reduce(&state, .add(amount: 0))
        #expect(state == Pair.State.initial)
    }

    @Test func ignoredEventsLeaveTheStateAlone() {
        let frozen = reduced(Pair.State.initial, [.freeze], by: Pair.reduce)
        #expect(frozen.mode == .frozen)
        #expect(reduced(frozen, [.swap, .add(amount: 3), .freeze], by: Pair.reduce) == frozen)
    }

    // GitHubSearch with the harness: each step states its whole change (a forgotten field fails),
    // and the page load it starts must be answered or let go.

    @Test func gitHubSearchTypingStartsLoadingAndAnEmptySearchIsIgnored() {
        let test = MachineTest(GitHubSearch.self, state: .initial, coverage: TransitionCoverage())
        test.send(.searchChanged(search: ""))
        test.send(.searchChanged(search: "swift")) {
            $0.mode = .loading
            $0.search = "swift"
            $0.nextPageURL = GitHub.searchURL("swift")
        }
        #expect(test.pendingRuns == [.loadNextPage(GitHub.searchURL("swift")!)])
        test.skipPendingRuns()
        test.finish()
    }

    @Test func gitHubSearchAppendsAPageToTheOldResults() {
        let old = [Repository(name: "a")], request = URL(string: "https://example.invalid/1")!
        let next = URL(string: "https://example.invalid/2")
        let test = MachineTest(
            GitHubSearch.self, state: .init(mode: .loading, search: "s", results: old, nextPageURL: request, lastError: nil),
            coverage: TransitionCoverage())
        test.answer(.loadNextPage(request), with: .loaded(repositories: [Repository(name: "b")], nextURL: next))
        test.receive(.loaded(repositories: [Repository(name: "b")], nextURL: next)) {
            $0.mode = .ready
            $0.results = [Repository(name: "a"), Repository(name: "b")]
            $0.nextPageURL = next
        }
        test.finish()
    }

    @Test func effectsOnlyEventsAreIgnoredWhereNoEffectRuns() {
        // The reducer itself, not the harness: in `idle` no effect runs, so nothing can answer.
        var state = GitHubSearch.State.initial
        GitHubSearch.reduce(&state, .loaded(repositories: [Repository(name: "x")], nextURL: nil))
        GitHubSearch.reduce(&state, .failed(error: .offline))
        #expect(state == .initial)
    }

    @Test func theLastPageStopsScrolling() {
        let test = MachineTest(
            GitHubSearch.self, state: .init(mode: .ready, search: "s", results: [], nextPageURL: nil, lastError: nil),
            coverage: TransitionCoverage())
        test.send(.scrolledNearBottom)
        test.finish()
    }

    @Test func aTimerFiresOnlyForTheEntryThatArmedIt() {
        var state = TrafficLight.State.initial
        let armedAtStart = TrafficLight.Event.Timer(mode: .red, index: 0, entry: state._entries)
        TrafficLight.reduce(&state, .powerFailed)
        TrafficLight.reduce(&state, .powerRestored)
        #expect(state.mode == .red)
        // Red again, but entered anew: the timer of the first visit is stale.
        TrafficLight.reduce(&state, ._timer(armedAtStart))
        #expect(state.mode == .red)
        TrafficLight.reduce(&state, ._timer(.init(mode: .red, index: 0, entry: state._entries)))
        #expect(state.mode == .green)
        #expect(state.cycles == 1)
    }

    @Test func aTimerOfAnotherStateIsIgnored() {
        var state = TrafficLight.State.initial
        TrafficLight.reduce(&state, ._timer(.init(mode: .green, index: 0, entry: state._entries)))
        #expect(state == .initial)
    }

    @Test func keywordNamesWork() {
        var state = Keywords.State.initial
        #expect(state.in == "*/ \"\"\" \\ #")
        Keywords.reduce(&state, .for(let: 2, var: 3))
        #expect(state.let == 2 && state.var == 3)
        Keywords.reduce(&state, .for(let: 5, var: 1))
        #expect(state.let == 5 && state.var == 3)  // `let` + event.var, of the old state
        Keywords.reduce(&state, .switch(case: 0))
        #expect(state.mode == .do)
        Keywords.reduce(&state, .switch(case: 2))
        #expect(state.mode == .repeat)
        #expect(state.default == 2)
        Keywords.reduce(&state, .switch(case: 7))
        #expect(state.in == "7")
        Keywords.reduce(&state, .throw(where: "here"))
        #expect(state.in == "here")
    }

    @Test func modesAreCaseIterable() {
        #expect(GitHubSearch.Mode.allCases == [.idle, .loading, .ready, .failed])
    }
}
