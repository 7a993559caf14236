import Foundation
import StateLoop
import StateLoopTestSupport
import Testing

/// Edges.machine.yml: two timers in one state, a guarded timer, an internal transition that does
/// not re-arm timers, an optional request value, and an event both the user and an effect send.
@Suite(.timeLimit(.minutes(1)))
struct EdgesTests {
    struct CountingSearch: Edges.Effects {
        func search(_ request: String) async -> Edges.SearchResult {
            request.isEmpty ? .noHit : .hit(count: request.count)
        }
    }

    @Test func anInternalTransitionSetsWithoutEntering() {
        var state = Edges.State.initial
        Edges.reduce(&state, .typed(text: "a"))
        #expect(state == Edges.State(mode: .waiting, query: "a", hits: 0, _entries: 0))
        Edges.reduce(&state, .poke)
        Edges.reduce(&state, .hit(count: 9))
        #expect(state == Edges.State(mode: .waiting, query: "a", hits: 0, _entries: 0))
    }

    @Test func aGuardedTimerFallsToIgnoreAndTheOtherTimerStillFires() async throws {
        let clock = ManualClock()
        let (events, eventSink) = AsyncStream.makeStream(of: Edges.Event.self)
        let system = Edges.system(effects: CountingSearch(), clock: clock).observingEvents { event, _ in eventSink.yield(event) }
        let (run, states) = system.start()
        let start = clock.now
        await clock.waitForSleepers { $0.sorted() == [start.advanced(by: .seconds(1)), start.advanced(by: .seconds(5))] }

        clock.advance(by: .seconds(1))  // nothing typed: the 1 s timer's guard fails, `ignore`
        let fired = await firstState(in: events) { if case ._timer = $0 { true } else { false } }
        #expect(fired == ._timer(Edges.Event.Timer(mode: .waiting, index: 0, entry: 0)))
        run.send(.typed(text: "too late"))  // internal: sets the query, re-arms nothing
        await clock.waitForSleepers { $0 == [start.advanced(by: .seconds(5))] }
        #expect(clock.now == start.advanced(by: .seconds(1)))

        clock.advance(by: .seconds(4))  // the 5 s timer: waiting -> waiting, both timers re-armed
        let restarted = try #require(await firstState(in: states) { $0._entries == 1 })
        #expect(restarted.mode == .waiting)
        #expect(restarted.query == "too late")

        let now = clock.now
        await clock.waitForSleepers { $0.sorted() == [now.advanced(by: .seconds(1)), now.advanced(by: .seconds(5))] }
        clock.advance(by: .seconds(1))  // query set: searching; the effect answers `hit`, back to waiting
        let searched = try #require(await firstState(in: states) { $0.hits > 0 })
        #expect(searched.mode == .waiting)
        #expect(searched.hits == "too late".count)
        run.stop()
    }
}
