/// Docs/Testing.md V2: what the decoder cannot see of `invariants:`. An invariant's name is the
/// machine's (failures name it, as they name a state), so it is declared once in the whole spec;
/// and an invariant reads the state after a step, when no event is at hand. (A history state,
/// never active, has none: the keys a history state may have leave `invariants:` out.)
extension SpecChecker {
    func checkInvariants(_ spec: MachineSpec, into findings: inout Findings) {
        var first: [String: SourceLocation] = [:]
        let owned = [spec.invariants] + findings.tree.nodes.map(\.spec.invariants)
        for invariants in owned {
            for invariant in invariants {
                if let earlier = first[invariant.name.value] {
                    findings.error(
                        "invariant '\(invariant.name.value)' is declared twice: an invariant's name is the machine's, as a state's is",
                        at: invariant.name.location, notes: [.init("first declared here", at: earlier)],
                        fixIt: "rename one of them; a failure names the invariant that broke")
                } else {
                    first[invariant.name.value] = invariant.name.location
                }
                if SwiftFragment.namesBare("event", in: invariant.expression.value, isType: false, orAsBase: true) {
                    findings.error(
                        "'event' is not in scope in invariant '\(invariant.name.value)', which reads the state after a step", at: invariant.expression.location,
                        fixIt: "keep what the invariant needs of an event in a context field ('set:' it in the transition), and read the field")
                }
            }
        }
    }
}
