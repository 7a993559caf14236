// MachineTest: the exhaustive test harness of Docs/Testing.md (T1-T11), which also checks the
// spec's invariants after every step (V5).

import StateLoop

/// Drives a `StateMachine` one step at a time and fails the test for every change it does not
/// assert: state changes, effect runs started and not answered, events queued and not received,
/// timers armed and not fired. Like The Composable Architecture's `TestStore`, but synchronous:
/// the harness calls `reduce` itself, effects never run, and time moves only by `advance(by:)`.
///
/// ```swift
/// let test = MachineTest(GitHubSearch.self, state: .initial)
/// test.send(.searchChanged(search: "swift")) {
///     $0.mode = .loading
///     $0.search = "swift"
///     $0.nextPageURL = url
/// }
/// test.answer(.loadNextPage(url), with: .loaded(repositories: [repo], nextURL: nil))
/// test.receive(.loaded(repositories: [repo], nextURL: nil)) {
///     $0.mode = .ready
///     $0.results = [repo]
/// }
/// test.finish()
/// ```
///
/// Every method fails the test at the line it is called from; the end-of-test checks run in
/// `finish()`, or when the harness is released without it, at the line where it was made.
/// Not `Sendable`: use it on the test's thread.
public final class MachineTest<M: StateMachine> {
    /// The state after the last step.
    public private(set) var state: M.State
    /// How far the harness's clock has moved since the harness was made.
    public private(set) var now: Duration = .zero

    /// The runs started and not yet ended, oldest first (T5).
    // Closures, not key paths, on the paths a step takes: a key path of a generic type is
    // instantiated at run time on each use, which took half of an exploration's time (V8).
    public var pendingRuns: [M.Call] { pending.map { $0.call } }
    /// The events that answers and fired timers queued and no `receive` has taken yet, oldest first.
    public var queuedEvents: [M.Event] { queue.map { $0.event } }
    /// False to step without stating the state (T14): `send` and `receive` then reduce without
    /// comparing, as a test that walks `Machine.paths` does. Runs, queued events and timers stay
    /// exhaustive.
    public var checksState = true
    /// The timers armed and not yet fired, in the order they fire.
    public var armedTimers: [ArmedTimer<M.StateName, M.Event>] { armed.map { $0.timer } }
    /// The `send:`s pending and not yet due, in the order they come due (T16).
    public var armedSends: [ArmedSend<M.Event>] {
        sends.filter { !$0.hasFired }.sorted { $0.deadline < $1.deadline }.map { $0.send }
    }
    /// How far `advance(by:)` must move the clock for the next armed timer or pending send to
    /// come due; `nil` when none is armed (T16). A test that runs the machine as a clock would
    /// advances by it and takes what came due, until it is `nil`.
    public var timeUntilNextDue: Duration? {
        // Loops: lazy sequences of generic types look their metadata up on every call.
        var next: Duration?
        for timer in timers where !timer.hasFired { next = min(next ?? timer.deadline, timer.deadline) }
        for send in sends where !send.hasFired { next = min(next ?? send.deadline, send.deadline) }
        return next.map { $0 - now }
    }

    /// A queued event and where it came from, for messages, `receive(timer:)` and the tests an
    /// exploration prints (V14).
    struct Queued {
        enum Origin {
            case answer(M.Call)
            case timer(ArmedTimer<M.StateName, M.Event>)
            case send(ArmedSend<M.Event>)
        }
        var event: M.Event
        var origin: Origin
    }

    /// A timer of the current state, with when it fires; `hasFired` once its event is queued.
    private struct TimerEntry {
        var timer: ArmedTimer<M.StateName, M.Event>
        var deadline: Duration
        var hasFired = false
    }

    private var pending: [EffectRequest<M.Call>] = []
    private(set) var queue: [Queued] = []
    private var timers: [TimerEntry] = []
    /// The pending sends of the current state, with when each comes due (T16).
    private var sends: [(send: ArmedSend<M.Event>, deadline: Duration, hasFired: Bool)] = []
    private var armed: [TimerEntry] {
        timers.filter { !$0.hasFired }.sorted { $0.deadline < $1.deadline }
    }
    private let coverage: TransitionCoverage
    private let createdAt: CallSite
    private var isFinished = false

    /// Starts a test of `machine` in `state` (T1). The runs and timers `state` asks for start now.
    /// An invariant `state` breaks fails the test here (V5).
    ///
    /// - Parameter coverage: the registry the steps' transitions are recorded in (T11).
    public init(
        _ machine: M.Type = M.self,
        state: M.State,
        coverage: TransitionCoverage = .shared,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        self.state = state
        self.coverage = coverage
        createdAt = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        coverage.record(machine, taken: [])
        updateRunsAndTimers(from: nil)
        checkInvariants(after: { "MachineTest(state:)" }, at: createdAt)
    }

    /// A harness where `other` is, for a breadth-first search (V17), which goes on from one
    /// configuration in several ways. The copy checks nothing at its end: the search ends it.
    init(copying other: MachineTest) {
        state = other.state
        now = other.now
        checksState = other.checksState
        pending = other.pending
        queue = other.queue
        timers = other.timers
        sends = other.sends
        coverage = other.coverage
        createdAt = other.createdAt
        isFinished = true
    }

    /// What tells two configurations apart in a breadth-first search (V17): the state, the runs
    /// pending, the events queued, and the timers and sends armed with how long until each is due.
    /// Dumps are most of a search's time: the rest is dumped only when there is one.
    var configuration: String {
        let idle = pending.isEmpty && queue.isEmpty && timers.isEmpty && sends.isEmpty
        return ValueDump.line(of: state) + (idle ? "" : ValueDump.line(of: (
            pendingRuns, queuedEvents, armed.map { ($0.timer, $0.deadline - now) },
            sends.filter { !$0.hasFired }.map { ($0.send, $0.deadline - now) })))
    }

    deinit {
        checkExhaustivity(at: createdAt)
    }

    // MARK: Steps

    /// Reduces `event` and checks the state against `expected` (T2), which gets the state before
    /// the step, with what only the reducer writes already copied from the state after it, and
    /// changes it into the state the test expects. Without `expected`, the state must not change.
    ///
    /// Fails if the machine is done, or if queued events wait to be received (T4).
    public func send(
        _ event: M.Event,
        _ expected: ((inout M.State) throws -> Void)? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        // Labels are made only for a failure: an exploration (V8) sends many events and fails rarely.
        let call = { "send(\(ValueDump.line(of: event)))" }
        if M.isDone(state) {
            return reportFailure("\(call()): the machine is done; no event can change it.", at: site)
        }
        if !queue.isEmpty {
            reportFailure(
                "\(call()): the events queued before it must be received first (or skipReceivedEvents()): "
                    + queue.map(describe).joined(separator: "; ") + ".",
                at: site
            )
        }
        step(event, call, expected, at: site)
    }

    /// Reduces the oldest queued event, which must be `event`, and checks the state against
    /// `expected` as `send` does (T7). A different event fails the test; it is reduced anyway,
    /// unchecked, so that the test goes on from where the machine is.
    public func receive(
        _ event: M.Event,
        _ expected: ((inout M.State) throws -> Void)? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        let call = { "receive(\(ValueDump.line(of: event)))" }
        receive(call, expected, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)) { next in
            next.event == event ? nil : "the oldest queued event is \(describe(next))"
        }
    }

    /// Reduces the oldest queued event, which must be the event of the timer number `index` of
    /// `after:` in state `name`, and checks the state against `expected` as `send` does (T7).
    public func receive(
        timer name: M.StateName,
        index: Int = 0,
        _ expected: ((inout M.State) throws -> Void)? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        let call = { "receive(timer: \(ValueDump.line(of: name)), index: \(index))" }
        receive(call, expected, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)) { next in
            if case .timer(let timer) = next.origin, timer.state == name, timer.index == index { return nil }
            return "the oldest queued event is \(describe(next))"
        }
    }

    /// Takes the oldest queued event, fails with `mismatch`'s message if it has one, and reduces
    /// the event, checked against `expected` only if it matched.
    private func receive(
        _ call: () -> String, _ expected: ((inout M.State) throws -> Void)?, at site: CallSite,
        mismatch: (Queued) -> String?
    ) {
        guard !queue.isEmpty else {
            return reportFailure("\(call()): no event is queued.", at: site)
        }
        let next = queue.removeFirst()
        if let problem = mismatch(next) {
            reportFailure("\(call()): \(problem).", at: site)
            return reduce(next.event, call, at: site)
        }
        step(next.event, call, expected, at: site)
    }

    /// Reduces `event` and checks the state after it against `expected`.
    private func step(_ event: M.Event, _ call: () -> String, _ expected: ((inout M.State) throws -> Void)?, at site: CallSite) {
        let before = state
        reduce(event, call, at: site)
        guard checksState else { return }
        var expectedState = before
        M.copyBookkeeping(from: state, to: &expectedState)
        do {
            try expected?(&expectedState)
        } catch {
            return reportFailure("\(call()): the expectation threw \(error).", at: site)
        }
        guard let diff = LineDiff.diff(ValueDump.lines(of: expectedState), ValueDump.lines(of: state)) else {
            if expectedState != state {
                reportFailure("\(call()): the state does not equal the expectation, though both print the same:\n\n"
                    + ValueDump.lines(of: state).joined(separator: "\n"), at: site)
            }
            return
        }
        reportFailure(
            "\(call()): the state does not match the expectation (− expected, + actual):\n\n"
                + diff.joined(separator: "\n"),
            at: site
        )
    }

    /// One step of the machine: reduces `event` with a trace, records the transitions taken,
    /// updates the runs and timers, and checks the invariants (V5) and that the machine settled
    /// (V18), failing at `site` for `call`.
    private func reduce(_ event: M.Event, _ call: () -> String, at site: CallSite) {
        // A finished machine changes nothing, and its last step's one-shot runs must not start again.
        guard !M.isDone(state) else { return }
        var next = state
        var trace = TransitionTrace()
        M.reduce(&next, event, trace: &trace)
        take(next, taken: trace.taken, call, at: site)
    }

    /// `send(event)` for an exploration that reduced `event` already, to see that the state
    /// answers it (V9): `next` and `taken` are what `reduce` gave, taken as the step, unchecked
    /// (T14), without reducing it twice.
    func send(_ event: M.Event, reducedTo next: M.State, taking taken: [Int]) {
        take(next, taken: taken, { "send(\(ValueDump.line(of: event)))" }, at: createdAt)
    }

    /// The rest of a step whose reduction gave `next`, taking the branches `taken`.
    private func take(_ next: M.State, taken: [Int], _ call: () -> String, at site: CallSite) {
        let before = state
        state = next
        coverage.record(M.self, taken: taken)
        updateRunsAndTimers(from: before)
        checkInvariants(after: call, at: site)
        if !M.isSettled(state) {
            reportFailure(
                "\(call()): the machine did not settle: `always:` transitions were still enabled after 1,000 microsteps (S51):\n\n"
                    + ValueDump.lines(of: state).joined(separator: "\n"),
                at: site)
        }
    }

    /// Fails the test at `site` for each invariant the state breaks (V5), naming it, its YAML
    /// line and the state: `send(.chunk): invariant 'atMostTwo' (Upload.machine.yml:21:3) is broken`.
    private func checkInvariants(after call: () -> String, at site: CallSite) {
        let broken = M.brokenInvariants(state)
        guard !broken.isEmpty else { return }
        let dump = ValueDump.lines(of: state).joined(separator: "\n")
        for invariant in broken {
            reportFailure("\(call()): \(invariant) is broken by the state after it:\n\n\(dump)", at: site)
        }
    }

    /// Compares what the state asks for now with what it asked for `before` (T5, T8): a run
    /// asked for and not before started, a run no longer asked for stopped, every one-shot run
    /// of the state started; a timer not armed before is armed at `now`, a timer no longer
    /// armed is gone.
    private func updateRunsAndTimers(from before: M.State?) {
        var previous = before.map { state in M.runs(in: state).filter { !$0.isOneShot } } ?? []
        for run in M.runs(in: state) {
            if !run.isOneShot, let index = previous.firstIndex(of: run) {
                previous.remove(at: index)
            } else {
                pending.append(run)
            }
        }
        for stopped in previous {
            if let index = pending.firstIndex(of: stopped) { pending.remove(at: index) }
        }
        timers = M.timers(in: state).map { timer in
            timers.first { $0.timer.event == timer.event } ?? TimerEntry(timer: timer, deadline: now + timer.delay)
        }
        // T16: a send is due its delay after the step that sent it.
        sends = M.sends(in: state).map { send in
            sends.first { $0.send.number == send.number } ?? (send, now + send.delay, false)
        }
    }

    // MARK: Effects and time

    /// Plays the effect of the pending run `call` (T6): `event` must be one of its results. The
    /// event is queued for `receive`. It ends the run unless the run is a stream and `event` is
    /// not its failure, or the run is a fire-and-forget one, which `finish(_:)` ends.
    public func answer(
        _ call: M.Call,
        with event: M.Event,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let label = { "answer(\(ValueDump.line(of: call)), with: \(ValueDump.line(of: event)))" }
        guard let index = pendingIndex(of: call, label, at: site) else { return }
        guard let kind = M.result(event, of: call) else {
            return reportFailure(
                "\(label()): \(ValueDump.line(of: event)) is not a result of \(ValueDump.line(of: call)).", at: site
            )
        }
        queue.append(Queued(event: event, origin: .answer(call)))
        if kind == .failure || (kind == .result && pending[index].shape == .answer) {
            pending.remove(at: index)
        }
    }

    /// Ends the pending stream or fire-and-forget run `call` without an event (T6).
    public func finish(
        _ call: M.Call,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let label = { "finish(\(ValueDump.line(of: call)))" }
        guard let index = pendingIndex(of: call, label, at: site) else { return }
        guard pending[index].shape != .answer else {
            return reportFailure("\(label()): the run ends with one of its results; answer it instead.", at: site)
        }
        pending.remove(at: index)
    }

    /// The index in `pending` of the oldest run of `call`; if there is none, fails and returns `nil`.
    private func pendingIndex(of call: M.Call, _ label: () -> String, at site: CallSite) -> Int? {
        if let index = pending.firstIndex(where: { $0.call == call }) { return index }
        let runs = pending.isEmpty ? "none" : pending.map { ValueDump.line(of: $0.call) }.joined(separator: ", ")
        reportFailure("\(label()): \(ValueDump.line(of: call)) is not pending. Pending runs: \(runs).", at: site)
        return nil
    }

    /// Moves the clock by `duration` and queues, earliest first, the event of every armed timer
    /// whose deadline has come (T8). Nothing is reduced: `receive` takes the events.
    public func advance(
        by duration: Duration,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        guard duration >= .zero else {
            let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
            return reportFailure("advance(by: \(duration)): time cannot go back.", at: site)
        }
        now += duration
        let due = timers.indices.filter { !timers[$0].hasFired && timers[$0].deadline <= now }
            .sorted { timers[$0].deadline < timers[$1].deadline }
        // Timers and sends by deadline; at one deadline, timers first, then sends in the order they were sent (S134).
        var fired: [(deadline: Duration, queued: Queued)] = []
        for index in due {
            timers[index].hasFired = true
            fired.append((timers[index].deadline, Queued(event: timers[index].timer.event, origin: .timer(timers[index].timer))))
        }
        for index in sends.indices where !sends[index].hasFired && sends[index].deadline <= now {
            sends[index].hasFired = true
            fired.append((sends[index].deadline, Queued(event: sends[index].send.delivery, origin: .send(sends[index].send))))
        }
        for entry in fired.enumerated().sorted(by: { ($0.element.deadline, $0.offset) < ($1.element.deadline, $1.offset) }) {
            queue.append(entry.element.queued)
        }
    }

    // MARK: Opting out and the end

    /// Forgets every run pending now: the test does not answer them (T9).
    public func skipPendingRuns() {
        pending.removeAll()
    }

    /// Reduces every event queued now, in order, without checking the state after each (T9);
    /// an invariant a step breaks fails the test at this call (V5).
    public func skipReceivedEvents(
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let skipped = queue
        queue.removeAll()
        for queued in skipped { reduce(queued.event, { "skipReceivedEvents(): \(self.describe(queued))" }, at: site) }
    }

    /// Forgets every timer armed and every send pending now: they never fire (T9, T16).
    public func skipTimers() {
        timers.removeAll()
        sends.removeAll()
    }

    /// Fails the test, at the line of this call, for every run still pending, every event
    /// queued and not received and every timer armed (T9). Called by `deinit` if the test does
    /// not call it, then failing at the line where the harness was made.
    public func finish(
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        checkExhaustivity(at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    private func checkExhaustivity(at site: CallSite) {
        guard !isFinished else { return }
        isFinished = true
        for run in pending {
            reportFailure(
                "The run \(ValueDump.line(of: run.call)) is still pending at the end of the test: "
                    + (run.shape == .answer ? "answer it" : "answer or finish it") + ", or skipPendingRuns().",
                at: site
            )
        }
        for queued in queue {
            reportFailure(
                "The event \(describe(queued)) was not received at the end of the test: receive it, or skipReceivedEvents().",
                at: site
            )
        }
        for entry in armed {
            reportFailure(
                "The timer \(describe(entry.timer)) is still armed at the end of the test: advance(by:) and receive its event, or skipTimers().",
                at: site
            )
        }
        for send in armedSends {
            reportFailure(
                "The \(describe(send)) is still pending at the end of the test: advance(by:) and receive its event, or skipTimers().",
                at: site
            )
        }
    }

    // MARK: Messages

    /// `.loaded(...) (answer of .load("x"))`, `._timer(...) (after #0 in failed)`.
    private func describe(_ queued: Queued) -> String {
        let event = ValueDump.line(of: queued.event)
        switch queued.origin {
        case .answer(let call): return "\(event) (answer of \(ValueDump.line(of: call)))"
        case .timer(let timer): return "\(event) (\(describe(timer)))"
        case .send(let send): return "\(event) (\(describe(send)))"
        }
    }

    /// `send #0 .nag(count: 1) after 5.0 seconds, id reminder`.
    private func describe(_ send: ArmedSend<M.Event>) -> String {
        "send #\(send.number) \(ValueDump.line(of: send.event)) after \(send.delay)" + (send.id.map { ", id \($0)" } ?? "")
    }

    /// `after #0 in failed, 5.0 seconds`.
    private func describe(_ timer: ArmedTimer<M.StateName, M.Event>) -> String {
        "after #\(timer.index) in \(ValueDump.line(of: timer.state)), \(timer.delay)"
    }
}
