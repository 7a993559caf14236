// Exploration: `MachineTest.explore` and `MachineTest.exploreAll` (Docs/Testing.md V8-V17), and
// what they report.
//
// Invariants:
// - Every step is made by `MachineTest` itself, walking without stating (T14): an exploration
//   knows no rule of runs, timers or sends that the harness does not, and the test it prints
//   replays the same calls.
// - A step is a function of its draws (`Draws`): a walk replays from its draws alone, which is
//   what the seed (V12), shrinking (V13) and the breadth-first search (V17) rely on.

import StateLoop

/// What is wrong after a step of a walk (V11).
public enum ExplorationFailure: Hashable, Sendable, CustomStringConvertible {
    /// The state breaks the invariant.
    case invariant(InvariantInfo)
    /// The step did not settle (V18).
    case unsettled

    /// `invariant 'withinQuota' (Quota.machine.yml:9:3): used <= limit is broken`.
    public var description: String {
        switch self {
        case .invariant(let invariant): "\(invariant) is broken"
        case .unsettled: "the machine did not settle (`always:` still enabled after 1,000 microsteps, S51)"
        }
    }

    /// The failures of `state`: the invariants it breaks, in `invariants` order, then its settling.
    static func of<M: StateMachine>(_ state: M.State, in machine: M.Type) -> [ExplorationFailure] {
        M.brokenInvariants(state).map(ExplorationFailure.invariant) + (M.isSettled(state) ? [] : [.unsettled])
    }
}

/// What an exploration did and found: the counterexamples, and the branches it reached.
public struct Exploration<M: StateMachine> {
    /// A run that breaks an invariant or does not settle, shrunk (V13), and the failure `explore`
    /// reported for it.
    public struct Counterexample {
        /// What is wrong after the run's last step.
        public var failure: ExplorationFailure
        /// The invariant the run breaks at its last step, if that is its failure.
        public var invariant: InvariantInfo? {
            if case .invariant(let invariant) = failure { invariant } else { nil }
        }
        /// The run's steps (V9).
        public var steps: Int
        /// The run as a `MachineTest` to paste (V14).
        public var test: String
        /// The failure: what is broken, where it was found, and `test`.
        public var message: String
    }

    /// The seed of `explore`'s walks; `nil` for `exploreAll`.
    public var seed: UInt64?
    /// The walks made (`explore`), not counting the replays of shrinking.
    public var walks = 0
    /// The steps made in all walks, or in the breadth-first search, not counting shrinking.
    public var steps = 0
    /// The configurations `exploreAll` visited (V17); 0 for `explore`.
    public var configurations = 0
    /// One per invariant broken (and one if a step did not settle), in the order found (V15).
    public var counterexamples: [Counterexample] = []
    /// The registry every step recorded its branches in (V16).
    public let coverage: TransitionCoverage

    /// The branches no step took (T12).
    public var report: CoverageReport { coverage.report(M.self) }
}

extension MachineTest {
    /// Walks `machine` at random from `state` (V8): `walks` walks of at most `steps` steps, each
    /// sending events of `sending` the state answers, answering pending runs with the events of
    /// `answering` that are their results, and moving the clock to what comes due (V9). A walk
    /// that breaks an invariant is shrunk and fails the test here, as a `MachineTest` to paste
    /// (V13, V14), once per invariant (V15).
    ///
    /// - Parameters:
    ///   - stateSpelling: How the printed test writes `state`.
    ///   - seed: The walks' seed (V12); a failure names it.
    ///   - guided: Whether a send prefers an event whose branch no step took yet (V16).
    ///   - coverage: Where the steps record their branches (T11).
    @discardableResult
    public static func explore(
        _ machine: M.Type = M.self,
        state: M.State,
        stateSpelling: String = ".initial",
        sending: [Gen<M.Event>],
        answering: [Gen<M.Event>] = [],
        walks: Int = 100,
        steps: Int = 50,
        seed: UInt64 = .random(in: .min ... .max),
        guided: Bool = true,
        coverage: TransitionCoverage = TransitionCoverage(),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) -> Exploration<M> {
        let walker = Walker<M>(state: state, sending: sending, answering: answering, guided: guided, coverage: coverage)
        var exploration = Exploration<M>(seed: seed, coverage: coverage)
        // The harnesses' own failures (the broken invariants of every walk and replay) are the
        // search's business; the counterexamples are reported after it.
        FailureRecorder.$current.withValue(FailureRecorder()) {
            var random = SplitMix64(seed: seed)
            for number in 1...max(walks, 1) {
                let walk = walker.walk(limit: steps, random: &random)
                exploration.walks += 1
                exploration.steps += walk.steps.count
                for failure in walk.failures where !exploration.counterexamples.contains(where: { $0.failure == failure }) {
                    let shrunk = walker.shrink(walk.steps.map(\.draws), failing: failure)
                    let found = "walk \(number) of seed \(seed), \(Self.steps(walk.steps.count)) before shrinking"
                    exploration.counterexamples.append(walker.counterexample(shrunk, failing: failure, found: found, spelling: stateSpelling))
                }
            }
        }
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        for counterexample in exploration.counterexamples { reportFailure(counterexample.message, at: site) }
        return exploration
    }

    /// Visits, breadth first, every configuration of `machine` reachable from `state` within
    /// `depth` steps (V17): each step every choice `explore` could make there (at most
    /// `choicesPerStep` sequences of draws, V9), each configuration once. The shortest run to each
    /// invariant broken fails the test here, as `explore` prints it (V14).
    @discardableResult
    public static func exploreAll(
        _ machine: M.Type = M.self,
        state: M.State,
        stateSpelling: String = ".initial",
        sending: [Gen<M.Event>],
        answering: [Gen<M.Event>] = [],
        depth: Int,
        choicesPerStep: Int = 4096,
        coverage: TransitionCoverage = TransitionCoverage(),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) -> Exploration<M> {
        let walker = Walker<M>(state: state, sending: sending, answering: answering, guided: false, coverage: coverage)
        var exploration = Exploration<M>(seed: nil, coverage: coverage)
        FailureRecorder.$current.withValue(FailureRecorder()) {
            let root = walker.start()
            var nodes: [(test: MachineTest, parent: Int?, step: Walker<M>.Step?, depth: Int)] = [(root, nil, nil, 0)]
            var seen: Set<String> = [root.configuration]
            var next = 0
            while next < nodes.count {
                let index = next
                next += 1
                let node = nodes[index]
                let failures = ExplorationFailure.of(node.test.state, in: M.self)
                let new = failures.filter { failure in !exploration.counterexamples.contains { $0.failure == failure } }
                if !new.isEmpty {
                    var steps: [Walker<M>.Step] = []
                    var at: Int? = index
                    while let current = at, let step = nodes[current].step {
                        steps.insert(step, at: 0)
                        at = nodes[current].parent
                    }
                    let walk = Walker<M>.Walk(steps: steps, failures: failures, endingIn: node.test)
                    let found = "breadth first, \(seen.count) configurations so far"
                    for failure in new {
                        exploration.counterexamples.append(walker.counterexample(walk, failing: failure, found: found, spelling: stateSpelling))
                    }
                }
                // A walk ends where an invariant breaks (V11), and the search stops at `depth`.
                guard failures.isEmpty, node.depth < depth else { continue }
                Draws.enumerate(limit: choicesPerStep) { draws in
                    let child = MachineTest(copying: node.test)
                    guard let calls = walker.step(child, &draws) else { return }
                    exploration.steps += 1
                    if seen.insert(child.configuration).inserted {
                        nodes.append((child, index, Walker<M>.Step(draws: draws.made, calls: calls), node.depth + 1))
                    }
                }
            }
            exploration.configurations = seen.count
        }
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        for counterexample in exploration.counterexamples { reportFailure(counterexample.message, at: site) }
        return exploration
    }
}

extension MachineTest {
    /// `1 step`, `3 steps`.
    static func steps(_ count: Int) -> String {
        "\(count) step\(count == 1 ? "" : "s")"
    }
}

/// Makes the steps of an exploration through a `MachineTest` (V9), and shrinks walks (V13).
final class Walker<M: StateMachine> {
    /// One call of a step on the harness, printed only when a counterexample is: printing reads
    /// values through `Mirror`, which costs more than the step.
    enum Call {
        case send(M.Event)
        case answer(M.Call, with: M.Event)
        case advance(Duration)
        case receive(M.Event)
        case receiveTimer(M.StateName, index: Int)

        /// The call as the test to paste writes it (V14).
        var line: String {
            switch self {
            case .send(let event): "test.send(\(ValueDump.line(of: event)))"
            case .answer(let call, let event): "test.answer(\(ValueDump.line(of: call)), with: \(ValueDump.line(of: event)))"
            case .advance(let duration): "test.advance(by: \(Walker.literal(duration)))"
            case .receive(let event): "test.receive(\(ValueDump.line(of: event)))"
            case .receiveTimer(let state, let index): "test.receive(timer: \(ValueDump.line(of: state)), index: \(index))"
            }
        }
    }

    /// One step made: the draws it made, and its calls on the harness.
    struct Step {
        var draws: [UInt64]
        var calls: [Call]
    }

    /// A walk: its steps, what is wrong after its last, and what was left at its end (runs
    /// pending, timers or sends armed), which the printed test skips.
    struct Walk {
        var steps: [Step]
        var failures: [ExplorationFailure]
        var runsLeft: Bool
        var timersLeft: Bool

        init(steps: [Step], failures: [ExplorationFailure], endingIn test: MachineTest<M>) {
            self.steps = steps
            self.failures = failures
            runsLeft = !test.pendingRuns.isEmpty
            timersLeft = test.timeUntilNextDue != nil
        }
    }

    private enum Kind { case send, answer, advance }

    private let state: M.State
    private let sending: [Gen<M.Event>]
    private let answering: [Gen<M.Event>]
    private let guided: Bool
    private let coverage: TransitionCoverage
    /// `isIgnore` of every branch, by id: looked up once per candidate event.
    private let ignores: [Bool]
    /// The branches some step took, by id (V16).
    private var reached: [Bool]
    /// How many branches other than ignores no step took yet: guiding stops at 0, for speed.
    private var unreachedCount: Int

    init(state: M.State, sending: [Gen<M.Event>], answering: [Gen<M.Event>], guided: Bool, coverage: TransitionCoverage) {
        self.state = state
        self.sending = sending
        self.answering = answering
        self.guided = guided
        self.coverage = coverage
        ignores = M.transitions.map(\.isIgnore)
        reached = Array(repeating: false, count: M.transitions.count)
        unreachedCount = ignores.filter { !$0 }.count
    }

    /// A harness in the walks' first state, walking without stating (T14).
    func start() -> MachineTest<M> {
        let test = MachineTest(M.self, state: state, coverage: coverage)
        test.checksState = false
        return test
    }

    /// A walk of at most `limit` steps drawn from `random`, or, when `replaying`, one step per
    /// element of it, each from those draws (V13). It ends at the first step that breaks an
    /// invariant (V11), or when no step can be made.
    func walk(limit: Int, random: inout SplitMix64, replaying: [[UInt64]]? = nil) -> Walk {
        let test = start()
        var steps: [Step] = []
        var failures = ExplorationFailure.of(test.state, in: M.self)
        for index in 0..<(replaying?.count ?? limit) {
            guard failures.isEmpty else { break }
            var draws = replaying.map { Draws(replaying: $0[index]) } ?? Draws(random: random)
            let calls = step(test, &draws)
            // Moved on even when no step could be made, or every later walk would repeat this one.
            if replaying == nil, let generator = draws.generator { random = generator }
            guard let calls else { break }
            steps.append(Step(draws: draws.made, calls: calls))
            failures = ExplorationFailure.of(test.state, in: M.self)
        }
        let walk = Walk(steps: steps, failures: failures, endingIn: test)
        // Ended here: its end-of-test checks would only describe what it left, at a cost.
        test.skipPendingRuns()
        test.skipTimers()
        test.finish()
        return walk
    }

    /// The shortest walk found that still fails with `failure` (V13): runs of steps removed, the
    /// longest first, then each draw made simpler, until nothing helps.
    func shrink(_ found: [[UInt64]], failing failure: ExplorationFailure) -> Walk {
        var unused = SplitMix64(seed: 0)
        // Fewer steps, then fewer draws, then smaller ones: each walk accepted is smaller than the
        // last, so shrinking ends (a replay may draw differently after a simpler draw).
        func size(_ walk: Walk) -> (Int, Int, UInt64) {
            (walk.steps.count, walk.steps.reduce(0) { $0 + $1.draws.count },
             walk.steps.reduce(0) { $0 &+ $1.draws.reduce(0, &+) })
        }
        var best = walk(limit: found.count, random: &unused, replaying: found)
        precondition(best.failures.contains(failure), "a failing walk replays as it failed (V12)")
        func replay(_ candidate: [[UInt64]]) -> Walk? {
            let walk = walk(limit: candidate.count, random: &unused, replaying: candidate)
            return walk.failures.contains(failure) && size(walk) < size(best) ? walk : nil
        }
        var changed = true
        while changed {
            changed = false
            var size = max(best.steps.count / 2, 1)
            while size >= 1 {
                var start = 0
                while start + size <= best.steps.count {
                    var candidate = best.steps.map(\.draws)
                    candidate.removeSubrange(start..<(start + size))
                    if let shorter = replay(candidate) {
                        best = shorter
                        changed = true
                    } else {
                        start += 1
                    }
                }
                size /= 2
            }
            // A simpler draw may end the walk earlier (the invariant breaks sooner): bounds are read again.
            var step = 0
            while step < best.steps.count {
                var draw = 0
                while step < best.steps.count, draw < best.steps[step].draws.count {
                    let value = best.steps[step].draws[draw]
                    // Half of a draw keeps its parity too: a number's sign (`Gen.int(in:)`).
                    for simpler in Set([0, value / 2, value / 2 & ~1 | value & 1, value &- 2, value &- 1]).sorted() where simpler < value {
                        var candidate = best.steps.map(\.draws)
                        candidate[step][draw] = simpler
                        if let simplerWalk = replay(candidate) {
                            best = simplerWalk
                            changed = true
                            break
                        }
                    }
                    draw += 1
                }
                step += 1
            }
        }
        return best
    }

    /// `walk` printed as a test that fails with `failure` at its last step (V14).
    func counterexample(_ walk: Walk, failing failure: ExplorationFailure, found: String, spelling: String) -> Exploration<M>.Counterexample {
        var lines = ["let test = MachineTest(\(String(describing: M.self)).self, state: \(spelling))", "test.checksState = false"]
        lines += walk.steps.flatMap(\.calls).map(\.line)
        if walk.runsLeft { lines.append("test.skipPendingRuns()") }
        if walk.timersLeft { lines.append("test.skipTimers()") }
        lines.append("test.finish()")
        let test = lines.joined(separator: "\n")
        let message = "explore(\(String(describing: M.self))): \(failure) after \(MachineTest<M>.steps(walk.steps.count)) (\(found)); paste to reproduce:\n\n\(test)"
        return .init(failure: failure, steps: walk.steps.count, test: test, message: message)
    }

    // MARK: Steps

    /// Makes one step on `test` from `draws` (V9) and returns its calls; `nil` when no kind of
    /// step has a candidate. A kind drawn that has none gives way to the next.
    func step(_ test: MachineTest<M>, _ draws: inout Draws) -> [Call]? {
        var kinds: [Kind] = []
        if !M.isDone(test.state), !sending.isEmpty { kinds.append(.send) }
        if !test.pendingRuns.isEmpty, !answering.isEmpty { kinds.append(.answer) }
        if test.timeUntilNextDue != nil { kinds.append(.advance) }
        guard !kinds.isEmpty else { return nil }
        let first = Int(draws.next(below: UInt64(kinds.count)))
        for offset in kinds.indices {
            let calls: [Call]?
            switch kinds[(first + offset) % kinds.count] {
            case .send: calls = send(test, &draws)
            case .answer: calls = answer(test, &draws)
            case .advance: calls = advance(test)
            }
            if let calls { return calls }
        }
        return nil
    }

    /// Sends an event of `sending` the state answers, from a drawn generator on (V9); guided, one
    /// that takes a branch no step took, if there is one (V16).
    private func send(_ test: MachineTest<M>, _ draws: inout Draws) -> [Call]? {
        if guided, unreachedCount > 0, let random = draws.generator, let choice = unreached(sending, from: test.state, random, where: { _ in true }) {
            draws.force(choice)
        }
        let start = Int(draws.next(below: UInt64(sending.count)))
        for offset in sending.indices {
            // A payload the state does not answer (an empty search its guard refuses) is drawn again.
            for _ in 0..<Self.tries {
                let event = sending[(start + offset) % sending.count].make(&draws)
                let (next, taken) = reduced(test.state, event)
                guard taken.contains(where: { !ignores[$0] }) else { continue }
                note(taken)
                test.send(event, reducedTo: next, taking: taken)
                return [.send(event)]
            }
        }
        return nil
    }

    /// How many times a send draws each generator before the next (V9).
    static var tries: Int { 3 }

    /// The draws that make an event of `generators` that `fits` and takes a branch no step took
    /// yet in `state`: the generator's index, then its payload's draws; `nil` when there is none.
    private func unreached(
        _ generators: [Gen<M.Event>], from state: M.State, _ random: SplitMix64, where fits: (M.Event) -> Bool
    ) -> [UInt64]? {
        var random = random
        let start = Int(random.next() % UInt64(generators.count))
        for offset in generators.indices {
            let index = (start + offset) % generators.count
            var draws = Draws(random: random)
            let event = generators[index].make(&draws)
            random = draws.generator ?? random
            if fits(event), reduced(state, event).taken.contains(where: { !ignores[$0] && !reached[$0] }) {
                return [UInt64(index)] + draws.made
            }
        }
        return nil
    }

    /// Answers a pending run, from a drawn one on, with an event of `answering` that is one of its
    /// results, and receives it (V9); guided, one that takes a branch no step took, if any (V16).
    private func answer(_ test: MachineTest<M>, _ draws: inout Draws) -> [Call]? {
        let runs = test.pendingRuns
        if guided, unreachedCount > 0, let random = draws.generator {
            for (index, call) in runs.enumerated() {
                if let choice = unreached(answering, from: test.state, random, where: { M.result($0, of: call) != nil }) {
                    draws.force([UInt64(index)] + choice)
                    break
                }
            }
        }
        let first = Int(draws.next(below: UInt64(runs.count)))
        for run in runs.indices {
            let call = runs[(first + run) % runs.count]
            let start = Int(draws.next(below: UInt64(answering.count)))
            for offset in answering.indices {
                let event = answering[(start + offset) % answering.count].make(&draws)
                guard M.result(event, of: call) != nil else { continue }
                note(reduced(test.state, event).taken)
                test.answer(call, with: event)
                test.receive(event)
                return [.answer(call, with: event), .receive(event)]
            }
        }
        return nil
    }

    /// Moves the clock to the next timer or send due and receives what came due (V9), up to the
    /// first event that breaks an invariant (V11).
    private func advance(_ test: MachineTest<M>) -> [Call]? {
        guard let due = test.timeUntilNextDue else { return nil }
        test.advance(by: due)
        var calls: [Call] = [.advance(due)]
        while let next = test.queue.first, ExplorationFailure.of(test.state, in: M.self).isEmpty {
            note(reduced(test.state, next.event).taken)
            if case .timer(let timer) = next.origin {
                test.receive(timer: timer.state, index: timer.index)
                calls.append(.receiveTimer(timer.state, index: timer.index))
            } else {
                test.receive(next.event)
                calls.append(.receive(next.event))
            }
        }
        return calls
    }

    /// The state after `event` in `state`, and the branches it takes.
    private func reduced(_ state: M.State, _ event: M.Event) -> (state: M.State, taken: [Int]) {
        var state = state
        var trace = TransitionTrace()
        M.reduce(&state, event, trace: &trace)
        return (state, trace.taken)
    }

    private func note(_ taken: [Int]) {
        for id in taken where !reached[id] {
            reached[id] = true
            if !ignores[id] { unreachedCount -= 1 }
        }
    }

    /// `duration` as Swift: `.seconds(5)`, `.milliseconds(1500)`, `.nanoseconds(7)`.
    static func literal(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return ".seconds(\(seconds))" }
        if attoseconds % 1_000_000_000_000_000 == 0 { return ".milliseconds(\(seconds * 1000 + attoseconds / 1_000_000_000_000_000))" }
        return ".nanoseconds(\(seconds * 1_000_000_000 + attoseconds / 1_000_000_000))"
    }
}
