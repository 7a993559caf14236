// The harness rules T1-T10 of Docs/Testing.md, each pinned by the test named after it, and the
// failures the harness must report, each checked by its message.

@_spi(Internals) import StateLoopTesting
import StateLoop
import Testing

/// The messages of the failures the harness reports in `body`, which then fail nothing.
func failures(_ body: () -> Void) -> [String] {
    withRecordedFailures(body).map(\.message)
}

/// A radio tuned to "jazz" with its tracks loaded, prefetched and received: at `ready`, nothing pending.
func readyRadio(coverage: TransitionCoverage = TransitionCoverage()) -> MachineTest<Radio> {
    let test = MachineTest(Radio.self, state: Radio.State(), coverage: coverage)
    test.send(.tune("jazz")) {
        $0.mode = .tuning
        $0.station = "jazz"
    }
    test.answer(.load("jazz"), with: .loaded(["a"]))
    test.receive(.loaded(["a"])) {
        $0.mode = .ready
        $0.tracks = ["a"]
        $0.prefetching = [0]
    }
    test.answer(.prefetch(0), with: .prefetched(0))
    test.receive(.prefetched(0)) { $0.prefetching = [] }
    return test
}

@Suite struct MachineTestTests {
    @Test("T1: the harness reduces only when the test steps, and the state's runs start with it")
    func t1() {
        let test = MachineTest(Radio.self, state: Radio.State(mode: .ready, tracks: ["a", "b"], prefetching: [0, 1]))
        #expect(test.pendingRuns == [.prefetch(0), .prefetch(1)])
        test.answer(.prefetch(1), with: .prefetched(1))
        // Answered, not reduced: the event waits for `receive`.
        #expect(test.state.prefetching == [0, 1])
        #expect(test.queuedEvents == [.prefetched(1)])
        test.receive(.prefetched(1)) { $0.prefetching = [0] }
        #expect(test.pendingRuns == [.prefetch(0)])
        test.skipPendingRuns()
        test.finish()
    }

    @Test("T2: the expectation starts from the state before, with the bookkeeping of the state after")
    func t2() {
        let test = MachineTest(Radio.self, state: Radio.State())
        // `_entries` changes, and the test does not state it.
        test.send(.tune("jazz")) {
            $0.mode = .tuning
            $0.station = "jazz"
        }
        #expect(test.state._entries == 1)
        // No closure: the state does not change.
        test.send(.stop)
        test.skipPendingRuns()
        test.finish()
    }

    @Test("T2: a state change not asserted fails, naming the field")
    func t2NotAsserted() {
        let messages = failures {
            let test = MachineTest(Radio.self, state: Radio.State())
            test.send(.tune("jazz")) { $0.mode = .tuning }
            test.skipPendingRuns()
        }
        #expect(messages == [
            """
            send(.tune("jazz")): the state does not match the expectation (− expected, + actual):

              Radio.State(
                mode: .tuning,
            −   station: "",
            +   station: "jazz",
                tracks: [],
                prefetching: [],
                seconds: 0,
                error: nil,
                runs: []
              )
            """,
        ])
    }

    @Test("T2: an expectation that throws fails")
    func t2Throws() {
        struct Unexpected: Error {}
        let messages = failures {
            let test = MachineTest(Radio.self, state: Radio.State())
            test.send(.stop) { _ in throw Unexpected() }
        }
        #expect(messages == ["send(.stop): the expectation threw Unexpected()."])
    }

    @Test("T3: the diff marks the expected lines − and the actual ones +, nested values included")
    func t3() {
        let messages = failures {
            let test = readyRadio()
            test.send(.play) {
                $0.mode = .playing
                $0.seconds = 1
            }
            test.skipPendingRuns()
        }
        #expect(messages == [
            """
            send(.play): the state does not match the expectation (− expected, + actual):

              Radio.State(
                mode: .playing,
                station: "jazz",
                tracks: ["a"],
                prefetching: [],
            −   seconds: 1,
            +   seconds: 0,
                error: nil,
                runs: [.log("play")]
              )
            """,
        ])
    }

    @Test("T4: sending to a finished machine fails, and so does sending before receiving")
    func t4() {
        let done = failures {
            let test = MachineTest(Radio.self, state: Radio.State())
            test.send(.off) { $0.mode = .off }
            test.finish(.log("off"))
            test.send(.tune("jazz"))
        }
        #expect(done == [#"send(.tune("jazz")): the machine is done; no event can change it."#])

        let early = failures {
            let test = MachineTest(Radio.self, state: Radio.State(mode: .tuning, station: "jazz"))
            test.answer(.load("jazz"), with: .loadFailed("404"))
            test.send(.tune("rock")) { $0.station = "rock" }
            test.skipReceivedEvents()
            test.skipPendingRuns()
            test.skipTimers()
        }
        #expect(early == [
            #"send(.tune("rock")): the events queued before it must be received first (or skipReceivedEvents()): "#
                + #".loadFailed("404") (answer of .load("jazz"))."#,
        ])

        // An event received once the machine is done changes nothing and starts no run again.
        let test = MachineTest(Radio.self, state: Radio.State(mode: .ready, tracks: ["a"], prefetching: [0]))
        test.answer(.prefetch(0), with: .prefetched(0))
        #expect(failures { test.send(.off) { $0.mode = .off } }.count == 1)
        test.finish(.log("off"))
        test.receive(.prefetched(0))
        #expect(test.pendingRuns.isEmpty)
        test.finish()
    }

    @Test("T5: a run starts when the state asks for it, stops when it no longer does, and a one-shot run stays")
    func t5() {
        let test = MachineTest(Radio.self, state: Radio.State())
        test.send(.tune("jazz")) {
            $0.mode = .tuning
            $0.station = "jazz"
        }
        #expect(test.pendingRuns == [.load("jazz")])
        // A new request: the old run stops, never to answer, and the new one starts.
        test.send(.tune("rock")) { $0.station = "rock" }
        #expect(test.pendingRuns == [.load("rock")])
        test.answer(.load("rock"), with: .loaded([]))
        test.receive(.loaded([])) { $0.mode = .ready }
        test.send(.play) { $0.mode = .playing }
        #expect(test.pendingRuns == [.ticks("rock"), .beacon("rock"), .log("play")])
        // Leaving `playing` stops the stream and the fire-and-forget run, not the one-shot run.
        test.send(.stop) { $0.mode = .ready }
        #expect(test.pendingRuns == [.log("play")])
        test.finish(.log("play"))
        test.finish()
    }

    @Test("T5: a stopped run needs no answer, and answering it fails")
    func t5Stopped() {
        let messages = failures {
            let test = MachineTest(Radio.self, state: Radio.State(mode: .tuning, station: "jazz"))
            test.send(.tune("rock")) { $0.station = "rock" }
            test.answer(.load("jazz"), with: .loaded([]))
            test.skipPendingRuns()
        }
        #expect(messages == [#"answer(.load("jazz"), with: .loaded([])): .load("jazz") is not pending. Pending runs: .load("rock")."#])
    }

    @Test("T6: an answer is queued; it ends a request, a stream goes on until finished or failed")
    func t6() {
        let test = readyRadio()
        test.send(.play) { $0.mode = .playing }
        test.answer(.ticks("jazz"), with: .tick(1))
        test.answer(.ticks("jazz"), with: .tick(2))
        #expect(test.pendingRuns == [.ticks("jazz"), .beacon("jazz"), .log("play")])
        test.receive(.tick(1)) { $0.seconds = 1 }
        test.receive(.tick(2)) { $0.seconds = 2 }
        test.finish(.beacon("jazz"))
        test.finish(.log("play"))
        // The stream's failure ends it.
        test.answer(.ticks("jazz"), with: .signalLost)
        #expect(test.pendingRuns.isEmpty)
        test.receive(.signalLost) {
            $0.mode = .failed
            $0.error = "signal lost"
        }
        test.skipTimers()
        test.finish()
    }

    @Test("T6: answering with an event that is not the call's result fails, and so does finishing a request")
    func t6WrongAnswer() {
        let messages = failures {
            let test = MachineTest(Radio.self, state: Radio.State(mode: .tuning, station: "jazz"))
            test.answer(.load("jazz"), with: .tick(1))
            test.finish(.load("jazz"))
            test.skipPendingRuns()
        }
        #expect(messages == [
            #"answer(.load("jazz"), with: .tick(1)): .tick(1) is not a result of .load("jazz")."#,
            #"finish(.load("jazz")): the run ends with one of its results; answer it instead."#,
        ])
    }

    @Test("T7: receive takes the oldest queued event; a different one fails and is reduced unchecked")
    func t7() {
        let messages = failures {
            let test = MachineTest(Radio.self, state: Radio.State(mode: .ready, tracks: ["a", "b"], prefetching: [0, 1]))
            test.answer(.prefetch(1), with: .prefetched(1))
            test.answer(.prefetch(0), with: .prefetched(0))
            test.receive(.prefetched(0)) { $0.prefetching = [1] }
            #expect(test.state.prefetching == [0])
            test.receive(.prefetched(0)) { $0.prefetching = [] }
            test.receive(.prefetched(0))
        }
        #expect(messages == [
            "receive(.prefetched(0)): the oldest queued event is .prefetched(1) (answer of .prefetch(1)).",
            "receive(.prefetched(0)): no event is queued.",
        ])
    }

    @Test("T7: receive(timer:) takes a fired timer's event by the state that armed it")
    func t7Timer() {
        let test = MachineTest(Radio.self, state: Radio.State(mode: .tuning, station: "jazz"))
        test.answer(.load("jazz"), with: .loadFailed("404"))
        test.receive(.loadFailed("404")) {
            $0.mode = .failed
            $0.error = "404"
        }
        test.advance(by: .seconds(5))
        test.receive(timer: .failed) {
            $0.mode = .tuning
            $0.error = nil
        }
        #expect(test.pendingRuns == [.load("jazz")])
        let messages = failures {
            test.answer(.load("jazz"), with: .loaded([]))
            test.receive(timer: .failed)
        }
        #expect(messages == [#"receive(timer: .failed, index: 0): the oldest queued event is .loaded([]) (answer of .load("jazz"))."#])
        test.finish()
    }

    @Test("T8: a timer is armed on entry, fires when the clock reaches its deadline, and is disarmed on exit")
    func t8() {
        let test = MachineTest(Radio.self, state: Radio.State(mode: .playing, station: "jazz"))
        test.skipPendingRuns()
        test.send(.signalLost) {
            $0.mode = .failed
            $0.error = "signal lost"
        }
        #expect(test.armedTimers == [ArmedTimer(state: .failed, index: 0, delay: .seconds(5), event: ._timer(entry: 1))])
        test.advance(by: .seconds(4))
        #expect(test.queuedEvents.isEmpty)
        test.advance(by: .seconds(1))
        #expect(test.queuedEvents == [._timer(entry: 1)])
        #expect(test.armedTimers.isEmpty)
        test.receive(timer: .failed) {
            $0.mode = .tuning
            $0.error = nil
        }
        test.answer(.load("jazz"), with: .loadFailed("404"))
        test.receive(.loadFailed("404")) {
            $0.mode = .failed
            $0.error = "404"
        }
        // Entered again: a new timer, counted from now.
        #expect(test.armedTimers.map(\.event) == [._timer(entry: 3)])
        test.advance(by: .seconds(2))
        // Leaving `failed` disarms it.
        test.send(.tune("rock")) {
            $0.mode = .tuning
            $0.station = "rock"
            $0.error = nil
        }
        #expect(test.armedTimers.isEmpty)
        test.advance(by: .seconds(10))
        #expect(test.queuedEvents.isEmpty)
        #expect(test.now == .seconds(17))
        test.skipPendingRuns()
        test.finish()
    }

    @Test("T14: without stating, steps reduce unchecked; the runs stay exhaustive")
    func t14() {
        let messages = failures {
            let test = MachineTest(Radio.self, state: Radio.State())
            test.checksState = false
            test.send(.tune("jazz"))  // the mode and the station change, unstated
            #expect(test.state.mode == .tuning)
            test.answer(.load("jazz"), with: .loaded(["a"]))
            test.receive(.loaded(["a"])) { $0.mode = .failed }  // a wrong expectation, not compared
            #expect(test.state.mode == .ready)
            test.finish()  // the prefetch the last step started is still pending
        }
        #expect(messages == [
            "The run .prefetch(0) is still pending at the end of the test: answer it, or skipPendingRuns().",
        ])
    }

    @Test("T9: finish fails for each run pending and event queued, naming them, at its line")
    func t9() {
        var finishLine: UInt = 0
        let recorded = withRecordedFailures {
            let test = MachineTest(Radio.self, state: Radio.State(mode: .playing, station: "jazz"))
            test.answer(.ticks("jazz"), with: .tick(1))
            finishLine = #line; test.finish()
            // Once only: a second finish, and the release, report nothing more.
            test.finish()
        }
        #expect(recorded == [
            RecordedFailure(
                message: #"The run .ticks("jazz") is still pending at the end of the test: answer or finish it, or skipPendingRuns()."#,
                line: finishLine
            ),
            RecordedFailure(
                message: #"The run .beacon("jazz") is still pending at the end of the test: answer or finish it, or skipPendingRuns()."#,
                line: finishLine
            ),
            RecordedFailure(
                message: #"The event .tick(1) (answer of .ticks("jazz")) was not received at the end of the test: receive it, or skipReceivedEvents()."#,
                line: finishLine
            ),
        ])
    }

    @Test("T9: a one-shot run never finished and a timer left armed fail on release, at the line that made the harness")
    func t9Deinit() {
        var madeAt: UInt = 0
        let recorded = withRecordedFailures {
            madeAt = #line; let test = MachineTest(Radio.self, state: Radio.State(mode: .ready, station: "jazz"))
            test.send(.play) { $0.mode = .playing }
            test.answer(.ticks("jazz"), with: .signalLost)
            test.receive(.signalLost) {
                $0.mode = .failed
                $0.error = "signal lost"
            }
        }
        #expect(recorded == [
            RecordedFailure(
                message: #"The run .log("play") is still pending at the end of the test: answer or finish it, or skipPendingRuns()."#,
                line: madeAt
            ),
            RecordedFailure(
                message: "The timer after #0 in .failed, 5.0 seconds is still armed at the end of the test: "
                    + "advance(by:) and receive its event, or skipTimers().",
                line: madeAt
            ),
        ])
    }

    @Test("T9: skipPendingRuns, skipReceivedEvents and skipTimers opt out for what is there now")
    func t9Skip() {
        let test = MachineTest(Radio.self, state: Radio.State(mode: .ready, tracks: ["a", "b"], prefetching: [0, 1]))
        test.answer(.prefetch(0), with: .prefetched(0))
        test.answer(.prefetch(1), with: .prefetched(1))
        // Reduced, unchecked.
        test.skipReceivedEvents()
        #expect(test.state.prefetching.isEmpty)
        #expect(test.queuedEvents.isEmpty)
        test.send(.play) { $0.mode = .playing }
        test.skipPendingRuns()
        #expect(test.pendingRuns.isEmpty)
        test.send(.signalLost) {
            $0.mode = .failed
            $0.error = "signal lost"
        }
        test.skipTimers()
        test.advance(by: .seconds(5))
        #expect(test.queuedEvents.isEmpty)
        // Only what was there: a run started after the skip must be answered.
        let messages = failures {
            test.send(.tune("rock")) {
                $0.mode = .tuning
                $0.station = "rock"
                $0.error = nil
            }
            test.finish()
        }
        #expect(messages == [#"The run .load("rock") is still pending at the end of the test: answer it, or skipPendingRuns()."#])
    }

    @Test("T10: in a Swift Testing test, a failure is an issue at the line of the call")
    func t10() {
        #expect(FailureRoute.current == .swiftTesting)
        var recordedRoute: FailureRoute?
        _ = withRecordedFailures { recordedRoute = FailureRoute.current }
        #expect(recordedRoute == .recorded)
        let line = #line + 3
        withKnownIssue {
            let test = MachineTest(Radio.self, state: Radio.State())
            test.send(.stop) { $0.seconds = 1 }
        } matching: { issue in
            issue.sourceLocation?.line == line
                && issue.sourceLocation?.fileID == #fileID
                && issue.comments.map(\.rawValue) == [
                    """
                    send(.stop): the state does not match the expectation (− expected, + actual):

                      Radio.State(
                        mode: .idle,
                        station: "",
                        tracks: [],
                        prefetching: [],
                    −   seconds: 1,
                    +   seconds: 0,
                        error: nil,
                        runs: []
                      )
                    """,
                ]
        }
    }
}
