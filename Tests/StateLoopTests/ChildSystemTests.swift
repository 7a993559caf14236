// Child systems (Docs/Runtime.md E49-E52): a separate System per request of the parent's state,
// started on the draining thread, fed the parent's forwarded events, its output fed back unless
// stale, stopped with the parent.

import Foundation
import StateLoop
import StateLoopTestSupport
import Testing

/// The child machine of these tests: it adds numbers, and finishes on `.done` with its total as
/// its output; each step tells its parent the number it added, or the total (`said`, as a
/// generated `toParent`).
struct Tally: Equatable, Sendable {
    var input: Int
    var total = 0
    var isDone = false
    var said: [Int] = []
}

enum TallyEvent: Equatable, Sendable {
    case add(Int)
    case done
}

@Sendable func reduceTally(_ state: inout Tally, _ event: TallyEvent) {
    switch event {
    case .add(let value):
        state.total += value
        state.said = [value]
    case .done:
        state.isDone = true
        state.said = [state.total]
    }
}

/// The parent machine: `input` requests a child, `forwarded` holds what the last step forwarded
/// (reset on every step, as generated reducers do), `outputs` what children reported.
struct Parent: Equatable, Sendable {
    var input: Int?
    var forwarded: [TallyEvent] = []
    var outputs: [Int] = []
    var ticks = 0
}

enum ParentEvent: Equatable, Sendable {
    case open(Int?)
    case forward([TallyEvent])
    case childDone(Int)
    case childSaid(Int)
    case tick
}

@Sendable func reduceParent(_ state: inout Parent, _ event: ParentEvent) {
    state.forwarded = []
    switch event {
    case .open(let input): state.input = input
    case .forward(let events): state.forwarded = events
    case .childDone(let total): state.outputs.append(total)
    case .childSaid: break
    case .tick: state.ticks += 1
    }
}

/// What the tests see of the children: which were started, and a log shared with the parent.
final class ChildWatch: Sendable {
    let starts = Recorder<Int>()
    let log = Recorder<String>()

    /// The child feedback, as generated code writes it; `feedbacks` are the child's own.
    /// With `listens`, the parent takes what the child says as `.childSaid` (Docs/Effects.md E74).
    func feedback(
        listens: Bool = false,
        childFeedbacks: @escaping @Sendable (Int) -> [Feedback<Tally, TallyEvent>] = { _ in [] }
    ) -> Feedback<Parent, ParentEvent> {
        let said: @Sendable (Tally) -> [ParentEvent] = { tally in tally.said.map { ParentEvent.childSaid($0) } }
        let sent = listens ? said : nil
        return .child(
            request: { $0.input },
            start: { input in
                self.starts.append(input)
                return System(
                    initial: Tally(input: input),
                    reduce: { state, event in
                        self.log.append("child \(input) \(event)")
                        reduceTally(&state, event)
                    },
                    feedbacks: childFeedbacks(input),
                    isFinished: { $0.isDone })
            },
            forwarded: { $0.forwarded },
            output: { tally in .childDone(tally.total) },
            sent: sent)
    }

    /// The parent system, logging every event it reduces.
    func parent(
        isFinished: (@Sendable (Parent) -> Bool)? = nil,
        listens: Bool = false,
        childFeedbacks: @escaping @Sendable (Int) -> [Feedback<Tally, TallyEvent>] = { _ in [] }
    ) -> System<Parent, ParentEvent> {
        System(
            initial: Parent(),
            reduce: { state, event in
                self.log.append("parent \(event)")
                reduceParent(&state, event)
            },
            feedbacks: [feedback(listens: listens, childFeedbacks: childFeedbacks)],
            isFinished: isFinished)
    }
}

/// Notes effect starts relative to one `stop()`: after it returned, none may begin.
private final class LateStarts: @unchecked Sendable {
    private let lock = NSLock()
    private var stopReturned = false
    private var late = 0
    private var total = 0

    func markStopReturned() { lock.withLock { stopReturned = true } }
    func noteStart() {
        lock.withLock {
            total += 1
            if stopReturned && !Task.isCancelled { late += 1 }
        }
    }
    var counts: (total: Int, late: Int) { lock.withLock { (total, late) } }
}

@Suite(.bothStartModes, .timeLimit(.minutes(1))) struct ChildSystemTests {
    @Test("E49: a child starts on the draining thread when the state requests it")
    func childStartsWhenTheStateRequestsIt() async {
        let watch = ChildWatch()
        let probe = EffectProbe()
        let seen = Recorder<String>()
        let system = watch.parent(childFeedbacks: { input in
            [
                .react(
                    request: { (tally: Tally) -> Int? in
                        seen.append("child \(tally.input) on \(Thread.current)")
                        return tally.input
                    },
                    effect: { input in
                        _ = await probe.runUntilCancelled(input)
                        return .done
                    })
            ]
        })
        let run = system.start { _ in }

        let sameThread = Box(false)
        await onOwnThread {
            run.send(.open(1))
            // Before `send` returns, on this thread: no task started the child.
            sameThread.value = seen.all == ["child 1 on \(Thread.current)"]
        }
        #expect(sameThread.value)
        #expect(await probe.reports.next(1) == [.started(1)])

        run.send(.open(1))  // equal: kept
        run.send(.open(2))  // changed: stopped, another started
        #expect(Set(await probe.reports.next(2)) == [.cancelled(1), .started(2)])
        run.send(.open(nil))  // nil: stopped
        #expect(await probe.reports.next(1) == [.cancelled(2)])
        #expect(watch.starts.all == [1, 2])
        withExtendedLifetime(run) {}
    }

    @Test("E27, E50: forwarded events reach the child in order before the parent's next event")
    func forwardedEventsReachTheChildInOrderBeforeTheNextParentEvent() async {
        let watch = ChildWatch()
        let handle = Box<SystemRun<Parent, ParentEvent>?>(nil)
        let run = watch.parent().start { state in
            // Queued behind the event being reduced: the parent drains them in a row.
            if state.input == 1 && state.ticks == 0 && state.forwarded.isEmpty && state.outputs.isEmpty {
                handle.value?.send(.forward([.add(1), .add(2)]))
                handle.value?.send(.tick)
            }
        }
        handle.value = run

        run.send(.open(1))

        #expect(watch.log.all == [
            "parent open(Optional(1))",
            "parent forward([StateLoopTests.TallyEvent.add(1), StateLoopTests.TallyEvent.add(2)])",
            "child 1 add(1)", "child 1 add(2)",
            "parent tick",
        ])
        handle.value = nil
    }

    @Test("E51: a child's output is fed back once, and is stale once the child was replaced")
    func childOutputIsFedBackOnceAndIsStaleAfterAReplacement() async {
        let watch = ChildWatch()
        let handle = Box<SystemRun<Parent, ParentEvent>?>(nil)
        let (run, states) = watch.parent().start()
        handle.value = run

        run.send(.open(1))
        run.send(.forward([.add(5), .done]))
        run.send(.tick)
        run.send(.forward([.add(1)]))  // to a finished child: ignored
        run.send(.tick)
        _ = await states.firstMatch { $0.ticks == 2 }
        #expect(watch.starts.all == [1])  // finished, request equal: not started again
        #expect(watch.log.all.filter { $0.hasPrefix("parent childDone") } == ["parent childDone(5)"])

        // Child 2 finishes while the parent delivers the state of `.forward([.done])`; the parent
        // has already queued `.open(3)` (from its observer, before the loops see the state), so
        // child 2's output waits behind it and is stale by the time it is dequeued.
        let replacing = watch.parent().start { state in
            if state.forwarded == [.done] && state.input == 2 { handle.value?.send(.open(3)) }
        }
        handle.value = replacing
        replacing.send(.open(2))
        replacing.send(.forward([.done]))
        replacing.send(.forward([.add(3), .done]))

        #expect(watch.starts.all == [1, 2, 3])
        #expect(watch.log.all.filter { $0.hasPrefix("parent childDone") } == ["parent childDone(5)", "parent childDone(3)"])
        handle.value = nil
    }

    @Test("E74: the events a child sends are queued in the parent in order, all before its output")
    func childEventsComeBeforeItsOutcome() async {
        let watch = ChildWatch()
        let run = watch.parent(listens: true).start { _ in }

        run.send(.open(1))
        run.send(.forward([.add(1), .add(2), .done]))

        #expect(watch.log.all == [
            "parent open(Optional(1))",
            "parent forward([StateLoopTests.TallyEvent.add(1), StateLoopTests.TallyEvent.add(2), StateLoopTests.TallyEvent.done])",
            // The parent drains its queue on this thread: the child's events wait behind the step
            // that forwarded to it, in the order the child's steps sent them.
            "child 1 add(1)", "child 1 add(2)", "child 1 done",
            "parent childSaid(1)", "parent childSaid(2)", "parent childSaid(3)",
            "parent childDone(3)",
        ])
        withExtendedLifetime(run) {}
    }

    @Test("E75: an event of a child replaced before the parent reduces it is dropped")
    func eventsOfAReplacedChildAreDropped() async {
        let watch = ChildWatch()
        let handle = Box<SystemRun<Parent, ParentEvent>?>(nil)
        // The parent queues `.open(2)` from its observer, before the loops show the state to the
        // child, so child 1's `childSaid(7)` waits behind it and is stale once it is dequeued.
        let run = watch.parent(listens: true).start { state in
            if state.forwarded == [.add(7)] && state.input == 1 { handle.value?.send(.open(2)) }
        }
        handle.value = run
        run.send(.open(1))
        run.send(.forward([.add(7)]))
        run.send(.forward([.add(8)]))

        #expect(watch.starts.all == [1, 2])
        #expect(watch.log.all.filter { $0.hasPrefix("parent childSaid") } == ["parent childSaid(8)"])
        #expect(watch.log.all.contains("child 1 add(7)"))
        handle.value = nil
    }

    @Test("E33, E52: stopping the parent stops its child before stop() returns")
    func stoppingTheParentStopsTheChildBeforeStopReturns() async {
        let watch = ChildWatch()
        let starts = LateStarts()
        let busy = DispatchSemaphore(value: 0)
        let probe = EffectProbe()
        // A child that never rests: every state restarts an effect that answers after a yield,
        // on the pool; and one effect that runs until cancelled.
        let system = watch.parent(childFeedbacks: { input in
            [
                .react(request: { (tally: Tally) -> Int? in tally.total }, effect: { total in
                    starts.noteStart()
                    if total == 100 { busy.signal() }
                    await Task.yield()
                    return .add(1)
                }),
                .react(request: { (tally: Tally) -> Int? in tally.input }, effect: { input in
                    _ = await probe.runUntilCancelled(input)
                    return .done
                }),
            ]
        })
        let run = system.start { _ in }
        run.send(.open(1))
        #expect(await probe.reports.next(1) == [.started(1)])
        await onOwnThread { busy.wait() }

        run.stop()
        starts.markStopReturned()

        #expect(await probe.reports.next(1) == [.cancelled(1)])
        let before = starts.counts.total
        for _ in 0..<100 { await Task.yield() }
        #expect(starts.counts.late == 0)
        #expect(starts.counts.total == before)
    }

    @Test("E33, E52: finishing the parent stops its child")
    func finishingTheParentStopsTheChild() async {
        let watch = ChildWatch()
        let probe = EffectProbe()
        let system = watch.parent(isFinished: { $0.ticks > 0 }, childFeedbacks: { input in
            [.react(request: { (tally: Tally) -> Int? in tally.input }, effect: { input in
                _ = await probe.runUntilCancelled(input)
                return .done
            })]
        })
        let (run, states) = system.start()
        run.send(.open(1))
        #expect(await probe.reports.next(1) == [.started(1)])

        run.send(.tick)

        #expect(await probe.reports.next(1) == [.cancelled(1)])
        #expect(await states.all().last?.ticks == 1)
        withExtendedLifetime(run) {}
    }

    /// How the child finishes in `parentLeavingTheChildOnItsOutputDoesNotDeadlock`.
    enum Finish: CaseIterable, Sendable {
        /// A forwarded `.done`: the child drains and finishes on the parent's draining thread.
        case forwarded
        /// Its own effect answers `.done` on the pool: the child finishes on its own draining
        /// thread, and its output drains the idle parent there.
        case byItsEffect
    }

    @Test(arguments: Finish.allCases)
    func parentLeavingTheChildOnItsOutputDoesNotDeadlock(finish: Finish) async {
        let watch = ChildWatch()
        let system = System<Parent, ParentEvent>(
            initial: Parent(),
            reduce: { state, event in
                reduceParent(&state, event)
                // The child's output leaves the state that requests it: the parent stops the
                // child from inside the child's own `onFinished`.
                if case .childDone = event { state.input = nil }
            },
            feedbacks: [
                watch.feedback(childFeedbacks: { _ in
                    finish == .forwarded
                        ? []
                        : [.react(request: { _ in true }, effect: { _ in
                            await Task.yield()
                            return .done
                        })]
                })
            ])
        let (run, states) = system.start()

        for round in 1...50 {
            run.send(.open(round))
            if finish == .forwarded { run.send(.forward([.add(round), .done])) }
            let last = await states.firstMatch { $0.outputs.count == round }
            #expect(last?.input == nil)
        }
        #expect(watch.starts.all == Array(1...50))
        withExtendedLifetime(run) {}
    }
}
