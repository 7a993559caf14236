import Foundation
@testable import StateLoopCodegen
import StateLoopSpec
import StateLoopTestSupport
import Testing

// No text from a spec can break out of the identifier, comment, string literal or expression
// member it lands in. A property test: seeded random machines carry hostile names, types,
// expressions and paths (quotes, backslashes, `*/`, `"""`, `#`, newlines, Unicode, code that
// tries to close its member). Each machine is either rejected by the loader with an error at a line
// that carries hostile text, or generated and type-checked by the real swiftc; every swiftc error
// must then be reported at the spec's path (through `#sourceLocation`), never at a line of the
// generated file itself, and machines made only of valid pieces must compile warning-free.

/// One random machine: its spec text and path, and what the test needs to judge the outcome.
struct HostileCase: CustomStringConvertible {
    let seed: UInt64
    let path: String
    let yaml: String
    /// 1-based lines that carry generated text; the only lines a rejection may point at.
    let hostileLines: Set<Int>
    /// Lines declaring a name the checks must reject (not an identifier, reserved, `_` prefix).
    /// Only the declaration is reported; uses of the name are not reported again.
    let invalidNameLines: Set<Int>
    /// True when every expression and type is valid Swift: then the machine must compile cleanly.
    let expectsClean: Bool

    var description: String { "seed \(seed), path \(path.debugDescription):\n\(yaml)" }

    /// The pieces hostile text is built from: whatever could end a comment, a string literal, an
    /// identifier or a member, or confuse the column arithmetic.
    static let fragments = [
        "\"", "\\", "*/", "/*", "\"\"\"", "#", "\n", "\r\n", "\u{2028}", "\u{85}", "//", "é", "名前", "🦆",
        "\t", "`", "'", "}", "{", ";", "#sourceLocation()", " ", "\\(", ")", "#\"", "\u{0}", "a", "Zed", "x1",
    ]

    /// Expressions that try to leave the member they are placed in, or to end its `#sourceLocation`.
    static let breakouts = [
        "0 }; func evil() {",
        "0 }\n}\n}\nfunc evil() {",
        "x\n#sourceLocation()\n}",
        "\"\"\"",
        "0 /* never closed",
        "#if false",
        "'\"a\\\"b\"'",
        "\"*/\" + \"/*\"",
        "0 // a comment",
        "{ 0 }()",
        ")",
    ]

    /// Types that try to leave the declaration they are placed in.
    static let hostileTypes = [
        "Int }; func evil() {", "Int\n}", "Int /* x", "Int // x", "String, evil: Int", "Int = 0", "[Int", "Int)",
        "Int }", "String\n#sourceLocation()",
    ]

    static let keywords = ["default", "in", "switch", "return", "where", "case", "repeat", "Any", "some", "do", "func"]
    static let reserved = ["self", "Self", "Type", "init", "_x", "_"]

    /// Hostile text: one to four fragments.
    static func text(_ random: inout SeededGenerator) -> String {
        (0..<Int.random(in: 1...4, using: &random)).map { _ in fragments.randomElement(using: &random)! }.joined()
    }

    /// A name for a slot: a plain identifier or a keyword, and with `hostile` also a reserved word
    /// or hostile text.
    static func name(_ plain: String, hostile: Bool, _ random: inout SeededGenerator) -> String {
        switch Int.random(in: 0..<(hostile ? 20 : 13), using: &random) {
        case 0..<8: plain
        case 8..<13: keywords.randomElement(using: &random)!
        case 13..<15: reserved.randomElement(using: &random)!
        default: text(&random)
        }
    }

    /// Where a case puts its invalid text; valid hostile text (keywords, string literals, paths)
    /// goes everywhere in every case. One focus per case keeps every outcome frequent.
    enum Focus: CaseIterable {
        case names, expressions, types, onlyValid
    }

    /// `text` as a YAML double-quoted scalar, so that any text reaches the spec model unchanged.
    static func yamlString(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    result += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// The machine of `seed`, named `Case<index>` so that a batch of them forms one module.
    init(seed: UInt64, index: Int) {
        var random = SeededGenerator(seed: seed)
        self.seed = seed
        let focus = Focus.allCases[Int(seed % UInt64(Focus.allCases.count))]
        // No `/` in the stem: it would put the spec in a folder of its own, and two cases could
        // then share a file name, whose `#fileID`s one module refuses (the plugin refuses two
        // specs of one target with one file name, SpecFileNaming.Collision).
        let stem = Bool.random(using: &random) ? "" : " " + Self.text(&random).replacingOccurrences(of: "/", with: "|").replacingOccurrences(of: "\\", with: "|")
        path = "Specs/Case\(index)\(stem).machine.yml"

        var lines: [String] = []
        var hostileLines: Set<Int> = []
        var invalidNameLines: Set<Int> = []
        var clean = true

        /// Appends a line; `name` marks the line as carrying that name, `declares` as declaring it.
        func add(_ line: String, hostile: Bool = false, name: String? = nil, declares: Bool = false, field: Bool = false) {
            lines.append(line)
            if hostile { hostileLines.insert(lines.count) }
            if let name {
                hostileLines.insert(lines.count)
                guard declares else { return }
                let valid = SwiftName.isIdentifier(name) && !SwiftName.unusable.contains(name) && !name.hasPrefix("_")
                    && !(field && GeneratedNames.reservedFields[name] != nil)
                if !valid { invalidNameLines.insert(lines.count) }
            }
        }
        /// A Swift expression of type `valid`'s type: `valid`, a string literal, or an attempt to break out.
        func expression(_ valid: String, string: Bool = false) -> String {
            switch Int.random(in: 0..<(focus == .expressions ? 4 : 2), using: &random) {
            case 0: return valid
            case 1 where string: return SwiftLiteral.string(Self.text(&random))  // the valid way to carry hostile text
            case 1: return valid
            case 2:
                clean = false
                return Self.breakouts.randomElement(using: &random)!
            default:
                clean = false
                return Self.text(&random)
            }
        }
        /// A type: `valid` mostly, sometimes one that tries to break out.
        func type(_ valid: String) -> String {
            guard focus == .types, Bool.random(using: &random) else { return valid }
            clean = false
            return Bool.random(using: &random) ? Self.hostileTypes.randomElement(using: &random)! : "Int" + Self.text(&random)
        }

        let field = Self.name("label", hostile: focus == .names, &random)
        let event = Self.name("typed", hostile: focus == .names, &random)
        let payload = Self.name("text", hostile: focus == .names, &random)
        let state = Self.name("busy", hostile: focus == .names, &random)
        let effect = Self.name("load", hostile: focus == .names, &random)
        let q = Self.yamlString

        // A YAML comment: any printable text, which must not reach the generated code at all.
        add("# " + String(String.UnicodeScalarView(Self.text(&random).unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) && $0 != "\u{2028}" })), hostile: true)
        add("machine: Case\(index)")
        add("context:")
        add("  \(q(field)): {type: \(q(type("String"))), default: \(q(expression("\"\"", string: true)))}", name: field, declares: true, field: true)
        add("  count: {type: Int, default: \"0\"}")
        add("events:")
        add("  \(q(event)): {\(q(payload)): \(q(type("String?")))}", name: event, declares: true)
        hostileLines.insert(lines.count)  // the payload name shares the line
        if !(SwiftName.isIdentifier(payload) && !SwiftName.unusable.contains(payload) && !payload.hasPrefix("_")) {
            invalidNameLines.insert(lines.count)
        }
        add("  go: {}")
        add("  done: {from: effects}")
        add("initial: idle")
        add("states:")
        add("  idle:")
        add("    on:")
        add("      \(q(event)):", name: event)
        add("        - guard: \(q(expression("count > 0")))", hostile: true)
        add("          target: \(q(state))", name: state)
        add("          set: {\(q(field)): \(q(expression("\"\"", string: true)))}", name: field, field: true)
        add("        - ignore")
        add("      go: {target: \(q(state))}", name: state)
        add("    ignore: [done]")
        add("  \(q(state)):", name: state, declares: true)
        add("    on:")
        add("      \(q(event)): {target: idle}", name: event)
        add("      go: {set: {count: count + 1}}")
        add("      done: {target: idle}")
        add("effects:")
        add("  \(q(effect)):", name: effect, declares: true)
        add("    in: [\(q(state))]", name: state)
        add("    request: {type: \(q(type("Int"))), value: \(q(expression("count")))}", hostile: true)
        add("    emits: [done]")

        yaml = lines.joined(separator: "\n") + "\n"
        self.hostileLines = hostileLines
        self.invalidNameLines = invalidNameLines
        expectsClean = clean && invalidNameLines.isEmpty
    }
}

/// Whether the tests run under CI, which sets `CI=true`.
enum ContinuousIntegration {
    static let isActive = ProcessInfo.processInfo.environment["CI"] == "true"
}

/// The property test and the regression tests of what it found. Without swiftc or the StateLoop
/// module the suite is skipped, visibly; under CI (`CI=true`) it runs and fails instead, so a
/// broken setup cannot pass as green.
@Suite(.enabled(if: Swiftc.isAvailable || ContinuousIntegration.isActive, "needs swiftc and the StateLoop module in .build/debug/Modules"))
struct InjectionPropertyTests {
    /// The seeds: fixed, so every run checks the same machines; a failure prints its seed.
    static let seeds: [UInt64] = Array(1...160)

    /// A `swiftc` error or warning line: `file:line:column: error: message`.
    struct CompilerMessage {
        let file: String
        let text: String
    }

    /// The error and warning lines of swiftc's output (the source excerpts it prints are indented).
    static func messages(_ output: String) -> [CompilerMessage] {
        output.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix(" "), let range = line.range(of: #":[0-9]+:[0-9]+: (error|warning): "#, options: .regularExpression) else {
                return line.contains("error:") && !line.hasPrefix(" ") ? CompilerMessage(file: "", text: String(line)) : nil
            }
            return CompilerMessage(file: String(line[..<range.lowerBound]), text: String(line))
        }
    }

    @Test func hostileTextIsRejectedAtItsLineOrCompilesWithErrorsOnlyAtTheSpec() throws {
        guard Swiftc.isAvailable else {
            Issue.record("CI=true, but swiftc or \(Swiftc.modules.path)/StateLoop.swiftmodule is missing")
            return
        }
        var clean: [String: String] = [:]
        var hostile: [String: String] = [:]
        var cases: [Int: HostileCase] = [:]
        var counts = (rejected: 0, clean: 0, hostile: 0)

        for (index, seed) in Self.seeds.enumerated() {
            let item = HostileCase(seed: seed, index: index)
            cases[index] = item
            let output = GeneratorPipeline().generate(contents: Array(item.yaml.utf8), path: item.path)
            guard let source = output.source else {
                counts.rejected += 1
                let errors = output.diagnostics.filter { $0.severity == .error }
                #expect(!errors.isEmpty, "rejected without an error: \(item)")
                for error in errors {
                    #expect(
                        error.location.file == item.path && item.hostileLines.contains(error.location.line),
                        "error away from the hostile text: \(error)\n\(item)")
                }
                let reported = Set(errors.filter { $0.location.file == item.path }.map(\.location.line))
                #expect(item.invalidNameLines.isSubset(of: reported), "invalid names not reported at their lines: \(output.diagnostics)\n\(item)")
                continue
            }
            #expect(item.invalidNameLines.isEmpty, "generated despite invalid names: \(item)")
            if item.expectsClean {
                counts.clean += 1
                clean["Case\(index).swift"] = source
            } else {
                counts.hostile += 1
                hostile["Case\(index).swift"] = source
            }
        }
        // Each kind of outcome must occur, or the generator of cases has gone blind.
        #expect(counts.rejected > 10 && counts.clean > 10 && counts.hostile > 10, "\(counts)")

        // Machines of valid pieces: one module that compiles without a warning.
        let cleanResult = try Swiftc.compile(clean)
        #expect(cleanResult.status == 0, "valid hostile text did not compile:\n\(cleanResult.output)")

        // Machines with invalid Swift in them: errors only at the spec, none in generated lines.
        let hostileResult = try Swiftc.compile(hostile)
        for message in Self.messages(hostileResult.output) {
            let index = message.file.firstMatch(of: /Case([0-9]+)\.swift$/).flatMap { Int($0.1) }
            let specIndex = message.file.firstMatch(of: /^Specs\/Case([0-9]+)[ .]/).flatMap { Int($0.1) }
            if let specIndex {
                #expect(!(cases[specIndex]?.expectsClean ?? true), "\(message.text)")
                continue
            }
            let culprit = index.flatMap { cases[$0] }.map(\.description) ?? "(no case)"
            Issue.record("swiftc error outside the spec: \(message.text)\n\(culprit)")
        }
    }

    // swiftc ignores a `#sourceLocation` whose file literal holds a line break (even escaped), so
    // a spec path with one had its Swift errors reported inside the generated file.
    @Test func aSpecPathWithALineBreakStillLocatesSwiftErrorsAtTheSpec() throws {
        guard Swiftc.isAvailable else {
            Issue.record("CI=true, but swiftc or \(Swiftc.modules.path)/StateLoop.swiftmodule is missing")
            return
        }
        let path = "Specs/Line\r\nBreak.machine.yml"
        let source = try #require(GeneratorPipeline().generate(contents: Array(EmbeddedSwiftCheckTests.spec(expression: "\"text\"").utf8), path: path).source)
        let result = try Swiftc.compile(["M.swift": source])
        let errors = Self.messages(result.output).filter { $0.text.contains(": error: ") }
        #expect(!errors.isEmpty)
        #expect(errors.allSatisfy { $0.file == "Specs/Line  Break.machine.yml" }, "\(result.output)")
    }
}

/// Regressions the property test found in the checks: embedded Swift that could leave its place.
/// They need no compiler, so they run everywhere.
@Suite struct EmbeddedSwiftCheckTests {

    /// A one-state machine whose field has `type` and whose transition sets it to `expression`;
    /// the type is on line 3, the expression on line 9.
    static func spec(type: String = "Int", expression: String = "0") -> String {
        """
        machine: M
        context:
          n: {type: \(HostileCase.yamlString(type)), default: "0"}
        events:
          go: {}
        initial: a
        states:
          a:
            on: {go: {set: {n: \(HostileCase.yamlString(expression))}}}

        """
    }

    /// The error lines of loading `yaml`.
    static func errorLines(_ yaml: String) -> [Int] {
        SpecLoader.load(contents: Array(yaml.utf8), path: "M.machine.yml").diagnostics.filter { $0.severity == .error }.map(\.location.line)
    }

    // Types were pasted into declarations unchecked: `Int }; func evil() {` closed `State`.
    @Test(arguments: ["Int }; func evil() {", "Int\n}", "String, evil: Int", "Int = 0", "[Int", "Int)", "Int /* x", "Inta ", "Int Int", "Int // x"])
    func aTypeThatWouldLeaveItsDeclarationIsAnErrorAtItsLine(_ type: String) {
        #expect(Self.errorLines(Self.spec(type: type)) == [3])
    }

    @Test(arguments: ["[String: Int]", "(Int, String) -> Void", "any Error & Sendable", "@Sendable (Int) async throws -> Int", "Set<String>?", "Swift.Int"])
    func aTypeOnOneLineWithBalancedBracketsIsLeftToSwiftc(_ type: String) {
        #expect(Self.errorLines(Self.spec(type: type)) == [])
    }

    // Expressions were pasted unchecked too: `0 }` ended the member, `"""` or `/*` swallowed the
    // rest of the file, and `#sourceLocation()` moved swiftc's errors into the generated file.
    @Test(arguments: ["0 }; func evil() {", "0 }\n}\n}", "\"\"\"", "0 /* x", "x\n#sourceLocation()\n", "\"abc", "(1", "\"\\(1\"", "#if false", "#/\"/#.regex } \""])
    func anExpressionThatWouldLeaveItsMemberIsAnErrorAtItsLine(_ expression: String) {
        #expect(Self.errorLines(Self.spec(expression: expression)) == [9])
    }

    @Test(arguments: ["{ $0 + 1 }(n)", "\"a\\(\"}\")b\".count", "#\"\\\"}\"#.count", "n // }", "[1, 2].count /* } */", "#line", "(try? #/\"}/#.firstMatch(in: \"\")) == nil ? 0 : 1"])
    func anExpressionWithBalancedBracketsStringsAndCommentsIsLeftToSwiftc(_ expression: String) {
        #expect(Self.errorLines(Self.spec(expression: expression)) == [])
    }
}
