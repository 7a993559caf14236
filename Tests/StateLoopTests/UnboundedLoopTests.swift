// A loop whose effect answers every state at once, for ever (issue 20, item 4): the peers' test of
// stopping a system from its own state callback (RxFeedback, ReactiveFeedback and CombineFeedback
// take n states and dispose). The caller's thread must get its handle back after bounded work.

@testable import StateLoop
import StateLoopTestSupport
import Testing

/// Each answer makes a new request: `"" -> "_a" -> "_a_a" -> ...` for ever (the peers' test).
/// `valve`, once open, ends the loop: only so that a runtime without the bound of E60 fails a
/// test instead of running for ever on the test's thread.
private func answeringForever(valve: Box<Bool>? = nil) -> System<String, String> {
    System(
        initial: "", reduce: { $0 += $1 },
        feedbacks: [.react(request: { state in valve?.value == true ? nil : state }, effect: { _ in "_a" })])
}

/// The same loop on a counter, whose states do not grow: `0 -> 1 -> 2 -> ...` for ever.
private func countingForever(valve: Box<Bool>) -> System<Int, Int> {
    System(
        initial: 0, reduce: { $0 += $1 },
        feedbacks: [
            // `valve`: only so that a runtime without the bound ends this test instead of
            // running for ever on the test's thread; with the bound it is never opened.
            .react(request: { count in valve.value ? nil : count }, effect: { _ in 1 })
        ])
}

@Suite(.bothStartModes, .timeLimit(.minutes(1))) struct UnboundedLoopTests {
    @Test("E60: start returns after bounded work when effects answer for ever")
    func startReturnsAfterBoundedWorkWhenEffectsAnswerForever() async {
        let valve = Box(false)
        let delivered = Box(0)
        let (passed, past) = AsyncStream.makeStream(of: Void.self)
        let target = 3 * DrainBudget.events
        let run = countingForever(valve: valve).start { _ in
            let count = delivered.update { count in
                count += 1
                return count
            }
            if count == target { past.yield() }
            if count == 20 * DrainBudget.events { valve.value = true }
        }
        let atReturn = delivered.value

        // Bounded: one drain's budget on this thread (the initial state counts as one step).
        #expect(atReturn <= DrainBudget.events, "states delivered before start returned: \(atReturn)")
        #expect(valve.value == false)
        // The rest was handed on: the loop goes on without this thread.
        for await _ in passed { break }
        run.stop()
        let atStop = delivered.value
        #expect(atStop >= target)
        // Stopped: nothing more is delivered, whatever is sent.
        run.send(1)
        #expect(delivered.value == atStop)
    }

    @Test("E60: send returns after bounded work when the observer answers for ever")
    func sendReturnsAfterBoundedWorkWhenTheObserverAnswersForever() async {
        let delivered = Box(0)
        let (passed, past) = AsyncStream.makeStream(of: Void.self)
        let system = System<Int, Int>(initial: 0, reduce: { $0 += $1 }, feedbacks: [])
        let run = system.start { count, run in
            guard count > 0 else { return }
            if delivered.update({ $0 += 1; return $0 }) == 3 * DrainBudget.events { past.yield() }
            // Every state asks for the next, for ever; the valve only lets a runtime without
            // the bound of E60 fail this test instead of running for ever on its thread.
            if count < 20 * DrainBudget.events { run.send(1) }
        }
        run.send(1)
        let atReturn = delivered.value

        #expect(atReturn <= DrainBudget.events, "states delivered before send returned: \(atReturn)")
        for await _ in passed { break }
        run.stop()
        let atStop = delivered.value
        run.send(1)
        #expect(delivered.value == atStop)
    }

    // The peers' scenario: take four states from inside the state callback, then stop.

    @Test("E60: the state callback stops a loop that answers for ever after four states")
    func stateCallbackStopsALoopThatAnswersForeverAfterFourStates() async {
        let states = Recorder<String>()
        let (fourth, reached) = AsyncStream.makeStream(of: Void.self)
        let run = answeringForever().start { state, run in
            states.append(state)
            if states.all.count == 4 {
                run.stop()
                reached.yield()
            }
        }
        for await _ in fourth { break }
        run.stop()  // returns once the instance is torn down (the stop above already did it)

        #expect(states.all == ["", "_a", "_a_a", "_a_a_a"])
        run.send("_b")
        #expect(states.all.count == 4, "no state after the stop: memory stays as it is")
    }

    @Test("E60: start returns after bounded work on the peers' loop")
    func startReturnsAfterBoundedWorkOnThePeersLoop() async {
        // The peers' loop itself, through the `start(onState:)` without a handle: its states grow
        // by two characters each, so this stops soon after the budget.
        let valve = Box(false)
        let delivered = Box(0)
        let (passed, past) = AsyncStream.makeStream(of: Void.self)
        let run = answeringForever(valve: valve).start { _ in
            let count = delivered.update { $0 += 1; return $0 }
            if count == DrainBudget.events + 2 { past.yield() }
            if count == 4 * DrainBudget.events { valve.value = true }
        }
        let atReturn = delivered.value

        #expect(atReturn <= DrainBudget.events, "states delivered before start returned: \(atReturn)")
        #expect(valve.value == false)
        for await _ in passed { break }  // handed on, and still going
        run.stop()
        let atStop = delivered.value
        run.send("_b")
        #expect(delivered.value == atStop)
    }

    @Test("E60: the state callback can stop at the initial state")
    func stateCallbackCanStopAtTheInitialState() {
        let states = Recorder<String>()
        let effects = Box(0)
        let system = System<String, String>(
            initial: "", reduce: { $0 += $1 },
            feedbacks: [.react(request: { $0 }, effect: { _ in
                effects.update { $0 += 1 }
                return "_a"
            })])
        let run = system.start { state, run in
            states.append(state)
            run.stop()
        }

        // The handle is there from the first state: stopped before any feedback saw it.
        #expect(states.all == [""])
        #expect(effects.value == 0)
        run.send("_b")
        #expect(states.all == [""])
    }
}

