import Foundation
import Testing

/// The numbered rules of `Docs/` (S… in Statecharts.md, E… in Effects.md and Runtime.md, T…, C…
/// and P… in Testing.md) each promise one behaviour, and a test named after the rule pins it.
/// A rule is *defined* by a line that starts with its bold id and a full stop (`- **S12.** …`,
/// `**T1. One step at a time.**`); a rationale note about it is spelled otherwise
/// (`- **S26, a parallel domain.**`). A test *names* a rule when its `@Test("…")` display name
/// contains the id as a word (`"S61, S65: deep history …"`), or when its function name starts
/// with the id, after `test` or not (`t15Errors`, `testT10FailuresGoToXCTest…`, an XCTest method).
@Suite struct DocsRuleTests {
    /// The rules no test can name, and why. The list may only shrink: an entry that a test
    /// names, or that no document defines any more, fails `exceptionsAreStillExceptions`.
    /// Docs/Hosting.md's rules were written before the host (issue 31): each leaves this list
    /// with the step of the build order there that pins it.
    static let untested: [String: String] = [
        "H52": "not built yet: Docs/Hosting.md, build order step 8 (children in a host)",
        "G4": "the tables' layout: exercised by every store conformance test on PostgreSQL (G5), not yet read back from the catalog by a test of its own",
        "G6": "recovery's one moment: the conformance tests recover on PostgreSQL (G5), but none yet writes while a recovery reads",
        "G30": "Scripts/postgres.sh: run by every CI run (Scripts/test.sh), which fails when the server does not start; not a test inside swift test",
        "G31": "Scripts/test.sh: every CI run is this rule's check (a trap stops the server, failure included); not a test inside swift test",
        "G32": "STATELOOP_REQUIRE_POSTGRES: every CI run sets it, so a suite without its server fails there; the skip without it was checked by hand (issue 32 note)",
    ]

    /// A rule's definition: where it is written.
    struct Definition: CustomStringConvertible {
        let id: String
        let file: String
        let line: Int
        var description: String { "\(file):\(line): \(id)" }
    }

    static let docs = TestPaths.package.appendingPathComponent("Docs")
    static let tests = TestPaths.package.appendingPathComponent("Tests")

    /// Every rule definition in `Docs/*.md`, in file and line order.
    static func definitions() throws -> [Definition] {
        let files = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.sorted()
        var found: [Definition] = []
        for file in files {
            let text = try String(contentsOf: docs.appendingPathComponent(file), encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if let id = definedID(in: line) { found.append(Definition(id: id, file: "Docs/\(file)", line: index + 1)) }
            }
        }
        return found
    }

    /// The id a line defines: `- **S12.** …` or `**T1. …**` at its start.
    static func definedID(in line: Substring) -> String? {
        var rest = line.drop { $0 == " " }
        if rest.hasPrefix("- ") { rest = rest.dropFirst(2) }
        guard rest.hasPrefix("**") else { return nil }
        rest = rest.dropFirst(2)
        guard let letter = rest.first, letter.isASCII, letter.isUppercase else { return nil }
        let digits = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, rest.dropFirst(1 + digits.count).first == "." else { return nil }
        return "\(letter)\(digits)"
    }

    /// The rule ids that the tests under `Tests/` name, each with the files that name it.
    /// Generated goldens hold no tests and are left out.
    static func namedIDs(prefixes: Set<Character>) throws -> [String: Set<String>] {
        var named: [String: Set<String>] = [:]
        let enumerator = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift", !url.path.contains("/GeneratedCodeTests/Generated/") else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            for id in ids(inTestsOf: text, prefixes: prefixes) {
                named[id, default: []].insert(url.lastPathComponent)
            }
        }
        return named
    }

    /// The ids named by the `@Test("…")` display names and test function names of one file.
    static func ids(inTestsOf text: String, prefixes: Set<Character>) -> Set<String> {
        var found: Set<String> = []
        for match in text.matches(of: /@Test\(\s*"((?:[^"\\]|\\.)*)"/) {
            for word in match.1.matches(of: /\b([A-Z])([0-9]+)\b/) where prefixes.contains(Character(String(word.1))) {
                found.insert("\(word.1)\(word.2)")
            }
        }
        for match in text.matches(of: /func (?:test)?([A-Za-z])([0-9]+)(?![0-9])/) {
            let letter = Character(match.1.uppercased())
            if prefixes.contains(letter) { found.insert("\(letter)\(match.2)") }
        }
        return found
    }

    static func sorted(_ ids: some Sequence<String>) -> [String] {
        ids.sorted { ($0.first!, Int($0.dropFirst())!) < ($1.first!, Int($1.dropFirst())!) }
    }

    @Test func everyRuleIsNamedByATestOrListedWithAReason() throws {
        let definitions = try Self.definitions()
        let defined = Set(definitions.map(\.id))
        #expect(defined.count > 150, "the rules of Docs/ were not found")
        let named = try Self.namedIDs(prefixes: Set(defined.map(\.first!)))
        let missing = Self.sorted(defined.subtracting(named.keys).subtracting(Self.untested.keys))
        #expect(missing.isEmpty, """
            no test names these rules; pin each with a test called after it (`@Test("S12: …")`), \
            or delete the rule: \(missing.map { id in definitions.first { $0.id == id }!.description })
            """)
    }

    @Test func everyRuleHasOneHome() throws {
        let homes = Dictionary(grouping: try Self.definitions(), by: \.id).filter { $0.value.count > 1 }
        #expect(homes.isEmpty, "defined more than once: \(Self.sorted(homes.keys).map { homes[$0]!.map(\.description) })")
    }

    @Test func everyRuleATestNamesExists() throws {
        let defined = Set(try Self.definitions().map(\.id))
        let named = try Self.namedIDs(prefixes: Set(defined.map(\.first!)))
        let unknown = Self.sorted(Set(named.keys).subtracting(defined))
        #expect(unknown.isEmpty, "tests name rules that no document defines: \(unknown.map { "\($0) in \(named[$0]!.sorted())" })")
    }

    @Test func exceptionsAreStillExceptions() throws {
        let defined = Set(try Self.definitions().map(\.id))
        let named = try Self.namedIDs(prefixes: Set(defined.map(\.first!)))
        let stale = Self.sorted(Self.untested.keys.filter { named[$0] != nil || !defined.contains($0) })
        #expect(stale.isEmpty, "remove these from DocsRuleTests.untested, a test names them or no document defines them: \(stale)")
    }

    @Test func definitionsAndNamesAreReadAsDocumented() {
        #expect(Self.definedID(in: "- **S12.** If every branch") == "S12")
        #expect(Self.definedID(in: "**T1. One step at a time.** `MachineTest`") == "T1")
        #expect(Self.definedID(in: "  - **E46. A run's events are fed back**") == "E46")
        #expect(Self.definedID(in: "- **S26, a parallel domain.** This follows") == nil)
        #expect(Self.definedID(in: "- **S22–S24.** A target below") == nil)
        #expect(Self.definedID(in: "the search (S10–S12) **S12.**") == nil)
        let source = """
            @Test("S61, S65: deep history restores every region") func deepHistory() {}
            @Test("E8 and E10") func e9() {}
            @Test func t15Errors() {}
            @Test(.bothStartModes)
            func testT10FailuresGoToXCTest() async {}
            @Test func utf8Columns() {}
            @Test("E2E builds, UTF8 columns") func step() {}
            """
        #expect(Self.ids(inTestsOf: source, prefixes: ["S", "E", "T"]) == ["S61", "S65", "E8", "E10", "E9", "T15", "T10"])
    }
}
