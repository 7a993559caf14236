import Testing
@testable import StateLoopSpec

/// Inputs that once made the front end do work out of proportion to the file: each pins the
/// bound that fixed it. Found by crafting inputs at the size limit (4 MiB), beyond the reach of
/// the fuzzer's 64 KiB inputs; `LimitTests` covers the limits themselves.
@Suite struct HostileInputTests {
    /// 28,000 states with 61-character names, each targeting an unknown name one letter off a
    /// state's: every "did you mean" search compared the name with every state, in full, so the
    /// 100 searches allowed cost 100 × 28,000 × 61² steps and a 3.9 MB spec took over five
    /// minutes. Now searches are budgeted by candidates compared and a comparison stops past the
    /// distance that could still be a typo; this smaller version pins the budget: 200,000
    /// comparisons over 10,000 states are 20 searches.
    @Test func didYouMeanSearchesAreBudgetedByCandidatesCompared() {
        let filler = String(repeating: "q", count: 55)
        let states = (0..<10_000).map { "s\(String(100_000 + $0).dropFirst())\(filler)" }
        var yaml = "machine: M\nevents: {go: {}}\ninitial: \(states[0])\nstates:\n"
        for (index, state) in states.enumerated() {
            // The target is the next state's name with its last letter changed: an unknown name
            // two edits or fewer from a state, so every search that runs finds a suggestion.
            let target = states[(index + 1) % states.count].dropLast() + "z"
            yaml += "  \(state): {on: {go: \(target)}}\n"
        }
        let diagnostics = SpecLoader.load(contents: Array(yaml.utf8), path: "test.machine.yml").diagnostics
        let unknownTargets = diagnostics.filter { $0.message.hasPrefix("target '") }
        #expect(unknownTargets.count == 1_000)  // the diagnostics limit; the rest are counted
        #expect(unknownTargets.filter { $0.fixIt?.hasPrefix("did you mean") == true }.count == 20)
    }

    /// The bounded comparison agrees with the full edit distance wherever it answers, and answers
    /// exactly when the distance is within the bound.
    @Test func boundedEditDistanceAgreesWithTheFullDistance() {
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func word() -> String {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let length = Int(seed >> 60) % 9
            return String((0..<length).map { offset in Character(Unicode.Scalar(UInt8(97 + Int(seed >> UInt64(8 + 3 * offset)) % 3))) })
        }
        for _ in 0..<2_000 {
            let a = word()
            let b = word()
            let full = SpellingSuggestion.editDistance(a, b)
            for bound in 0...3 {
                let bounded = SpellingSuggestion.editDistance(Array(a.unicodeScalars), Array(b.unicodeScalars), atMost: bound)
                #expect(bounded == (full <= bound ? full : nil), "\(a) \(b) bound \(bound)")
            }
        }
    }

    /// A state without handlers in a machine of thousands of events listed every event in its
    /// message and again in its fix-it, per state: the diagnostics grew as states × events × name
    /// length (gigabytes from a 3 MB spec). The list now stops after 20 names.
    @Test func unhandledEventListStopsAfterTwentyNames() {
        var yaml = "machine: M\nevents:\n"
        for event in 0..<30 { yaml += "  e\(event): {}\n" }
        yaml += "initial: a\nstates:\n  a: {on: {e0: a}}\n"
        let errors = SpecLoader.load(contents: Array(yaml.utf8), path: "test.machine.yml").diagnostics.filter { $0.severity == .error }
        let shown = (1...20).map { "e\($0)" }
        #expect(errors.map(\.description) == [
            "test.machine.yml:35:3: error: state 'a' does not handle events \(shown.map { "'\($0)'" }.joined(separator: ", ")), ... (9 more) "
                + "(fix: add `ignore: [\(shown.joined(separator: ", ")), ... (9 more)]` to state 'a' or handle them under `on:`)",
        ])
    }

    /// A state with a 10,000-character name (an explicit `? key`, which libyaml does not cap at
    /// 1,024 characters) and 20,000 handlers of unknown events: each error quotes the state's
    /// name, so the errors once took 200 MB to build (2 GB for 60 KB names). Now the checks build
    /// at most 1,000 messages and count the rest.
    @Test func errorsQuotingALongStateNameAreBuiltOnlyUpToTheLimit() throws {
        let name = String(repeating: "s", count: 10_000)
        var yaml = "machine: M\nevents: {go: {}}\ninitial: a\nstates:\n  a: {on: {go: a}}\n  ? \(name)\n  :\n    on:\n"
        for handler in 0..<20_000 { yaml += "      u\(handler): a\n" }
        let result = SpecLoader.load(contents: Array(yaml.utf8), path: "test.machine.yml")
        #expect(result.spec == nil)
        #expect(result.diagnostics.filter { $0.message.hasSuffix("which is not an event") }.count == 1_000)
        let summary = try #require(result.diagnostics.first { $0.message.contains("not shown") })
        // 19,000 more unknown events, the long-named state's unhandled 'go', and its being unreachable.
        #expect(summary.message == "19002 more problems of this file are not shown; this is the first of them")
        #expect(summary.severity == .error)
    }
}

/// The evolution check (Docs/Durability.md D54) on a lock and a spec of 10,000 states each that
/// share no name: every comparison is a lookup, so it takes well under a second, and its errors
/// are bounded like every stage's.
@Suite struct EvolutionCheckBoundsTests {
    @Test("D54: 10,000 locked states gone at once are checked in linear time, with bounded diagnostics")
    func d54ManyGoneStatesAreCheckedInLinearTime() throws {
        func spec(prefix: String) -> String {
            var yaml = "machine: M\npersist: {version: 2}\nevents: {go: {}}\ninitial: \(prefix)0\nstates:\n"
            for index in 0..<10_000 { yaml += "  \(prefix)\(index): {on: {go: \(prefix)\((index + 1) % 10_000)}}\n" }
            return yaml
        }
        let old = try #require(SpecLoader.decode(contents: Array(spec(prefix: "old").utf8), path: "old.machine.yml"))
        let new = try #require(SpecLoader.decode(contents: Array(spec(prefix: "new").utf8), path: "test.machine.yml"))
        let text = LockFile(path: "test.machine.lock").locking(PersistedShape(old), as: 1).rendered(specFileName: "test.machine.yml")
        let lock = try #require(LockFile.read(Array(text.utf8), path: "test.machine.lock").lock)
        let clock = ContinuousClock()
        var diagnostics: [Diagnostic] = []
        let elapsed = clock.measure { diagnostics = EvolutionCheck.check(new, against: lock) }
        #expect(diagnostics.count == DiagnosticList.defaultLimit + 1)
        #expect(diagnostics.first?.description.hasPrefix("test.machine.yml:6:3: error: state 'old0' of version 1 is gone, and 'new0' took its place") == true)
        // 0.09 s in a debug build on this machine (2 shared cores).
        #expect(elapsed < .seconds(2), "\(elapsed)")
    }
}
