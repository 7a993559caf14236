import Foundation
import StateLoopCodegen
import StateLoopSpec
import Testing

// Loops (Docs/Statecharts.md S170–S172): the generated reducer, compiled and run, and
// `MachineInterpreter`, which runs them in the one semantic core.

@Suite(.enabled(if: Swiftc.isAvailable, "needs swiftc and the StateLoop module in .build/debug/Modules"))
struct ForeachActionTests {
    @Test("S170: a foreach: runs its do: once per element in the array's order, item: and index: assigned first; an empty array runs nothing")
    func s170LoopsRunTheirActionsPerElement() throws {
        let yaml = """
            machine: Loop
            context:
              words: {type: "[String]", default: '["a", "b"]'}
              word: {type: String, default: '""'}
              at: {type: Int, default: "-1"}
              digit: {type: Int, default: "0"}
              log: {type: String, default: '""'}
            events: {go: {digits: "[Int]"}}
            initial: a
            states:
              a:
                on:
                  go:
                    target: a
                    do:
                      - foreach:
                          in: words
                          item: word
                          index: at
                          do:
                            - {set: {log: 'log + word + String(at)'}}
                            - foreach: {in: event.digits, item: digit, do: [{set: {log: log + String(digit)}}]}
                            - {set: {log: 'log + ";"'}}

            """
        let generated = GeneratorPipeline().generate(contents: Array(yaml.utf8), path: "Loop.machine.yml")
        let source = try #require(generated.source, "\(generated.diagnostics)")
        let main = """
            var state = Loop.State.initial
            for event: Loop.Event in [.go(digits: [1, 2]), .go(digits: [])] {
                Loop.reduce(&state, event)
                print(state.log, state.word, state.at, state.digit)
            }
            state.words = []
            Loop.reduce(&state, .go(digits: [7]))
            print(state.log, state.word, state.at, state.digit)
            """
        let run = try Swiftc.run(["Loop.machine.swift": source, "main.swift": main])
        #expect(run.status == 0, "\(run.output)")
        // The fields keep the last element after the loop; an empty array leaves them as they were.
        #expect(run.output.split(separator: "\n").map(String.init) == [
            "a012;b112; b 1 2", "a012;b112;a0;b1; b 1 2", "a012;b112;a0;b1; b 1 2",
        ])
    }

    @Test("S171: the array is read once, on the state as the actions before the loop left it; changing it in do: changes no iteration")
    func s171TheArrayIsACopyReadWhenTheLoopStarts() throws {
        let yaml = """
            machine: Copy
            context:
              n: {type: Int, default: "0"}
              s: {type: String, default: '""'}
            events: {e0: {}}
            initial: a
            states:
              a:
                entry: [{set: {s: s + "="}}, {foreach: {in: '[s + "<", s + ">"]', item: s, index: n, do: [{set: {s: s + "|"}}]}}]
                on: {e0: a}

            """
        let spec = try #require(SpecLoader.load(contents: Array(yaml.utf8), path: "Copy.machine.yml").spec)
        var host = VocabularyHost(positions: spec.semantics.tree.index)
        _ = MachineInterpreter(spec.semantics, host: &host)
        // Both elements read "=" before the first `set:` of the loop ran.
        #expect((host.n, host.s) == (1, "=>|"))
        #expect(host.unknown.isEmpty)

        let appending = """
            machine: Grow
            context:
              items: {type: "[Int]", default: "[1, 2, 3]"}
              item: {type: Int, default: "0"}
              count: {type: Int, default: "0"}
            events: {go: {}}
            initial: a
            states:
              a:
                on:
                  go: {do: [{set: {items: "items + [0]"}}, {foreach: {in: items, item: item, do: [{set: {items: "items + [item]"}}, {set: {count: count + 1}}]}}]}

            """
        let generated = GeneratorPipeline().generate(contents: Array(appending.utf8), path: "Grow.machine.yml")
        let source = try #require(generated.source, "\(generated.diagnostics)")
        let main = """
            var state = Grow.State.initial
            Grow.reduce(&state, .go)
            print(state.count, state.items)
            """
        let run = try Swiftc.run(["Grow.machine.swift": source, "main.swift": main])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.split(separator: "\n").map(String.init) == ["4 [1, 2, 3, 0, 1, 2, 3, 0]"])
    }
}

extension SourceLocationTests {
    @Test("S172: a foreach:'s in: is type-checked as an array of the item's type at its YAML line and column, and its do: as any action list")
    func s172LoopTypeErrorsLandAtTheirYAMLLine() throws {
        let yaml = """
            machine: Loops
            context:
              names: {type: "[String]", default: "[]"}
              count: {type: Int, default: "0"}
            events: {go: {}}
            initial: idle
            states:
              idle:
                entry: [{foreach: {in: names, item: count}}]
                on:
                  go: {do: [{foreach: {in: "[1, 2]", item: count, do: [{set: {count: names}}]}}]}

            """
        let path = "Specs/Loops.machine.yml"
        let generated = GeneratorPipeline().generate(contents: Array(yaml.utf8), path: path)
        let source = try #require(generated.source, "\(generated.diagnostics)")
        let result = try Swiftc.compile(["Loops.swift": source])
        let errors = result.output.split(separator: "\n").filter { $0.hasPrefix("\(path):") && $0.contains(": error: ") }
        let reported = Set(errors.map { line in line.split(separator: ":").dropFirst().prefix(2).joined(separator: ":") })
        #expect(reported == [
            "9:\(try column(of: "names, item", onLine: 9, in: yaml))",      // [String] is not [Int]
            "11:\(try column(of: "names}}]}}]}", onLine: 11, in: yaml))",  // in do:, [String] is not Int
        ], "swiftc said:\n\(result.output)")
    }
}
