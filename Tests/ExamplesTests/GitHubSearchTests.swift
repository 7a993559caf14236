// GitHubSearch.machine.yml tested step by step with the StateLoopTesting harness: every state
// change, every page load and the retry timer are asserted, and nothing runs by itself.
// Docs/Testing.md shows this test.
import Foundation
import StateLoop
import StateLoopExamples
@_spi(Internals) import StateLoopTesting
import Testing

@Suite struct GitHubSearchTests {
    let page1 = GitHub.searchURL("swift")!
    let page2 = URL(string: "https://api.github.com/search/repositories?q=swift&page=2")!
    let nio = Repository(name: "swift-nio"), syntax = Repository(name: "swift-syntax")

    @Test func searchesLoadsPagesAndRetriesAFailedPageOnItsTimer() {
        // Recorded in `TransitionCoverage.shared`, as a test does by default: the other tests of
        // this suite record in their own, so the report below is this test's alone.
        let test = MachineTest(GitHubSearch.self, state: .initial)

        // An empty search does nothing; a real one starts loading its first page.
        test.send(.searchChanged(search: ""))
        test.send(.searchChanged(search: "swift")) {
            $0.mode = .searching(.loading)
            $0.search = "swift"
            $0.nextPageURL = page1
        }
        #expect(test.pendingRuns == [.loadNextPage(page1)])

        // The effect answers; the answer is an event the test receives.
        test.answer(.loadNextPage(page1), with: .loaded(repositories: [nio], nextURL: page2))
        test.receive(.loaded(repositories: [nio], nextURL: page2)) {
            $0.mode = .searching(.ready)
            $0.results = [nio]
            $0.nextPageURL = page2
        }

        // Scrolling loads the next page, which fails: the machine waits five seconds.
        test.send(.scrolledNearBottom) { $0.mode = .searching(.loading) }
        test.answer(.loadNextPage(page2), with: .failed(error: .offline))
        test.receive(.failed(error: .offline)) {
            $0.mode = .searching(.failed)
            $0.lastError = .offline
        }
        #expect(test.armedTimers.map(\.delay) == [.seconds(5)])

        // Time moves only when the test says; the timer retries the same page.
        test.advance(by: .seconds(4))
        #expect(test.queuedEvents.isEmpty)
        test.advance(by: .seconds(1))
        test.receive(timer: .failed) {
            $0.mode = .searching(.loading)
            $0.lastError = nil
        }
        test.answer(.loadNextPage(page2), with: .loaded(repositories: [syntax], nextURL: nil))
        test.receive(.loaded(repositories: [syntax], nextURL: nil)) {
            $0.mode = .searching(.ready)
            $0.results = [nio, syntax]
            $0.nextPageURL = nil
        }

        // The last page: scrolling does nothing. A new search starts over.
        test.send(.scrolledNearBottom)
        test.send(.searchChanged(search: "vapor")) {
            $0.mode = .searching(.loading)
            $0.search = "vapor"
            $0.results = []
            $0.nextPageURL = GitHub.searchURL("vapor")
        }
        // The search is left loading: its run must be answered or explicitly let go.
        #expect(test.pendingRuns == [.loadNextPage(GitHub.searchURL("vapor")!)])
        test.skipPendingRuns()
        test.finish()

        // What this test did not take, at the YAML lines of Specs/GitHubSearch.machine.yml.
        let report = TransitionCoverage.shared.report(GitHubSearch.self, specDirectory: "Specs")
        #expect(report.summary == "GitHubSearch: 6/7 transitions taken, 2/4 ignores")
        #expect(report.warnings == [
            "Specs/GitHubSearch.machine.yml:28:14: warning: transition never taken in tests: idle --scrolledNearBottom--> (ignored)",
            "Specs/GitHubSearch.machine.yml:38:18: warning: transition never taken in tests: loading --scrolledNearBottom--> (ignored)",
            "Specs/GitHubSearch.machine.yml:48:31: warning: transition never taken in tests: failed --scrolledNearBottom--> loading",
        ])
        // T12's example in Docs/Testing.md, as `report(_:)` prints it without a directory.
        #expect(TransitionCoverage.shared.report(GitHubSearch.self).description == """
            GitHubSearch.machine.yml:28:14: warning: transition never taken in tests: idle --scrolledNearBottom--> (ignored)
            GitHubSearch.machine.yml:38:18: warning: transition never taken in tests: loading --scrolledNearBottom--> (ignored)
            GitHubSearch.machine.yml:48:31: warning: transition never taken in tests: failed --scrolledNearBottom--> loading
            GitHubSearch: 6/7 transitions taken, 2/4 ignores
            """)
    }

    /// The harness's own reason to exist: a test that forgets a change fails, and says which.
    @Test func aStateChangeTheTestDoesNotStateFailsWithADiffOfThatField() {
        var sendLine: UInt = 0
        let failures = withRecordedFailures {
            let test = MachineTest(GitHubSearch.self, state: .initial, coverage: TransitionCoverage())
            sendLine = #line; test.send(.searchChanged(search: "swift")) {
                $0.mode = .searching(.loading)
                $0.search = "swift"
                // nextPageURL forgotten
            }
            test.skipPendingRuns()
        }
        #expect(failures.map(\.message) == [
            """
            send(.searchChanged(search: "swift")): the state does not match the expectation (− expected, + actual):

              GitHubSearch.State(
                mode: .searching(.loading),
                search: "swift",
                results: [],
            −   nextPageURL: nil,
            +   nextPageURL: https://api.github.com/search/repositories?q=swift&page=1,
                lastError: nil
              )
            """,
        ])
        #expect(failures.map(\.line) == [sendLine])
    }

    /// Every branch of the spec, reached by walking its generated path with the harness: the
    /// test fills in the payloads so that the guards each step assumes hold (or fail).
    @Test("P14: every generated path, walked with the harness, takes its branch")
    func everyGeneratedPathTakesItsBranch() throws {
        let paths = GitHubSearch.paths
        #expect(paths.truncation == nil && paths.unreachable.isEmpty)
        #expect(paths.transitions.count == GitHubSearch.transitions.count)
        for (id, steps) in paths.transitions.sorted(by: { $0.key < $1.key }) {
            let coverage = TransitionCoverage()
            let test = MachineTest(GitHubSearch.self, state: .initial, coverage: coverage)
            test.checksState = false
            // A later step that needs a next page decides what the page load answers.
            let morePages = steps.contains { $0.holding.contains("nextPageURL != nil") }
            for step in steps {
                switch step.trigger {
                case .event("searchChanged"):
                    test.send(.searchChanged(search: step.failing.contains("!event.search.isEmpty") ? "" : "swift"))
                case .event("scrolledNearBottom"):
                    test.send(.scrolledNearBottom)
                case .event(let name):
                    // An effect's answer: the pending run of that effect answers with it.
                    let event: GitHubSearch.Event = name == "loaded"
                        ? .loaded(repositories: [nio], nextURL: morePages ? page2 : nil)
                        : .failed(error: .offline)
                    let run = try #require(test.pendingRuns.last { GitHubSearch.result(event, of: $0) != nil })
                    test.answer(run, with: event)
                    test.receive(event)
                case .timer(let state, let index):
                    let timer = try #require(test.armedTimers.first { $0.state == state && $0.index == index })
                    test.advance(by: timer.delay)
                    test.receive(timer: state, index: index)
                case .always, .onDone, .raised:
                    break  // microsteps and raised events: the step before took them
                case .sent:
                    // The delivery of a pending send (S150): when it is due, it is queued.
                    test.advance(by: try #require(test.timeUntilNextDue))
                    test.skipReceivedEvents()
                }
            }
            #expect(coverage.taken(GitHubSearch.self).contains(id), "\(GitHubSearch.transitions[id]) via \(steps)")
            test.skipPendingRuns()
            test.skipTimers()
            test.finish()
        }
    }
}
