// `stateloop explore` (Docs/Testing.md V19-V26). `ExploreCommandTests` stop before anything is
// compiled; `ExploreBuildTests` compile machines with `swift build`, so Scripts/test.sh runs them
// in a tier of their own (TestTiersTests).
import Foundation
import StateLoopTestSupport
import Testing

/// A run of `stateloop explore` as a user's shell makes it: variables the test runner sets for
/// itself would make the nested SwiftPM build anew (as `FixturePackage` says).
private func explore(_ arguments: [String], in directory: URL = StateLoopTool.repositoryRoot, environment extra: [String: String] = [:]) throws -> StateLoopTool.Result {
    let inherited = ProcessInfo.processInfo.environment
    let environment = ["PATH", "HOME", "TMPDIR", "LANG"].reduce(into: [String: String]()) { $0[$1] = inherited[$1] }
    return try StateLoopTool.run(["explore"] + arguments, environment: environment.merging(extra) { $1 }, in: directory)
}

/// Writes `text` as `name` in a fresh folder and returns the folder.
private func specFolder(_ name: String, _ text: String) throws -> URL {
    let directory = try StateLoopTool.temporaryDirectory()
    try Data(text.utf8).write(to: directory.appending(path: name))
    return directory
}

@Suite struct ExploreCommandTests {
    @Test("V20: a payload of a type without a built-in generator is an error at its YAML line and column, exit 2, before anything is compiled")
    func v20PayloadWithoutAGenerator() throws {
        let result = try explore(["Specs/GitHubSearch.machine.yml", "--scratch-path", "/nonexistent/never-made"])
        #expect(result.status == 2)
        #expect(result.output == "")
        let fix = "(fix: explore GitHubSearch from a test, with MachineTest.explore and a Gen of the type (Docs/Testing.md V10))"
        #expect(result.stderr.split(separator: "\n") == [
            "Specs/GitHubSearch.machine.yml:16:42: error: stateloop explore has no generator for '[Repository]', the type of 'repositories' of event 'loaded': it makes Bool, Int, String and their optionals \(fix)",
            "Specs/GitHubSearch.machine.yml:16:66: error: stateloop explore has no generator for 'URL?', the type of 'nextURL' of event 'loaded': it makes Bool, Int, String and their optionals \(fix)",
            "Specs/GitHubSearch.machine.yml:17:34: error: stateloop explore has no generator for 'GitHubError', the type of 'error' of event 'failed': it makes Bool, Int, String and their optionals \(fix)",
        ])
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent/never-made"))
    }

    @Test("V21: a machine with input: has no State.initial to start from: an error at input:, exit 2")
    func v21InputHasNoInitialState() throws {
        let folder = try specFolder("Meter.machine.yml", """
            machine: Meter
            input:
              start: Int
            context:
              value: {type: Int, default: input.start}
            events: {tick: {}}
            initial: idle
            states:
              idle:
                on: {tick: {set: {value: value + 1}}}

            """)
        let result = try explore(["Meter.machine.yml"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr == """
            Meter.machine.yml:2:1: error: stateloop explore starts in State.initial, which a machine with `input:` does not have \
            (fix: explore Meter from a test, with MachineTest.explore(Meter.self, state: .initial(...), ...) (Docs/Testing.md V8))

            """)
    }

    @Test("V22: counts below 1 and options of the other search are usage errors that say which go together, exit 2", arguments: [
        (["--walks", "0"], "--walks must be at least 1."),
        (["--exhaustive", "--depth", "0"], "--depth must be at least 1."),
        (["--exhaustive", "--seed", "3"], "--walks, --steps and --seed choose random walks; --exhaustive searches every run up to --depth."),
        (["--depth", "4"], "--depth is the depth of --exhaustive; random walks take --steps."),
        (["--seed", "x"], "The value 'x' is invalid for '--seed <seed>'"),
    ])
    func v22BadOptions(_ options: [String], _ message: String) throws {
        let result = try explore(["Tests/StateLoopCodegenTests/Fixtures/Quota.machine.yml"] + options)
        #expect(result.status == 2)
        #expect(result.output == "")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("V24: a spec with errors prints them as check does and exits with 2, not 1, which means a counterexample")
    func v24SpecErrorsExitWith2() throws {
        let result = try explore(["\(CLITests.invalid)/UnhandledEvents.machine.yml"])
        #expect(result.status == 2)
        let check = try StateLoopTool.run(["check", "\(CLITests.invalid)/UnhandledEvents.machine.yml"])
        #expect(check.stderr.hasPrefix(result.stderr), "\(result.stderr)")
        #expect(result.stderr.contains(": error: "))
    }

    @Test("V26: --package-path, else STATELOOP_PACKAGE, must name a StateLoop package: an error that says how to name one, exit 2")
    func v26NotAStateLoopPackage() throws {
        let folder = try StateLoopTool.temporaryDirectory()
        let quota = "Tests/StateLoopCodegenTests/Fixtures/Quota.machine.yml"
        let fix = "(fix: pass --package-path DIR or set STATELOOP_PACKAGE=DIR, DIR a clone of StateLoop)"
        let given = try explore([quota, "--package-path", folder.path])
        #expect(given.status == 2)
        #expect(given.stderr == "\(folder.path): error: not a StateLoop package: no Package.swift of the package 'StateLoop' here \(fix)\n")
        let variable = try explore([quota], environment: ["STATELOOP_PACKAGE": folder.path])
        #expect(variable.status == 2)
        #expect(variable.stderr == given.stderr)
    }
}

/// Each test builds a machine in the scratch folder of this checkout (`.build/explore`, V25),
/// kept between runs: the first build compiles StateLoop too (half a minute on two cores), the
/// others the machine (seconds).
@Suite(.serialized) struct ExploreBuildTests {
    static let quota = "Tests/StateLoopCodegenTests/Fixtures/Quota.machine.yml"

    /// A machine `name` of one `Int` field, `count`, from `start`, that `tick` sets to `tick`,
    /// with the invariant `positive: invariant` at line 6.
    static func counter(_ name: String, tick: String, invariant: String, start: Int = 0) -> String {
        """
        machine: \(name)
        context:
          count: {type: Int, default: "\(start)"}
        events: {tick: {}}
        invariants:
          positive: "\(invariant)"
        initial: idle
        states:
          idle:
            on:
              tick: {set: {count: "\(tick)"}}

        """
    }

    @Test("V19, V23, V24, V25: the planted bugs of Quota: each counterexample shrunk, a summary, the coverage, exit 1; run again, the same report and nothing compiled")
    func v19QuotaCounterexamples() throws {
        let result = try explore([Self.quota, "--seed", "8"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.output.hasPrefix("explore(Quota): invariant 'closedWhenUsedUp' (Quota.machine.yml:18:18, in closed)"), "\(result.output)")
        #expect(result.output.hasSuffix(quotaThreeUses + "\n\nexplore(Quota): 100 walks, 258 steps from seed 8: 2 counterexamples\nQuota: 3/3 transitions taken, 0/3 ignores\n"), "\(result.output)")
        // Every branch but the ignores was taken: no warning (V23).
        #expect(!result.stderr.contains("warning:"), "\(result.stderr)")
        let testing = try String(contentsOf: StateLoopTool.repositoryRoot.appending(path: "Docs/Testing.md"), encoding: .utf8)
        #expect(testing.contains("$ stateloop explore \(Self.quota) --seed 8\n" + result.output + "$ echo $?\n1\n"), "Docs/Testing.md shows the run")

        let executable = StateLoopTool.repositoryRoot.appending(path: ".build/explore/Explore/.build/debug/Explore").resolvingSymlinksInPath()
        let built = try FileManager.default.attributesOfItem(atPath: executable.path)[.modificationDate] as? Date
        let again = try explore([Self.quota, "--seed", "8"])
        #expect(again.status == 1)
        #expect(again.output == result.output)
        #expect(try FileManager.default.attributesOfItem(atPath: executable.path)[.modificationDate] as? Date == built)
    }

    @Test("V22, V23: --exhaustive searches breadth first to --depth and prints the shortest counterexamples")
    func v22Exhaustive() throws {
        let result = try explore([Self.quota, "--exhaustive", "--depth", "5"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.output.contains("is broken after 3 steps (breadth first, 7 configurations so far); paste to reproduce:\n\n" + quotaThreeUses + "\n\n"), "\(result.output)")
        #expect(result.output.hasSuffix("\nexploreAll(Quota): 7 configurations within 5 steps, 12 steps: 2 counterexamples\nQuota: 3/3 transitions taken, 0/3 ignores\n"), "\(result.output)")
    }

    @Test("V23, V24: a machine whose invariants hold: the summary and the coverage, exit 0")
    func v24UploadHolds() throws {
        let result = try explore(["Specs/Upload.machine.yml", "--seed", "34", "--walks", "200", "--steps", "30"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.output == """
            explore(Upload): 200 walks, 4962 steps from seed 34: no invariant broken, every step settled
            Upload: 10/10 transitions taken, 8/18 ignores

            """)
        #expect(!result.stderr.contains("warning:"), "\(result.stderr)")
        let readme = try String(contentsOf: StateLoopTool.repositoryRoot.appending(path: "README.md"), encoding: .utf8)
        #expect(readme.contains("$ stateloop explore Specs/Upload.machine.yml --seed 34 --walks 200 --steps 30\n" + result.output), "the README shows the run")
    }

    @Test("V20, V23: Int, optional String and Swift.Bool payloads are drawn; a branch no step took is a warning at its line")
    func v20PayloadsAreDrawn() throws {
        let folder = try specFolder("Tally.machine.yml", """
            machine: Tally
            context:
              total: {type: Int, default: "0"}
              note: {type: String?}
              locked: {type: Bool, default: "false"}
            events:
              add: {n: Int}
              write: {text: String?}
              lock: {flag: Swift.Bool}
            invariants:
              small: "total < 50"
            initial: counting
            states:
              counting:
                on:
                  add: [{guard: "!locked", set: {total: total + event.n}}, ignore]
                  write: {set: {note: event.text}}
                  lock: [{guard: "total > 1000", set: {locked: event.flag}}, ignore]

            """)
        let result = try explore(["Tally.machine.yml", "--seed", "3"], in: folder)
        #expect(result.status == 1, "\(result.stderr)")
        // `write` draws its optional strings too; `lock`'s guard never holds, so it is never sent (V9).
        #expect(result.output == """
            explore(Tally): invariant 'small' (Tally.machine.yml:11:3): total < 50 is broken after 1 step (walk 1 of seed 3, 9 steps before shrinking); paste to reproduce:

            let test = MachineTest(Tally.self, state: .initial)
            test.checksState = false
            test.send(.add(n: 50))
            test.finish()

            explore(Tally): 100 walks, 1793 steps from seed 3: 1 counterexample
            Tally: 2/3 transitions taken, 0/2 ignores

            """)
        #expect(result.stderr.split(separator: "\n").filter { $0.contains("warning:") } == [
            "Tally.machine.yml:18:14: warning: transition never taken in tests: counting --lock [total > 1000]--> (stays)",
        ])
    }

    @Test("V24: Swift of the spec that does not compile: the compiler's errors at their YAML lines, exit 2")
    func v24SwiftThatDoesNotCompile() throws {
        // Line 6: `positive: "count + 1"`, an Int where the invariant wants a Bool.
        let folder = try specFolder("Typo.machine.yml", Self.counter("Typo", tick: "count + 1", invariant: "count + 1"))
        let result = try explore(["Typo.machine.yml"], in: folder)
        #expect(result.status == 2)
        #expect(result.output == "")
        #expect(result.stderr.contains("Typo.machine.yml:6:20: error: type 'Int' cannot be used as a boolean"), "\(result.stderr)")
        #expect(result.stderr.contains("error: the machine did not compile with StateLoop"), "\(result.stderr)")
    }

    @Test("V24: a step that traps ends the run with exit 1, after what the trap printed")
    func v24AStepThatTraps() throws {
        let folder = try specFolder("Trap.machine.yml", Self.counter("Trap", tick: "100 / (count - 1)", invariant: "true", start: 1))
        let result = try explore(["Trap.machine.yml", "--seed", "1"], in: folder)
        #expect(result.status == 1)
        #expect(result.output == "")
        #expect(result.stderr.contains("Fatal error: Division by zero"), "\(result.stderr)")
        // SIGILL on Linux, SIGTRAP on Darwin.
        #expect(result.stderr.contains("\nTrap.machine.yml: error: the exploration stopped on signal "), "\(result.stderr)")
        #expect(result.stderr.hasSuffix(": a step trapped (an overflow, a force unwrap, a precondition); the lines above say where\n"), "\(result.stderr)")
    }

    @Test("V19: a child machine the spec runs, read from its folder, is compiled with it, and its runs answered")
    func v19ChildMachine() throws {
        let folder = try specFolder("Shop.machine.yml", """
            machine: Shop
            context:
              total: {type: Int, default: "0"}
              paidCount: {type: Int, default: "0"}
            events:
              add: {}
              checkout: {}
              cancel: {}
              paid: {from: effects}
              declined: {from: effects}
            invariants:
              onePayment: "paidCount <= 1"
            initial: open
            states:
              open:
                on:
                  add: {set: {total: total + 1}}
                  checkout: paying
                ignore: [cancel]
              paying:
                on:
                  paid: {target: open, set: {paidCount: paidCount + 1}}
                  declined: open
                ignore: [add, checkout, cancel]
            effects:
              pay:
                in: [paying]
                machine: Pay
                input: {amount: total}
                forward: {cancel: abort}
                onDone: {ok: paid, no: declined}

            """)
        try Data("""
            machine: Pay
            input:
              amount: Int
            context:
              amount: {type: Int, default: input.amount}
            events:
              abort: {}
            initial: deciding
            states:
              deciding:
                always: [{guard: "amount > 0", target: ok}, {target: no}]
                ignore: [abort]
              ok: {type: final}
              no: {type: final}

            """.utf8).write(to: folder.appending(path: "Pay.machine.yml"))
        let result = try explore(["Shop.machine.yml", "--seed", "5"], in: folder)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.output.contains("""
            test.send(.checkout)
            test.answer(.pay(Pay.Input(amount: 0)), with: .paid)
            test.receive(.paid)
            test.send(.checkout)
            """), "\(result.output)")
    }
}
