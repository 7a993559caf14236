import Foundation
import StateLoop
import StateLoopTestSupport
import Testing

/// The generated `system(...)` running on the StateLoop runtime with fake effects and a manual
/// clock: requests reach the effects, results come back as events, timers fire and re-arm.
@Suite(.timeLimit(.minutes(1)))
struct SystemTests {
    /// A GitHub that answers from a table and records what it was asked.
    struct FakeGitHub: GitHubSearch.Effects {
        let answers: @Sendable (URL, Int) -> GitHubSearch.LoadNextPageResult
        let requests = StateRecorder<URL>()

        func loadNextPage(_ request: URL) async -> GitHubSearch.LoadNextPageResult {
            requests.record(request)
            return answers(request, requests.states.count)
        }
    }

    @Test func counterRunsWithoutEffects() {
        let recorder = StateRecorder<Counter.State>()
        let run = Counter.system().start { recorder.record($0) }
        run.send(.increment)
        run.send(.decrement)
        run.send(.decrement)
        run.stop()
        #expect(recorder.states.map(\.count) == [0, 1, 0, 0])
    }

    @Test func aRequestRunsTheEffectAndItsResultIsReduced() async throws {
        let page = [Repository(name: "swift-mustache")]
        let github = FakeGitHub { _, _ in .loaded(repositories: page, nextURL: nil) }
        let (run, states) = GitHubSearch.system(effects: github, clock: ManualClock()).start()
        run.send(.searchChanged(search: "mustache"))
        let ready = try #require(await firstState(in: states) { $0.mode == .ready })
        #expect(ready.results == page)
        #expect(github.requests.states == [GitHub.searchURL("mustache")].compactMap { $0 })
        run.stop()
    }

    @Test func aFailureWaitsForTheTimerThenRetries() async throws {
        let clock = ManualClock()
        let page = [Repository(name: "retried")]
        let github = FakeGitHub { _, attempt in attempt == 1 ? .failed(error: .rateLimited) : .loaded(repositories: page, nextURL: nil) }
        let (run, states) = GitHubSearch.system(effects: github, clock: clock).start()
        run.send(.searchChanged(search: "retry"))
        let failed = try #require(await firstState(in: states) { $0.mode == .failed })
        #expect(failed.lastError == .rateLimited)
        await clock.waitForOneSleeper(wakingIn: .seconds(5))
        clock.advance(by: .seconds(5))
        let ready = try #require(await firstState(in: states) { $0.mode == .ready })
        #expect(ready.results == page)
        #expect(ready.lastError == nil)
        #expect(github.requests.states.count == 2)
        run.stop()
    }

    @Test func timersDriveTheTrafficLight() async throws {
        let clock = ManualClock()
        let (run, states) = TrafficLight.system(clock: clock).start()
        for (delay, next) in [(4, TrafficLight.Mode.green), (5, .yellow), (1, .red)] {
            await clock.waitForOneSleeper(wakingIn: .seconds(delay))
            clock.advance(by: .seconds(delay))
            let state = try #require(await firstState(in: states) { $0.mode == next })
            #expect(state.mode == next)
        }
        run.stop()
    }

    @Test func enteringAStateAgainRestartsItsTimer() async throws {
        struct Deferring: Keywords.Effects {
            func `defer`(_ request: Int) async -> Keywords.DeferResult { .throw(where: "deferred \(request)") }
        }
        let clock = ManualClock()
        let (run, states) = Keywords.system(effects: Deferring(), clock: clock).start()
        run.send(.return)
        let firstEntry = try #require(await firstState(in: states) { $0.mode == .repeat })
        await clock.waitForOneSleeper(wakingIn: .seconds(1))
        clock.advance(by: .milliseconds(600))
        // repeat -> repeat: an external self-transition re-arms the 1 s timer from now.
        run.send(.return)
        let secondEntry = try #require(await firstState(in: states) { $0._entries > firstEntry._entries })
        #expect(secondEntry.mode == .repeat)
        await clock.waitForOneSleeper(wakingIn: .seconds(1))
        // 1.2 s after the first entry: the first timer is gone, only the re-armed one sleeps.
        clock.advance(by: .milliseconds(600))
        let rearmed = clock.now.advanced(by: .milliseconds(400))
        await clock.waitForSleepers { $0 == [rearmed] }
        clock.advance(by: .milliseconds(400))
        let fired = try #require(await firstState(in: states) { $0.mode == .do })
        #expect(fired._entries == secondEntry._entries + 1)
        run.stop()
    }
}
