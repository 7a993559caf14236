// E65-E69: the phases of one instance and every change between them (Docs/Runtime.md,
// "InstanceLifecycle"), driven a transition at a time on `SystemLifecycle`, the one value that holds them.

import Foundation
@testable import StateLoop
import Testing

private typealias InstanceLifecycle = SystemLifecycle<String, Int>

/// The phase in words, with the thread it names (`me`, the caller, or `other`) and what it carries.
private func describe(_ lifecycle: InstanceLifecycle, me: PlatformThread, other: PlatformThread) -> String {
    func name(_ thread: PlatformThread) -> String {
        isSameThread(thread, me) ? "me" : isSameThread(thread, other) ? "other" : "a third thread"
    }
    let carried = (lifecycle.finished.map { ", \($0)" } ?? "") + (lifecycle.latch == nil ? "" : ", latch")
    switch lifecycle.phase {
    case .draining: return "draining(\(name(lifecycle.drainer)))" + carried
    case .idle: return "idle" + carried
    case .handedOn: return "handedOn" + carried
    case .awaitingDurability: return "awaitingDurability" + carried
    case .finishing: return "finishing(\(name(lifecycle.drainer)))" + carried
    case .stopping: return "stopping(\(name(lifecycle.drainer)))" + carried
    case .waitingForRuns: return "waitingForRuns" + carried
    case .ended: return "ended" + carried
    }
}

/// Runs `body` with the identity of another thread, alive (so its identity is not reused) until
/// `body` returns.
private func withOtherThread<T>(_ body: (PlatformThread) -> T) -> T {
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var other: PlatformThread?
    let thread = Thread {
        other = currentThread()
        started.signal()
        release.wait()
    }
    thread.start()
    started.wait()
    defer { release.signal() }
    return body(other!)
}

private func pending(_ event: Int) -> InstanceLifecycle.Pending { InstanceLifecycle.Pending(event: event, run: nil) }

/// The events a drainer takes until it is told something else, and what it is told.
private func drainAll(_ lifecycle: inout InstanceLifecycle, budget: Int = 10) -> (events: [Int], then: String) {
    var events: [Int] = []
    while true {
        switch lifecycle.next(budgetLeft: budget - events.count) {
        case .reduce(let pending): events.append(pending.event)
        case .show(let count): return (events, "show \(count)")
        case .done: return (events, "done")
        case .handOn: return (events, "handOn")
        case .tearDown: return (events, "tearDown")
        }
    }
}

@Suite struct LifecycleTests {
    // MARK: E65. Running

    @Test("E65: starterDrainsUntilTheQueueRunsEmptyAndTheNextSenderTakesTheRole") func starterDrainsUntilTheQueueRunsEmptyAndTheNextSenderTakesTheRole() {
        withOtherThread { other in
            let me = currentThread()
            var lifecycle = InstanceLifecycle(startingOn: me)
            #expect(describe(lifecycle, me: me, other: other) == "draining(me)")

            // While the starter drains, sends from anywhere are queued.
            guard case .queued = lifecycle.send(pending(1), from: other) else { Issue.record("not queued"); return }
            guard case .queued = lifecycle.send(pending(2), from: me) else { Issue.record("not queued"); return }
            let drained = drainAll(&lifecycle)
            #expect(drained.events == [1, 2] && drained.then == "done")
            #expect(describe(lifecycle, me: me, other: other) == "idle")

            // Idle: the sender takes the role and reduces its event itself, without the queue.
            guard case .reduceNow = lifecycle.send(pending(3), from: other) else { Issue.record("not taken"); return }
            #expect(describe(lifecycle, me: me, other: other) == "draining(other)")
            #expect(lifecycle.queue.isEmpty)
        }
    }

    @Test("E65: drainerHandsOnWhenItsBudgetIsSpentAndATaskTakesTheRole") func drainerHandsOnWhenItsBudgetIsSpentAndATaskTakesTheRole() {
        withOtherThread { other in
            let me = currentThread()
            var lifecycle = InstanceLifecycle(startingOn: me)
            for event in 1...3 { _ = lifecycle.send(pending(event), from: me) }

            let drained = drainAll(&lifecycle, budget: 2)
            #expect(drained.events == [1, 2] && drained.then == "handOn")
            #expect(describe(lifecycle, me: me, other: other) == "handedOn")
            // Handed on, the role is nobody's: a send only queues.
            guard case .queued = lifecycle.send(pending(4), from: me) else { Issue.record("not queued"); return }

            let resumed = lifecycle.resume(on: other)
            #expect(resumed)
            #expect(describe(lifecycle, me: me, other: other) == "draining(other)")
            let rest = drainAll(&lifecycle)
            #expect(rest.events == [3, 4])
        }
    }

    // MARK: E66. Stopping

    @Test("E66: stopOfAnInstanceNobodyDrainsTearsDownOnTheCaller") func stopOfAnInstanceNobodyDrainsTearsDownOnTheCaller() {
        withOtherThread { other in
            let me = currentThread()
            var idle = InstanceLifecycle(startingOn: other)
            _ = drainAll(&idle)
            var dropped = InstanceLifecycle.Dropped()
            guard case .tearDown = idle.stop(on: me, dropping: &dropped) else { Issue.record("no teardown"); return }
            #expect(describe(idle, me: me, other: other) == "stopping(me)")

            // Handed on: the caller takes the role from the task, with the events it would have reduced.
            var handedOn = InstanceLifecycle(startingOn: other)
            for event in 1...3 { _ = handedOn.send(pending(event), from: other) }
            _ = drainAll(&handedOn, budget: 1)
            dropped = InstanceLifecycle.Dropped()
            guard case .tearDown = handedOn.stop(on: me, dropping: &dropped) else { Issue.record("no teardown"); return }
            #expect(dropped.queue.map(\.event) == [2, 3])
            #expect(describe(handedOn, me: me, other: other) == "stopping(me)")
            let resumed = handedOn.resume(on: other)
            #expect(!resumed)
        }
    }

    @Test("E66: stopFromTheDrainerReturnsAtOnceAndStopFromAnotherThreadWaitsForIt") func stopFromTheDrainerReturnsAtOnceAndStopFromAnotherThreadWaitsForIt() {
        withOtherThread { other in
            let me = currentThread()
            var lifecycle = InstanceLifecycle(startingOn: me)
            _ = lifecycle.send(pending(1), from: other)

            var dropped = InstanceLifecycle.Dropped()
            guard case .fromInside = lifecycle.stop(on: me, dropping: &dropped) else { Issue.record("not from inside"); return }
            #expect(dropped.queue.map(\.event) == [1])
            #expect(describe(lifecycle, me: me, other: other) == "stopping(me)")

            guard case .wait(let latch) = lifecycle.stop(on: other, dropping: &dropped) else { Issue.record("no wait"); return }
            #expect(describe(lifecycle, me: me, other: other) == "stopping(me), latch")
            guard case .wait(let same) = lifecycle.stop(on: other, dropping: &dropped) else { Issue.record("no wait"); return }
            #expect(same === latch)

            // Stopping: later events are dropped, and the drainer is told to tear down.
            guard case .dropped = lifecycle.send(pending(2), from: other) else { Issue.record("not dropped"); return }
            let step = drainAll(&lifecycle)
            #expect(step.then == "tearDown")
            guard case .stop = lifecycle.loopsStopped() else { Issue.record("not a stop"); return }
            let opened = lifecycle.ended()
            #expect(opened === latch)
            #expect(describe(lifecycle, me: me, other: other) == "ended")
        }
    }

    // MARK: E67. Finishing

    @Test("E67: finishedInstanceDropsEventsThenWaitsForItsRunsThenEnds") func finishedInstanceDropsEventsThenWaitsForItsRunsThenEnds() {
        withOtherThread { other in
            let me = currentThread()
            var lifecycle = InstanceLifecycle(startingOn: me)
            _ = lifecycle.send(pending(1), from: other)

            var dropped = InstanceLifecycle.Dropped()
            lifecycle.finish("done", dropping: &dropped)
            #expect(dropped.queue.map(\.event) == [1])
            #expect(describe(lifecycle, me: me, other: other) == "finishing(me), done")
            guard case .dropped = lifecycle.send(pending(2), from: other) else { Issue.record("not dropped"); return }
            let step = drainAll(&lifecycle)
            #expect(step.then == "tearDown")

            guard case .afterRuns = lifecycle.loopsStopped() else { Issue.record("no wait for runs"); return }
            #expect(describe(lifecycle, me: me, other: other) == "waitingForRuns, done")
            let returned = lifecycle.runsReturned()
            #expect(returned.ends && returned.finished == "done")
            #expect(describe(lifecycle, me: me, other: other) == "ended")
        }
    }

    // MARK: E68. Stopping a finish

    @Test("E68: stopWhileFinishingMakesItAStopAndStopWhileWaitingForRunsEndsAtOnce") func stopWhileFinishingMakesItAStopAndStopWhileWaitingForRunsEndsAtOnce() {
        withOtherThread { other in
            let me = currentThread()
            var finishing = InstanceLifecycle(startingOn: other)
            var dropped = InstanceLifecycle.Dropped()
            finishing.finish("done", dropping: &dropped)
            guard case .wait = finishing.stop(on: me, dropping: &dropped) else { Issue.record("no wait"); return }
            #expect(dropped.finished == "done")
            #expect(describe(finishing, me: me, other: other) == "stopping(other), latch")
            guard case .stop = finishing.loopsStopped() else { Issue.record("not a stop"); return }

            var waiting = InstanceLifecycle(startingOn: other)
            waiting.finish("done", dropping: &dropped)
            _ = waiting.loopsStopped()
            dropped = InstanceLifecycle.Dropped()
            guard case .endNow = waiting.stop(on: me, dropping: &dropped) else { Issue.record("not ended"); return }
            #expect(dropped.finished == "done")
            #expect(describe(waiting, me: me, other: other) == "ended")
            // The runs' late return finds it ended: `onFinished` is never called.
            let late = waiting.runsReturned()
            #expect(!late.ends)
        }
    }

    // MARK: E69. Ended

    @Test("E69: endedInstanceStaysEnded") func endedInstanceStaysEnded() {
        withOtherThread { other in
            let me = currentThread()
            var lifecycle = InstanceLifecycle(startingOn: me)
            var dropped = InstanceLifecycle.Dropped()
            _ = lifecycle.stop(on: me, dropping: &dropped)
            _ = lifecycle.loopsStopped()
            _ = lifecycle.ended()

            guard case .dropped = lifecycle.send(pending(1), from: other) else { Issue.record("not dropped"); return }
            guard case .nothing = lifecycle.stop(on: other, dropping: &dropped) else { Issue.record("not nothing"); return }
            lifecycle.finish("late", dropping: &dropped)
            let resumed = lifecycle.resume(on: other)
            let returned = lifecycle.runsReturned()
            #expect(!resumed && !returned.ends)
            #expect(describe(lifecycle, me: me, other: other) == "ended")
        }
    }

    // MARK: H20, H8. A hosted instance's held states

    @Test("H20 (lifecycle): with a state held, events from outside are reduced, an effect's event waits until the held states are durable and shown, and a durable mark wakes nobody that drains")
    func heldStatesLetOutsideEventsThroughAndStopAnEffectsEvent() {
        withOtherThread { other in
            let me = currentThread()
            var lifecycle = InstanceLifecycle(startingOn: me)
            lifecycle.hold(finished: false)
            _ = lifecycle.send(pending(1), from: other)
            #expect(drainAll(&lifecycle) == ([1], "done"))
            #expect(describe(lifecycle, me: me, other: other) == "idle")
            // Idle with a held state: an effect's event is queued, and nobody takes the role.
            guard case .queued = lifecycle.send(InstanceLifecycle.Pending(event: 2, run: EffectRun()), from: other) else {
                Issue.record("an effect's event was not queued behind a held state")
                return
            }
            guard case .queued = lifecycle.send(pending(3), from: other) else { Issue.record("not queued"); return }
            #expect(describe(lifecycle, me: me, other: other) == "awaitingDurability")
            // Durable: the caller hands the role on; the task shows the state, then drains.
            let handsOn = lifecycle.durable(1)
            #expect(handsOn)
            #expect(describe(lifecycle, me: me, other: other) == "handedOn")
            let resumes = lifecycle.resume(on: me)
            #expect(resumes)
            #expect(drainAll(&lifecycle) == ([], "show 1"))
            #expect(drainAll(&lifecycle) == ([2, 3], "done"))
            // A record that commits before the drainer holds its state (the writer was faster):
            // nobody is woken, and the drainer shows the state as soon as it holds it.
            guard case .reduceNow = lifecycle.send(pending(5), from: me) else {
                Issue.record("the sender did not take the role")
                return
            }
            let early = lifecycle.durable(1)
            #expect(!early)
            lifecycle.hold(finished: false)
            #expect(drainAll(&lifecycle) == ([], "show 1"))
            #expect(lifecycle.held == 0 && lifecycle.heldDurable == 0)
        }
    }

    @Test("H8 (lifecycle): behind a held finished state nothing is reduced, from outside either, until it is shown")
    func nothingIsReducedBehindAHeldFinishedState() {
        withOtherThread { other in
            let me = currentThread()
            var lifecycle = InstanceLifecycle(startingOn: me)
            lifecycle.hold(finished: true)
            _ = lifecycle.send(pending(1), from: other)
            #expect(drainAll(&lifecycle) == ([], "done"))
            #expect(describe(lifecycle, me: me, other: other) == "awaitingDurability")
            // A stop while it waits takes the role and drops the queue.
            var dropped = InstanceLifecycle.Dropped()
            guard case .tearDown = lifecycle.stop(on: me, dropping: &dropped) else { Issue.record("no teardown"); return }
            #expect(dropped.queue.map(\.event) == [1])
            let wakes = lifecycle.durable(1)
            #expect(!wakes, "a stopping instance shows nothing more")
        }
    }
}
