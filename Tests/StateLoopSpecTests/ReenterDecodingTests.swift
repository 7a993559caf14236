@testable import StateLoopSpec
import Testing

// `reenter:` as written (Docs/Statecharts.md S117).

@Suite struct ReenterDecodingTests {
    @Test("S117: reenter: takes true or false, and reenter: true needs a target:")
    func reenterIsDecodedStrictly() {
        let yaml = """
            machine: T
            context: {n: {type: Int, default: "0"}}
            events: {go: {}, stop: {}}
            initial: a
            states:
              a:
                on:
                  go: {set: {n: "1"}, reenter: true}
                  stop: {target: a, reenter: yes}
            """
        #expect(printedDiagnostics(yaml).filter { $0.contains(": error: ") } == [
            "test.machine.yml:8:27: error: 'reenter: true' needs a 'target:': a transition without one exits and enters nothing (fix: add 'target:' naming the state to re-enter (the source itself re-enters it, S23), or remove 'reenter:')",
            "test.machine.yml:9:34: error: 'reenter:' takes 'true' or 'false', found 'yes' (fix: write 'reenter: true' to exit and re-enter the source even when the target lies inside it)",
        ])
    }
}
