import Testing
@testable import StateLoopSpec

/// Every limit of the front end, once with an input just over it (one clear error, at a useful
/// place) and once with an input exactly at it (loads, or gives only diagnostics unrelated to the
/// limit). The generator runs inside users' builds, so each limit is what keeps a hostile or broken
/// spec from crashing, hanging or exhausting memory there.
@Suite struct LimitTests {
    /// A valid spec of one state, one event.
    private let smallSpec = "machine: M\nevents: {go: {}}\ninitial: a\nstates:\n  a: {on: {go: a}}\n"

    private func load(_ bytes: [UInt8]) -> SpecLoadResult {
        SpecLoader.load(contents: bytes, path: "test.machine.yml")
    }

    private func load(_ yaml: String) -> SpecLoadResult {
        load(Array(yaml.utf8))
    }

    // MARK: File size (4 MiB)

    /// `smallSpec` followed by a comment line, `count` bytes in all.
    private func paddedSpec(count: Int) -> [UInt8] {
        var bytes = Array(smallSpec.utf8) + Array("# ".utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "x"), count: count - bytes.count - 1) + [0x0A]
        return bytes
    }

    @Test func fileOneByteOverTheSizeLimitIsRejected() {
        let result = load(paddedSpec(count: (4 << 20) + 1))
        #expect(result.spec == nil)
        #expect(result.diagnostics.map(\.description) == [
            "test.machine.yml:1:1: error: the file is 4194305 bytes; a spec may be at most 4194304 bytes (fix: split the machine into smaller specs)",
        ])
    }

    @Test func fileAtTheSizeLimitLoads() {
        let result = load(paddedSpec(count: 4 << 20))
        #expect(result.diagnostics.map(\.description) == [])
        #expect(result.spec != nil)
    }

    // MARK: Nesting depth (64)

    private func nested(_ depth: Int) -> [UInt8] {
        Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
    }

    @Test func nestingOneLevelOverTheDepthLimitFails() {
        let result = YAMLReader().read(nested(65), path: "deep.yml")
        #expect(result.root == nil)
        #expect(result.diagnostics.map(\.description) == [
            "deep.yml:1:65: error: the YAML nests deeper than 64 levels; a spec needs only a few (fix: flatten the structure; check for unbalanced '[' or '{')",
        ])
    }

    @Test func nestingAtTheDepthLimitIsRead() throws {
        let result = YAMLReader().read(nested(64), path: "deep.yml")
        #expect(result.diagnostics.isEmpty)
        var node = try #require(result.root)
        var depth = 1
        while let inner = node.sequence?.first {
            node = inner
            depth += 1
        }
        #expect(depth == 64)
    }

    // MARK: Scalar length (64 KiB)

    private func specWithGuard(length: Int) -> String {
        smallSpec.replacingOccurrences(of: "{go: a}", with: "{go: {guard: \"\(String(repeating: "x", count: length))\", target: a}}")
    }

    @Test func scalarOneByteOverTheLengthLimitFails() {
        let result = load(specWithGuard(length: (64 << 10) + 1))
        #expect(result.spec == nil)
        #expect(result.diagnostics.map(\.description) == [
            "test.machine.yml:5:24: error: this value is 65537 bytes long; a name, type or expression may be at most 65536 bytes (fix: shorten it; if it runs on past where it should end, look for an unclosed quote or a missing line break)",
        ])
    }

    @Test func scalarAtTheLengthLimitLoads() throws {
        let result = load(specWithGuard(length: 64 << 10))
        #expect(result.diagnostics.map(\.description) == [])
        let spec = try #require(result.spec)
        guard case .transition(let transition) = spec.states[0].on[0].branches[0] else {
            Issue.record("expected a transition")
            return
        }
        #expect(transition.guardExpression?.value.utf8.count == 64 << 10)
    }

    // MARK: Number of states (10,000) and events (10,000)

    /// `states` states in a ring (each reachable) and `events` events, all handled in the first state.
    private func machine(states: Int, events: Int) -> String {
        var yaml = "machine: M\nevents:\n"
        for event in 0..<events { yaml += "  e\(event): {}\n" }
        yaml += "ignore: [\((1..<events).map { "e\($0)" }.joined(separator: ", "))]\n"
        yaml += "initial: s0\nstates:\n"
        for state in 0..<states {
            yaml += "  s\(state): {on: {e0: s\((state + 1) % states)}}\n"
        }
        return yaml
    }

    @Test func oneStateOverTheStateLimitFailsAtTheMachineName() {
        let result = load(machine(states: 10_001, events: 1))
        #expect(result.spec == nil)
        #expect(result.diagnostics.map(\.description) == [
            "test.machine.yml:1:10: error: the machine has 10001 states, more than the 10000 a machine may have (fix: split the machine into smaller machines)",
        ])
    }

    @Test func machineAtTheStateLimitLoads() throws {
        let result = load(machine(states: 10_000, events: 1))
        #expect(result.diagnostics.map(\.description) == [])
        #expect(try #require(result.spec).states.count == 10_000)
    }

    @Test func oneEventOverTheEventLimitFailsAtTheMachineName() {
        let result = load(machine(states: 1, events: 10_001))
        #expect(result.spec == nil)
        #expect(result.diagnostics.filter { $0.severity == .error }.map(\.description) == [
            "test.machine.yml:1:10: error: the machine has 10001 events, more than the 10000 a machine may have (fix: split the machine into smaller machines, or carry the difference in an event's payload)",
        ])
    }

    @Test func machineAtTheEventLimitLoads() throws {
        let result = load(machine(states: 1, events: 10_000))
        // Only e0 is handled; the other events are ignored machine-wide, so each warns that no
        // state handles it: unrelated to the limit (and bounded by the diagnostics limit).
        #expect(result.diagnostics.allSatisfy { $0.severity == .warning })
        #expect(try #require(result.spec).events.count == 10_000)
    }

    // MARK: States × events (1,000,000)

    /// `states` × `events` where state i handles event i (mod events) and the machine ignores the
    /// rest: every event handled somewhere, every state reachable, nothing to warn about.
    private func square(states: Int, events: Int) -> String {
        let names = (0..<events).map { "e\($0)" }
        var yaml = "machine: M\nevents:\n" + names.map { "  \($0): {}\n" }.joined()
        yaml += "ignore: [\(names.joined(separator: ", "))]\ninitial: s0\nstates:\n"
        for state in 0..<states {
            yaml += "  s\(state): {on: {e\(state % events): s\((state + 1) % states)}}\n"
        }
        return yaml
    }

    @Test func pairsJustOverTheLimitFailAtTheMachineName() {
        let result = load(square(states: 1_001, events: 1_000))
        #expect(result.spec == nil)
        #expect(result.diagnostics.map(\.description) == [
            "test.machine.yml:1:10: error: the machine has 1001 states and 1000 events, more than the 1000000 state-event pairs a generated reducer can hold (fix: split the machine into smaller machines)",
        ])
    }

    @Test func pairsAtTheLimitLoad() throws {
        let result = load(square(states: 1_000, events: 1_000))
        #expect(result.diagnostics.map(\.description) == [])
        #expect(try #require(result.spec).states.count == 1_000)
    }

    // MARK: Aliases (none allowed, never expanded)

    /// The "billion laughs": ten levels, each referring twice to the one before; expanded it would
    /// hold 2^10 copies. Rejected as written, one error per anchor and alias, nothing expanded.
    @Test func aliasBombIsRejectedWithoutExpansion() {
        var yaml = "l0: &l0 [lol, lol]\n"
        for level in 1..<10 { yaml += "l\(level): &l\(level) [*l\(level - 1), *l\(level - 1)]\n" }
        let result = load(yaml)
        #expect(result.spec == nil)
        let messages = result.diagnostics.map(\.message)
        #expect(messages.filter { $0.hasPrefix("YAML anchors") }.count == 10)
        #expect(messages.filter { $0.hasPrefix("YAML aliases") }.count == 18)
        #expect(messages.count == 28)
    }

    @Test func specWithoutAliasesLoadsAndOneAliasFails() {
        #expect(load(smallSpec).diagnostics.isEmpty)
        let result = load(smallSpec.replacingOccurrences(of: "{go: a}", with: "{go: *a}"))
        #expect(result.spec == nil)
        #expect(result.diagnostics.map(\.description) == [
            "test.machine.yml:5:16: error: YAML aliases ('*a') are not supported in a spec (fix: write the value out in full instead of '*a')",
        ])
    }

    // MARK: Diagnostics per stage (1,000)

    /// A spec whose only problems are `count` unknown keys in a state: one decoding error each.
    private func specWithUnknownKeys(_ count: Int) -> String {
        smallSpec.replacingOccurrences(of: "{on: {go: a}}", with: "{on: {go: a}, \((0..<count).map { "x\($0): 1" }.joined(separator: ", "))}")
    }

    @Test func oneDiagnosticOverTheLimitIsCountedNotShown() throws {
        let result = load(specWithUnknownKeys(1_001))
        #expect(result.spec == nil)
        #expect(result.diagnostics.count == 1_001)
        #expect(result.diagnostics.filter { $0.message.hasPrefix("unknown key") }.count == 1_000)
        let summary = try #require(result.diagnostics.first { !$0.message.hasPrefix("unknown key") })
        #expect(summary.severity == .error)
        #expect(summary.message == "1 more problem of this file is not shown; this is the first of them")
        // At the key that was left out, the 1001st.
        #expect(summary.location == result.diagnostics.filter { $0.message.hasPrefix("unknown key") }.last.map {
            StateLoopSpec.SourceLocation(file: $0.location.file, line: $0.location.line, column: $0.location.column + "x999: 1, ".count)
        })
    }

    @Test func diagnosticsAtTheLimitAreAllShown() {
        let result = load(specWithUnknownKeys(1_000))
        #expect(result.diagnostics.count == 1_000)
        #expect(result.diagnostics.allSatisfy { $0.message.hasPrefix("unknown key") })
    }
}

/// The effects' `in:` × `emits:` pairs share the bound on state-event pairs: coverage visits each.
@Suite struct EffectPairLimitTests {
    /// Two states, two events (4 state-event pairs), two effects each running in both states and
    /// emitting both events (8 effect pairs).
    private let spec = """
        machine: M
        events: {x: {from: effects}, y: {from: effects}}
        initial: a
        states:
          a: {on: {x: b, y: b}}
          b: {on: {x: a, y: a}}
        effects:
          first: {in: [a, b], request: {type: Int, value: "1"}, emits: [x, y]}
          second: {in: [a, b], request: {type: Int, value: "2"}, emits: [x, y]}
        """

    private func check(limit: Int) throws -> [String] {
        let loaded = try #require(SpecLoader.load(contents: Array(spec.utf8), path: "test.machine.yml").spec?.spec)
        return SpecChecker(maximumStateEventPairs: limit).check(loaded).map(\.description)
    }

    @Test func effectPairsOneOverTheLimitFailAtTheFirstEffect() throws {
        #expect(try check(limit: 7) == [
            "test.machine.yml:8:3: error: the effects' 'in:' and 'emits:' lists make 8 state-result pairs, more than the 7 the checks can follow (fix: split the machine into smaller machines, or merge effects that run in the same states)",
        ])
    }

    @Test func effectPairsAtTheLimitAreChecked() throws {
        #expect(try check(limit: 8) == [])
    }
}
