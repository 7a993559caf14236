import StateLoopSpec

// The machine's `invariants:` (Docs/Testing.md V1-V4): one `Bool` member of `State` per
// invariant, its expression at its YAML line and column, so swiftc type-checks it there as it
// does a `guard:` (V3); and, in the `StateMachine` conformance, the table `invariants` and
// `brokenInvariants(_:)`, which tests the machine's own always and a state's while it is active.
// A machine without invariants prints none of it and keeps the protocol's defaults.

extension MachineContextBuilder {
    /// Every invariant with the state that declares it (`nil`: the machine's), the machine's
    /// first, then each state's in document order: the order of `invariants`.
    func allInvariants() -> [(state: String?, invariant: InvariantSpec)] {
        spec.invariants.map { (nil, $0) } + semantics.tree.nodes.flatMap { node in node.spec.invariants.map { (Optional(node.name), $0) } }
    }

    /// `_invariant0`, `_invariant1`, ...: the members that evaluate each invariant, by its index.
    static func invariantMember(_ index: Int) -> String {
        GeneratedNames.member("invariant", index)
    }

    /// The members of `State` that evaluate the invariants, each expression at its YAML position.
    mutating func makeInvariantMembers() {
        for (index, (_, invariant)) in allInvariants().enumerated() {
            addMember(
                doc: "Invariant `\(SwiftLiteral.comment(invariant.name.value))` (\(position(invariant.name.location))): true when it holds.",
                declaration: "fileprivate var \(Self.invariantMember(index)): Swift.Bool",
                body: placement.lines(invariant.expression, indent: "") + [SourcePlacement.end])
        }
    }

    /// `invariants` and `brokenInvariants(_:)` of the conformance; nothing without invariants.
    func printInvariants(into out: inout SwiftPrinter) {
        let invariants = allInvariants()
        guard !invariants.isEmpty else { return }
        let file = SwiftLiteral.string(Self.fileName(spec.file))
        out.line("/// Every entry of `invariants:`, the machine's own first, then each state's (Docs/Testing.md V4).")
        out.block("\(access.prefix)static let invariants: [StateLoop.InvariantInfo] = [", closing: "]") { out in
            for (state, invariant) in invariants {
                let owner = state.map(SwiftLiteral.string) ?? "nil"
                out.line(".init(name: \(SwiftLiteral.string(invariant.name.value)), expression: \(SwiftLiteral.string(invariant.expression.value)), "
                    + "state: \(owner), file: \(file), line: \(invariant.name.location.line), column: \(invariant.name.location.column)),")
            }
        }
        out.line("")
        out.line("/// The invariants `state` breaks: the machine's own, and those of the states active in it.")
        out.block("\(access.prefix)static func brokenInvariants(_ state: State) -> [StateLoop.InvariantInfo] {") { out in
            out.line("var broken: [StateLoop.InvariantInfo] = []")
            for (index, (owner, _)) in invariants.enumerated() {
                let check = "if !state.\(Self.invariantMember(index)) { broken.append(invariants[\(index)]) }"
                if let owner {
                    out.block("if state.isIn(.\(SwiftName.escaped(owner))) {") { out in out.line(check) }
                } else {
                    out.line(check)
                }
            }
            out.line("return broken")
        }
        out.line("")
    }
}
