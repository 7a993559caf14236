import Testing
@testable import StateLoopSpec

/// `persist:` (Docs/Durability.md D20, D21): which spellings persist a machine, and what is refused.
@Suite struct PersistSpecTests {
    private func spec(persist: String) -> String {
        """
        machine: M
        persist: \(persist)
        events: {go: {}}
        initial: a
        states:
          a: {on: {go: a}}
        """
    }

    @Test("D20: persist: true is version 1, {version: N} is version N, and no persist: is nil")
    func d20Spellings() throws {
        #expect(try loadedSpec(spec(persist: "true")).persist == PersistSpec(version: 1, location: specLocation(2, 1), versionLocation: specLocation(2, 10)))
        #expect(try loadedSpec(spec(persist: "{version: 7}")).persist == PersistSpec(version: 7, location: specLocation(2, 1), versionLocation: specLocation(2, 20)))
        #expect(try loadedSpec(spec(persist: "\n  version: 2")).persist?.version == 2)
        #expect(try loadedSpec("machine: M\nevents: {go: {}}\ninitial: a\nstates:\n  a: {on: {go: a}}").persist == nil)
    }

    @Test("D20: any other value of persist: is an error at its line with both spellings", arguments: [
        ("false", "test.machine.yml:2:10: error: expected 'true' or '{version: N}' for 'persist:', found 'false'"),
        ("yes", "test.machine.yml:2:10: error: expected 'true' or '{version: N}' for 'persist:', found 'yes'"),
        ("[1]", "test.machine.yml:2:10: error: expected 'true' or '{version: N}' for 'persist:', found a list"),
        ("{version: 0}", "test.machine.yml:2:20: error: the persisted version must be a whole number of 1 or more, found '0'"),
        ("{version: 1.5}", "test.machine.yml:2:20: error: the persisted version must be a whole number of 1 or more, found '1.5'"),
        ("{version: -1}", "test.machine.yml:2:20: error: the persisted version must be a whole number of 1 or more, found '-1'"),
        ("{version: two}", "test.machine.yml:2:20: error: the persisted version must be a whole number of 1 or more, found 'two'"),
        ("{version: 99999999999999999999}", "test.machine.yml:2:20: error: the persisted version must be a whole number of 1 or more, found '99999999999999999999'"),
        ("{version: {}}", "test.machine.yml:2:20: error: the persisted version must be a whole number of 1 or more, found a mapping"),
        ("{}", "test.machine.yml:2:10: error: 'persist:' has no 'version:'"),
    ])
    func d20RefusedValues(_ value: String, _ expected: String) {
        let printed = printedDiagnostics(spec(persist: value))
        #expect(printed.count == 1)
        #expect(printed.first?.hasPrefix(expected + " (fix: ") == true, "\(printed)")
        #expect(printed.first?.contains("write 'persist: true' (version 1), or 'persist: {version: 2}'") == true)
    }

    @Test("D20: a misspelt key under persist: is reported once, with a suggestion")
    func d20MisspeltVersion() {
        let printed = printedDiagnostics(spec(persist: "{verison: 2}"))
        #expect(printed.count == 1)
        #expect(printed.first?.hasPrefix("test.machine.yml:2:11: error: unknown key 'verison' in 'persist:'") == true, "\(printed)")
        #expect(printed.first?.contains("did you mean 'version'?") == true)
    }

    private let parent = """
        machine: Parent
        persist: true
        events: {go: {}, childDone: {}}
        initial: a
        states:
          a: {on: {go: a, childDone: a}}
        effects:
          child:
            in: [a]
            machine: Child
            onDone: {done: childDone}
        """

    private func child(persist: Bool) -> String {
        """
        machine: Child
        \(persist ? "persist: true" : "")
        events: {finish: {}}
        initial: running
        states:
          running: {on: {finish: done}}
          done: {type: final}
        """
    }

    @Test("D21: a persisted machine's child machine must persist too; the error is at the effect's machine: line")
    func d21ChildMustPersist() {
        let printed = printedDiagnostics(parent, library: [child(persist: false)])
        #expect(printed.count == 1)
        #expect(printed.first?.hasPrefix(
            "test.machine.yml:10:14: error: machine 'Parent' persists, but effect 'child' runs machine 'Child', which does not: a child is restored with its parent") == true,
            "\(printed)")
        #expect(printed.first?.contains("add 'persist: true' to the spec of 'Child'") == true)
        #expect(printedDiagnostics(parent, library: [child(persist: true)]) == [])
        #expect(printedDiagnostics(parent.replacingOccurrences(of: "persist: true\n", with: ""), library: [child(persist: false)]) == [])
    }
}
