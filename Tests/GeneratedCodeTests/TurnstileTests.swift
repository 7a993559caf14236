import Foundation
import StateLoop
import StateLoopTestSupport
import Testing

/// Turnstile.machine.yml (the spec front end's every-feature fixture), run end to end.
@Suite(.timeLimit(.minutes(1)))
struct TurnstileTests {
    /// Records the alarms it was asked to log.
    struct AlarmLog: Turnstile.Effects {
        let logged = StateRecorder<String>()

        func logAlarm(_ request: String) async -> Turnstile.LogAlarmResult {
            logged.record(request)
            return .logged(ok: true)
        }
    }

    @Test func aSmallCoinIsKeptAndABigOneUnlocks() {
        var state = Turnstile.State.initial
        Turnstile.reduce(&state, .coin(value: 20))
        #expect(state == .initial)
        Turnstile.reduce(&state, .coin(value: 50))
        #expect(state.mode == .unlocked)
        Turnstile.reduce(&state, .coin(value: 20))  // internal: counted, still unlocked
        #expect(state == Turnstile.State(mode: .unlocked, coins: 70, passes: 0, alarm: nil, _entries: 1))
        Turnstile.reduce(&state, .push)
        #expect(state == Turnstile.State(mode: .locked, coins: 70, passes: 1, alarm: nil, _entries: 2))
    }

    @Test func nobodyComingThroughLocksAgainAfterTenSeconds() async throws {
        let clock = ManualClock()
        let (run, states) = Turnstile.system(effects: AlarmLog(), clock: clock).start()
        run.send(.coin(value: 100))
        await clock.waitForOneSleeper(wakingIn: .seconds(10))
        clock.advance(by: .seconds(10))
        let relocked = try #require(await firstState(in: states) { $0.mode == .locked && $0._entries == 2 })
        #expect(relocked.coins == 100)
        run.stop()
    }

    @Test func forcingTheTurnstileLogsTheAlarmOnce() async throws {
        let log = AlarmLog()
        let (events, eventSink) = AsyncStream.makeStream(of: Turnstile.Event.self)
        let system = Turnstile.system(effects: log, clock: ManualClock()).observingEvents { event, _ in eventSink.yield(event) }
        // Keep `states`: dropping the state sequence stops the system.
        let (run, states) = system.start()
        run.send(.push)
        let broken = try #require(await firstState(in: states) { $0.mode == .broken })
        #expect(broken.alarm == "forced")
        let answer = await firstState(in: events) { $0 == .logged(ok: true) }
        #expect(answer == .logged(ok: true))
        #expect(log.logged.states == ["forced"])
        run.send(.reset)
        run.stop()
    }
}
