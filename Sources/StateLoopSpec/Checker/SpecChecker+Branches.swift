/// Branches are tried in order and the first that applies wins, so a branch after one without a
/// `guard:` (or after an `ignore`) can never be taken; that is almost always a mistake in order.
extension SpecChecker {
    func checkBranches(_ spec: MachineSpec, into findings: inout Findings) {
        for handler in spec.on { checkOrder(handler.branches, into: &findings) }
        for node in findings.tree.nodes {
            for handler in node.spec.on { checkOrder(handler.branches, into: &findings) }
            for timer in node.spec.after { checkOrder(timer.branches, into: &findings) }
            checkOrder(node.spec.always, into: &findings)
            checkOrder(node.spec.onDone, into: &findings)
        }
    }

    /// Reports the first unreachable branch of a list (the rest follow from the same cause).
    private func checkOrder(_ branches: [Branch], into findings: inout Findings) {
        guard let index = branches.firstIndex(where: \.isUnconditional), index + 1 < branches.count else { return }
        let catchAll = branches[index]
        let unreachable = branches[index + 1]
        let note = Diagnostic.Note(
            catchAll.isIgnore ? "this 'ignore' always applies" : "this branch has no 'guard:', so it always applies",
            at: catchAll.location)
        switch (catchAll.isIgnore, unreachable.isIgnore) {
        case (true, true):
            findings.error(
                "this 'ignore' is unreachable: an earlier 'ignore' already applies", at: unreachable.location,
                notes: [note], fixIt: "remove it")
        case (true, false):
            findings.error(
                "this branch is unreachable: an earlier 'ignore' always applies", at: unreachable.location,
                notes: [note], fixIt: "move the 'ignore' to the end of the list")
        default:
            findings.error(
                "this branch is unreachable: an earlier branch without 'guard:' always applies", at: unreachable.location,
                notes: [note], fixIt: "remove it, or add a 'guard:' to the earlier branch")
        }
    }
}

extension Branch {
    /// True for a bare `ignore`.
    var isIgnore: Bool {
        if case .ignore = self { return true }
        return false
    }
}
