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

/// What an exploration did and found: the counterexamples, and the branches it reached.
public struct Exploration<M: StateMachine> {
    /// A run that breaks an invariant, shrunk (V13), and the failure `explore` reported for it.
    public struct Counterexample {
        /// The invariant the run breaks at its last step.
        public var invariant: InvariantInfo
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
    /// One per invariant broken, in the order found (V15).
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
                for invariant in walk.broken where !exploration.counterexamples.contains(where: { $0.invariant == invariant }) {
                    let shrunk = walker.shrink(walk.steps.map(\.draws), breaking: invariant)
                    let found = "walk \(number) of seed \(seed), \(Self.steps(walk.steps.count)) before shrinking"
                    exploration.counterexamples.append(walker.counterexample(shrunk, breaking: invariant, found: found, spelling: stateSpelling))
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
                let broken = M.brokenInvariants(node.test.state)
                let new = broken.filter { invariant in !exploration.counterexamples.contains { $0.invariant == invariant } }
                if !new.isEmpty {
                    var steps: [Walker<M>.Step] = []
                    var at: Int? = index
                    while let current = at, let step = nodes[current].step {
                        steps.insert(step, at: 0)
                        at = nodes[current].parent
                    }
                    let walk = Walker<M>.Walk(steps: steps, broken: broken, test: node.test)
                    let found = "breadth first, \(seen.count) configurations so far"
                    for invariant in new {
                        exploration.counterexamples.append(walker.counterexample(walk, breaking: invariant, found: found, spelling: stateSpelling))
                    }
                }
                // A walk ends where an invariant breaks (V11), and the search stops at `depth`.
                guard broken.isEmpty, node.depth < depth else { continue }
                Draws.enumerate(limit: choicesPerStep) { draws in
                    let child = MachineTest(copying: node.test)
                    guard let lines = walker.step(child, &draws) else { return }
                    exploration.steps += 1
                    if seen.insert(child.configuration).inserted {
                        nodes.append((child, index, Walker<M>.Step(draws: draws.made, lines: lines), node.depth + 1))
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
    /// One step made: the draws it made, and the lines of the test it prints as.
    struct Step {
        var draws: [UInt64]
        var lines: [String]
    }

    /// A walk: its steps, the invariants its last state breaks, and the harness where it ended.
    struct Walk {
        var steps: [Step]
        var broken: [InvariantInfo]
        var test: MachineTest<M>
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

    init(state: M.State, sending: [Gen<M.Event>], answering: [Gen<M.Event>], guided: Bool, coverage: TransitionCoverage) {
        self.state = state
        self.sending = sending
        self.answering = answering
        self.guided = guided
        self.coverage = coverage
        ignores = M.transitions.map(\.isIgnore)
        reached = Array(repeating: false, count: M.transitions.count)
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
        var broken = M.brokenInvariants(test.state)
        for index in 0..<(replaying?.count ?? limit) {
            guard broken.isEmpty else { break }
            var draws = replaying.map { Draws(replaying: $0[index]) } ?? Draws(random: random)
            guard let lines = step(test, &draws) else { break }
            if replaying == nil, let generator = draws.generator { random = generator }
            steps.append(Step(draws: draws.made, lines: lines))
            broken = M.brokenInvariants(test.state)
        }
        return Walk(steps: steps, broken: broken, test: test)
    }

    /// The shortest walk found that still breaks `invariant` (V13): runs of steps removed, the
    /// longest first, then each draw made simpler, until nothing helps.
    func shrink(_ found: [[UInt64]], breaking invariant: InvariantInfo) -> Walk {
        var unused = SplitMix64(seed: 0)
        // Fewer steps, then fewer draws, then smaller ones: each walk accepted is smaller than the
        // last, so shrinking ends (a replay may draw differently after a simpler draw).
        func size(_ walk: Walk) -> (Int, Int, UInt64) {
            (walk.steps.count, walk.steps.reduce(0) { $0 + $1.draws.count },
             walk.steps.reduce(0) { $0 &+ $1.draws.reduce(0, &+) })
        }
        var best = walk(limit: found.count, random: &unused, replaying: found)
        precondition(best.broken.contains(invariant), "a failing walk replays as it failed (V12)")
        func replay(_ candidate: [[UInt64]]) -> Walk? {
            let walk = walk(limit: candidate.count, random: &unused, replaying: candidate)
            return walk.broken.contains(invariant) && size(walk) < size(best) ? walk : nil
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

    /// `walk` printed as a test that breaks `invariant` at its last step (V14).
    func counterexample(_ walk: Walk, breaking invariant: InvariantInfo, found: String, spelling: String) -> Exploration<M>.Counterexample {
        var lines = ["let test = MachineTest(\(String(describing: M.self)).self, state: \(spelling))", "test.checksState = false"]
        lines += walk.steps.flatMap(\.lines)
        if !walk.test.pendingRuns.isEmpty { lines.append("test.skipPendingRuns()") }
        if walk.test.timeUntilNextDue != nil { lines.append("test.skipTimers()") }
        lines.append("test.finish()")
        let test = lines.joined(separator: "\n")
        let message = "explore(\(String(describing: M.self))): \(invariant) is broken after \(MachineTest<M>.steps(walk.steps.count)) (\(found)); paste to reproduce:\n\n\(test)"
        return .init(invariant: invariant, steps: walk.steps.count, test: test, message: message)
    }

    // MARK: Steps

    /// Makes one step on `test` from `draws` (V9) and returns the lines it prints as; `nil` when
    /// no kind of step has a candidate. A kind drawn that has none gives way to the next.
    func step(_ test: MachineTest<M>, _ draws: inout Draws) -> [String]? {
        var kinds: [Kind] = []
        if !M.isDone(test.state), !sending.isEmpty { kinds.append(.send) }
        if !test.pendingRuns.isEmpty, !answering.isEmpty { kinds.append(.answer) }
        if test.timeUntilNextDue != nil { kinds.append(.advance) }
        guard !kinds.isEmpty else { return nil }
        let first = Int(draws.next(below: UInt64(kinds.count)))
        for offset in kinds.indices {
            let lines: [String]?
            switch kinds[(first + offset) % kinds.count] {
            case .send: lines = send(test, &draws)
            case .answer: lines = answer(test, &draws)
            case .advance: lines = advance(test)
            }
            if let lines { return lines }
        }
        return nil
    }

    /// Sends an event of `sending` the state answers, from a drawn generator on (V9); guided, one
    /// that takes a branch no step took, if there is one (V16).
    private func send(_ test: MachineTest<M>, _ draws: inout Draws) -> [String]? {
        if guided, let random = draws.generator, let choice = unreached(sending, from: test.state, random, where: { _ in true }) {
            draws.force(choice)
        }
        let start = Int(draws.next(below: UInt64(sending.count)))
        for offset in sending.indices {
            let event = sending[(start + offset) % sending.count].make(&draws)
            let taken = branches(test.state, event)
            guard taken.contains(where: { !ignores[$0] }) else { continue }
            note(taken)
            test.send(event)
            return ["test.send(\(ValueDump.line(of: event)))"]
        }
        return nil
    }

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
            if fits(event), branches(state, event).contains(where: { !ignores[$0] && !reached[$0] }) {
                return [UInt64(index)] + draws.made
            }
        }
        return nil
    }

    /// Answers a pending run, from a drawn one on, with an event of `answering` that is one of its
    /// results, and receives it (V9); guided, one that takes a branch no step took, if any (V16).
    private func answer(_ test: MachineTest<M>, _ draws: inout Draws) -> [String]? {
        let runs = test.pendingRuns
        if guided, let random = draws.generator {
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
                note(branches(test.state, event))
                test.answer(call, with: event)
                test.receive(event)
                return ["test.answer(\(ValueDump.line(of: call)), with: \(ValueDump.line(of: event)))", "test.receive(\(ValueDump.line(of: event)))"]
            }
        }
        return nil
    }

    /// Moves the clock to the next timer or send due and receives what came due (V9), up to the
    /// first event that breaks an invariant (V11).
    private func advance(_ test: MachineTest<M>) -> [String]? {
        guard let due = test.timeUntilNextDue else { return nil }
        test.advance(by: due)
        var lines = ["test.advance(by: \(Self.literal(due)))"]
        while let next = test.queue.first, M.brokenInvariants(test.state).isEmpty {
            note(branches(test.state, next.event))
            if case .timer(let timer) = next.origin {
                test.receive(timer: timer.state, index: timer.index)
                lines.append("test.receive(timer: \(ValueDump.line(of: timer.state)), index: \(timer.index))")
            } else {
                test.receive(next.event)
                lines.append("test.receive(\(ValueDump.line(of: next.event)))")
            }
        }
        return lines
    }

    /// The branches `event` takes in `state`.
    private func branches(_ state: M.State, _ event: M.Event) -> [Int] {
        var state = state
        var trace = TransitionTrace()
        M.reduce(&state, event, trace: &trace)
        return trace.taken
    }

    private func note(_ taken: [Int]) {
        for id in taken { reached[id] = true }
    }

    /// `duration` as Swift: `.seconds(5)`, `.milliseconds(1500)`, `.nanoseconds(7)`.
    static func literal(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return ".seconds(\(seconds))" }
        if attoseconds % 1_000_000_000_000_000 == 0 { return ".milliseconds(\(seconds * 1000 + attoseconds / 1_000_000_000_000_000))" }
        return ".nanoseconds(\(seconds * 1_000_000_000 + attoseconds / 1_000_000_000))"
    }
}
