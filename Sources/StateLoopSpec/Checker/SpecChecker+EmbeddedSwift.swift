/// The Swift text of a spec (types, `default:`, `guard:`, `set:`, `request.value`, a child's
/// `input:`, `output:` values, `delays:`) lands in
/// generated code as it is. Text that could leave its place (close the member, open a string or
/// comment that swallows what follows, reset `#sourceLocation`) is an error at its YAML line;
/// everything else is left to swiftc, which reports it at the YAML line too.
extension SpecChecker {
    func checkEmbeddedSwift(_ spec: MachineSpec, into findings: inout Findings) {
        for field in spec.context {
            checkType(field.type, into: &findings)
            if let value = field.defaultValue { checkExpression(value, into: &findings) }
        }
        for event in spec.events {
            for field in event.payload { checkType(field.type, into: &findings) }
        }
        let states = findings.tree.nodes.map(\.spec)
        let transitions = spec.on.flatMap(\.branches).compactMap(\.transition) + states.flatMap { $0.branches.compactMap(\.transition) }
        for transition in transitions {
            for expression in transition.expressions { checkExpression(expression, into: &findings) }
        }
        for action in states.flatMap({ $0.entry + $0.exit }) {
            for expression in action.expressions { checkExpression(expression, into: &findings) }
        }
        for effect in spec.effects {
            for assignment in effect.child?.input ?? [] { checkExpression(assignment.expression, into: &findings) }
            guard let request = effect.request else { continue }
            checkType(request.type, into: &findings)
            if let value = request.value { checkExpression(value, into: &findings) }
        }
        // Docs/Effects.md E21, E22, E35: input types, output fields and delays land in the
        // generated code too.
        for field in spec.input { checkType(field.type, into: &findings) }
        for field in states.flatMap(\.output) {
            checkType(field.type, into: &findings)
            checkExpression(field.value, into: &findings)
        }
        for delay in spec.delays { checkExpression(delay.expression, into: &findings) }
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
