// InspectedInstance: one attached instance: the bounded buffer its draining thread appends steps
// to, and what the inspector's thread makes of them (messages, runs and timers, the replay check).
//
// Invariants:
// - `branchIDs` and `seq` are the draining thread's (the reducer and the step hook run there, one
//   event at a time); the buffer is shared under `lock`, held only to copy a step in or out.
// - The inspector's thread alone reads `previous`, `helloPending` and the rest below "The
//   inspector's thread".
// - A step's seq is one more than the last one's: a gap in the seqs the inspector's thread takes
//   is exactly what the buffer dropped (I11).

import StateLoop

/// What the inspector's thread asks of an attached instance, whatever its machine.
protocol InspectedInstanceProtocol: AnyObject {
    var name: String { get }
    /// Ended: its last steps are taken and, if `sent`, its `bye` is.
    func isFinished(sent: Bool) -> Bool
    /// A new connection: the instance says `hello` again before its next message.
    func connected()
    /// Appends the messages of the steps buffered since the last call.
    func takeMessages(into messages: inout [InspectorMessage])
    /// The seq of the instance's last step, read under its lock: for a child's `child` messages.
    var currentSeq: Int { get }
    /// Tells the instance that a child of its started or stopped after its step `seq`.
    func child(_ name: String, phase: String, seq: Int)
    /// Its `messages` could not be written (the connection broke): their steps count as dropped.
    func lost(_ messages: ArraySlice<InspectorMessage>)
}

/// An attached instance of `Machine`.
final class InspectedInstance<Machine: StateMachine & SendableMetatype>: InspectedInstanceProtocol, @unchecked Sendable {
    /// One step as the draining thread saw it.
    struct Step {
        var seq: Int
        /// Milliseconds since the instance started (its `hello`).
        var time: Double
        /// `nil` for seq 0, the initial state.
        var event: Machine.Event?
        var state: Machine.State
        var branches: [Int]
    }

    let name: String
    let machine: String
    let parent: (any InspectedInstanceProtocol)?
    /// Watches the child machines this instance's feedbacks start.
    private let inspector: Inspector
    private let start = ContinuousClock.now
    private let lock = PlatformLock()

    // The draining thread's.
    private var branchIDs: [Int] = []

    // Under `lock`.
    private var buffer: StepBuffer<Step>
    private var seq = 0
    private var ended = false
    /// The `child` messages not yet taken, each after the step of its seq.
    private var childMessages: [(seq: Int, message: InspectorMessage)] = []

    deinit {
        lock.deallocate()
    }

    init(
        name: String, machine: String, parent: (any InspectedInstanceProtocol)?, initial: Machine.State,
        inspector: Inspector
    ) {
        self.inspector = inspector
        self.name = name
        self.machine = machine
        self.parent = parent
        buffer = StepBuffer(capacity: inspector.bufferSize)
        branchIDs.reserveCapacity(16)
        buffer.append { $0 = Step(seq: 0, time: 0, event: nil, state: initial, branches: []) }
        parent?.child(name, phase: "started", seq: parent?.currentSeq ?? 0)
    }

    /// What the runtime calls for this instance (`System.watched`).
    var watch: InstanceWatch<Machine.State, Machine.Event> {
        let handOn: @Sendable (Int) -> Void = { [unowned self] id in branchIDs.append(id) }
        return InstanceWatch(
            asParent: WatchedParent(name: name, children: inspector),
            reduce: { state, event in
                var trace = TransitionTrace(handingOn: handOn)
                Machine.reduce(&state, event, trace: &trace)
            },
            step: { [self] event, state in append(event, state) },
            stopped: { [self] in stop() })
    }

    /// The draining thread's whole share of the work: one step into the buffer (I10).
    private func append(_ event: Machine.Event, _ state: Machine.State) {
        let time = Self.milliseconds(ContinuousClock.now - start)
        lock.lock()
        seq += 1
        let seq = self.seq
        buffer.append { slot in
            guard slot != nil else {
                slot = Step(seq: seq, time: time, event: event, state: state, branches: branchIDs)
                return
            }
            // Reuses the slot's arrays: the step's ids go in, the old ids' storage comes back.
            slot!.seq = seq
            slot!.time = time
            slot!.event = event
            slot!.state = state
            swap(&slot!.branches, &branchIDs)
        }
        lock.unlock()
        branchIDs.removeAll(keepingCapacity: true)
    }

    private func stop() {
        lock.lock()
        ended = true
        let last = seq
        lock.unlock()
        parent?.child(name, phase: "stopped", seq: parent?.currentSeq ?? last)
    }

    var currentSeq: Int {
        lock.lock()
        defer { lock.unlock() }
        return seq
    }

    func child(_ name: String, phase: String, seq: Int) {
        lock.lock()
        childMessages.append((seq, .child(instance: self.name, seq: seq, phase: phase, child: name)))
        lock.unlock()
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    // MARK: The inspector's thread

    private var helloPending = true
    private var byeSent = false
    /// The last step taken, to derive runs and timers and to replay the next step from.
    private var previous: Step?
    private var taken: [Step] = []
    /// Steps taken but not written, the connection having broken: dropped too.
    private var lostSteps = 0

    func isFinished(sent: Bool) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return ended && (!sent || byeSent && buffer.isEmpty && childMessages.isEmpty)
    }

    func connected() {
        helloPending = true
    }

    func lost(_ messages: ArraySlice<InspectorMessage>) {
        for message in messages {
            if case .step = message { lostSteps += 1 }
        }
    }

    func takeMessages(into messages: inout [InspectorMessage]) {
        taken.removeAll(keepingCapacity: true)
        lock.lock()
        let dropped = buffer.takeAll(into: &taken)
        let childrenTaken = childMessages
        childMessages.removeAll(keepingCapacity: true)
        let isEnded = ended
        lock.unlock()
        if helloPending {
            messages.append(.hello(
                instance: name, machine: machine, spec: Machine.specFile, fingerprint: BranchFingerprint.of(Machine.transitions),
                parent: parent?.name, journalVersion: (Machine.self as? any DurableMachine.Type)?.journalVersion))
            helloPending = false
        }
        if dropped + lostSteps > 0 { messages.append(.dropped(instance: name, count: dropped + lostSteps)) }
        lostSteps = 0
        var children = childrenTaken[...]
        for step in taken {
            // A child's message follows the step after which it started or stopped.
            while let child = children.first, child.seq < step.seq {
                messages.append(child.message)
                children = children.dropFirst()
            }
            messages += self.messages(of: step)
            previous = step
        }
        messages += children.map(\.message)
        if isEnded && !byeSent {
            messages.append(.bye(instance: name))
            byeSent = true
        }
    }

    /// The step's message, then its mismatch if any (I20), then each invariant its state breaks
    /// (I78), then the runs and timers that changed.
    private func messages(of step: Step) -> [InspectorMessage] {
        var out: [InspectorMessage] = [.step(
            instance: name, seq: step.seq, time: step.time,
            event: step.event.map { InspectorDump.event($0, redacting: Machine.redactedFields) },
            branches: step.branches.map { (id: $0, line: Machine.transitions[$0].line) },
            state: InspectorDump.state(step.state, redacting: Machine.redactedFields),
            configuration: ActiveStates.names(of: step.state))]
        let before = previous.map(\.state)
        if let previous, previous.seq == step.seq - 1, let event = step.event {
            var replayed = previous.state
            var trace = TransitionTrace()
            Machine.reduce(&replayed, event, trace: &trace)
            if replayed != step.state {
                out.append(.mismatch(
                    instance: name, seq: step.seq,
                    recorded: InspectorDump.state(step.state, redacting: Machine.redactedFields),
                    replayed: InspectorDump.state(replayed, redacting: Machine.redactedFields)))
            }
        }
        for invariant in Machine.brokenInvariants(step.state) {
            out.append(.invariant(
                instance: name, seq: step.seq, name: invariant.name, expression: invariant.expression,
                state: invariant.state, line: invariant.line, column: invariant.column))
        }
        out += EffectChanges<Machine>.messages(
            instance: name, seq: step.seq, time: step.time, from: before, to: step.state, event: step.event)
        return out
    }
}
