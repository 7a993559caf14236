import Testing

/// `Regions`: the rules of Docs/Statecharts.md sections 2, 9, 11 and 12 for parallel states that
/// `Upload` does not show.
extension ParallelTests {
    private func regions(_ events: [Regions.Event], from state: Regions.State = .initial) -> Regions.State {
        GeneratedCodeTests.reduced(state, events, by: Regions.reduce)
    }

    @Test("S14: every region's guards read the state before the event, whatever another region's actions write")
    func everyGuardReadsTheOldState() {
        let state = regions([.tick])
        #expect(state.n == 1)
        #expect(state.log == ["y saw 0"])
    }

    @Test("S70: the transitions of every region are one microstep: all exits, later regions first, then the actions in order, then all entries")
    func regionsMoveInOneMicrostep() {
        let state = regions([.move])
        #expect(state.mode == .par(.init(x: .x2, y: .y2)))
        #expect(state.log == ["y1 exit", "x1 exit", "x move", "y move", "x2 entry", "y2 entry"])
    }

    @Test("S72: always: transitions of every region are selected together and taken as one microstep")
    func alwaysAcrossRegionsIsOneMicrostep() {
        let state = regions([.flag])
        #expect(state.mode == .par(.init(x: .x2, y: .y2)) && state.isSettled)
        #expect(state.log == ["y1 exit", "x1 exit", "x2 entry", "y2 entry"])
    }

    @Test("S55: two onDone: due at once are tried in the order their final states were entered; one whose composite was exited is dropped")
    func onDoneInEntryOrderAndDroppedOnceExited() {
        let state = regions([.finish])
        #expect(state.mode == .out)
        #expect(state.log == ["y1 exit", "x1 exit", "x done"])
    }

    @Test("S75: a parallel state's timer is its own transition, taken once; one whose guards all fail does nothing")
    func aParallelStatesTimerIsTakenOnce() throws {
        let state = Regions.State.initial
        let first = try #require(state.armedTimer(.par))
        #expect(regions([first], from: state).log == ["par timer"])
        let second = try #require(state.armedTimer(.par, index: 1))
        #expect(regions([second], from: state) == state)
    }

    @Test("S76: an effect whose in: is a region runs while any state below it is active, for its request")
    func anEffectInARegionRunsBelowIt() {
        #expect(Regions.State.initial.requests.work == 0)
        #expect(regions([.tick]).requests.work == 1)
        #expect(regions([.move]).requests.work == 0)
        #expect(regions([.finish]).requests.work == nil)
    }
}
