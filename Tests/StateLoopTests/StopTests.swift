// Semantics 6: stopping the system cancels all effects and releases everything - whether it is
// stopped, its handle released, or its observer gone.

import Dispatch
import Foundation
import StateLoop
import StateLoopTestSupport
import Testing

/// A value whose release the test can see.
private final class Token: Sendable {
    let freed: Recorder<String>
    init(freed: Recorder<String>) { self.freed = freed }
    deinit { freed.append("freed") }
}

/// A state that owns a `Token` once `.increment` was reduced.
private struct Holding: Sendable {
    var token: Token?
}

/// What a test sees of effect starts around one `stop()`: whether it has returned, and which
/// starts came after. One lock orders the marks with the effects' own reports.
private final class StopWatch: @unchecked Sendable {
    private let lock = NSLock()
    private var stopReturned = false
    private var lateLaunches = 0
    private var lateStarts = 0

    /// Called by the stopping thread right after `stop()` returned.
    func markStopReturned() { lock.withLock { stopReturned = true } }

    /// Called by a feedback's request, which starts a new effect run on every state here.
    func noteLaunch() { lock.withLock { if stopReturned { lateLaunches += 1 } } }

    /// Called by an effect as it begins. A run cancelled before `stop()` returned may still be
    /// scheduled after it: only a run that is not cancelled counts as started.
    func noteStart() { lock.withLock { if stopReturned && !Task.isCancelled { lateStarts += 1 } } }

    var late: (launches: Int, starts: Int) { lock.withLock { (lateLaunches, lateStarts) } }
}

@Suite(.bothStartModes) struct StopTests {
    @Test func stoppingCancelsEveryEffect() async {
        let probe = EffectProbe()
        let clock = ManualClock()
        let system = System<Model, Action>(
            initial: Model(query: 1, queries: [10, 11]), reduce: reduceModel,
            feedbacks: [
                .react(request: { $0.query }, effect: { await probe.runUntilCancelled($0) }),
                .react(requests: { $0.queries }, effect: { await probe.runUntilCancelled($0) }),
                .timer(request: { $0.query }, clock: clock, delay: { _ in .seconds(1) }, event: { _ in .increment }),
            ])
        let states = Recorder<Model>()
        let run = system.start { states.append($0) }
        #expect(Set(await probe.reports.next(3)) == [.started(1), .started(10), .started(11)])
        await clock.waitForSleepers(count: 1)

        run.stop()

        #expect(Set(await probe.reports.next(3)) == [.cancelled(1), .cancelled(10), .cancelled(11)])
        #expect(clock.sleeperCount == 0)
        // A stopped system ignores events.
        run.send(.increment)
        #expect(states.all.map(\.count) == [0])
    }

    @Test func stoppingFinishesTheStateSequence() async {
        let system = System<Model, Action>(initial: Model(), reduce: reduceModel, feedbacks: [])
        let (run, states) = system.start()
        run.send(.increment)

        run.stop()
        var seen: [Int] = []
        for await state in states { seen.append(state.count) }

        #expect(seen == [0, 1])
    }

    /// A system with one effect that runs until cancelled; `watch` notes each time its request is
    /// read (a launch may follow) and each time the effect begins.
    private func watchedSystem(_ watch: StopWatch, request: @escaping @Sendable (Model) -> Int?) -> System<Model, Action> {
        System<Model, Action>(
            initial: Model(), reduce: reduceModel,
            feedbacks: [
                .react(
                    request: { state in
                        watch.noteLaunch()
                        return request(state)
                    },
                    effect: { value in
                        watch.noteStart()
                        await untilCancelled()
                        return .loaded(value)
                    })
            ])
    }

    @Test func noEffectStartsAfterStopFromAnotherThreadReturns() async {
        // A drainer that never rests: every state sends the next event at once and changes the
        // request, so every state starts a new effect run. Another thread stops it mid-delivery.
        var watches: [StopWatch] = []
        for round in 0..<200 {
            let watch = StopWatch()
            watches.append(watch)
            let handle = Box<SystemRun<Model, Action>?>(nil)
            let delivering = DispatchSemaphore(value: 0)
            let stopAt = 1 + round % 40
            let system = watchedSystem(watch) { $0.count }
            let run = system.start { state in
                guard state.count > 0 else { return }
                if state.count == stopAt { delivering.signal() }
                handle.value?.send(.increment)
            }
            handle.value = run

            async let drainer: Void = onOwnThread { run.send(.increment) }  // returns once stopped
            async let stopper: Void = onOwnThread {
                delivering.wait()
                run.stop()
                watch.markStopReturned()
            }
            _ = await (drainer, stopper)
            handle.value = nil
        }
        // Checked after all rounds, so that the effect tasks of every round but the last have
        // had time to begin (one still pending can only hide a late start, not invent one).
        let late = watches.map(\.late).filter { $0.launches > 0 || $0.starts > 0 }
        #expect(late.count == 0, "rounds with an effect started after stop() returned, e.g. \(late.first.map { "\($0)" } ?? "")")
    }

    @Test func noEffectStartsAfterStopFromTheObserverReturns() {
        // The drainer stops its own system while delivering a state whose request is new.
        let watch = StopWatch()
        let handle = Box<SystemRun<Model, Action>?>(nil)
        let system = watchedSystem(watch) { $0.query }
        let run = system.start { state in
            guard state.query == 1 else { return }
            handle.value?.stop()
            watch.markStopReturned()
        }
        handle.value = run

        run.send(.query(1))

        #expect(watch.late.launches == 0)
        handle.value = nil
    }

    @Test(arguments: 0..<7)
    func stopFromAFeedbackSkipsEveryLaterFeedback(stoppingLoop: Int) {
        // Seven loops (the runtime calls them in groups of up to three): every loop sees every
        // state in order until loop `stoppingLoop` stops the system from its request; the loops
        // after it never see that state.
        let seen = Recorder<String>()
        let handle = Box<SystemRun<Model, Action>?>(nil)
        let feedbacks = (0..<7).map { loop in
            Feedback<Model, Action>.react(
                request: { (state: Model) -> Int? in
                    seen.append("\(loop) sees \(state.count)")
                    if loop == stoppingLoop && state.count == 2 { handle.value?.stop() }
                    return nil
                },
                effect: { _ in .increment })
        }
        let system = System<Model, Action>(initial: Model(), reduce: reduceModel, feedbacks: feedbacks)
        let run = system.start { _ in }
        handle.value = run
        run.send(.increment)
        run.send(.increment)
        run.send(.increment)  // dropped: stopped

        let expected = (0...2).flatMap { count in
            (0..<7).filter { count < 2 || $0 <= stoppingLoop }.map { "\($0) sees \(count)" }
        }
        #expect(seen.all == expected)
        handle.value = nil
    }

    @Test func releasingTheHandleStopsTheSystemAndFreesItsState() async {
        let probe = EffectProbe()
        let freed = Recorder<String>()
        let system = System<Holding, Action>(
            initial: Holding(), reduce: { state, _ in state.token = Token(freed: freed) },
            feedbacks: [.react(request: { _ in 1 }, effect: { await probe.runUntilCancelled($0) })])
        do {
            let run = system.start { _ in }
            run.send(.increment)
            #expect(await probe.reports.next(1) == [.started(1)])
            #expect(freed.all == [])
        }
        // The handle is gone: the instance, its state and its effects go with it.
        #expect(freed.all == ["freed"])
        #expect(await probe.reports.next(1) == [.cancelled(1)])
    }

    @Test func endingTheObservationStopsTheSystem() async {
        let probe = EffectProbe()
        let system = System<Model, Action>(
            initial: Model(query: 1), reduce: reduceModel,
            feedbacks: [.react(request: { $0.query }, effect: { await probe.runUntilCancelled($0) })])
        let (run, states) = system.start()
        let observer = Task {
            for await _ in states {}
        }
        #expect(await probe.reports.next(1) == [.started(1)])

        observer.cancel()

        #expect(await probe.reports.next(1) == [.cancelled(1)])
        withExtendedLifetime(run) {}
    }
}
