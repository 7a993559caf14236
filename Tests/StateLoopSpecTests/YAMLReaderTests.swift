import Testing
@testable import StateLoopSpec

@Suite struct YAMLReaderTests {
    private func at(_ line: Int, _ column: Int, file: String = "test.yml") -> StateLoopSpec.SourceLocation {
        StateLoopSpec.SourceLocation(file: file, line: line, column: column)
    }

    @Test func keysAndValuesCarryOneBasedMarks() throws {
        let result = readYAML("a: b\nc:\n  d: e\n")
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.root)
        #expect(root.location == at(1, 1))
        let entries = try #require(root.mapping)
        #expect(entries.map(\.key.value) == ["a", "c"])
        #expect(entries[0].key.location == at(1, 1))
        #expect(entries[0].value.location == at(1, 4))
        let inner = try #require(entries[1].value.mapping)
        #expect(entries[1].value.location == at(3, 3))
        #expect(inner[0].key.location == at(3, 3))
        #expect(inner[0].value.scalar?.contentLocation == at(3, 6))
    }

    @Test func quotedScalarContentStartsOneColumnAfterTheQuote() throws {
        let root = try #require(readYAML("guard: \"!event.search.isEmpty\"\nset: 'x + 1'\n").root?.mapping)
        let double = try #require(root[0].value.scalar)
        #expect(double.value == "!event.search.isEmpty")
        #expect(double.style == .doubleQuoted)
        #expect(double.location == at(1, 8))
        #expect(double.contentLocation == at(1, 9))
        let single = try #require(root[1].value.scalar)
        #expect(single.style == .singleQuoted)
        #expect(single.contentLocation == at(2, 7))
    }

    @Test func plainScalarContentStartsAtTheScalar() throws {
        let root = try #require(readYAML("set: {results: results + event.repositories}\n").root?.mapping)
        let inner = try #require(root[0].value.mapping)
        let scalar = try #require(inner[0].value.scalar)
        #expect(scalar.style == .plain)
        #expect(scalar.location == at(1, 16))
        #expect(scalar.contentLocation == at(1, 16))
        #expect(scalar.located == Located("results + event.repositories", at: at(1, 16)))
    }

    @Test func blockScalarContentStartsOnTheLineAfterTheHeader() throws {
        let root = try #require(readYAML("guard: |\n\n    a &&\n    b\n").root?.mapping)
        let scalar = try #require(root[0].value.scalar)
        #expect(scalar.style == .literal)
        #expect(scalar.value == "\na &&\nb\n")
        #expect(scalar.location == at(1, 8))
        // The value's first (blank) line is YAML line 2; the block is indented by four.
        #expect(scalar.contentLocation == at(2, 5))
    }

    /// swiftc counts columns in UTF-8 bytes, and its errors about the spec's Swift must agree with
    /// the spec's own diagnostics, so every column is in UTF-8 bytes of the line — whatever the
    /// file's encoding (libyaml counts characters).
    @Test func columnsCountUTF8BytesAsSwiftcDoes() throws {
        let root = try #require(readYAML("é: \"ü\"\n").root?.mapping)
        #expect(root[0].value.scalar?.location == at(1, 5))
        #expect(root[0].value.scalar?.contentLocation == at(1, 6))
        let utf16: [UInt8] = [0xFF, 0xFE] + "a: [\"🙂\", x]\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let items = try #require(YAMLReader().read(utf16, path: "test.yml").root?.mapping?.first?.value.sequence)
        #expect(items.map(\.location) == [at(1, 5), at(1, 13)])
    }

    @Test func linesEndedByCarriageReturnsAloneAreLines() throws {
        let root = try #require(readYAML("a: 1\rguard: |\r  x &&\r  y\rb: 2\r").root?.mapping)
        #expect(root.map(\.key.location) == [at(1, 1), at(2, 1), at(5, 1)])
        let block = try #require(root[1].value.scalar)
        #expect(block.value == "x &&\ny\n")
        #expect(block.contentLocation == at(3, 3))
    }

    @Test func yamlOneOneBooleansStayStrings() throws {
        let root = try #require(readYAML("on: yes\noff: no\ny: true\nn: ~\n").root?.mapping)
        #expect(root.map(\.key.value) == ["on", "off", "y", "n"])
        #expect(root.map { $0.value.scalar?.value } == ["yes", "no", "true", "~"])
    }

    @Test func sequencesKeepTheirOrder() throws {
        let root = try #require(readYAML("- b\n- a\n- [c, d]\n").root?.sequence)
        #expect(root.count == 3)
        #expect(root[0].scalar?.value == "b")
        #expect(root[2].sequence?.compactMap(\.scalar?.value) == ["c", "d"])
        #expect(root[2].location == at(3, 3))
    }

    @Test func duplicateKeyFailsAtTheSecondKeyWithANoteAtTheFirst() {
        let result = readYAML("states:\n  idle: {}\n  idle: {}\n")
        #expect(result.diagnostics.map(\.description) == [
            "test.yml:3:3: error: duplicate key 'idle'; a key may appear only once in a mapping (fix: merge the two entries, or rename one of them)\n"
                + "test.yml:2:3: note: 'idle' first appears here",
        ])
    }

    @Test func aliasesAndAnchorsAreRejected() {
        let result = readYAML("a: &x [1]\nb: *x\n")
        #expect(result.diagnostics.map(\.description) == [
            "test.yml:1:4: error: YAML anchors ('&x') are not supported in a spec (fix: remove '&x' and write repeated values out in full)",
            "test.yml:2:4: error: YAML aliases ('*x') are not supported in a spec (fix: write the value out in full instead of '*x')",
        ])
    }

    @Test func bareExclamationMarkFailsWithQuotingAdvice() {
        let result = readYAML("guard: !event.search.isEmpty\n")
        #expect(result.diagnostics.map(\.description) == [
            "test.yml:1:8: error: '!event.search.isEmpty' is a YAML tag, not part of the value: a bare ! is a YAML tag; quote the expression (fix: write \"!event.search.isEmpty\")",
        ])
    }

    @Test func tagBeforeAValueSuggestsQuotingTheWholeExpression() {
        let result = readYAML("a: !!str x\nguard: !done == \"yes\"\n")
        #expect(result.diagnostics.map(\.description) == [
            "test.yml:1:4: error: '!!str' is a YAML tag, not part of the value: a bare ! is a YAML tag; quote the expression (fix: write \"!!str x\")",
            "test.yml:2:8: error: '!done' is a YAML tag, not part of the value: a bare ! is a YAML tag; quote the expression (fix: write \"!done == \\\"yes\\\"\")",
        ])
    }

    @Test func libyamlSyntaxErrorIsReportedAtItsMark() {
        let result = readYAML("states:\n  idle: {on: [a\n  ready: {}\n")
        #expect(result.root == nil)
        #expect(result.diagnostics.map(\.description) == [
            "test.yml:3:8: error: YAML syntax error: did not find expected ',' or ']' (fix: check indentation and quoting here; quote values that contain ': ', ' #', '!', '&', '*', '[', ']', '{' or '}')\n"
                + "test.yml:2:14: note: while parsing a flow sequence",
        ])
    }

    @Test func emptyInputHasNoRootAndNoDiagnostics() {
        let empty = readYAML("")
        #expect(empty.root == nil && empty.diagnostics.isEmpty)
        let comments = readYAML("# nothing here\n\n")
        #expect(comments.root == nil && comments.diagnostics.isEmpty)
    }

    @Test func invalidUTF8FailsAtTheOffendingByte() {
        let result = YAMLReader().read([0x61, 0x3A, 0x20, 0x0A, 0x62, 0x3A, 0xFF], path: "test.yml")
        #expect(result.root == nil)
        #expect(result.diagnostics.map(\.description) == [
            "test.yml:2:3: error: the file is not valid YAML text: invalid leading UTF-8 octet (byte 0xFF) (fix: save the spec as UTF-8 text without control characters)",
        ])
    }

    @Test func binaryGarbageEndsInDiagnostics() {
        // A fixed pseudo-random sequence, so the test is deterministic.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<50 {
            let bytes = (0..<4096).map { _ -> UInt8 in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: state >> 56)
            }
            let result = SpecLoader.load(contents: bytes, path: "garbage")
            #expect(result.spec == nil)
            #expect(result.diagnostics.containsErrors)
        }
    }

    @Test func deepNestingFailsQuicklyAtTheDepthLimit() {
        let deep = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        let clock = ContinuousClock()
        var result: YAMLReader.Result?
        let elapsed = clock.measure { result = YAMLReader().read(deep, path: "deep.yml") }
        #expect(elapsed < .seconds(2))
        #expect(result?.root == nil)
        #expect(result?.diagnostics.map(\.description) == [
            "deep.yml:1:65: error: the YAML nests deeper than 64 levels; a spec needs only a few (fix: flatten the structure; check for unbalanced '[' or '{')",
        ])
    }

    @Test(arguments: ["- ", "{a: ", "a: [", "? "])
    func deepNestingOfEveryKindFailsQuickly(_ opener: String) {
        let deep = Array(String(repeating: opener, count: 100_000).utf8)
        let clock = ContinuousClock()
        var result: YAMLReader.Result?
        let elapsed = clock.measure { result = YAMLReader().read(deep, path: "deep.yml") }
        #expect(elapsed < .seconds(2))
        #expect(result?.root == nil)
        #expect(result?.diagnostics.count == 1)
        #expect(result?.diagnostics.first?.severity == .error)
    }

    @Test func controlCharactersAndNulBytesFail() {
        let result = YAMLReader().read(Array("a: b\0c\n".utf8), path: "test.yml")
        #expect(result.root == nil)
        #expect(result.diagnostics.map(\.description) == [
            "test.yml:1:5: error: the file is not valid YAML text: control characters are not allowed (byte 0x00) (fix: save the spec as UTF-8 text without control characters)",
        ])
    }

    @Test func utf16WithByteOrderMarkIsRead() throws {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "a: b\n".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let result = YAMLReader().read(bytes, path: "test.yml")
        #expect(result.diagnostics.isEmpty)
        #expect(try #require(result.root?.mapping).first?.value.scalar?.value == "b")
    }

    @Test func deepBlockNestingFailsAtTheDepthLimit() {
        let deep = (0..<200).map { String(repeating: " ", count: $0) + "k:" }.joined(separator: "\n")
        let result = readYAML(deep)
        #expect(result.root == nil)
        #expect(result.diagnostics.first?.message == "the YAML nests deeper than 64 levels; a spec needs only a few")
    }

    @Test func oversizedInputIsRejectedBeforeParsing() {
        let big = [UInt8](repeating: UInt8(ascii: "a"), count: 10 << 20)
        let clock = ContinuousClock()
        var result: YAMLReader.Result?
        let elapsed = clock.measure { result = YAMLReader().read(big, path: "big.yml") }
        #expect(elapsed < .seconds(1))
        #expect(result?.diagnostics.map(\.description) == [
            "big.yml:1:1: error: the file is 10485760 bytes; a spec may be at most 4194304 bytes (fix: split the machine into smaller specs)",
        ])
    }

    @Test func secondDocumentIsRejected() {
        let result = readYAML("machine: A\n---\nmachine: B\n")
        #expect(result.root == nil)
        #expect(result.diagnostics.map(\.description) == [
            "test.yml:2:1: error: a spec file holds one YAML document; a second one starts here (fix: remove the '---' line, or move the second machine to its own *.machine.yml file)",
        ])
    }

    @Test func complexKeyIsRejected() {
        let result = readYAML("[a, b]: c\nd: e\n")
        #expect(result.diagnostics.map(\.description) == [
            "test.yml:1:1: error: a mapping key must be a name, found a list (fix: write a plain name before ':'; quote keys that contain brackets)",
        ])
    }

    @Test func tagOnACollectionIsRejected() {
        let result = readYAML("a: !!map {b: c}\n")
        #expect(result.diagnostics.map(\.description) == [
            "test.yml:1:4: error: 'tag:yaml.org,2002:map' is a YAML tag; specs do not use tags (fix: remove the tag; a bare ! is a YAML tag, so quote expressions that start with !)",
        ])
    }
}
