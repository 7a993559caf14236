import StateLoopSpec

// The reducer: a method of `State` per state, with a `switch` over every event (no `default:`),
// and in each case the branches of its handler as an `if` / `else if` chain, written inline. The
// method is called on the state before the event (`self`) and writes the state after it
// (`_next`), so the spec's expressions, which name fields bare, read the old state, and each
// stands in a `#sourceLocation` block at its YAML line and column. A `set:` list assigns its
// values one by one, all computed from the old state, as the format says. No member per branch:
// swiftc's time grows with the number of functions.

extension MachineContextBuilder {
    /// The indentation of a statement in a reducer case: machine, `State`, method, `case`.
    static let caseIndent = String(repeating: " ", count: 16)

    /// What every state's reducer spells the same way for an event, made once per event rather
    /// than once per (state, event) pair.
    struct EventCaseSpelling {
        /// `case .go:`
        let pattern: String
        /// `case .go(let _0):`, and the line that binds the payload by name: `let event: ... = .init(by: _0)`.
        let bindingPattern: String, payloadBinding: String
    }

    func makeEventCaseSpellings() -> [EventCaseSpelling] {
        spec.events.map { event in
            EventCaseSpelling(
                pattern: "case .\(SwiftName.escaped(event.name.value)):",
                bindingPattern: "case \(bindingPattern(event)):",
                payloadBinding: Self.caseIndent + "let event: \(payloadType(event)) = .init(\(labeledArguments(event)))"
            )
        }
    }

    private static let ignoredBody = [caseIndent + "break // ignored"]
    private static let notSentBody = [caseIndent + "break // no effect that sends it runs here"]

    mutating func makeReducerMode(_ state: StateSpec) -> MachineContext.ReducerMode {
        var cases: [MachineContext.ReducerCase] = []
        cases.reserveCapacity(spec.events.count + 1)
        let handlers = Dictionary(state.on.map { ($0.event.value, $0) }, uniquingKeysWith: { first, _ in first })
        for (event, spelling) in zip(spec.events, eventCaseSpellings) {
            guard let handler = handlers[event.name.value] else {
                // Not handled here: ignored out loud, or an effects-only event no emitting effect
                // sends in this state. Either way the reducer needs the case, as a no-op.
                if let entry = (state.ignore + spec.ignore).first(where: { $0.value == event.name.value }) {
                    cases.append(.init(pattern: spelling.pattern, body: [Self.caseIndent + take(at: entry.location) + " // ignored"]))
                } else {
                    cases.append(.init(pattern: spelling.pattern, body: event.source != .effects ? Self.ignoredBody : Self.notSentBody))
                }
                continue
            }
            let body = branchChain(handler.branches)
            if !event.payload.isEmpty && Self.mentionsPayload(handler.branches) {
                cases.append(.init(pattern: spelling.bindingPattern, body: [spelling.payloadBinding] + body))
            } else {
                cases.append(.init(pattern: spelling.pattern, body: body))
            }
        }
        if hasTimers {
            let mode = SwiftName.escaped(state.name.value)
            for (index, timer) in state.after.enumerated() {
                cases.append(.init(
                    pattern: "case .\(GeneratedNames.timerCase)(let _fired) where _fired == \(Self.timer(mode: mode, index: index, entry: "_entries")):",
                    body: branchChain(timer.branches)
                ))
            }
            cases.append(.init(
                pattern: "case .\(GeneratedNames.timerCase):",
                body: [Self.caseIndent + (state.after.isEmpty ? "break // no timer runs here" : "break // a timer of another state or of an earlier entry")]
            ))
        }
        return .init(
            mode: SwiftName.escaped(state.name.value),
            function: GeneratedNames.reducerFunction(ofState: state.name.value),
            cases: cases
        )
    }

    /// `.init(mode: .failed, index: 0, entry: entry)`: which timer fired (an `Event.Timer`), as the
    /// timer feedback makes it and as the reducer matches it. Not spelt `Event.Timer(...)`: inside
    /// `State` a field may be called `Event`, and the reducer's methods are members of `State`.
    static func timer(mode: String, index: Int, entry: String) -> String {
        ".init(mode: .\(mode), index: \(index), entry: \(entry))"
    }

    /// True when some expression of `branches` may name `event`, the payload: then the case binds
    /// it. A word `event` anywhere counts (in a string too), so a use is never missed.
    static func mentionsPayload(_ branches: [Branch]) -> Bool {
        branches.contains { branch in
            guard case .transition(let transition) = branch else { return false }
            return transition.expressions.contains { mentions("event", in: $0.value) }
        }
    }

    /// True when a guard of `branches` reads the event's payload.
    static func guardsMentionPayload(_ branches: [Branch]) -> Bool {
        branches.contains { branch in
            guard case .transition(let transition) = branch, let condition = transition.guardExpression else { return false }
            return mentions("event", in: condition.value)
        }
    }

    /// True when a transition's `set:` or `do:` reads the event's payload.
    static func actionsMentionPayload(_ transition: Transition) -> Bool {
        (transition.assignments.map(\.expression) + transition.actions.flatMap(\.expressions)).contains { mentions("event", in: $0.value) }
    }

    /// True when `word` stands in `text` as an identifier of its own (not inside `events` or `_event`).
    static func mentions(_ word: String, in text: String) -> Bool {
        func isIdentifierByte(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "_") || (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte >= 0x80
        }
        let text = text.utf8, word = word.utf8
        var rest = text[...]
        while let start = rest.firstIndex(of: word.first!) {
            let end = text.index(start, offsetBy: word.count, limitedBy: text.endIndex) ?? text.endIndex
            if text[start..<end].elementsEqual(word),
               start == text.startIndex || !isIdentifierByte(text[text.index(before: start)]),
               end == text.endIndex || !isIdentifierByte(text[end]) {
                return true
            }
            rest = text[text.index(after: start)...]
        }
        return false
    }

    /// `if <branch 1> { ... } else if <branch 2> { ... } else { ... }`: the first branch whose
    /// guard holds wins; a bare `ignore` (or no branch left) does nothing.
    private func branchChain(_ branches: [Branch]) -> [String] {
        var body = CaseBody(placement: placement)
        var open = false
        for branch in branches {
            guard case .transition(let transition) = branch else {
                // A bare `ignore` ends the chain: recorded, nothing else.
                guard open else {
                    body.generated(Self.caseIndent + take(at: branch.location) + " // ignored")
                    return body.finished()
                }
                body.generated(Self.caseIndent + "} else {")
                body.generated(Self.caseIndent + "    " + take(at: branch.location) + " // ignored")
                body.generated(Self.caseIndent + "}")
                return body.finished()
            }
            if let condition = transition.guardExpression {
                // The `{` goes on a line of its own: the condition may end in a `//` comment.
                body.spec(condition, after: open ? "} else if " : "if ", indent: Self.caseIndent, then: Self.caseIndent + "{")
                actions(transition, indent: Self.caseIndent + "    ", into: &body)
                open = true
                continue
            }
            // An unconditional branch ends the chain: the checks flag branches after it.
            if open {
                body.generated(Self.caseIndent + "} else {")
                actions(transition, indent: Self.caseIndent + "    ", into: &body)
            } else {
                actions(transition, indent: Self.caseIndent, into: &body)
            }
            break
        }
        if open { body.generated(Self.caseIndent + "}") }
        return body.lines.isEmpty ? Self.ignoredBody : body.finished()
    }

    /// A branch's statements: its `set:` assignments (values read from the old state, `self`),
    /// then the trace, the new mode and the entry count.
    private func actions(_ transition: Transition, indent: String, into body: inout CaseBody) {
        for assignment in transition.assignments {
            let field = SwiftName.escaped(spec.context[fieldIndex[assignment.field.value]!].name.value)
            body.spec(assignment.expression, after: "_next.\(field) = ", indent: indent)
        }
        // Recorded after the `set:` values, which keeps them in one `#sourceLocation` block.
        body.generated(indent + take(at: transition.location))
        if let target = transition.target {
            body.generated(indent + modeAssignments[target.value]!)
            if hasTimers { body.generated(indent + "_next._entries &+= 1") }
        }
    }

    /// `_trace.take(3)`: tells the recorder that the branch written at `location` is taken.
    func take(at location: SourceLocation) -> String {
        "_trace.take(\(transitions.id(at: location)!))"
    }
}

/// The lines of a reducer case: generated lines, and spec text in `#sourceLocation` blocks, one
/// block for consecutive spec texts (a directive sets the line of what follows until the next).
struct CaseBody {
    let placement: SourcePlacement
    private(set) var lines: [String] = []
    private var inBlock = false

    init(placement: SourcePlacement) { self.placement = placement }

    /// A line of the generated code's own, after the closing directive when spec text precedes it.
    mutating func generated(_ line: String) {
        if inBlock {
            lines.append(SourcePlacement.end)
            inBlock = false
        }
        lines.append(line)
    }

    /// `prefix` and `text` at its YAML line and column, then `suffix` (a line in the same block).
    mutating func spec(_ text: Located<String>, after prefix: String, indent: String, then suffix: String? = nil) {
        lines += placement.lines(text, after: prefix, indent: indent)
        if let suffix { lines.append(suffix) }
        inBlock = true
    }

    /// The lines, the last block closed.
    func finished() -> [String] {
        inBlock ? lines + [SourcePlacement.end] : lines
    }
}
