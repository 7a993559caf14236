import Foundation
import Testing

/// The built-in templates are compiled into the generator as string literals
/// (Sources/StateLoopCodegen/Render/EmbeddedTemplates.swift), so a copied `stateloop` binary needs
/// no resource bundle. That file must say exactly what Templates/*.mustache say; after editing a
/// template, `STATELOOP_UPDATE_GOLDEN=1 swift test --filter EmbeddedTemplatesTests` rewrites it.
///
/// (A build plugin could embed them on every build, but SwiftPM 6 does not apply build-tool plugin
/// outputs to a target built as a plugin's tool, which is how `stateloop` is built in every user's
/// package; the checked-in file works everywhere.)
@Suite struct EmbeddedTemplatesTests {
    static let templates = TestPaths.package.appendingPathComponent("Templates")
    static let embedded = TestPaths.package.appendingPathComponent("Sources/StateLoopCodegen/Render/EmbeddedTemplates.swift")

    @Test func embeddedTemplatesMatchTemplatesFolder() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.templates.path)
            .filter { $0.hasSuffix(".mustache") }
            .sorted()
        #expect(!names.isEmpty, "no templates in \(Self.templates.path)")
        let entries = try names.map { name in
            (String(name.dropLast(".mustache".count)), try String(contentsOf: Self.templates.appendingPathComponent(name), encoding: .utf8))
        }
        let expected = Self.swiftSource(embedding: entries)
        if ProcessInfo.processInfo.environment["STATELOOP_UPDATE_GOLDEN"] == "1" {
            try expected.write(to: Self.embedded, atomically: true, encoding: .utf8)
            return
        }
        let actual = (try? String(contentsOf: Self.embedded, encoding: .utf8)) ?? ""
        #expect(actual == expected, "EmbeddedTemplates.swift is out of date with Templates/ (STATELOOP_UPDATE_GOLDEN=1 swift test --filter EmbeddedTemplatesTests rewrites it):\n\(lineDiff(expected: expected, actual: actual))")
    }

    @Test func rawLiteralHoldsAnyText() {
        #expect(Self.rawLiteral("a") == "#\"\"\"\na\n\"\"\"#")
        #expect(Self.rawLiteral("\"#x") == "##\"\"\"\n\"#x\n\"\"\"##")
        #expect(Self.rawLiteral("\"\"\"## and \"#") == "###\"\"\"\n\"\"\"## and \"#\n\"\"\"###")
    }

    /// The Swift file that embeds `entries` (template name, text).
    static func swiftSource(embedding entries: [(name: String, text: String)]) -> String {
        var output = "// Generated from Templates/*.mustache by EmbeddedTemplatesTests. Do not edit:\n"
        output += "// STATELOOP_UPDATE_GOLDEN=1 swift test --filter EmbeddedTemplatesTests rewrites it.\n\n"
        output += "/// The built-in templates, compiled in (see Templates/README.md).\n"
        output += "enum EmbeddedTemplates {\n"
        output += "    /// Template name (file name without `.mustache`) -> template text.\n"
        output += "    static let all: [String: String] = [\n"
        for entry in entries {
            output += "        \"\(entry.name)\": \(rawLiteral(entry.text)),\n"
        }
        output += "    ]\n}\n"
        return output
    }

    /// A raw multi-line string literal that holds `text` verbatim: one more `#` than the longest
    /// run of `#` after a quote in it, so nothing in a template can end the literal early.
    static func rawLiteral(_ text: String) -> String {
        var longest = 0
        var run: Int?  // `#`s since the last quote, nil when no quote precedes them
        for character in text {
            if character == "\"" {
                run = 0
            } else if character == "#", let count = run {
                run = count + 1
                longest = max(longest, count + 1)
            } else {
                run = nil
            }
        }
        let hashes = String(repeating: "#", count: longest + 1)
        return "\(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes)"
    }
}
