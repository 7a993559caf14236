import Testing

/// Corners of parallel states found from outside (hardening, round three): history directly
/// below a parallel state, an `onDone:` that several regions make due at once, and an `onDone:`
/// loop that runs into the microstep bound. The machines are compiled with warnings as errors,
/// which also pins that a payload read only by `set:` below a parallel state and a parallel
/// state with no transition below it compile cleanly.
@Suite struct ParallelCornerTests {
    @Test("S61, S65: deep history directly below a parallel state restores every region")
    func deepHistoryBelowParallelRestoresEveryRegion() {
        let state = reduced(.initial, [.go, .away, .back], by: DeepParallel.reduce)
        #expect(state.mode == .par(.init(a: .a2, b: .b2)))
    }

    @Test("S63: deep history below a parallel state with no record enters every region's initial")
    func deepHistoryBelowParallelWithoutRecord() {
        var state = reduced(.initial, [.away], by: DeepParallel.reduce)
        state._history_h = nil
        DeepParallel.reduce(&state, .back)
        #expect(state.mode == .par(.init(a: .a1, b: .b1)))
    }

    @Test("S65: shallow history of a parallel state re-enters every region through its initial")
    func shallowHistoryBelowParallelEntersInitials() {
        let state = reduced(.initial, [.go, .away, .backShallow], by: DeepParallel.reduce)
        #expect(state.mode == .par(.init(a: .a1, b: .b1)))
    }

    @Test("S63, S146: shallow history of a parallel state with a target: enters the target, its default actions run, while nothing is recorded")
    func shallowHistoryBelowParallelTakesItsTargetWithoutRecord() {
        let state = reduced(.initial, [.jump], by: DeepParallel.reduce)
        #expect(state.mode == .par(.init(a: .a1, b: .b2)))
        #expect(state.defaults == 1)
    }

    @Test("S65, S146: once recorded, shallow history of a parallel state with a target: re-enters every region through its initial, and its default actions do not run")
    func shallowHistoryBelowParallelIgnoresItsTargetOnceRecorded() {
        let state = reduced(.initial, [.go, .away, .backTarget], by: DeepParallel.reduce)
        #expect(state.mode == .par(.init(a: .a1, b: .b1)))
        #expect(state.defaults == 0)
        let again = reduced(.initial, [.jump, .away, .backTarget], by: DeepParallel.reduce)
        #expect(again.mode == .par(.init(a: .a1, b: .b1)))
        #expect(again.defaults == 1)
    }

    @Test("S71: a parallel state's onDone is taken once when its regions finish in one microstep")
    func parallelOnDoneOnceForRegionsFinishingTogether() {
        let state = reduced(.initial, [.finish], by: ParallelDone.reduce)
        #expect(state.isIn(.a2) && state.isIn(.b2) && state.isIn(.c2))
        #expect(state.n == 1)
        #expect(state._done.isEmpty)
    }

    @Test("An unguarded set: below a parallel state reads the event's payload")
    func payloadReadBySetBelowParallel() {
        let state = reduced(.initial, [.name(label: "x")], by: ParallelDone.reduce)
        #expect(state.label == "x" && state.isIn(.a1))
    }

    @Test("S51: an onDone loop stops at the bound, and what stays due is kept once")
    func onDoneLoopAtTheBoundKeepsTheQueueFlat() {
        var state = ParallelDone.State.initial
        for _ in 0..<80 {
            ParallelDone.reduce(&state, .spin)
            #expect(!state.isSettled)
            #expect(state._done.count <= 2)
        }
        #expect(state.loops == 80 * 1_000)
    }

    @Test("A parallel state with no transition below it compiles and ignores every event")
    func frozenParallelIgnoresEvents() {
        let state = reduced(.initial, [.tick, .tick], by: Frozen.reduce)
        #expect(state == Frozen.State.initial)
    }
}
