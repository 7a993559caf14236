// MachineInterpreter: runs a machine's configuration by `MachineSemantics`, the way the generated
// reducer does, without compiling anything. The spec's Swift (guards, actions) is not evaluated
// here: a host answers the guards and performs the actions, in the order the reducer runs them.
// The differential test drives it and the compiled generated code with the same events.
//
// Invariants:
// - `active` holds every active state (leaves and their ancestors), in document order;
// - guards of one step are all asked before any action of it runs (S67): the host sees the
//   state before the step;
// - a microstep runs all its exits (later branches first), then every branch's `set:` and `do:`,
//   then all entries (S70); a history is recorded when its parent exits (S60).

/// What the interpreter asks of the world: the spec's guards, and its actions run.
public protocol MachineHost {
    /// The value of branch `branch`'s guard now, or of a conditional action's condition (`branch`
    /// `nil`); `active` is the configuration it reads (`isIn`).
    mutating func holds(_ guardExpression: Located<String>, branch: Int?, active: [Int]) -> Bool
    /// The trigger of the step that is running, which expressions read as `trigger` (S111): the
    /// interpreter sets it before the step's first guard and clears it when the step ends (S112);
    /// it is `nil` while the initial configuration is entered and settles.
    var trigger: MachineSemantics.StepTrigger? { get set }
    /// Runs one action: an `entry:`, `exit:` or `do:` action, or a transition's `set:` (as one
    /// `.set`); never a conditional, which the interpreter decides with `holds`, nor a `foreach:`,
    /// which it runs with `elements(of:)` and `assign(_:of:)`, nor a `.cancel`,
    /// which it performs itself (S130). For a `.raise` the host computes the payload and keeps it,
    /// oldest first, for `takeRaised` (S120); for a `.send`, the payload and the delay (S128).
    mutating func perform(_ action: Action)
    /// The interpreter takes the oldest raised event to run its step (S121): the host makes that
    /// raise's payload the one `event.x` reads.
    mutating func takeRaised()
    /// The interpreter drops every raised event not yet taken (S122): the host forgets their payloads.
    mutating func dropRaised()
    /// The delay the host computed for the send numbered `number` (S127, S128): for a `.send`
    /// the host computes the payload and the delay when it performs it, numbering the sends from 0
    /// in the order it performs them, as the interpreter does.
    func delay(ofSent number: Int) -> Duration
    /// The interpreter delivers the send numbered `number` (S133): the host makes that send's
    /// payload the one `event.x` reads.
    mutating func takeSent(_ number: Int)
    /// The host evaluates the loop's `in:` now, on the state as it is, keeps that copy of the array
    /// for `assign(_:of:)` (S171) and returns its count.
    mutating func elements(of loop: ForeachAction) -> Int
    /// The host assigns the loop's `item:` the element at `position` of the copy it kept, and its
    /// `index:` the position (S170).
    mutating func assign(_ position: Int, of loop: ForeachAction)
}

/// A machine's configuration, stepped by the rules of `MachineSemantics`.
public struct MachineInterpreter: Sendable {
    public let semantics: MachineSemantics
    /// Every active state, in document order.
    public private(set) var active: [Int] = []
    /// False when `always:` or `onDone:` microsteps were still enabled at the bound (S51).
    public private(set) var isSettled = true
    /// Per history state: the states that were active below its parent when the parent last exited.
    private var records: [Int: [Int]] = [:]
    /// The states whose `onDone:` is due, in order.
    private var due: [Int] = []
    /// The events raised and not yet taken, oldest first (S121).
    private var raised: [String] = []
    /// The sends not yet delivered nor cancelled, in the order they ran (S127).
    public private(set) var pendingSends: [PendingSend] = []
    /// How many sends have run: the number of the next one.
    private var sends = 0

    /// A `send:` waiting for its delay (S127); its payload and delay are the host's.
    public struct PendingSend: Sendable, Equatable {
        public let number: Int
        public let id: String?
        public let event: String
    }

    /// The machine in its initial configuration, its entries run and settled (S21, S45).
    public init<Host: MachineHost>(_ semantics: MachineSemantics, host: inout Host) {
        self.semantics = semantics
        host.trigger = nil
        let entry = semantics.initialEntry
        active = entry.states
        runEntries(entry, host: &host)
        settle(host: &host)
        takeRaised(host: &host)
        host.trigger = nil
        // S135: an initial entry that finishes the machine keeps no send.
        if isDone { pendingSends = [] }
    }

    /// True once a top-level final state is active: nothing changes the machine any more (S56).
    public var isDone: Bool {
        active.contains(where: semantics.isDoneState)
    }

    /// True while the state at `position` is active.
    public func isActive(_ position: Int) -> Bool {
        active.contains(position)
    }

    /// The branches `trigger` takes now and everything they do, then settling (S45); `false` when
    /// no branch was taken (an ignored event, a timer of a state not active).
    @discardableResult
    public mutating func step<Host: MachineHost>(_ trigger: MachineSemantics.StepTrigger, host: inout Host) -> Bool {
        guard !isDone else { return false }
        host.trigger = trigger
        defer { host.trigger = nil }
        guard select(trigger, host: &host) else { return false }
        settle(host: &host)
        takeRaised(host: &host)
        // S135: a finished machine delivers nothing more.
        if isDone { pendingSends = [] }
        return true
    }

    /// Delivers the pending send numbered `number` (S133): its event's step, as `step` takes it;
    /// a send no longer pending changes nothing, and each one sent before it with a delay no
    /// longer is delivered first, in the order sent (S134). A loop, as the generated reducer's.
    @discardableResult
    public mutating func deliver<Host: MachineHost>(_ number: Int, host: inout Host) -> Bool {
        var stepped = false
        while !isDone, let due = pendingSends.first(where: { $0.number == number }) {
            let delay = host.delay(ofSent: number)
            let first = pendingSends.first { $0.number <= number && host.delay(ofSent: $0.number) <= delay } ?? due
            pendingSends.removeAll { $0.number == first.number }
            host.takeSent(first.number)
            stepped = step(.event(first.event), host: &host) || stepped
            if first.number == number { break }
        }
        return stepped
    }

    /// The raised events, oldest first, each a step of its own with its microsteps, until the
    /// queue is empty (S121); past `microstepLimit` of them, once a step did not settle, or once
    /// the machine is done, the rest are dropped, and but for the last the machine is not settled
    /// (S122).
    private mutating func takeRaised<Host: MachineHost>(host: inout Host) {
        var taken = 0
        // Generation by generation, as the generated reducer does: what a generation raises
        // queues behind it.
        while !raised.isEmpty {
            let queue = raised
            raised = []
            for event in queue {
                if isDone || !isSettled || taken == MachineSemantics.microstepLimit {
                    if !isDone { isSettled = false }
                    host.dropRaised()
                    raised = []
                    return
                }
                taken += 1
                host.takeRaised()
                host.trigger = .event(event)
                if select(.event(event), host: &host) { settle(host: &host) }
            }
        }
    }

    // MARK: Microsteps

    /// Every active leaf's choice for `trigger`, taken together as one microstep (S67–S70).
    private mutating func select<Host: MachineHost>(_ trigger: MachineSemantics.StepTrigger, host: inout Host) -> Bool {
        var selected: [Int] = []
        for leaf in active where semantics.tree.isLeaf(leaf) {
            if let id = first(of: semantics.chain(leaf: leaf, trigger), host: &host) { selected.append(id) }
        }
        let taken = semantics.withoutConflicts(selected)
        guard !taken.isEmpty else { return false }
        microstep(taken, host: &host)
        return true
    }

    /// The first branch of `chain` whose guard holds; `nil` when none does or an `ignore` decides.
    private func first<Host: MachineHost>(of chain: [Int], host: inout Host) -> Int? {
        for id in chain {
            guard let transition = semantics.transitions.entries[id].branch.transition else { return nil }
            if let condition = transition.guardExpression, !host.holds(condition, branch: id, active: active) { continue }
            return id
        }
        return nil
    }

    /// Exits, actions and entries of the branches `taken`, phase by phase (S70).
    private mutating func microstep<Host: MachineHost>(_ taken: [Int], host: inout Host) {
        let entries = semantics.transitions.entries
        for id in taken.reversed() {
            guard let domain = semantics.domains[id] else { continue }
            for state in semantics.exited(below: domain, active: active) { runExit(state, host: &host) }
        }
        for id in taken {
            guard let transition = entries[id].branch.transition else { continue }
            if !transition.assignments.isEmpty { host.perform(.set(transition.assignments, at: transition.location)) }
            for action in transition.actions { run(action, host: &host) }
        }
        for id in taken {
            guard let domain = semantics.domains[id], let target = semantics.targets[id] else { continue }
            let records = self.records
            let entry = semantics.entry(below: domain, toward: target) { records[$0] }
            let kept = active.filter { state in domain.map { state == $0 || !semantics.tree.isWithin(state, $0) } ?? false }
            active = (kept + entry.states).sorted()
            runEntries(entry, host: &host)
        }
    }

    /// A state's exit work: its history records, then its `exit:` actions (S29, S60).
    private mutating func runExit<Host: MachineHost>(_ state: Int, host: inout Host) {
        let tree = semantics.tree
        for history in tree[state].children where tree[history].spec.isHistory {
            records[history] = active.filter { $0 != state && tree.isWithin($0, state) }
        }
        for action in tree[state].spec.exit { run(action, host: &host) }
    }

    /// The entry work of `entry`, state by state: its `entry:` actions, the `do:` of the default
    /// entries anchored at it (S145, S146), then the `onDone:` it makes due (S31, S53).
    private mutating func runEntries<Host: MachineHost>(_ entry: MachineSemantics.Entry, host: inout Host) {
        for position in semantics.unanchoredDefaults(entry) {
            for action in semantics.tree[position].spec.defaultActions { run(action, host: &host) }
        }
        for state in entry.states {
            for action in semantics.tree[state].spec.entry { run(action, host: &host) }
            for position in entry.defaults where semantics.anchor(ofDefault: position) == state {
                for action in semantics.tree[position].spec.defaultActions { run(action, host: &host) }
            }
            semantics.queueDone(entering: state, into: &due)
        }
    }

    /// Runs one action: the host performs it, or, for a conditional, the actions its condition
    /// picks, the condition read on the state as it is then (S106, S107), or, for a `foreach:`,
    /// its actions once per element (S170).
    private mutating func run<Host: MachineHost>(_ action: Action, host: inout Host) {
        switch action {
        case .raise(let event, _, _):
            raised.append(event.value)
        case .send(let send):
            // S129: an id that is pending is replaced.
            if let id = send.id?.value { pendingSends.removeAll { $0.id == id } }
            pendingSends.append(PendingSend(number: sends, id: send.id?.value, event: send.event.value))
            sends += 1
        case .cancel(let id, _):
            // S130: a cancel performs nothing in the host.
            pendingSends.removeAll { $0.id == id.value }
            return
        default:
            break
        }
        switch action {
        case .conditional(let conditional):
            for action in host.holds(conditional.condition, branch: nil, active: active) ? conditional.then : conditional.otherwise {
                run(action, host: &host)
            }
        case .foreach(let loop):
            // S170, S171: the array read once, then per element its fields, then the actions.
            for position in 0..<host.elements(of: loop) {
                host.assign(position, of: loop)
                for action in loop.actions { run(action, host: &host) }
            }
        default:
            host.perform(action)
        }
    }

    /// `onDone:` and `always:` microsteps until none applies, at most `microstepLimit` (S45–S55).
    private mutating func settle<Host: MachineHost>(host: inout Host) {
        for _ in 0..<MachineSemantics.microstepLimit {
            if isDone { return }
            if !due.isEmpty {
                let state = due.removeFirst()
                let active = self.active
                guard semantics.isDue(state, active: { active.contains($0) }) else { continue }
                // S161: the `onDone:` reads its final state's `doneEvent:` as `trigger`, then the
                // step's trigger is back for what follows.
                let stepTrigger = host.trigger
                if let done = semantics.doneEvents(state).first(where: { active.contains($0.final) }) { host.trigger = .event(done.event) }
                if let id = first(of: semantics.doneChain(state), host: &host) { microstep([id], host: &host) }
                host.trigger = stepTrigger
                continue
            }
            if !select(.always, host: &host) {
                isSettled = true
                return
            }
        }
        isSettled = false
        // What is still due stays due once: the queue cannot grow step after step (S51).
        var seen = Set<Int>()
        due.removeAll { !seen.insert($0).inserted }
    }
}
