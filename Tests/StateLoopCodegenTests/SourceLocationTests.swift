import Foundation
import StateLoopCodegen
import StateLoopSpec
import Testing

/// Type errors in the spec's Swift expressions are reported by swiftc at the YAML file, line and
/// column, because every expression sits in a `#sourceLocation` block at its YAML column. Checked
/// for real with `swiftc` (see `Swiftc.compile`).
@Suite(.enabled(if: Swiftc.isAvailable, "needs swiftc and the StateLoop module in .build/debug/Modules"))
struct SourceLocationTests {
    static let yaml = """
        machine: Broken
        context:
          count: {type: Int, default: "0"}
          name:  {type: String, default: '""'}
        events:
          bump: {by: Int}
        initial: idle
        states:
          idle:
            on:
              bump:
                - {guard: "count + event.by", set: {count: '"zero"'}}
                - ignore
        effects:
          load:
            in: [idle]
            request: {type: Int, value: name}
            emits: []

        """

    /// The 1-based column where `text` starts on the 1-based `line` of the spec.
    func column(of text: String, onLine line: Int, in yaml: String = yaml) throws -> Int {
        let source = yaml.split(separator: "\n", omittingEmptySubsequences: false)[line - 1]
        let range = try #require(source.range(of: text))
        return source.distance(from: source.startIndex, to: range.lowerBound) + 1
    }

    @Test func typeErrorsInExpressionsAreReportedAtTheirYAMLLineAndColumn() throws {
        let path = "Specs/Broken.machine.yml"
        let source = try #require(GeneratorPipeline().generate(contents: Array(Self.yaml.utf8), path: path).source)
        let result = try Swiftc.compile(["Broken.swift": source])
        let reported = Set(result.output.split(separator: "\n").filter { $0.hasPrefix("\(path):") && $0.contains(": error: ") }
            .map { line in line.split(separator: ":").dropFirst().prefix(2).joined(separator: ":") })
        let expected: Set<String> = [
            // guard: Int is not Bool; swiftc points at the operator whose result is misused.
            "12:\(try column(of: "+ event.by", onLine: 12))",
            "12:\(try column(of: "\"zero\"", onLine: 12))",          // set: String is not Int
            "17:\(try column(of: "name}", onLine: 17))",             // request: String is not Int
        ]
        #expect(result.status != 0)
        #expect(reported == expected, "swiftc said:\n\(result.output)")
    }

    /// The statechart keys' expressions: entry, exit and `do:` actions, a `run:` request, `always:`
    /// and `onDone:` guards, each with one type error; and `event` named in an `entry:` (S37).
    static let nested = """
        machine: Nested
        context:
          count: {type: Int, default: "0"}
          name:  {type: String, default: '""'}
        events:
          go: {by: Int}
        initial: outer
        states:
          outer:
            initial: inner
            entry: [{set: {count: name}}]
            exit: [{set: {name: count}}]
            always: {guard: count, target: done}
            onDone: {guard: name, target: done}
            on:
              go: {target: inner, do: [{run: save, request: name}, {set: {count: event.by}}]}
            states:
              inner:
                entry: [{set: {count: trigger}}]
              end: {type: final}
          done: {type: final}
        effects:
          save:
            request: {type: Int}

        """

    @Test("S37: statechart expressions are reported at their YAML line and column; trigger is an Event? in entry:")
    func statechartExpressionsAreReportedAtTheirYAMLLineAndColumn() throws {
        let (reported, output) = try swiftcErrorPositions(Self.nested, machine: "Nested")
        let expected: Set<String> = [
            "11:\(try column(of: "name}}]", onLine: 11, in: Self.nested))",       // entry: String is not Int
            "12:\(try column(of: "count}}]", onLine: 12, in: Self.nested))",      // exit: Int is not String
            "13:\(try column(of: "count, target", onLine: 13, in: Self.nested))", // always: Int is not Bool
            "14:\(try column(of: "name, target", onLine: 14, in: Self.nested))",  // onDone: String is not Bool
            "16:\(try column(of: "name}, {set", onLine: 16, in: Self.nested))",   // run: request String is not Int
            "19:\(try column(of: "trigger}}]", onLine: 19, in: Self.nested))",    // entry: Event? is not Int (S111)
        ]
        #expect(reported == expected, "swiftc said:\n\(output)")
    }

    @Test("S108: a conditional action's condition is type-checked as a Bool at its YAML line and column")
    func conditionTypeErrorsLandAtTheirYAMLLine() throws {
        let yaml = """
            machine: Conditions
            context:
              count: {type: Int, default: "0"}
            events: {go: {by: Int}}
            initial: idle
            states:
              idle:
                entry: [{if: count, then: [{set: {count: "1"}}]}]
                exit: [{if: "trigger", then: []}]
                on:
                  go: {do: [{set: {count: "2"}}, {if: "count > 0", then: [{if: "event.by", then: []}]}]}

            """
        let (reported, output) = try swiftcErrorPositions(yaml, machine: "Conditions")
        #expect(reported == [
            "8:\(try column(of: "count, then", onLine: 8, in: yaml))",     // entry: Int is not Bool
            "9:\(try column(of: "trigger", onLine: 9, in: yaml))",         // exit: Event? is not Bool
            "11:\(try column(of: "by\", then: []}]}]}", onLine: 11, in: yaml))",  // in a do:, after a set: Int is not Bool (at `.by`)
        ], "swiftc said:\n\(output)")
    }

    @Test("V3: an invariant is type-checked as a Bool at its YAML line and column, at the top level and on a state")
    func invariantTypeErrorsLandAtTheirYAMLLine() throws {
        let yaml = """
            machine: Invariants
            context:
              count: {type: Int, default: "0"}
              name: {type: String, default: '""'}
            events: {go: {}}
            invariants:
              counted: count
              fine: "count >= 0 && isIn(.idle)"
            initial: idle
            states:
              idle:
                invariants: {named: "name", known: "isIn(.nowhere)"}
                on: {go: {set: {count: count + 1}}}

            """
        let (reported, output) = try swiftcErrorPositions(yaml, machine: "Invariants")
        let expected: Set<String> = [
            "7:\(try column(of: ": count", onLine: 7, in: yaml) + 2)",      // Int is not Bool
            "12:\(try column(of: "name\", known", onLine: 12, in: yaml))",  // String is not Bool
            "12:\(try column(of: "nowhere", onLine: 12, in: yaml))",        // no such state
        ]
        #expect(reported == expected, "swiftc said:\n\(output)")
    }

    /// The `LINE:COLUMN` of each error swiftc reports in `Specs/<machine>.machine.yml` when it
    /// compiles what `yaml` generates, and all it said.
    func swiftcErrorPositions(_ yaml: String, machine: String) throws -> (positions: Set<String>, output: String) {
        let path = "Specs/\(machine).machine.yml"
        let generated = GeneratorPipeline().generate(contents: Array(yaml.utf8), path: path)
        let source = try #require(generated.source, "\(generated.diagnostics)")
        let result = try Swiftc.compile(["\(machine).swift": source])
        let errors = result.output.split(separator: "\n").filter { $0.hasPrefix("\(path):") && $0.contains(": error: ") }
        return (Set(errors.map { line in line.split(separator: ":").dropFirst().prefix(2).joined(separator: ":") }), result.output)
    }

    /// A parent and its child machine with one type error in each place the effect shapes add
    /// Swift: `requests:`, `delays:`, `input` outside `default:`, a child's `input:`, an
    /// `onError:` event's fields, a `forward:` entry's payload, an `onDone:` entry's fields, a
    /// final state's `output:`.
    static let shapes = """
        machine: Shapes
        input:
          seed: Int
        context:
          count: {type: Int, default: input.seed}
          name:  {type: String, default: '""'}
        events:
          go: {}
          stop: {why: String}
          failed: {from: effects, error: Int}
          done: {from: effects, total: String}
        delays:
          wait: count
        initial: idle
        states:
          idle:
            on:
              go: {guard: "input.seed > 0", target: idle}
              failed: {target: idle}
              done: {target: idle}
            after:
              wait: idle
        effects:
          load:
            in: [idle]
            requests: {type: Int, value: name}
            onError: failed
          kid:
            in: [idle]
            machine: Kid
            input: {amount: name}
            forward: {stop: halt}
            onDone: {over: done}

        """

    static let kid = """
        machine: Kid
        input:
          amount: Int
        context:
          amount: {type: Int, default: input.amount}
        events:
          halt: {why: Int}
        initial: running
        states:
          running:
            on:
              halt: over
          over:
            type: final
            output: {total: {type: Int, value: '"x"'}}

        """

    @Test("E8, E16, E21, E22, E24, E29, E31, E35: what the effect shapes add is type-checked at its YAML line")
    func effectShapeExpressionsAreReportedAtTheirYAMLLines() throws {
        // swiftc stops at an error in a declaration another file uses, so the child's own error
        // is checked in a second run.
        let fixedKid = Self.kid.replacingOccurrences(of: "'\"x\"'", with: "amount")
        func reported(_ specs: [(name: String, yaml: String)], kid: String) throws -> (status: Int32, lines: Set<String>, output: String) {
            let library = try MachineLibrary([#require(SpecLoader.decode(contents: Array(kid.utf8), path: "Specs/Kid.machine.yml"))])
            var files: [String: String] = [:]
            for (name, yaml) in specs {
                let generated = GeneratorPipeline().generate(contents: Array(yaml.utf8), path: "Specs/\(name).machine.yml", library: library)
                files["\(name).swift"] = try #require(generated.source, "\(generated.diagnostics)")
            }
            let result = try Swiftc.compile(files)
            let errors = result.output.split(separator: "\n").filter { $0.hasPrefix("Specs/") && $0.contains(": error: ") }
            return (result.status, Set(errors.map { line in line.split(separator: ":").prefix(2).joined(separator: ":") }), result.output)
        }
        func line(of text: String, in yaml: String) -> String {
            "\(yaml.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(text) }! + 1)"
        }
        let expected: Set<String> = [
            "Specs/Shapes.machine.yml:" + line(of: "wait: count", in: Self.shapes),            // a delay is a Duration
            "Specs/Shapes.machine.yml:" + line(of: "input.seed > 0", in: Self.shapes),         // input only in default:
            "Specs/Shapes.machine.yml:" + line(of: "value: name}", in: Self.shapes),           // a set of Int
            "Specs/Shapes.machine.yml:" + line(of: "onError: failed", in: Self.shapes),        // error: Int
            "Specs/Shapes.machine.yml:" + line(of: "amount: name", in: Self.shapes),           // the child's Int
            "Specs/Shapes.machine.yml:" + line(of: "stop: halt", in: Self.shapes),             // why: String to Int
            "Specs/Shapes.machine.yml:" + line(of: "over: done", in: Self.shapes),             // total: Int to String
        ]
        let parent = try reported([("Shapes", Self.shapes), ("Kid", fixedKid)], kid: fixedKid)
        #expect(parent.status != 0)
        #expect(parent.lines == expected, "swiftc said:\n\(parent.output)")
        let child = try reported([("Kid", Self.kid)], kid: Self.kid)
        #expect(child.lines == ["Specs/Kid.machine.yml:" + line(of: "value: '\"x\"'", in: Self.kid)], "swiftc said:\n\(child.output)")  // output total: Int
    }

    /// A spec whose expressions are not written verbatim: escapes, a `\n` escape between tokens,
    /// plain and double-quoted scalars folded over lines, non-ASCII text before an expression on
    /// its line, a literal block. Each expression has one type error, at the token `errors` names.
    static let unusual = """
        machine: Unusual
        context:
          count: {type: Int, default: "0"}
          name:  {type: String, default: '""'}
        events:
          a: {}
          b: {}
          c: {}
          d: {}
          e: {}
          f: {}
        initial: idle
        states:
          idle:
            on:
              a: {guard: "name == \\"x\\" && count", target: idle}
              b: {guard: "name == \\"y\\" ||\\ncount", target: idle}
              c: {set: {count: count +
                    name}}
              d: {guard: 'name != "ü→"', set: {count: name}}
              e: {set: {count: "count +
                    name"}}
              f:
                guard: |
                  name.isEmpty &&
                    count

        """

    /// Where swiftc must report each error: (line, text that starts at the error on that line).
    static let unusualErrors: [(line: Int, at: String)] = [
        (16, #"count", target"#), (17, #"count", target"#), (19, "name}}"), (20, "name}}"), (22, #"name"}}"#), (26, "count"),
    ]

    /// The spec's text in the encodings and line ends a spec file may have.
    enum Encoding: String, CaseIterable, CustomTestStringConvertible {
        case utf8LF, utf8CRLF, utf8CR, utf8BOM, utf16LE, utf16BE
        var testDescription: String { rawValue }

        func bytes(_ text: String) -> [UInt8] {
            switch self {
            case .utf8LF: Array(text.utf8)
            case .utf8CRLF: Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)
            case .utf8CR: Array(text.replacingOccurrences(of: "\n", with: "\r").utf8)
            case .utf8BOM: [0xEF, 0xBB, 0xBF] + Array(text.utf8)
            case .utf16LE: [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            case .utf16BE: [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
            }
        }
    }

    /// swiftc counts columns in UTF-8 bytes; so must the spec's positions, in any encoding.
    @Test(arguments: Encoding.allCases)
    func typeErrorsInExpressionsNotWrittenVerbatimAreReportedAtTheirYAMLLineAndColumn(_ encoding: Encoding) throws {
        let path = "Unusual.machine.yml"
        let output = GeneratorPipeline().generate(contents: encoding.bytes(Self.unusual), path: path)
        let source = try #require(output.source, "\(output.diagnostics)")
        let result = try Swiftc.compile(["Unusual.swift": source])
        let reported = result.output.split(separator: "\n").filter { $0.hasPrefix("\(path):") && $0.contains(": error: ") }
            .map { line in line.split(separator: ":").dropFirst().prefix(2).joined(separator: ":") }
        let lines = Self.unusual.split(separator: "\n", omittingEmptySubsequences: false)
        let expected = try Self.unusualErrors.map { error in
            let text = lines[error.line - 1]
            let range = try #require(text.range(of: error.at, options: .backwards))
            return "\(error.line):\(text.utf8.distance(from: text.startIndex, to: range.lowerBound) + 1)"
        }
        #expect(result.status != 0)
        #expect(reported.sorted() == expected.sorted(), "swiftc said:\n\(result.output)\n\(source)")
    }

    /// A string literal YAML wrote wider than it is (`\"abc\"` for `"abc"`, `\u00e9` for `é`),
    /// with code right after it (`.count`): no space may go between them, so the literal is
    /// written as much wider with the same value (`#"abc"#`, `\u{0000E9}`, `\'`). And a `\r`
    /// escape between tokens is a space, as `\n` is: swiftc would count it as a line break.
    static let widened = """
        machine: Widened
        context:
          n: {type: Int, default: "0"}
          q: {type: String, default: '""'}
        events: {a: {}, b: {}, c: {}, d: {}, e: {}, f: {}, g: {}, h: {}}
        initial: idle
        states:
          idle:
            on:
              a: {target: idle, set: {n: "\\"abc\\".count + q"}}
              b: {target: idle, set: {n: "\\"ü→\\".count + q"}}
              c: {target: idle, set: {n: "\\"😀\\".count + q"}}
              d: {target: idle, set: {n: "n +\\rq"}}
              e: {target: idle, set: {n: "\\"\\u00e9\\".count + q"}}
              f: {target: idle, set: {n: '"it''s".count + q'}}
              g: {target: idle, set: {n: "\\"a\\\\tb\\".count + q"}}
              h: {target: idle, set: {n: "[\\"x\\"].count + \\"\\U0001F600\\".count + q"}}

        """

    @Test("Code right after a string literal YAML wrote wider, and after a \\r escape, is reported at its YAML column")
    func typeErrorsAfterWidenedLiteralsAreReportedAtTheirYAMLLineAndColumn() throws {
        let path = "Widened.machine.yml"
        let output = GeneratorPipeline().generate(contents: Array(Self.widened.utf8), path: path)
        let source = try #require(output.source, "\(output.diagnostics)")
        let result = try Swiftc.compile(["Widened.swift": source])
        let reported = result.output.split(separator: "\n").filter { $0.hasPrefix("\(path):") && $0.contains(": error: ") }
            .map { line in line.split(separator: ":").dropFirst().prefix(2).joined(separator: ":") }
        let lines = Self.widened.split(separator: "\n", omittingEmptySubsequences: false)
        // Each error is at `q`, the String added to an Int, at its UTF-8 column on its line.
        let expected = try (10...17).map { line in
            let text = lines[line - 1]
            let range = try #require(text.range(of: "q", options: .backwards, range: text.startIndex..<text.index(text.endIndex, offsetBy: -3)))
            return "\(line):\(text.utf8.distance(from: text.startIndex, to: range.lowerBound) + 1)"
        }
        #expect(result.status != 0)
        #expect(reported.sorted() == expected.sorted(), "swiftc said:\n\(result.output)\n\(source)")
        // The literals keep their values: the same spec without the type error compiles.
        let fixed = Self.widened.replacingOccurrences(of: #"q: {type: String, default: '""'}"#, with: #"q: {type: Int, default: "0"}"#)
        #expect(fixed != Self.widened)
        let fine = try #require(GeneratorPipeline().generate(contents: Array(fixed.utf8), path: path).source)
        let compiled = try Swiftc.compile(["Widened.swift": fine])
        #expect(compiled.status == 0, "\(compiled.output)")
    }

    /// `''` in a single-quoted scalar is made up after the string literal it shrinks; a line
    /// folded inside a string literal has no exact place (the literal cannot span two lines), so
    /// that value is laid out from its start as if written there on one line: the error lands on
    /// the value's first line, as far from its start as it is in the value.
    @Test func typeErrorsWithoutAnExactPlaceAreReportedFromTheStartOfTheValue() throws {
        let yaml = """
            machine: Fallback
            context:
              count: {type: Int, default: "0"}
              name:  {type: String, default: '""'}
            events:
              a: {}
              b: {}
            initial: idle
            states:
              idle:
                on:
                  a: {set: {name: 'name + "it''s" + count'}}
                  b: {guard: "name == \\"x
                       y\\" && count", target: idle}

            """
        let path = "Fallback.machine.yml"
        let source = try #require(GeneratorPipeline().generate(contents: Array(yaml.utf8), path: path).source)
        let result = try Swiftc.compile(["Fallback.swift": source])
        let reported = result.output.split(separator: "\n").filter { $0.hasPrefix("\(path):") && $0.contains(": error: ") }
            .map { line in line.split(separator: ":").dropFirst().prefix(2).joined(separator: ":") }
        let start = try column(of: "name == ", onLine: 13, in: yaml)
        #expect(reported.sorted() == [
            "12:\(try column(of: "count'", onLine: 12, in: yaml))",
            "13:\(start + "name == \"x y\" && ".count)",
        ], "swiftc said:\n\(result.output)\n\(source)")
    }

    /// Every fixture, GitHubSearch, Ledger and Nudge with the Swift they name, in both language modes a target may
    /// use (a Swift 5 target with `-warnings-as-errors` builds the generated code in Swift 5 mode).
    @Test("S93: every fixture compiles warning-free with every access level in Swift 6 and Swift 5 language mode", arguments: AccessLevel.allCases, [6, 5])
    func fixturesCompileWarningFreeWithEveryAccessLevelInEveryLanguageMode(_ access: AccessLevel, swiftVersion: Int) throws {
        var files: [String: String] = [:]
        for support in ["GitHubTypes.swift", "LedgerTypes.swift", "NudgeTypes.swift"] {
            files[support] = try String(contentsOf: TestPaths.golden.appendingPathComponent("../Support/\(support)"), encoding: .utf8)
        }
        for name in GoldenTests.fixtures {
            let source = try #require(TestPaths.generateFixture(name, pipeline: GeneratorPipeline(accessLevel: access)).source)
            files["\(name).swift"] = source
        }
        let result = try Swiftc.compile(files, swiftVersion: swiftVersion)
        #expect(result.status == 0, "with \(access) access in Swift \(swiftVersion) mode:\n\(result.output)")
    }

    /// S93: every spec of `Specs/`, with the Swift of `Specs/Effects` it is built with (the
    /// `StateLoopExamples` target), in both language modes; the target itself builds in Swift 6 only.
    @Test("S93: the specs of Specs/ compile warning-free in Swift 6 and Swift 5 language mode", arguments: [6, 5])
    func specsCompileWarningFreeInEveryLanguageMode(_ swiftVersion: Int) throws {
        let folder = TestPaths.package.appendingPathComponent("Specs")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".machine.yml") }.sorted()
        let contents = try names.map { try [UInt8](Data(contentsOf: folder.appendingPathComponent($0))) }
        let library = MachineLibrary(zip(names, contents).compactMap { SpecLoader.decode(contents: $1, path: $0) })
        var files: [String: String] = [:]
        for (name, bytes) in zip(names, contents) {
            let output = GeneratorPipeline().generate(contents: bytes, path: name, library: library)
            files[name.replacingOccurrences(of: ".yml", with: ".swift")] = try #require(output.source, "\(output.diagnostics)")
        }
        let effects = folder.appendingPathComponent("Effects")
        for name in try FileManager.default.contentsOfDirectory(atPath: effects.path) where name.hasSuffix(".swift") {
            files[name] = try String(contentsOf: effects.appendingPathComponent(name), encoding: .utf8)
        }
        #expect(!names.isEmpty)
        let result = try Swiftc.compile(files, swiftVersion: swiftVersion)
        #expect(result.status == 0, "in Swift \(swiftVersion) mode:\n\(result.output)")
    }

    /// S94: the checks above fail on a warning: the same generated file with one unused value
    /// fails in either mode.
    @Test("S94: a warning fails the warning-free checks in either language mode", arguments: [6, 5])
    func aWarningFailsTheCheck(_ swiftVersion: Int) throws {
        let source = try #require(TestPaths.generateFixture("Counter").source)
        let clean = try Swiftc.compile(["Counter.swift": source], swiftVersion: swiftVersion)
        #expect(clean.status == 0, "\(clean.output)")
        let warned = try Swiftc.compile(["Counter.swift": source, "Warning.swift": "func f() { let unused = 1 }\n"], swiftVersion: swiftVersion)
        #expect(warned.status != 0)
        #expect(warned.output.contains("initialization of immutable value 'unused' was never used"), "\(warned.output)")
    }
}
