/// The Swift text of a spec (types, `default:`, `guard:`, `set:`, `request.value`, a child's
/// `input:`, `output:` values, `delays:`, `invariants:`) lands in
/// generated code as it is. Text that could leave its place (close the member, open a string or
/// comment that swallows what follows, reset `#sourceLocation`) is an error at its YAML line;
/// everything else is left to swiftc, which reports it at the YAML line too.
extension SpecChecker {
    func checkEmbeddedSwift(_ spec: MachineSpec, into findings: inout Findings) {
        let fragments = findings.embeddedSwift
        for type in fragments.types { checkType(type, into: &findings) }
        for expression in fragments.expressions { checkExpression(expression, into: &findings) }
    }

    /// Every Swift type and expression written in the spec, in the order the checks report them.
    static func embeddedSwift(_ spec: MachineSpec, tree: StateTree) -> (types: [Located<String>], expressions: [Located<String>]) {
        var types: [Located<String>] = []
        var expressions: [Located<String>] = []
        for field in spec.context {
            types.append(field.type)
            if let value = field.defaultValue { expressions.append(value) }
        }
        for event in spec.events {
            types += event.payload.map(\.type)
        }
        let states = tree.nodes.map(\.spec)
        let transitions = spec.on.flatMap(\.branches).compactMap(\.transition) + states.flatMap { $0.branches.compactMap(\.transition) }
        for transition in transitions {
            expressions += transition.expressions
        }
        for action in states.flatMap({ $0.entry + $0.exit + $0.defaultActions }) {
            expressions += action.expressions
        }
        for effect in spec.effects {
            expressions += (effect.child?.input ?? []).map(\.expression)
            guard let request = effect.request else { continue }
            types.append(request.type)
            if let value = request.value { expressions.append(value) }
        }
        // Docs/Effects.md E21, E22, E35: input types, output fields and delays land in the
        // generated code too.
        types += spec.input.map(\.type)
        for field in states.flatMap(\.output) {
            types.append(field.type)
            expressions.append(field.value)
        }
        expressions += spec.delays.map(\.expression)
        // Docs/Testing.md V3: invariants are expressions of the state like any other.
        expressions += (spec.invariants + states.flatMap(\.invariants)).map(\.expression)
        return (types, expressions)
    }

    private func checkType(_ type: Located<String>, into findings: inout Findings) {
        guard let problem = SwiftFragment.typeProblem(type.value) else { return }
        findings.error(
            "'\(type.value)' cannot be used as a type: \(problem)", at: type.location,
            fixIt: "write a Swift type on one line, such as Int, String?, [String: Int] or (Int) -> Void; declare anything more complex in Swift and name it here")
    }

    private func checkExpression(_ expression: Located<String>, into findings: inout Findings) {
        guard let problem = SwiftFragment.expressionProblem(expression.value) else { return }
        findings.error(
            "this Swift expression cannot be placed in the generated code: \(problem)", at: expression.location,
            fixIt: "balance its brackets, close its strings and comments, and leave out compiler directives")
    }
}
