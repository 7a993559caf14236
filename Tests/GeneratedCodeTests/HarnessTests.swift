import Foundation
import StateLoop
@_spi(Internals) import StateLoopTesting
import StateLoopTestSupport
import Testing

/// The StateLoopTesting harness (`MachineTest`, Docs/Testing.md T1–T13) and transition coverage
/// on the generated hierarchical fixtures, with every effect shape: Checkout and its child
/// Payment (a set, a stream, a child machine, fire-and-forget, a forwarded event, a named delay,
/// an input), Player (history, one-shot runs, final states), Microwave (`always:`, `onDone:`,
/// entry and exit, an answered one-shot run) and Upload (parallel regions).
///
/// Every harness here records into its own `TransitionCoverage`, never `.shared`: the shared
/// registry stays empty in this process, which `aSystemWithoutTheHookRecordsNothing` checks.
@Suite(.timeLimit(.minutes(1)))
struct HarnessTests {
    static let a = URL(fileURLWithPath: "/a.png")
    static let b = URL(fileURLWithPath: "/b.png")
    static let input = Checkout.Input(total: 42, images: [a, b])
    static let payment = Payment.Input(amount: 42)

    /// The ids `reduce(_:_:trace:)` records for `event`, and the state after it.
    private func trace<M: StateMachine>(_: M.Type, _ state: inout M.State, _ event: M.Event) -> [Int] {
        var trace = TransitionTrace()
        M.reduce(&state, event, trace: &trace)
        return trace.taken
    }

    /// The descriptions of `ids` in `M.transitions`.
    private func described<M: StateMachine>(_: M.Type, _ ids: [Int]) -> [String] {
        ids.map { M.transitions[$0].description }
    }

    // MARK: - 1. Checkout and Payment: every effect shape

    @Test("Checkout: a set, a child machine and its forwarded event, fire-and-forget, a stream and its onError:, a computed delay")
    func checkoutEveryEffectShape() throws {
        let (a, b) = (Self.a, Self.b)
        let coverage = TransitionCoverage()
        let test = MachineTest(Checkout.self, state: .initial(Self.input), coverage: coverage)
        #expect(test.state.total == 42 && test.state.images == [a, b])

        // A set of requests: one run of `loadImage` per element, all pending from the start
        // (a `Set`'s order is not stable across processes, so compare as sets).
        #expect(Set(test.pendingRuns.map { "\($0)" }) == ["loadImage(\(a))", "loadImage(\(b))"])
        #expect(test.armedTimers.isEmpty)
        test.answer(.loadImage(a), with: .imageLoaded(url: a, data: Data([1])))
        #expect(test.pendingRuns == [.loadImage(b)])
        test.receive(.imageLoaded(url: a, data: Data([1]))) {
            $0.loaded = [a: Data([1])]
            $0.images = [b]
        }
        #expect(test.pendingRuns == [.loadImage(b)])
        test.send(.cancel)  // ignored in browsing

        // Leaving `browsing` empties the requested set: `b` leaves it and its run stops, never to
        // answer. `paying` starts the fire-and-forget `holdStock` and the `Payment` child.
        test.send(.pay) { $0.mode = .paying }
        #expect(test.pendingRuns == [.holdStock(42), .pay(Self.payment)])
        let stopped = withRecordedFailures {
            test.answer(.loadImage(b), with: .imageLoaded(url: b, data: Data([2])))
        }
        #expect(stopped.map(\.message) == [
            "answer(.loadImage(\(b)), with: .imageLoaded(url: \(b), data: 1 bytes)): .loadImage(\(b)) is not pending. "
                + "Pending runs: .holdStock(42), .pay(Payment.Input(amount: 42)).",
        ])
        #expect(test.queuedEvents.isEmpty)
        test.finish(.holdStock(42))

        // `cancel` is forwarded to the child (as its `abort`); the child answers through its
        // `onDone:` (`declined`), and `browsing` asks for the image still missing.
        test.send(.cancel) { $0.forwarded = [.pay(.abort)] }
        #expect(test.pendingRuns == [.pay(Self.payment)])
        test.answer(.pay(Self.payment), with: .declined(reason: "cancelled"))
        test.receive(.declined(reason: "cancelled")) {
            $0.mode = .browsing
            $0.problem = "cancelled"
            $0.forwarded = []
        }
        #expect(test.pendingRuns == [.loadImage(b)])
        test.answer(.loadImage(b), with: .imageFailed(error: "404", request: b))
        test.receive(.imageFailed(error: "404", request: b)) {
            $0.images = []
            $0.problem = "404"
        }

        // Paid this time: the child's `paid` ends its run; leaving `paying` stops `holdStock`.
        test.send(.pay) { $0.mode = .paying }
        test.answer(.pay(Self.payment), with: .paid(receipt: "R1"))
        test.receive(.paid(receipt: "R1")) {
            $0.mode = .shipped
            $0.receipt = "R1"
        }
        #expect(test.pendingRuns == [.trackDelivery("R1")])

        // A stream: several answers, the run goes on; its `onError:` event ends it.
        test.answer(.trackDelivery("R1"), with: .delivery(status: "packed"))
        test.answer(.trackDelivery("R1"), with: .delivery(status: "on its way"))
        #expect(test.pendingRuns == [.trackDelivery("R1")])
        test.receive(.delivery(status: "packed")) { $0.status = "packed" }
        test.receive(.delivery(status: "on its way")) { $0.status = "on its way" }
        test.answer(.trackDelivery("R1"), with: .trackingLost(error: "lost"))
        #expect(test.pendingRuns.isEmpty)
        test.receive(.trackingLost(error: "lost")) {
            $0.mode = .reconnecting
            $0.problem = "lost"
            $0.attempt = 1
        }

        // The named delay `backoff`, `.seconds(1 << min(attempt, 6))`, evaluated on entry.
        let firstTimer = try #require(test.state.armedTimer(.reconnecting))
        #expect(test.armedTimers == [ArmedTimer(state: .reconnecting, index: 0, delay: .seconds(2), event: firstTimer)])
        test.send(.cancel)  // ignored while reconnecting
        test.advance(by: .seconds(1))
        #expect(test.queuedEvents.isEmpty)
        test.advance(by: .seconds(1))
        #expect(test.queuedEvents == [firstTimer])
        test.receive(timer: .reconnecting) { $0.mode = .shipped }
        #expect(test.pendingRuns == [.trackDelivery("R1")])  // a new run of the stream

        // Lost again before any delivery: the back-off doubles.
        test.answer(.trackDelivery("R1"), with: .trackingLost(error: "lost again"))
        test.receive(.trackingLost(error: "lost again")) {
            $0.mode = .reconnecting
            $0.problem = "lost again"
            $0.attempt = 2
        }
        #expect(test.armedTimers.map(\.delay) == [.seconds(4)])
        test.advance(by: .seconds(4))
        test.receive(timer: .reconnecting) { $0.mode = .shipped }
        test.answer(.trackDelivery("R1"), with: .delivery(status: "delivered"))
        test.receive(.delivery(status: "delivered")) {
            $0.status = "delivered"
            $0.attempt = 0
        }
        test.finish(.trackDelivery("R1"))  // the stream finishes without an event
        test.finish()

        let report = coverage.report(Checkout.self)
        #expect(report.summary == "Checkout: 8/8 transitions taken, 2/6 ignores")
        #expect(report.untaken.map(\.description) == [
            "paying --pay--> (ignored)",
            "shipped --pay--> (ignored)",
            "shipped --cancel--> (ignored)",
            "reconnecting --pay--> (ignored)",
        ])
    }

    @Test("Payment, the child: its run is answered, or the forwarded abort ends it in a final state")
    func paymentTheChildMachine() {
        let coverage = TransitionCoverage()
        let paid = MachineTest(Payment.self, state: .initial(Self.payment), coverage: coverage)
        #expect(paid.pendingRuns == [.authorize(42)])
        paid.answer(.authorize(42), with: .authorized(receipt: "R1"))
        paid.receive(.authorized(receipt: "R1")) {
            $0.mode = .paid
            $0.receipt = "R1"
        }
        #expect(paid.state.isDone && paid.state.output == .paid(receipt: "R1"))
        paid.finish()

        // What Checkout's forwarded `cancel` does to the child: the run stops with the state.
        let aborted = MachineTest(Payment.self, state: .initial(Self.payment), coverage: coverage)
        aborted.send(.abort) {
            $0.mode = .declined
            $0.reason = "cancelled"
        }
        #expect(aborted.pendingRuns.isEmpty)
        #expect(aborted.state.output == .declined(reason: "cancelled"))
        aborted.finish()
        #expect(coverage.report(Payment.self).summary == "Payment: 2/3 transitions taken")
    }

    // MARK: - 2. Player: history, one-shot runs, a final state

    @Test("Player: history, one-shot runs pending until finished, the timer, and a send after the end fails")
    func playerHistoryOneShotRunsAndTheEnd() throws {
        let coverage = TransitionCoverage()
        let test = MachineTest(Player.self, state: .initial, coverage: coverage)
        test.send(.pause)  // ignored in stopped
        test.send(.play) {
            $0.mode = .active(.playing)
            $0.sessions = 1
        }
        #expect(test.armedTimers.map(\.delay) == [.seconds(30 * 60)])
        test.send(.play)  // ignored in playing
        test.send(.pause) { $0.mode = .active(.paused) }
        #expect(test.armedTimers.isEmpty)

        // `stop` is `active`'s handler; leaving `active` runs its exit: a one-shot run, pending
        // until the test finishes it (it emits nothing), whatever the state does next.
        test.send(.stop) { $0.mode = .stopped }
        #expect(test.pendingRuns == [.saveSession(1)])
        #expect(test.state.runs == [.saveSession(1)])
        // History: back to `paused`, where the last session was left.
        test.send(.play) {
            $0.mode = .active(.paused)
            $0.sessions = 2
        }
        #expect(test.pendingRuns == [.saveSession(1)])
        let notAnswerable = withRecordedFailures {
            test.finish(.saveSession(2))
        }
        #expect(notAnswerable.map(\.message) == [
            "finish(.saveSession(2)): .saveSession(2) is not pending. Pending runs: .saveSession(1).",
        ])
        test.finish(.saveSession(1))

        test.send(.play) { $0.mode = .active(.playing) }
        test.advance(by: .seconds(30 * 60))
        test.receive(timer: .playing) { $0.mode = .active(.paused) }

        // The machine-wide `powerOff` ends it: `off` is final, `active`'s exit runs once more.
        test.send(.powerOff) { $0.mode = .off }
        #expect(test.state.isDone && test.state.output == .off)
        #expect(test.pendingRuns == [.saveSession(2)])
        test.finish(.saveSession(2))

        var sendLine: UInt = 0
        let afterTheEnd = withRecordedFailures {
            sendLine = #line; test.send(.play) { $0.mode = .active(.playing) }
        }
        #expect(afterTheEnd == [RecordedFailure(message: "send(.play): the machine is done; no event can change it.", line: sendLine)])
        #expect(test.state.mode == .off)
        #expect(test.pendingRuns.isEmpty)  // the last step's one-shot run did not start again
        test.finish()

        let report = coverage.report(Player.self, specDirectory: "Tests/StateLoopCodegenTests/Fixtures")
        #expect(report.summary == "Player: 6/7 transitions taken, 2/6 ignores")
        #expect(report.warnings.first == "Tests/StateLoopCodegenTests/Fixtures/Player.machine.yml:20:21: warning: transition never taken in tests: stopped --stop--> (ignored)")
    }

    @Test("Player: a one-shot run left pending fails the test at finish(), naming the run")
    func aOneShotRunLeftPendingFails() {
        var finishLine: UInt = 0
        let failures = withRecordedFailures {
            let test = MachineTest(Player.self, state: .initial, coverage: TransitionCoverage())
            test.send(.play) {
                $0.mode = .active(.playing)
                $0.sessions = 1
            }
            test.send(.stop) { $0.mode = .stopped }
            finishLine = #line; test.finish()
        }
        #expect(failures == [
            RecordedFailure(
                message: "The run .saveSession(1) is still pending at the end of the test: answer or finish it, or skipPendingRuns().",
                line: finishLine
            ),
        ])
    }

    // MARK: - 3. Microwave (always:, onDone:, entry, exit) and Upload (parallel regions)

    @Test("Microwave: entry and exit actions, always: then onDone: in one step, an answered one-shot run, deep history, the end")
    func microwaveAlwaysOnDoneEntryAndExit() {
        let coverage = TransitionCoverage()
        let test = MachineTest(Microwave.self, state: .initial, coverage: coverage)
        test.send(.addTime(seconds: 2)) {
            $0.mode = .closed(.ready)
            $0.seconds = 2
        }
        test.send(.start) {
            $0.mode = .closed(.cooking(.heating))
            $0.log = ["on"]  // cooking's entry
        }
        #expect(test.armedTimers.map(\.state) == [.cooking])
        test.send(.addTime(seconds: 0))  // both guards false: nothing happens
        test.send(.tick) { $0.seconds = 1 }

        // The tick reaches 0: `always:` goes to the final `done`, `cooking`'s `onDone:` leaves
        // it (its exit logs "off", `idle`'s entry sets 0) and runs `beep`, a one-shot run that
        // answers; the safety timer is gone with `cooking`.
        test.send(.tick) {
            $0.mode = .closed(.idle)
            $0.seconds = 0
            $0.log = ["on", "off"]
        }
        #expect(test.armedTimers.isEmpty)
        #expect(test.pendingRuns == [.beep(3)])
        test.answer(.beep(3), with: .beeped)
        #expect(test.pendingRuns.isEmpty)
        test.receive(.beeped) { $0.log = ["on", "off", "beeped"] }

        test.send(.open) {
            $0.mode = .opened
            $0.log = ["on", "off", "beeped", "open"]
        }
        test.send(.start)  // ignored while open
        test.send(.close) { $0.mode = .closed(.idle) }  // deep history: idle

        // `unplugged` is final; its entry runs `log`, a fire-and-forget one-shot run.
        test.send(.unplug) { $0.mode = .unplugged }
        #expect(test.state.isDone)
        #expect(test.pendingRuns == [.log("bye after 4 entries")])
        test.finish(.log("bye after 4 entries"))
        test.finish()

        #expect(coverage.report(Microwave.self).summary == "Microwave: 9/16 transitions taken, 1/12 ignores")
    }

    @Test("Microwave: cooking's timer runs on the harness's clock however cooking's children change")
    func microwaveTimerOfACompositeState() {
        let test = MachineTest(Microwave.self, state: .initial, coverage: TransitionCoverage())
        test.send(.addTime(seconds: 90)) {
            $0.mode = .closed(.ready)
            $0.seconds = 90
        }
        test.send(.start) {
            $0.mode = .closed(.cooking(.heating))
            $0.log = ["on"]
        }
        test.advance(by: .seconds(5 * 60))
        // The leaf's guarded `addTime` moves to `defrosting`: `cooking` is not left, its timer stays.
        test.send(.addTime(seconds: 90)) { $0.mode = .closed(.cooking(.defrosting)) }
        #expect(test.armedTimers.map(\.state) == [.cooking])
        test.advance(by: .seconds(5 * 60 - 1))
        #expect(test.queuedEvents.isEmpty)
        test.advance(by: .seconds(1))
        test.receive(timer: .cooking) {
            $0.mode = .closed(.idle)
            $0.seconds = 0
            $0.log = ["on", "off"]
        }
        #expect(test.armedTimers.isEmpty && test.pendingRuns.isEmpty)
        test.finish()
    }

    @Test("Upload: every region takes the event; both regions final make the parallel state's onDone: fire")
    func uploadParallelRegions() {
        let coverage = TransitionCoverage()
        let test = MachineTest(Upload.self, state: .initial, coverage: coverage)
        #expect(test.state.mode == .working(.init(transfer: .sending, checksum: .hashing)))
        #expect(test.state.log == ["start"])
        test.send(.chunk) { $0.sent = 1 }
        // `transfer` takes its own `pause`, `checksum` reaches `working`'s: both are taken.
        test.send(.pause) {
            $0.mode = .working(.init(transfer: .paused, checksum: .hashing))
            $0.log = ["start", "working saw pause"]
        }
        test.send(.resume) { $0.mode = .working(.init(transfer: .sending, checksum: .hashing)) }
        test.send(.hashed) { $0.mode = .working(.init(transfer: .sending, checksum: .verified)) }
        test.send(.chunk) { $0.sent = 2 }
        // The last chunk: `sent` is entered, both regions are final, `working`'s `onDone:` exits
        // the regions in reverse document order (S29), then `working` itself.
        test.send(.chunk) {
            $0.mode = .finished
            $0.log = ["start", "working saw pause", "sent", "checksum exit", "transfer exit", "stop"]
        }
        #expect(test.state.isDone)
        test.finish()

        let report = coverage.report(Upload.self)
        #expect(report.summary == "Upload: 7/10 transitions taken, 4/18 ignores")
    }

    // MARK: - 4. What reduce(_:_:trace:) records

    @Test("An inherited handler records its ancestor's branch; the machine's own on: records its branch")
    func inheritedHandlersRecordTheAncestorsBranch() {
        var player = Player.State.initial
        #expect(trace(Player.self, &player, .play) == [1])
        #expect(trace(Player.self, &player, .pause) == [6])
        let stop = trace(Player.self, &player, .stop)
        #expect(stop == [5])
        #expect(described(Player.self, stop) == ["active --stop--> stopped"])
        #expect(Player.transitions[5].line == 26 && Player.transitions[5].column == 13)
        let powerOff = trace(Player.self, &player, .powerOff)
        #expect(described(Player.self, powerOff) == ["(any) --powerOff--> off"])
        // Done: nothing is reduced, nothing is recorded.
        #expect(trace(Player.self, &player, .play) == [])

        var microwave = Microwave.State.initial
        _ = trace(Microwave.self, &microwave, .addTime(seconds: 30))
        _ = trace(Microwave.self, &microwave, .start)
        let cancel = trace(Microwave.self, &microwave, .cancel)
        #expect(described(Microwave.self, cancel) == ["cooking --cancel--> idle"])
        #expect(microwave.mode == .closed(.idle))
    }

    @Test("An always: microstep after an event records both ids in order, then the onDone: it makes due")
    func alwaysAndOnDoneRecordEveryIdInOrder() {
        var state = Microwave.State.initial
        #expect(trace(Microwave.self, &state, .addTime(seconds: 1)) == [4])
        #expect(trace(Microwave.self, &state, .start) == [9])
        let ids = trace(Microwave.self, &state, .tick)
        #expect(ids == [18, 20, 17])
        #expect(described(Microwave.self, ids) == [
            "heating --tick--> (stays)",
            "heating --always [seconds <= 0]--> done",
            "cooking --onDone--> idle",
        ])
        #expect(Microwave.transitions[20].line == 52 && Microwave.transitions[20].column == 21)
        #expect(state.mode == .closed(.idle) && state.runs == [.beep(3)])
    }

    @Test("An ignore: entry records its id, inherited or the state's own; false guards record nothing")
    func ignoreEntriesRecordTheirIds() {
        var state = Microwave.State.initial
        let idle = trace(Microwave.self, &state, .start)
        #expect(idle == [5])
        #expect(described(Microwave.self, idle) == ["idle --start--> (ignored)"])
        #expect(Microwave.transitions[5].line == 32 && Microwave.transitions[5].column == 18)
        _ = trace(Microwave.self, &state, .addTime(seconds: 30))
        _ = trace(Microwave.self, &state, .start)
        #expect(described(Microwave.self, trace(Microwave.self, &state, .start)) == ["cooking --start--> (ignored)"])
        let before = state
        #expect(trace(Microwave.self, &state, .addTime(seconds: 0)) == [])
        #expect(state == before)
        // Checkout: an event answered only by `forward:` is no branch of the spec.
        var checkout = Checkout.State.initial(Self.input)
        #expect(trace(Checkout.self, &checkout, .cancel) == [3])
        _ = trace(Checkout.self, &checkout, .pay)
        #expect(trace(Checkout.self, &checkout, .cancel) == [])
        #expect(checkout.forwarded == [.pay(.abort)])
    }

    @Test("Branches below a parallel state record their ids: each region's, a shared handler once")
    func branchesBelowAParallelStateRecordTheirIds() {
        var state = Upload.State.initial
        let hashed = trace(Upload.self, &state, .hashed)
        #expect(described(Upload.self, hashed) == ["sending --hashed--> (ignored)", "hashing --hashed--> verified"])
        // Every region selects first, in document order, and an `ignore:` is taken as it is
        // selected; the selected branches are then taken together as one microstep (S67, S70).
        // So `verified`'s ignore comes before `sending`'s branch, though `transfer` comes first.
        let chunk = trace(Upload.self, &state, .chunk)
        #expect(described(Upload.self, chunk) == ["verified --chunk--> (ignored)", "sending --chunk--> (stays)"])
        // `reset`, the machine's own handler, is reached from both regions and taken once.
        let reset = trace(Upload.self, &state, .reset)
        #expect(described(Upload.self, reset) == ["(any) --reset--> working"])
        let pause = trace(Upload.self, &state, .pause)
        #expect(described(Upload.self, pause) == ["sending --pause--> paused", "working --pause--> (stays)"])
        #expect(state.mode == .working(.init(transfer: .paused, checksum: .hashing)))

        // S69 in the trace: `paused` reaches `working --fail--> failed`, `hashing` selects its
        // own `fail`; the inner source wins, and only its id is recorded.
        let rehash = trace(Upload.self, &state, .fail)
        #expect(described(Upload.self, rehash) == ["hashing --fail--> hashing"])
        #expect(state.mode == .working(.init(transfer: .paused, checksum: .hashing)) && state.log.last == "rehash")
        _ = trace(Upload.self, &state, .hashed)
        // Both regions reach `working`'s `fail`: taken once.
        #expect(described(Upload.self, trace(Upload.self, &state, .fail)) == ["working --fail--> failed"])
        #expect(state.mode == .failed)
    }

    // MARK: - 5. The hook of a running system

    @Test("system(onTransition:) calls the hook with every branch each step takes")
    func aRunningSystemCallsTheHook() async throws {
        let taken = Locked<[TransitionInfo]>([])
        let effects = Player.RecordingEffects()
        let (run, states) = Player.system(effects: effects, clock: ManualClock(), onTransition: { info in
            taken.withLock { $0.append(info) }
        }).start()
        run.send(.play)
        run.send(.pause)
        run.send(.stop)
        let stopped = try #require(await firstState(in: states) { $0.mode == .stopped && $0.sessions == 1 })
        #expect(stopped._history_resume == .paused)
        #expect(taken.value == [Player.transitions[1], Player.transitions[6], Player.transitions[5]])
        #expect(taken.value.map(\.description) == ["stopped --play--> resume", "playing --pause--> paused", "active --stop--> stopped"])
        run.stop()

        // Parallel regions on the runtime: both regions' branches reach the hook.
        let uploadTaken = Locked<[TransitionInfo]>([])
        let (upload, uploadStates) = Upload.system(onTransition: { info in uploadTaken.withLock { $0.append(info) } }).start()
        upload.send(.hashed)
        _ = try #require(await firstState(in: uploadStates) { $0.isIn(.verified) })
        #expect(uploadTaken.value.map(\.id) == [7, 16])
        upload.stop()
    }

    @Test("A system without the hook records nothing, and runs as the traced one does")
    func aSystemWithoutTheHookRecordsNothing() async throws {
        let taken = Locked<[TransitionInfo]>([])
        let (traced, tracedStates) = Player.system(effects: Player.RecordingEffects(), clock: ManualClock(), onTransition: { info in
            taken.withLock { $0.append(info) }
        }).start()
        let (plain, plainStates) = Player.system(effects: Player.RecordingEffects(), clock: ManualClock()).start()
        for event: Player.Event in [.play, .pause, .stop] {
            traced.send(event)
            plain.send(event)
        }
        let tracedEnd = try #require(await firstState(in: tracedStates) { $0.sessions == 1 && $0.mode == .stopped })
        let plainEnd = try #require(await firstState(in: plainStates) { $0.sessions == 1 && $0.mode == .stopped })
        #expect(plainEnd == tracedEnd)
        // Only the traced system's three branches reached a hook; nothing reached the registry.
        #expect(taken.value.map(\.id) == [1, 6, 5])
        #expect(TransitionCoverage.shared.taken(Player.self).isEmpty)
        traced.stop()
        plain.stop()
    }
}

/// A value behind a lock, for hooks called on the system's thread and read by the test.
/// `NSLock` rather than `Mutex`, as in the runtime's tests: ThreadSanitizer on Linux does not
/// see `Mutex`'s futex. `@unchecked Sendable` rests on the lock.
private final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    func withLock<R>(_ body: (inout Value) -> R) -> R { lock.withLock { body(&stored) } }

    var value: Value { lock.withLock { stored } }
}

/// The generated `paths` and `transitions` tables, parsed from their strings, agree with each
/// other in every golden machine: each path ends with a step that takes its branch.
@Suite struct GeneratedTablesTests {
    func check<M: StateMachine>(_ machine: M.Type, _ paths: PathTable<M.StateName>, initial: M.StateName) {
        #expect(M.transitions.map(\.id) == Array(M.transitions.indices), "\(M.self)")
        #expect(M.transitions.allSatisfy { $0.line > 0 && $0.column > 0 && $0.description.contains("-->") }, "\(M.self)")
        #expect(paths.states[initial] == [], "\(M.self)")
        for (id, steps) in paths.transitions {
            #expect(steps.last?.transitions.contains(id) == true, "\(M.self) \(id)")
            #expect(steps.allSatisfy { !$0.description.isEmpty && !$0.transitions.isEmpty }, "\(M.self) \(id)")
        }
        // What the search reaches and what it reports unreachable add up to every branch.
        #expect(paths.transitions.count + paths.unreachable.filter { !$0.hasPrefix("state ") }.count == M.transitions.count, "\(M.self)")
        #expect(paths.truncation == nil, "\(M.self)")
    }

    @Test func everyGoldenMachinesTablesAgree() {
        check(GitHubSearch.self, GitHubSearch.paths, initial: .idle)
        check(Microwave.self, Microwave.paths, initial: .closed)
        check(Upload.self, Upload.paths, initial: .working)
        check(Checkout.self, Checkout.paths, initial: .browsing)
        check(Edges.self, Edges.paths, initial: .waiting)
        check(Keywords.self, Keywords.paths, initial: .`do`)
    }

    @Test func aTimerStepNamesItsStateAndAnEffectStepItsEffect() {
        let toRetry = GitHubSearch.paths.transitions[GitHubSearch.transitions.firstIndex { $0.description == "failed --after 5s--> loading" }!]!
        #expect(toRetry.map(\.trigger) == [.event("searchChanged"), .event("failed"), .timer(.failed, index: 0)])
        #expect(toRetry.map(\.effect) == [nil, "loadNextPage", nil])
        #expect(toRetry[0].holding == ["!event.search.isEmpty"])
    }
}
