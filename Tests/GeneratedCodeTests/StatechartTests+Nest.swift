import Testing

/// `Nest`: the rules of Docs/Statecharts.md sections 2, 4, 5, 6 and 8 that the example machines
/// do not show.
extension StatechartTests {
    @Test("S13: a leaf's ignore: hides the machine's handler, and a leaf's own handler overrides its parent's")
    func ignoreHidesAndAnOwnHandlerOverrides() {
        let a = Nest.State.initial
        #expect(a.mode == .outer(.a) && a.log == ["outer entry"])
        #expect(reduced(a, [.poke], by: Nest.reduce) == a)
        #expect(reduced(a, [.bump], by: Nest.reduce).log == ["outer entry", "a bump"])
        let b = reduced(a, [.step], by: Nest.reduce)
        #expect(b.mode == .outer(.b))
        #expect(reduced(b, [.poke, .bump], by: Nest.reduce).log == b.log + ["machine poke", "outer bump"])
    }

    @Test("S33, S34: exit actions, then the transition's set:, its do: in order, then entry actions; isIn sees the old configuration until the entries")
    func actionsRunInOrderAndIsInChangesForTheEntries() {
        let b = reduced(Nest.State.initial, [.step], by: Nest.reduce)
        #expect(b.mode == .outer(.b))
        #expect(b.log == ["outer entry", "a exit 1", "a exit 2", "set", "do 1", "do 2", "b entry"])
        #expect(b.seen == [true, true, false])  // a's exit, the do:, b's entry
        #expect(b.runs == [.note(5)])  // queued between "do 1" and "do 2"
    }

    @Test("S28: a transition to its own parent's history keeps the parent: its domain is the parent")
    func historyOfTheOwnParentKeepsTheParent() {
        let b = reduced(Nest.State.initial, [.step], by: Nest.reduce)
        let back = reduced(b, [.back], by: Nest.reduce)
        #expect(back.mode == .outer(.a))  // no record yet: outer's initial:
        #expect(back.log == b.log)  // outer neither exited nor entered
    }

    @Test("S46: when every always: guard of the innermost state fails, the next state up with always: decides")
    func alwaysFallsThroughToTheAncestor() {
        let c = reduced(Nest.State.initial, [.step, .step], by: Nest.reduce)
        #expect(c.mode == .outer(.c))
        let seven = reduced(c, [.seven], by: Nest.reduce)
        #expect(seven.mode == .outer(.d) && seven.n == 8 && seven.isSettled)
        let many = reduced(c, [.many], by: Nest.reduce)
        #expect(many.mode == .outer(.a) && many.n == 0)
    }
}
