import StateLoopSpec

// The types and queries every machine declares around its configuration: `Mode` with its nested
// enums (a composite's children) and structs (a parallel state's regions), `StateName`, and the
// queries of `State` that read the configuration: `isIn(_:)`, `armedTimer(_:index:)`, `isDone`.

extension MachineContextBuilder {
    /// The body of `Mode`: its cases, then an enum per composite and a struct per parallel state.
    func modeLines() -> [String] {
        let tree = semantics.tree
        var out = SwiftPrinter(placement: placement, level: 2)
        func caseDeclaration(_ position: Int) -> String {
            tree[position].isComposite ? "case \(caseName(position))(\(contentType(position)))" : "case \(caseName(position))"
        }
        for root in tree.roots where !tree[root].spec.isHistory { out.line(caseDeclaration(root)) }
        for (position, node) in tree.nodes.enumerated() where node.isComposite {
            let name = GeneratedNames.modeType(ofState: node.name)
            out.line("")
            if node.spec.kind == .parallel {
                let regions = tree.regions(of: position)
                out.line("/// The regions of `\(node.name)`, all active at once.")
                out.block("\(access.prefix)struct \(name): Swift.Hashable, Swift.Sendable {") { out in
                    for region in regions {
                        out.line("\(access.prefix)var \(caseName(region)): \(contentType(region))")
                    }
                    let parameters = regions.map { region -> String in
                        let name = tree[region].name
                        let parameter = Self.parameterName(name)
                        return (parameter == name ? name : "\(Self.label(name)) \(parameter)") + ": \(contentType(region))"
                    }
                    out.line("")
                    out.block("\(access.prefix)init(\(parameters.joined(separator: ", "))) {") { out in
                        for region in regions {
                            out.line("self.\(caseName(region)) = \(Self.parameterName(tree[region].name))")
                        }
                    }
                }
            } else {
                out.line("/// The children of `\(node.name)`.")
                out.block("\(access.prefix)enum \(name): Swift.Hashable, Swift.Sendable {") { out in
                    for child in node.children where !tree[child].spec.isHistory { out.line(caseDeclaration(child)) }
                }
            }
        }
        if !tree.isFlat, !tree.nodes.contains(where: { $0.spec.kind == .parallel }) {
            let resting = tree.nodes.indices.filter { tree.isLeaf($0) || (tree[$0].parent == nil && tree[$0].spec.isFinal) }
            out.line("")
            out.line("/// Every configuration: each leaf with its ancestors.")
            out.line("\(access.prefix)static let allCases: [Mode] = [\(resting.map(leafPattern).joined(separator: ", "))]")
        }
        return out.finished()
    }

    /// `StateName`'s queries, declared for every machine: `isIn(_:)`, `armedTimer(_:index:)` with
    /// timers, `isDone`.
    func queryLines() -> [String] {
        let tree = semantics.tree
        var out = SwiftPrinter(placement: placement, level: 2)
        out.line("")
        out.line("/// True while `name` is active: the state itself or, for a composite, any state below it.")
        // One statement per name, not one `switch` expression of `if` expressions: swiftc
        // type-checks an expression as a whole, in more than linear time in its size.
        out.block("\(access.prefix)func isIn(_ name: StateName) -> Swift.Bool {") { out in
            out.switchBlock("name") { out in
                for state in tree.nodes.indices where !tree[state].spec.isHistory {
                    out.line("case .\(caseName(state)): if \(activeConditions(state, subject: "mode").joined(separator: ", ")) { return true }")
                }
            }
            out.line("return false")
        }
        out.line("")
        let timed = tree.nodes.indices.filter { !tree[$0].spec.after.isEmpty }
        if !timed.isEmpty {
            out.line("/// The event `after:` timer `index` of `name` sends now, or `nil` when that state is not")
            out.line("/// active: for tests that fire a timer through `reduce` (S77).")
            out.block("\(access.prefix)func armedTimer(_ name: StateName, index: Swift.Int = 0) -> Event? {") { out in
                out.switchBlock("(name, index)") { out in
                    for state in timed {
                        for index in tree[state].spec.after.indices {
                            out.line("case (.\(caseName(state)), \(index)) where isIn(.\(caseName(state))): .\(GeneratedNames.timerCase)(.init(state: .\(caseName(state)), index: \(index), entry: \(entryCount(state))))")
                        }
                    }
                    out.line("default: nil")
                }
            }
            out.line("")
        }
        let finals = tree.roots.filter { tree[$0].spec.isFinal }
        out.line("/// True once a top-level final state is entered: the machine has finished, and `reduce` changes nothing.")
        if finals.isEmpty {
            out.line("\(access.prefix)var isDone: Swift.Bool { false }")
        } else {
            out.block("\(access.prefix)var isDone: Swift.Bool {") { out in
                out.switchBlock("mode") { out in
                    out.line("case \(finals.map { "." + caseName($0) }.joined(separator: ", ")): true")
                    let others = tree.roots.filter { !tree[$0].spec.isFinal && !tree[$0].spec.isHistory }
                    if !others.isEmpty { out.line("case \(others.map { "." + caseName($0) }.joined(separator: ", ")): false") }
                }
            }
        }
        return out.finished()
    }

    /// `enum StateName`'s cases: every state but history states.
    func stateNameCases() -> [String] {
        stateNamePositions().map(caseName)
    }

    /// The positions of the states `StateName` names, in order: every state but history states.
    func stateNamePositions() -> [Int] {
        semantics.tree.nodes.indices.filter { !semantics.tree[$0].spec.isHistory }
    }

    /// `Event.Timer.init(mode:index:entry:)` and `Event.Timer.mode` in a flat machine with timers:
    /// its modes are its states, so a timer can be named by mode, as v1 spelt it (S79).
    func timerModeLines() -> [String] {
        let tree = semantics.tree
        guard tree.isFlat, hasTimers else { return [] }
        var out = SwiftPrinter(placement: placement, level: 3)
        out.line("")
        out.line("/// A timer event by mode, as a flat machine's tests name it: its modes are its states (S79).")
        out.block("\(access.prefix)init(mode: Mode, index: Swift.Int, entry: Swift.Int) {") { out in
            out.line("let state: StateName")
            out.switchBlock("mode") { out in
                for root in tree.roots { out.line("case .\(caseName(root)): state = .\(caseName(root))") }
            }
            out.line("self.init(state: state, index: index, entry: entry)")
        }
        out.line("")
        out.line("/// The timed state as a mode (S79).")
        out.block("\(access.prefix)var mode: Mode {") { out in
            out.switchBlock("state") { out in
                for root in tree.roots { out.line("case .\(caseName(root)): .\(caseName(root))") }
            }
        }
        return out.finished()
    }
}
