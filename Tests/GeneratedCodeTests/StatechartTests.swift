import Testing

/// Generated hierarchical machines driven through `reduce`, one rule of Docs/Statecharts.md per
/// test: inheritance and fall-through, the order of exits, actions and entries, history,
/// `always:`, `onDone:`, one-shot runs and final states.
@Suite struct StatechartTests {
    @Test("S21, S31: the initial configuration is entered with its entry actions")
    func initialConfigurationRunsEntries() {
        let state = Microwave.State.initial
        #expect(state.mode == .closed(.idle))
        #expect(state.isIn(.closed) && state.isIn(.idle) && !state.isIn(.ready))
        #expect(state.seconds == 0 && state.log == [] && state.runs == [] && state.isSettled)
    }

    @Test("S10, S11: a leaf's own handler decides, with the payload")
    func leafHandlerDecides() {
        let state = reduced(.initial, [.addTime(seconds: 30), .start], by: Microwave.reduce)
        #expect(state.mode == .closed(.cooking(.heating)))
        #expect(state.seconds == 30)
        #expect(state.log == ["on"])
    }

    @Test("S27: a transition without target exits and enters nothing")
    func internalTransitionKeepsTheConfiguration() {
        let cooking = reduced(.initial, [.addTime(seconds: 30), .start], by: Microwave.reduce)
        let state = reduced(cooking, [.tick], by: Microwave.reduce)
        #expect(state.mode == cooking.mode && state.seconds == 29 && state.log == ["on"])
    }

    @Test("S12: all-false guards fall through to the parent, and past it nothing happens")
    func falseGuardsFallThrough() {
        let cooking = reduced(.initial, [.addTime(seconds: 30), .start], by: Microwave.reduce)
        #expect(reduced(cooking, [.addTime(seconds: 0)], by: Microwave.reduce) == cooking)
        let parentTook = reduced(cooking, [.addTime(seconds: 10)], by: Microwave.reduce)
        #expect(parentTook.mode == .closed(.cooking(.heating)) && parentTook.seconds == 40)
        let leafTook = reduced(cooking, [.addTime(seconds: 90)], by: Microwave.reduce)
        #expect(leafTook.mode == .closed(.cooking(.defrosting)) && leafTook.seconds == 30)
    }

    @Test("S25: a target is entered with its ancestors below the domain and its initial chain, outermost first")
    func targetsAreEnteredThroughTheirInitialChain() {
        let state = reduced(.initial, [.addTime(seconds: 30), .start], by: Microwave.reduce)
        #expect(state.isIn(.closed) && state.isIn(.cooking) && state.isIn(.heating))
        #expect(state.log == ["on"])  // cooking's entry ran; closed was not entered again (the domain)
    }

    @Test("S62, S64: history is recorded only when its parent is exited, and is never a StateName")
    func historyIsRecordedOnExitOnly() {
        let moved = reduced(.initial, [.addTime(seconds: 90), .start, .addTime(seconds: 90)], by: Microwave.reduce)
        #expect(moved._history_resume == nil)
        #expect(reduced(moved, [.open], by: Microwave.reduce)._history_resume == .cooking(.defrosting))
        #expect(!Microwave.StateName.allCases.map { "\($0)" }.contains("resume"))
    }

    @Test("S29, S30, S32: exits run innermost first, then the transition's actions; history is recorded")
    func exitsThenActions() {
        let state = reduced(.initial, [.addTime(seconds: 30), .start, .open], by: Microwave.reduce)
        #expect(state.mode == .opened)
        #expect(state.log == ["on", "off", "open"])
        #expect(state._history_resume == .cooking(.heating))
    }

    @Test("S61: deep history re-enters the recorded configuration with its entry actions")
    func deepHistoryRestores() {
        let state = reduced(.initial, [.addTime(seconds: 90), .start, .addTime(seconds: 90), .open, .close], by: Microwave.reduce)
        #expect(state.mode == .closed(.cooking(.defrosting)))
        #expect(state.log == ["on", "off", "open", "on"])
    }

    @Test("S63: history with no record enters its parent's initial")
    func historyWithoutRecordUsesInitial() {
        let state = reduced(.initial, [.open, .close], by: Microwave.reduce)
        #expect(state.mode == .closed(.idle))
    }

    @Test("S45, S47, S53, S38: always: enters a final state; onDone: follows in the same reduce and queues a run")
    func alwaysThenOnDone() {
        let state = reduced(.initial, [.addTime(seconds: 1), .start, .tick], by: Microwave.reduce)
        #expect(state.mode == .closed(.idle))
        #expect(state.seconds == 0)
        #expect(state.log == ["on", "off"])
        #expect(state.runs == [.beep(3)])
        #expect(state.isSettled)
    }

    @Test("S39: the next reduce replaces the runs; a one-shot result is answered machine-wide")
    func runsLastOneStep() {
        let done = reduced(.initial, [.addTime(seconds: 1), .start, .tick], by: Microwave.reduce)
        let state = reduced(done, [.beeped], by: Microwave.reduce)
        #expect(state.runs == [] && state._runsQueued == 1)
        #expect(state.log == ["on", "off", "beeped"])
    }

    @Test("S56, S57, S60: a top-level final state finishes the machine; its entry runs; later events change nothing")
    func topLevelFinalFinishes() {
        let state = reduced(.initial, [.addTime(seconds: 30), .start, .unplug], by: Microwave.reduce)
        #expect(state.mode == .unplugged && state.isDone)
        #expect(state.runs == [.log("bye after 2 entries")])
        #expect(reduced(state, [.open, .addTime(seconds: 5)], by: Microwave.reduce) == state)
    }

    @Test("S73, S74: a composite's timer runs while any child is active and fires from any of them")
    func compositeTimerOutlivesMovesInside() throws {
        let heating = reduced(.initial, [.addTime(seconds: 30), .start], by: Microwave.reduce)
        let armed = try #require(heating.armedTimer(.cooking))
        let defrosting = reduced(heating, [.addTime(seconds: 90)], by: Microwave.reduce)
        #expect(defrosting.mode == .closed(.cooking(.defrosting)))
        #expect(defrosting.armedTimer(.cooking) == armed)
        let stopped = reduced(defrosting, [armed], by: Microwave.reduce)
        #expect(stopped.mode == .closed(.idle) && stopped.log == ["on", "off"])
        #expect(stopped.armedTimer(.cooking) == nil)
        #expect(reduced(stopped, [armed], by: Microwave.reduce) == stopped)
    }

    @Test("S22, S36, S61: Player: shallow history restores the last child; the exit's run reads the state then")
    func playerResumesWhereItStopped() {
        var state = Player.State.initial
        #expect(state.mode == .stopped && state.sessions == 0)
        Player.reduce(&state, .play)
        #expect(state.mode == .active(.playing) && state.sessions == 1)
        Player.reduce(&state, .pause)
        Player.reduce(&state, .stop)
        #expect(state.mode == .stopped && state.runs == [.saveSession(1)])
        Player.reduce(&state, .play)
        #expect(state.mode == .active(.paused) && state.sessions == 2 && state.runs == [])
    }

    @Test("S73, S74, S77: a timer fires through reduce for its entry; an earlier entry's timer is ignored")
    func playerTimer() {
        var state = Player.State.initial
        #expect(state.armedTimer(.playing) == nil)
        Player.reduce(&state, .play)
        let armed = Player.Event._timer(.init(state: .playing, index: 0, entry: state._entries))
        #expect(state.armedTimer(.playing) == armed)
        Player.reduce(&state, .pause)
        Player.reduce(&state, .play)
        let stale = state
        Player.reduce(&state, armed)
        #expect(state == stale)
        Player.reduce(&state, ._timer(.init(state: .playing, index: 0, entry: state._entries)))
        #expect(state.mode == .active(.paused))
    }

    @Test("S10, S56: the machine's own on: is inherited everywhere and can finish the machine")
    func playerPowerOff() {
        var state = Player.State.initial
        Player.reduce(&state, .play)
        Player.reduce(&state, .powerOff)
        #expect(state.mode == .off && state.isDone && state.runs == [.saveSession(1)])
    }
}

/// The parallel machine `Upload`: regions react together, conflicts are resolved, `onDone:` waits
/// for every region (Docs/Statecharts.md, section 11).
@Suite struct ParallelTests {
    private func reduced(_ events: [Upload.Event], from state: Upload.State = .initial) -> Upload.State {
        var state = state
        for event in events { Upload.reduce(&state, event) }
        return state
    }

    @Test("S66: entering a parallel state enters every region through its initial:")
    func everyRegionIsEntered() {
        let state = Upload.State.initial
        #expect(state.mode == .working(.init(transfer: .sending, checksum: .hashing)))
        #expect(state.isIn(.transfer) && state.isIn(.checksum) && state.isIn(.sending) && state.isIn(.hashing))
        #expect(state.log == ["start"])
    }

    @Test("S67: an event goes to every region; each region's own branch is taken")
    func regionsReactIndependently() {
        let state = reduced([.chunk, .hashed])
        #expect(state.mode == .working(.init(transfer: .sending, checksum: .verified)))
        #expect(state.sent == 1)
    }

    @Test("S67, S68: a handler that a region reaches through the parallel state is taken beside another region's own")
    func inheritedHandlerIsTakenOnce() {
        let state = reduced([.pause])
        #expect(state.mode == .working(.init(transfer: .paused, checksum: .hashing)))
        #expect(state.log == ["start", "working saw pause"])
    }

    @Test("S69: of two conflicting transitions, the one whose source is inside the other's wins")
    func innerSourceWinsAConflict() {
        let state = reduced([.fail])
        #expect(state.mode == .working(.init(transfer: .sending, checksum: .hashing)))
        #expect(state.log == ["start", "rehash"])  // the domain is `checksum`, which is not exited
    }

    @Test("S71, S29: onDone: of a parallel state fires when every region is final; exits run later regions first")
    func parallelOnDoneWaitsForEveryRegion() {
        let halfway = reduced([.hashed, .chunk, .chunk])
        #expect(halfway.mode == .working(.init(transfer: .sending, checksum: .verified)))
        let state = reduced([.chunk], from: halfway)
        #expect(state.mode == .finished && state.isDone)
        #expect(state.log == ["start", "sent", "checksum exit", "transfer exit", "stop"])
    }

    @Test("S54, S59: a region rests in its final state while another runs; the machine is not done")
    func aFinishedRegionRests() {
        let state = reduced([.chunk, .chunk, .chunk])
        #expect(state.mode == .working(.init(transfer: .sent, checksum: .hashing)))
        #expect(state.isIn(.sent) && !state.isDone)
        #expect(reduced([.chunk], from: state) == state)
    }

    @Test("S24, S26: the machine's on: re-enters the parallel state, every region from its initial:")
    func reenteringResetsEveryRegion() {
        let state = reduced([.pause, .hashed, .reset])
        #expect(state.mode == .working(.init(transfer: .sending, checksum: .hashing)))
        #expect(state.log == ["start", "working saw pause", "checksum exit", "transfer exit", "stop", "start"])
    }
}

/// `Loop`: guards that keep `always:` enabled, and a transition to its own state.
@Suite struct SettleTests {
    @Test("S51: always: loops that guards keep enabled stop after 1,000 microsteps, unsettled")
    func guardedLoopsStopUnsettled() {
        var state = Loop.State.initial
        Loop.reduce(&state, .spin)
        #expect(!state.isSettled)
        #expect(state.laps == 1 + 500)  // every second microstep enters `a`
        #expect(state.mode == .a)
    }

    @Test("S52: the next step that takes a branch goes on settling; isSettled is true once nothing is enabled")
    func settlingResumes() {
        var state = Loop.State.initial
        Loop.reduce(&state, .spin)
        Loop.reduce(&state, .halt)
        #expect(state.isSettled)
        #expect(state.laps == 501)
    }

    @Test("S23: a transition to its own state exits and re-enters it, running its entry")
    func selfTransitionReenters() {
        var state = Loop.State.initial
        Loop.reduce(&state, .again)
        #expect(state.laps == 2 && state.mode == .a)
    }

    @Test("S48: an event that takes no branch tries no always:")
    func ignoredEventDoesNotSettle() {
        // `b` ignores `again`; had `always:` been tried, `spinning` would take it to `a`.
        var state = Loop.State(mode: .b, spinning: true, laps: 0)
        Loop.reduce(&state, .again)
        #expect(state.mode == .b && state.isSettled && state.laps == 0)
    }
}
