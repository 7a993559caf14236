import Testing
@testable import StateLoopSpec

/// `afterRestart:` of a one-shot effect (Docs/Durability.md D44): its two values, and where it is
/// refused.
@Suite struct AfterRestartSpecTests {
    /// A spec whose `go` runs the one-shot effect `send`, written as `effect` (line 7).
    private func spec(persist: Bool = true, effect: String) -> String {
        """
        machine: M
        \(persist ? "persist: true" : "# not persisted")
        events: {go: {}}
        initial: a
        states:
          a: {on: {go: {target: a, do: [{run: send}]}}}
        effects:
          send: \(effect)
        """
    }

    @Test("D44: afterRestart: is rerun or drop, at its key; without it a run reruns")
    func d44Values() throws {
        let send = { (yaml: String) in try loadedSpec(yaml).effects.first?.afterRestart }
        #expect(try send(spec(effect: "{afterRestart: drop}"))?.value == .drop)
        #expect(try send(spec(effect: "{afterRestart: drop}"))?.location == specLocation(8, 10))
        #expect(try send(spec(effect: "{afterRestart: rerun}"))?.value == .rerun)
        #expect(try send(spec(effect: "{}")) == nil)
    }

    @Test("D44: any other value of afterRestart: is an error at the value with both values", arguments: [
        ("later", "test.machine.yml:8:24: error: 'afterRestart:' takes 'rerun' or 'drop', found 'later'"),
        ("true", "test.machine.yml:8:24: error: 'afterRestart:' takes 'rerun' or 'drop', found 'true'"),
        ("[drop]", "test.machine.yml:8:24: error: 'afterRestart:' takes 'rerun' or 'drop', found a list"),
    ])
    func d44RefusedValues(_ value: String, _ expected: String) {
        let printed = printedDiagnostics(spec(effect: "{afterRestart: \(value)}"))
        #expect(printed == [expected + " (fix: write 'afterRestart: drop' for an effect that must not run twice (a run not known finished at a restart is dropped), or 'afterRestart: rerun', the default (it runs again with its key))"])
    }

    @Test("D44: afterRestart: on an effect with in: is an error at the key: its restored state restarts it")
    func d44NotOnAnEffectWithIn() {
        let yaml = """
            machine: M
            persist: true
            events: {go: {}}
            initial: a
            states:
              a: {on: {go: a}}
            effects:
              watch: {in: [a], request: {type: Int, value: "1"}, afterRestart: drop}
            """
        #expect(printedDiagnostics(yaml) == [
            "test.machine.yml:8:54: error: 'afterRestart:' belongs to a one-shot effect, and effect 'watch' has 'in:' (fix: remove 'afterRestart:': an effect with 'in:' starts again when the restored state asks for it (Docs/Durability.md D41))",
        ])
    }

    @Test("D44: afterRestart: in a spec that does not persist is an error at the key")
    func d44NotWithoutPersist() {
        #expect(printedDiagnostics(spec(persist: false, effect: "{afterRestart: rerun}")) == [
            "test.machine.yml:8:10: error: 'afterRestart:' of effect 'send' needs a machine that persists: machine 'M' never restarts (fix: add 'persist: true' to the spec, or remove 'afterRestart:' (Docs/Durability.md D44))",
        ])
    }
}
