import StateLoopSpec

// What each leaf decides for each event: the one place that resolves a leaf's branches (S10–S13,
// S19, S75), for the reducer's methods and for the selectors below parallel states alike. An
// event decides nothing where it cannot arrive (an effect's result where no emitting effect
// runs); a case binds the payload only when one of its expressions names `event`.

extension MachineContextBuilder {
    /// What a leaf decides for one case of `Event`: the branches resolved for it (none: ignored),
    /// the payload to bind when some branch names `event`, and why it may be empty.
    struct LeafDecision {
        var pattern: String
        var payloadBinding: String?
        var chain: [(branch: Branch, source: Int?)]
        var payload: EventSpec?
        /// Why the chain is empty, as a comment: ignored, not sent here, a stale timer.
        var whyNothing: String
    }

    /// Every case of `Event` in `leaf`, in `Event` order, then its timers and the stale-timer case.
    func leafDecisions(_ leaf: Int) -> [LeafDecision] {
        let tree = semantics.tree
        var decisions: [LeafDecision] = []
        for (event, spelling) in zip(spec.events, eventCaseSpellings) {
            guard semantics.canArrive(event.name.value, in: leaf) else {
                decisions.append(.init(pattern: spelling.pattern, chain: [], whyNothing: "no effect that sends it runs here"))
                continue
            }
            let chain = resolvedBranches(leaf: leaf, event: event.name.value)
            guard chain.contains(where: { $0.branch.transition != nil }) else {
                // Ignored: by an `ignore` the trace records, or by `forward:`, or by nothing.
                decisions.append(.init(pattern: spelling.pattern, chain: chain, whyNothing: isForwarded(event, in: leaf) && chain.isEmpty ? "answered by `forward:` (E28)" : "ignored"))
                continue
            }
            if !event.payload.isEmpty && Self.mentionsPayload(chain.map(\.branch)) {
                decisions.append(.init(pattern: spelling.bindingPattern, payloadBinding: spelling.payloadBinding, chain: chain, payload: event, whyNothing: ""))
            } else {
                decisions.append(.init(pattern: spelling.pattern, chain: chain, whyNothing: ""))
            }
        }
        if flags.sends {
            decisions.append(.init(pattern: "case .\(GeneratedNames.sendCase):", chain: [], whyNothing: "`reduce` delivers a send as its event (S133)"))
        }
        guard flags.hasTimers else { return decisions }
        for state in tree.lineage(of: leaf) {
            for index in tree[state].spec.after.indices {
                decisions.append(.init(
                    pattern: "case .\(GeneratedNames.timerCase)(let _fired) where _fired == .init(state: .\(caseName(state)), index: \(index), entry: \(entryCount(state))):",
                    chain: branches(semantics.chain(leaf: leaf, .timer(state: state, index: index))), whyNothing: ""))
            }
        }
        decisions.append(.init(pattern: "case .\(GeneratedNames.timerCase):", chain: [], whyNothing: "a timer of a state not active, or of an earlier entry"))
        return decisions
    }

    /// True when a child machine that runs in `leaf` gets `event` by `forward:` (E28).
    func isForwarded(_ event: EventSpec, in leaf: Int) -> Bool {
        effects(runningIn: leaf).contains { $0.child?.forward.contains { $0.from.value == event.name.value } ?? false }
    }

    /// The effects with `in:` that run while `leaf` is active: their `in:` names it or an ancestor.
    private func effects(runningIn leaf: Int) -> [EffectSpec] {
        let lineage = Set(semantics.tree.lineage(of: leaf).map { semantics.tree[$0].name })
        return spec.effects.filter { $0.runningStates.contains { lineage.contains($0.value) } }
    }

    /// The branches that decide `event` in `leaf`, in the order they are tried (S10–S13, S96),
    /// with the state that owns each (`nil`: the machine). Empty: ignored.
    func resolvedBranches(leaf: Int, event: String) -> [(branch: Branch, source: Int?)] {
        branches(semantics.chain(leaf: leaf, .event(event)))
    }

    /// The branches of `ids` with the state that owns each.
    func branches(_ ids: [Int]) -> [(branch: Branch, source: Int?)] {
        ids.map { (transitions.entries[$0].branch, semantics.sources[$0]) }
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
}
