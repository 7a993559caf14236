import StateLoopSpec

// The reducer: `_reduce` switches on the configuration and calls the method of the active leaf
// (or of the outermost parallel state); a leaf's method switches over every event (no `default:`)
// and holds in each case the branches the leaf decided (`leafDecisions`), as an `if` / `else if`
// chain. The methods are members of `State`, called on the state before the event (`self`) and
// writing the state after it (`_next`), so the spec's expressions, which name fields bare, read
// the old state, each in a `#sourceLocation` block at its YAML line and column. One method per
// leaf: swiftc's time grows more than linearly with the size of one function.

extension MachineContextBuilder {
    /// What every leaf's method spells the same way for an event, made once per event rather
    /// than once per (leaf, event) pair.
    struct EventCaseSpelling {
        /// `case .go:`
        let pattern: String
        /// `case .go(let _0):`, and the statement that binds the payload by name: `let event: ... = .init(by: _0)`.
        let bindingPattern: String, payloadBinding: String
    }

    func makeEventCaseSpellings() -> [EventCaseSpelling] {
        spec.events.map { event in
            EventCaseSpelling(
                pattern: "case .\(SwiftName.escaped(event.name.value)):",
                bindingPattern: "case \(bindingPattern(event)):",
                payloadBinding: "let event: \(payloadType(event)) = .init(\(labeledArguments(event)))"
            )
        }
    }

    /// The reducer's method for one leaf outside parallel states: its body, a switch over every event.
    mutating func makeLeafReducer(_ leaf: Int) -> MachineContext.ReducerMode {
        var out = memberPrinter()
        out.switchBlock("_event") { out in
            for decision in leafDecisions(leaf) {
                out.block(decision.pattern, closing: nil) { out in
                    if decision.chain.isEmpty {
                        out.line((flags.settles ? "return false" : "break") + " // " + decision.whyNothing)
                    } else {
                        if let binding = decision.payloadBinding { out.line(binding) }
                        chainLines(decision.chain, leaf: leaf, payload: decision.payload, into: &out)
                    }
                }
            }
        }
        return .init(
            mode: semantics.tree[leaf].name,
            function: GeneratedNames.reducerFunction(ofState: semantics.tree[leaf].name),
            body: out.text)
    }

    /// The cases of `_reduce`'s switch on the configuration.
    func dispatchLines() -> [String] {
        let tree = semantics.tree
        let call = flags.settles ? "return " : ""
        var out = memberPrinter()
        var finished: [String] = []
        for position in tree.nodes.indices {
            if tree[position].spec.kind == .parallel, outermostParallel(position) == position {
                out.line("case \(parallelPattern(position)): \(flags.settles ? "return " : "_ = ")_reduce_\(tree[position].name)(_p, _event, &_next, &_trace)")
            } else if tree.isLeaf(position), outermostParallel(position) == nil {
                out.line("case \(leafPattern(position)): \(call)\(GeneratedNames.reducerFunction(ofState: tree[position].name))(_event, &_next, &_trace)")
            } else if tree[position].parent == nil, tree[position].spec.isFinal {
                finished.append(leafPattern(position))
            }
        }
        if !finished.isEmpty {
            out.line("case \(finished.joined(separator: ", ")): \(flags.settles ? "return false" : "break") // finished: `reduce` returns before")
        }
        return out.finished()
    }

    /// `_trace.take(3)`: tells the recorder that the branch written at `location` is taken.
    func take(at location: SourceLocation) -> String {
        "_trace.take(\(transitions.id(at: location)!))"
    }
}
