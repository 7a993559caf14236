import StateLoopSpec

// The microsteps after a step (S45–S55): `_always` (a method per leaf with `always:` above it),
// `_onDone` (the `onDone:` a final state made due), `_doneEvent` (the event such an `onDone:` reads
// as `trigger`, S161) and `_settle`, the loop that takes them until none applies, at most 1,000
// times.

extension MachineContextBuilder {
    /// The `always:` branches that decide in `leaf`, in the order they are tried (S46, S96).
    func alwaysBranches(_ leaf: Int) -> [(branch: Branch, source: Int?)] {
        branches(semantics.chain(leaf: leaf, .always))
    }

    /// `_always`, `_onDone` and `_settle`: the microsteps after a step (S45–S55).
    mutating func makeSettleMembers() {
        if flags.hasAlways { makeAlwaysMembers() }
        if flags.hasOnDone { makeOnDoneMember() }
        let readsDoneEvents = hasDoneEvents && readsTrigger
        // S160: printed wherever there are done events, read or not, so that swiftc checks every
        // `output:` at its YAML line.
        if hasDoneEvents { makeDoneEventMember() }
        if flags.raises { makeTakeRaisedMember() }
        var body = memberPrinter()
        guard flags.hasAlways || flags.hasOnDone else {
            // Only raised events (S122): nothing follows a microstep, so every step settles.
            body.line("isSettled = true")
            addMember(
                doc: "A step settles at once: the machine has no `onDone:` nor `always:` (S122).",
                declaration: "fileprivate mutating func _settle<_R: StateLoop._TransitionRecorder>(_ _trace: inout _R)",
                body: body)
            return
        }
        body.block("for _ in 0..<1_000 {") { out in
            if flags.hasTopLevelFinal { out.line("if isDone { return }") }
            if flags.hasOnDone {
                out.block("if !_done.isEmpty {") { out in
                    out.line("let _state = _done.removeFirst()")
                    // S161: the `onDone:` reads its final state's `doneEvent:` as `trigger`, then
                    // the step's trigger is back for what follows.
                    if readsDoneEvents {
                        out.line("let _trigger = trigger")
                        out.line("trigger = _doneEvent(_state) ?? trigger")
                    }
                    out.line("let _s = self")
                    out.line("_ = _s._onDone(_state, &self, &_trace)")
                    if readsDoneEvents { out.line("trigger = _trigger") }
                    out.line("continue")
                }
            }
            if flags.hasAlways {
                out.line("let _s = self")
                out.block("if !_s._always(&self, &_trace) {") { out in
                    out.line("isSettled = true")
                    out.line("return")
                }
            } else {
                out.line("isSettled = true")
                out.line("return")
            }
        }
        body.line("isSettled = false")
        if flags.hasOnDone {
            // At the bound, what is still due stays due once: the queue cannot grow step after step (S51).
            body.line("var _seen = Swift.Set<StateName>()")
            body.line("_done.removeAll { !_seen.insert($0).inserted }")
        }
        addMember(
            doc: "Takes `onDone:` and `always:` microsteps until none applies, at most 1,000 (S51).",
            declaration: "fileprivate mutating func _settle<_R: StateLoop._TransitionRecorder>(_ _trace: inout _R)",
            body: body)
    }

    /// `_takeRaised`: the steps of the raised events, oldest first, each settled, at most 1,000
    /// per `reduce` (S121, S122).
    private mutating func makeTakeRaisedMember() {
        var body = memberPrinter()
        body.line("var _taken = 0")
        // Generation by generation: what a generation raises queues behind it, so the order is
        // the queue's, and no event is removed from the front of an array (S121).
        body.block("while !_raised.isEmpty {") { out in
            out.line("let _queue = _raised")
            out.line("_raised = []")
            out.block("for _event in _queue {") { out in
                if flags.hasTopLevelFinal {
                    out.block("if isDone {") { out in
                        out.line("_raised = []")
                        out.line("return")
                    }
                }
                // Not settled (S51), or 1,000 taken: the rest are dropped (S122).
                out.block("if !isSettled || _taken == 1_000 {") { out in
                    out.line("_raised = []")
                    out.line("isSettled = false")
                    out.line("return")
                }
                out.line("_taken += 1")
                if readsTrigger { out.line("trigger = _event") }
                out.line("let _s = self")
                out.line("if _s._reduce(_event, &self, &_trace) { _settle(&_trace) }")
            }
        }
        addMember(
            doc: "Takes the raised events one by one, each with its microsteps, before `reduce` returns (S121); past 1,000, or once a step did not settle, the rest are dropped and `isSettled` is false (S122).",
            declaration: "fileprivate mutating func _takeRaised<_R: StateLoop._TransitionRecorder>(_ _trace: inout _R)",
            body: body)
    }

    /// `_always` and the method of each leaf with `always:` above it.
    private mutating func makeAlwaysMembers() {
        let tree = semantics.tree
        var dispatch = memberPrinter()
        var quiet: [String] = []
        dispatch.switchBlock("mode") { out in
            for position in tree.nodes.indices where tree[position].spec.kind == .parallel && outermostParallel(position) == position {
                out.line("case \(parallelPattern(position)): return _reduce_\(tree[position].name)(_p, nil, &_next, &_trace)")
            }
            for leaf in tree.nodes.indices where tree.isLeaf(leaf) && outermostParallel(leaf) == nil {
                let chain = alwaysBranches(leaf)
                guard !chain.isEmpty else {
                    quiet.append(leafPattern(leaf))
                    continue
                }
                let name = "_always_\(tree[leaf].name)"
                var body = memberPrinter()
                chainLines(chain, leaf: leaf, payload: nil, into: &body)
                addMember(
                    doc: "The `always:` branches that apply in `\(tree[leaf].name)`, innermost first (S46).",
                    declaration: "fileprivate func \(name)<_R: StateLoop._TransitionRecorder>(_ _next: inout State, _ _trace: inout _R) -> Swift.Bool",
                    body: body)
                out.line("case \(leafPattern(leaf)): return \(name)(&_next, &_trace)")
            }
            quiet += tree.roots.filter { tree[$0].spec.isFinal }.map(leafPattern)
            if !quiet.isEmpty { out.line("case \(quiet.joined(separator: ", ")): return false") }
        }
        addMember(
            doc: "Takes the `always:` transition that applies now, if one does.",
            declaration: "fileprivate func _always<_R: StateLoop._TransitionRecorder>(_ _next: inout State, _ _trace: inout _R) -> Swift.Bool",
            body: dispatch)
    }

    /// True when a final state names a `doneEvent:` (S160).
    private var hasDoneEvents: Bool {
        semantics.tree.nodes.contains { $0.spec.doneEvent != nil }
    }

    /// `_doneEvent`: the `doneEvent:` of `_state`'s active final child, its payload copied by name
    /// from that state's `output:`, evaluated now, when the `onDone:` is tried (S160–S162). Only
    /// a machine that reads `trigger` has it: nothing else can see the event.
    private mutating func makeDoneEventMember() {
        var body = memberPrinter()
        body.switchBlock("_state") { out in
            for position in semantics.tree.nodes.indices where !semantics.doneEvents(position).isEmpty {
                out.block("case .\(caseName(position)):", closing: nil) { out in
                    for (final, name) in semantics.doneEvents(position) {
                        out.block("if isIn(.\(caseName(final))) {") { out in
                            let event = spec.events.first { $0.name.value == name }!
                            let output = semantics.tree[final].spec.output
                            let types = payloadTypes[name] ?? []
                            for (index, field) in event.payload.enumerated() {
                                out.spec(output.first { $0.name.value == field.name.value }!.value, after: "let _p\(index): \(types[index]) = ")
                            }
                            let values = event.payload.enumerated().map { "\(Self.argumentLabel($1.name.value)): _p\($0)" }
                            out.line("return ." + SwiftName.escaped(name) + (values.isEmpty ? "" : "(" + values.joined(separator: ", ") + ")"))
                        }
                    }
                    out.line("return nil")
                }
            }
            out.line("default: return nil")
        }
        addMember(
            doc: "The `doneEvent:` the `onDone:` of `_state` reads as `trigger`, from its active final child's `output:` (S161).",
            declaration: "fileprivate func _doneEvent(_ _state: StateName) -> Event?",
            body: body)
    }

    /// `_onDone`: takes the `onDone:` of a state whose final state is still active.
    private mutating func makeOnDoneMember() {
        let tree = semantics.tree
        var body = memberPrinter()
        body.switchBlock("_state") { out in
            for (position, node) in tree.nodes.enumerated() where !node.spec.onDone.isEmpty {
                // Due while each group has an active final state (S53, S71, S84; `MachineSemantics.dueWhen`).
                let groups = semantics.dueWhen(position).map { $0.map { "isIn(.\(caseName($0)))" } }
                let finished = groups.contains(where: \.isEmpty) ? ""
                    : groups.count == 1 ? groups[0].joined(separator: " || ")
                    : groups.map { "(" + $0.joined(separator: " || ") + ")" }.joined(separator: " && ")
                out.block("case .\(caseName(position)):", closing: nil) { out in
                    out.line("guard \(finished.isEmpty ? "false" : finished) else { return false }")
                    chainLines(branches(semantics.doneChain(position)), leaf: -1, payload: nil, into: &out)
                }
            }
            out.line("default: return false")
        }
        addMember(
            doc: "Takes the `onDone:` of `_state` if its final state (every region's) is still active (S53–S55, S71).",
            declaration: "fileprivate func _onDone<_R: StateLoop._TransitionRecorder>(_ _state: StateName, _ _next: inout State, _ _trace: inout _R) -> Swift.Bool",
            body: body)
    }
}
