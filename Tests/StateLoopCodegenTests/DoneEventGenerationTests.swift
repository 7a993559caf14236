import StateLoopCodegen
import Testing

// The generated side of a final state's data (Docs/Statecharts.md S160–S162): the done event is
// computed when the `onDone:` is tried, so `State` stores nothing for it. W3C tests 294, 527 and
// 529 run it compiled (W3CTests).

@Suite struct DoneEventGenerationTests {
    static let yaml = """
        machine: Done
        context: {n: {type: Int, default: "0"}}
        events: {go: {}, finished: {n: Int}}
        ignore: [finished]
        initial: a
        states:
          a:
            initial: a1
            onDone: [{guard: "trigger == .finished(n: 1)", target: end}, {target: a}]
            on: {go: a}
            states:
              a1: {on: {go: f}}
              f:
                type: final
                doneEvent: finished
                output: {n: {type: Int, value: "n + 1"}}
          end: {type: final}
        """

    /// The stored properties of the generated `State` (and their journal), line by line.
    static func storedProperties(_ source: String) -> [String] {
        source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.contains(" var ") && !$0.hasSuffix("{") && !$0.hasPrefix("//") }
    }

    @Test("S162: the output is evaluated when the onDone: is tried, so State stores nothing for it")
    func theDoneEventIsComputedWhenTheOnDoneIsTried() throws {
        let generated = GeneratorPipeline().generate(contents: Array(Self.yaml.utf8), path: "Done.machine.yml")
        let source = try #require(generated.source, "\(generated.diagnostics)")
        let plainYAML = Self.yaml.replacingOccurrences(of: "        doneEvent: finished\n", with: "")
            .replacingOccurrences(of: "        output: {n: {type: Int, value: \"n + 1\"}}\n", with: "")
        let plain = try #require(GeneratorPipeline().generate(contents: Array(plainYAML.utf8), path: "Done.machine.yml").source)
        #expect(source.contains("trigger = _doneEvent(_state) ?? trigger") && !plain.contains("_doneEvent"))
        #expect(Self.storedProperties(source) == Self.storedProperties(plain))
        #expect(Self.storedProperties(source).contains { $0.contains("var _done: [StateName]") })
    }
}
