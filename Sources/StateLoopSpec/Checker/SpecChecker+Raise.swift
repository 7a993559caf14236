/// `raise:` actions (S120–S125): each names an event anyone may send, gives exactly its payload
/// fields, and no handler raises its way around a loop that needs no guard.
extension SpecChecker {
    func checkRaises(_ spec: MachineSpec, into findings: inout Findings) {
        let events = Dictionary(spec.events.map { ($0.name.value, $0) }, uniquingKeysWith: { first, _ in first })
        for case .raise(let name, let payload, let location) in spec.actions(tree: findings.tree) {
            checkEventToSelf("raise", name, payload, at: location, events: events, reserved: ["event"], into: &findings)
        }
        checkRaiseLoops(findings.semantics, into: &findings)
    }

    /// S124, S131: the event a `raise:` or `send:` (`keyword`) names is declared, anyone's, and
    /// given with exactly its payload fields; `reserved` are the keys of the action beside them, so
    /// a field of that name could never be given (S131).
    func checkEventToSelf(
        _ keyword: String, _ name: Located<String>, _ payload: [Assignment], at location: SourceLocation,
        events: [String: EventSpec], reserved: [String] = [], into findings: inout Findings
    ) {
        guard let event = events[name.value] else {
            checkKnown(name, among: findings.eventNames, known: findings.eventSet, "'\(keyword):' names '\(name.value)', which is not an event", declare: "'events:'", into: &findings)
            return
        }
        if event.source == .effects {
            findings.error(
                "'\(keyword):' names '\(name.value)', which only effects send ('from: effects'), so most states would drop it unanswered", at: name.location,
                fixIt: "remove 'from: effects' from '\(name.value)' so that every state answers it, or \(keyword) another event")
        }
        let fields = event.payload.map(\.name.value)
        for field in event.payload where reserved.contains(field.name.value) {
            findings.error(
                "'\(keyword): \(name.value)' cannot give payload field '\(field.name.value)': '\(field.name.value):' is a key of '\(keyword):' itself", at: name.location,
                notes: [Diagnostic.Note("'\(field.name.value)' is declared here", at: field.name.location)],
                fixIt: "rename the field of '\(name.value)'")
            return
        }
        for assignment in payload where !fields.contains(assignment.field.value) {
            findings.error(
                "'\(keyword): \(name.value)' gives '\(assignment.field.value)', which is not a payload field of '\(name.value)'", at: assignment.field.location,
                fixIt: fields.isEmpty ? "remove it: '\(name.value)' has no payload" : "give only \(fields.map { "'\($0)'" }.joined(separator: ", "))")
        }
        checkListedOnce(payload.map(\.field), what: "field", list: "'\(keyword): \(name.value)'", into: &findings)
        let given = Set(payload.map(\.field.value))
        let missing = fields.filter { !given.contains($0) }
        if !missing.isEmpty {
            findings.error(
                "'\(keyword): \(name.value)' does not give \(missing.map { "'\($0)'" }.joined(separator: ", ")) of its payload", at: location,
                fixIt: "write '\(keyword): {event: \(name.value), \(missing.map { "\($0): expression" }.joined(separator: ", "))}'")
        }
    }

    /// S123: a loop of raises that no guard can end. In a leaf outside parallel states with no
    /// `always:` above it, an event whose chain starts with a branch without guard and without
    /// target is certain to run that branch and to leave the configuration as it was, so every
    /// event that branch raises outside a conditional is certain to come next in the same leaf.
    /// A cycle of such events never ends; it is reported once, at the first raise of the cycle.
    private func checkRaiseLoops(_ semantics: MachineSemantics, into findings: inout Findings) {
        let tree = semantics.tree
        var reported: Set<SourceLocation> = []
        for leaf in tree.leaves where semantics.chain(leaf: leaf, .always).isEmpty && !tree.ancestors(of: leaf).contains(where: { tree[$0].spec.kind == .parallel }) {
            /// The raises certain to follow `event` in `leaf`: the top-level raises of its chain's
            /// first branch when that has no guard and no target.
            func certainRaises(_ event: String) -> [(event: String, location: SourceLocation)] {
                guard let id = semantics.chain(leaf: leaf, .event(event)).first, semantics.isUnconditional(id),
                      let transition = semantics.transitions.entries[id].branch.transition, transition.target == nil
                else { return [] }
                return transition.actions.compactMap { action in
                    guard case .raise(let raised, _, let location) = action else { return nil }
                    return (raised.value, location)
                }
            }
            for start in semantics.spec.events.map(\.name.value) {
                var path: [(event: String, location: SourceLocation)] = []
                var visited: Set<String> = [start]
                var current = start
                while let next = certainRaises(current).first(where: { !visited.contains($0.event) || $0.event == start }) {
                    path.append(next)
                    if next.event == start {
                        let first = path.map(\.location).min()!
                        guard reported.insert(first).inserted else { break }
                        let names = [start] + path.map(\.event)
                        findings.error(
                            "'raise:' without a guard loops forever in state '\(tree[leaf].name)': \(names.joined(separator: " -> "))", at: first,
                            fixIt: "add a 'guard:' to one of the handlers, or raise under an 'if:'")
                        break
                    }
                    visited.insert(next.event)
                    current = next.event
                }
            }
        }
    }
}
