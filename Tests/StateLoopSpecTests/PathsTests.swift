// The rules of `MachinePaths` (Docs/Testing.md, "Paths", P1–P12): each test pins one, with the
// exact paths of a small spec.
import Foundation
import Testing
@testable import StateLoopSpec

@Suite struct PathsTests {
    /// Every state's path and every transition's path as `stateloop paths` prints them, by name
    /// and by the transition's description; unreachable ones as `unreachable: reason`.
    struct Printed: Equatable, CustomStringConvertible {
        var states: [String: String]
        var transitions: [String: String]

        init(_ paths: MachinePaths) {
            func line(_ steps: [MachinePaths.Step]?, _ reason: String?) -> String {
                guard let steps else { return "unreachable: \(reason ?? "")" }
                return steps.isEmpty ? "(initial)" : steps.map(paths.text(of:)).joined(separator: " → ")
            }
            states = Dictionary(uniqueKeysWithValues: paths.states.map { ($0.name, line($0.steps, $0.unreachable)) })
            transitions = Dictionary(uniqueKeysWithValues: paths.transitions.map { ($0.entry.description, line($0.steps, $0.unreachable)) })
        }

        init(states: [String: String], transitions: [String: String]) {
            self.states = states
            self.transitions = transitions
        }

        var description: String {
            (states.sorted { $0.key < $1.key }.map { "state \($0.key): \($0.value)" }
                + transitions.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }).joined(separator: "\n")
        }
    }

    static func paths(_ yaml: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> MachinePaths {
        MachinePaths(try loadedSpec(yaml, sourceLocation: sourceLocation))
    }

    @Test("P1: every state and every branch gets a shortest path from the initial state")
    func flatMachine() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "../../Specs/GitHubSearch.machine.yml")
        let paths = MachinePaths(try loadedSpec(String(contentsOf: url, encoding: .utf8)))
        let search = "searchChanged [!event.search.isEmpty]"
        #expect(Printed(paths) == Printed(
            states: [
                "idle": "(initial)", "searching": search, "loading": search,
                "ready": "\(search) → loaded (answer of loadNextPage)", "failed": "\(search) → failed (answer of loadNextPage)",
            ],
            transitions: [
                "idle --searchChanged [!event.search.isEmpty]--> searching": search,
                "idle --searchChanged--> (ignored)": "searchChanged [!(!event.search.isEmpty)]",
                "idle --scrolledNearBottom--> (ignored)": "scrolledNearBottom",
                "searching --searchChanged--> loading": "\(search) → searchChanged",
                "loading --loaded--> ready": "\(search) → loaded (answer of loadNextPage)",
                "loading --failed--> failed": "\(search) → failed (answer of loadNextPage)",
                "loading --scrolledNearBottom--> (ignored)": "\(search) → scrolledNearBottom",
                "ready --scrolledNearBottom [nextPageURL != nil]--> loading":
                    "\(search) → loaded (answer of loadNextPage) → scrolledNearBottom [nextPageURL != nil]",
                "ready --scrolledNearBottom--> (ignored)": "\(search) → loaded (answer of loadNextPage) → scrolledNearBottom [!(nextPageURL != nil)]",
                "failed --scrolledNearBottom--> loading": "\(search) → failed (answer of loadNextPage) → scrolledNearBottom",
                "failed --after 5s--> loading": "\(search) → failed (answer of loadNextPage) → after 5s in failed",
            ]))
        #expect(paths.isComplete)
        #expect(paths.truncation == nil)
    }

    @Test("P16: a guarded onDone: loop that makes two regions due again and again ends the search")
    func guardedOnDoneLoopEnds() throws {
        // Each region's onDone: re-enters both regions, so the queue of due states would grow
        // with every step if a state already due were queued again (the reducer keeps it once, S51).
        let paths = try Self.paths("""
            machine: Spin
            context: {n: {type: Int, default: "0"}}
            events: {spin: {}}
            initial: idle
            states:
              idle: {on: {spin: spinning}}
              spinning:
                type: parallel
                ignore: [spin]
                states:
                  x: {initial: xf, onDone: {guard: "n >= 0", target: spinning, set: {n: n + 1}}, states: {xf: {type: final}}}
                  y: {initial: yf, onDone: {guard: "n >= 0", target: spinning, set: {n: n + 1}}, states: {yf: {type: final}}}
            """)
        #expect(paths.truncation == nil)
        #expect(paths.states.first { $0.name == "xf" }?.last != nil)
    }

    @Test("P2: a step names the branches it takes by their TransitionList ids, and the guards it assumes with their lines")
    func stepsNameTheirBranches() throws {
        let paths = try Self.paths("""
            machine: Door
            context: {locked: {type: Bool, default: "false"}}
            events: {push: {}}
            initial: closed
            states:
              closed:
                on:
                  push:
                    - {guard: locked, target: closed}
                    - {target: open}
              open: {on: {push: closed}}

            """)
        let entry = try #require(paths.transitions.first { $0.entry.description == "closed --push--> open" })
        let step = try #require(entry.steps?.last)
        #expect(step.trigger == .event("push"))
        #expect(step.transitions == [entry.entry.id])
        #expect(step.holding == [])
        #expect(step.failing == [MachinePaths.Assumption(expression: "locked", location: specLocation(9, 19), transition: entry.entry.id - 1)])
        #expect(step.effect == nil)
    }

    @Test("P3: an event is decided by the leaf, then its ancestors, then the machine's own on:")
    func hierarchy() throws {
        let paths = try Self.paths("""
            machine: Player
            events: {play: {}, pause: {}, stop: {}, powerOff: {}}
            initial: stopped
            on:
              powerOff: {target: off}
            states:
              stopped:
                on: {play: active}
                ignore: [pause, stop]
              active:
                initial: playing
                on: {stop: stopped}
                states:
                  playing:
                    on: {pause: paused}
                    ignore: [play]
                  paused:
                    on: {play: playing}
                    ignore: [pause]
              off: {type: final}

            """)
        #expect(Printed(paths) == Printed(
            states: ["stopped": "(initial)", "active": "play", "playing": "play", "paused": "play → pause", "off": "powerOff"],
            transitions: [
                "(any) --powerOff--> off": "powerOff",
                "stopped --play--> active": "play",
                "stopped --pause--> (ignored)": "pause",
                "stopped --stop--> (ignored)": "stop",
                "active --stop--> stopped": "play → stop",
                "playing --pause--> paused": "play → pause",
                "playing --play--> (ignored)": "play → play",
                "paused --play--> playing": "play → pause → play",
                "paused --pause--> (ignored)": "play → pause → pause",
            ]))
    }

    @Test("P4: a guarded branch may hold and may fail, so the branches after it stay reachable; one without a guard ends the chain")
    func guards() throws {
        let paths = try Self.paths("""
            machine: Gate
            context: {n: {type: Int, default: "0"}}
            events: {push: {}}
            initial: closed
            states:
              closed:
                on:
                  push:
                    - {guard: "n > 2", target: open}
                    - {guard: "n > 0", target: ajar}
                    - {target: closed, set: {n: n + 1}}
              ajar: {on: {push: open}}
              open:
                on:
                  push: [{guard: "n > 5", target: closed}]

            """)
        #expect(Printed(paths) == Printed(
            states: ["closed": "(initial)", "ajar": "push [n > 0, !(n > 2)]", "open": "push [n > 2]"],
            transitions: [
                "closed --push [n > 2]--> open": "push [n > 2]",
                "closed --push [n > 0]--> ajar": "push [n > 0, !(n > 2)]",
                "closed --push--> closed": "push [!(n > 2), !(n > 0)]",
                "ajar --push--> open": "push [n > 0, !(n > 2)] → push",
                "open --push [n > 5]--> closed": "push [n > 2] → push [n > 5]",
            ]))
    }

    @Test("P5: an event from effects arrives only where an effect that sends it runs, and the step names that effect")
    func effectResults() throws {
        let paths = try Self.paths("""
            machine: Loader
            events:
              load: {}
              loaded: {from: effects}
              failed: {from: effects}
            initial: idle
            states:
              idle:
                on: {load: loading}
              loading:
                on: {loaded: shown, failed: idle}
                ignore: [load]
              shown:
                on: {load: loading}
            effects:
              fetch:
                in: [loading]
                request: {type: Int, value: "1"}
                emits: [loaded]
                onError: failed

            """)
        let loaded = try #require(paths.transitions.first { $0.entry.description == "loading --loaded--> shown" }?.steps)
        #expect(loaded.map(\.effect) == [nil, "fetch"])
        #expect(Printed(paths).transitions["loading --failed--> idle"] == "load → failed (answer of fetch)")
        #expect(Printed(paths).states["shown"] == "load → loaded (answer of fetch)")
    }

    @Test("P6: the results of a one-shot effect may arrive in any state")
    func oneShotResults() throws {
        let paths = try Self.paths("""
            machine: Saver
            events:
              edit: {}
              saved: {from: effects}
            initial: clean
            on:
              saved: {target: clean}
            states:
              clean:
                on: {edit: {target: dirty, do: [{run: store}]}}
              dirty:
                ignore: [edit]
            effects:
              store:
                emits: [saved]

            """)
        #expect(Printed(paths).transitions["(any) --saved--> clean"] == "saved (answer of store)")
    }

    @Test("P7: a timer of an active state fires as a step of its own")
    func timers() throws {
        let paths = try Self.paths("""
            machine: Light
            events: {press: {}}
            initial: off
            states:
              off:
                on: {press: on}
              on:
                ignore: [press]
                after:
                  5s: off
                  1m: [{guard: "false", target: off}]

            """)
        #expect(Printed(paths).transitions == [
            "off --press--> on": "press",
            "on --press--> (ignored)": "press → press",
            "on --after 5s--> off": "press → after 5s in on",
            "on --after 1m [false]--> off": "press → after 1m in on [false]",
        ])
        let timer = try #require(paths.transitions[2].steps?.last)
        #expect(timer.trigger == .timer(index: 0, delay: "5s"))
    }

    @Test("P8: onDone: and then always: are tried after each step that took a branch, each microstep a step of the path")
    func settling() throws {
        let paths = try Self.paths("""
            machine: Wizard
            context: {ok: {type: Bool, default: "false"}}
            events: {next: {}}
            initial: form
            ignore: [next]
            states:
              form:
                initial: first
                onDone: {target: checking}
                states:
                  first: {on: {next: second}}
                  second: {on: {next: finished}}
                  finished: {type: final}
              checking:
                always:
                  - {guard: ok, target: done}
                  - {guard: "!ok", target: form}
              done: {type: final}

            """)
        #expect(Printed(paths) == Printed(
            states: [
                "form": "(initial)", "first": "(initial)", "second": "next", "finished": "next → next",
                "checking": "next → next → onDone of form",
                "done": "next → next → onDone of form → always in checking [ok]",
            ],
            transitions: [
                "(any) --next--> (ignored)": "next → next → onDone of form → next",
                "first --next--> second": "next",
                "second --next--> finished": "next → next",
                "form --onDone--> checking": "next → next → onDone of form",
                "checking --always [ok]--> done": "next → next → onDone of form → always in checking [ok]",
                "checking --always [!ok]--> form": "next → next → onDone of form → always in checking [!ok, !(ok)]",
            ]))
    }

    @Test("P9: a history state enters its default, and counts as entered by the step that targets it")
    func history() throws {
        let paths = try Self.paths("""
            machine: Player
            events: {play: {}, pause: {}, stop: {}}
            initial: stopped
            states:
              stopped:
                on: {play: resume}
                ignore: [pause, stop]
              active:
                initial: playing
                on: {stop: stopped}
                states:
                  playing:
                    on: {pause: paused}
                    ignore: [play]
                  paused:
                    on: {play: playing}
                    ignore: [pause]
                  resume: {type: history, target: paused}

            """)
        #expect(Printed(paths).states == [
            "stopped": "(initial)", "active": "play", "playing": "play → play", "paused": "play", "resume": "play",
        ])
    }

    @Test("P10: below a parallel state a configuration has a leaf per region, and an event's branches in every region are one step")
    func parallel() throws {
        let paths = try Self.paths("""
            machine: Editor
            events: {bold: {}, italic: {}, reset: {}}
            initial: editing
            states:
              editing:
                type: parallel
                on: {reset: editing}
                states:
                  weight:
                    initial: normal
                    states:
                      normal: {on: {bold: heavy}, ignore: [italic]}
                      heavy: {on: {bold: normal}, ignore: [italic]}
                  slant:
                    initial: upright
                    states:
                      upright: {on: {italic: slanted}, ignore: [bold]}
                      slanted: {on: {italic: upright}, ignore: [bold]}

            """)
        #expect(Printed(paths) == Printed(
            states: [
                "editing": "(initial)", "weight": "(initial)", "normal": "(initial)", "heavy": "bold",
                "slant": "(initial)", "upright": "(initial)", "slanted": "italic",
            ],
            transitions: [
                "editing --reset--> editing": "reset",
                "normal --bold--> heavy": "bold", "normal --italic--> (ignored)": "italic",
                "heavy --bold--> normal": "bold → bold", "heavy --italic--> (ignored)": "bold → italic",
                "upright --italic--> slanted": "italic", "upright --bold--> (ignored)": "bold",
                "slanted --italic--> upright": "italic → italic", "slanted --bold--> (ignored)": "italic → bold",
            ]))
        #expect(paths.configurations == 4)
        let list = paths.transitionList
        let bold = try #require(paths.transitions.first { $0.entry.description == "normal --bold--> heavy" }?.steps?.last)
        #expect(bold.transitions.map { list.entries[$0].description } == ["normal --bold--> heavy", "upright --bold--> (ignored)"])
        // Both regions reach the parallel state's handler: it is taken once (S68).
        let reset = try #require(paths.transitions.first { $0.entry.description == "editing --reset--> editing" }?.steps?.last)
        #expect(reset.transitions.count == 1)
    }

    @Test("P10: of two conflicting branches of one step, only the one S69 keeps is taken")
    func parallelConflicts() throws {
        let paths = try Self.paths("""
            machine: Race
            events: {go: {}}
            initial: both
            states:
              both:
                type: parallel
                on: {go: done}
                states:
                  a:
                    initial: a1
                    states:
                      a1: {on: {go: a2}}
                      a2: {}
                  b:
                    initial: b1
                    states:
                      b1: {}
              done: {type: final}

            """)
        // In a1, region a's own branch beats the parallel state's, which b1 reaches; from a2 both
        // regions reach it.
        #expect(Printed(paths).transitions == ["both --go--> done": "go → go", "a1 --go--> a2": "go"])
        #expect(Printed(paths).states["done"] == "go → go")
    }

    @Test("P11: a state or branch no path reaches is reported with the reason")
    func unreachable() throws {
        let paths = try Self.paths("""
            machine: Shadow
            events:
              go: {}
              stop: {}
              finished: {from: effects}
            initial: idle
            states:
              idle:
                on:
                  go: busy
                  stop: idle
                  finished: busy
              busy:
                initial: working
                on: {stop: lost}
                states:
                  working:
                    on: {stop: idle, go: resting, finished: idle}
                  resting:
                    on: {stop: idle, go: working}
              lost:
                on: {go: idle, stop: idle}
            effects:
              work:
                in: [working]
                request: {type: Int, value: "1"}
                emits: [finished]

            """)
        let printed = Printed(paths)
        #expect(printed.states["lost"] == "unreachable: every transition into it is unreachable (15:16)")
        #expect(printed.transitions["lost --go--> idle"] == "unreachable: its state 'lost' is never entered")
        #expect(printed.transitions["idle --finished--> busy"] == "unreachable: event 'finished' never arrives while in 'idle': no effect that sends it runs there")
        #expect(printed.transitions["busy --stop--> lost"] == "unreachable: 'working --stop--> idle' (line 18) always applies first")
        #expect(printed.transitions["working --finished--> idle"] == "go → finished (answer of work)")
        #expect(!paths.isComplete)
    }

    @Test("P12: the search stops at a limit of configurations, and says so")
    func limit() throws {
        let yaml = """
            machine: Counter
            events: {up: {}}
            initial: a
            states:
              a: {on: {up: b}}
              b: {on: {up: c}}
              c: {on: {up: a}}

            """
        let paths = MachinePaths(try loadedSpec(yaml), limit: 2)
        #expect(paths.truncation == "the search stopped after 2 configurations")
        #expect(Printed(paths).states["c"] == "up → up")
        #expect(Printed(paths).transitions["c --up--> a"] == "unreachable: not reached: the search stopped after 2 configurations")
        #expect(MachinePaths(try loadedSpec(yaml)).truncation == nil)
    }

    @Test("P15: the search stores each step once, so what it keeps grows with the machine, not with the lengths of its paths")
    func linearStorage() throws {
        // A chain s0 → s1 → ... : its paths hold n²/2 steps for the states and as many for the
        // transitions, which stored path by path took 1.7 GB for 4,000 states.
        let count = 400
        var yaml = "machine: Chain\nevents: {next: {}}\ninitial: s0\nstates:\n"
        for state in 0..<count - 1 { yaml += "  s\(state): {on: {next: s\(state + 1)}}\n" }
        yaml += "  s\(count - 1): {ignore: [next]}\n"
        let paths = MachinePaths(try loadedSpec(yaml))
        #expect(paths.isComplete)
        #expect(paths.storedSteps <= paths.configurations + paths.states.count + paths.transitions.count, "\(paths.storedSteps) steps stored")
        #expect(paths.states.map { $0.steps?.count } == (0..<count).map { $0 })
        #expect(paths.transitions.last?.steps?.count == count)
        #expect(paths.transitions.last?.steps?.allSatisfy { $0.trigger == .event("next") } == true)
    }
}
