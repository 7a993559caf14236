// ExploreBenchmarks: how fast `MachineTest.explore` walks a machine (Docs/Testing.md V8-V16, issue
// 34: "the reducer runs in tens of nanoseconds; the walker must not dominate"), on the example
// specs GitHubSearch (a request effect, a timer, a String payload) and TCP (11 states, 10 events,
// no effects), and how fast `MachineTest.exploreAll` searches breadth first (V17) the 10,000
// configurations of Benchmarks/Specs/Grid.machine.yml (issue 34: "a 10,000-state reachable space
// in ≤ 1 s"), and how soon `explore` finds, and how far it shrinks, the violation planted eight
// steps deep in Benchmarks/Specs/Ladder.machine.yml (issue 34: "finds the violation in ≤ 100,000
// steps and shrinks it to within one step of the shortest counterexample"). Their generated Swift
// is checked in under Generated/ (Specs/generate.sh).

import Foundation
import StateLoop
@_spi(Internals) import StateLoopTesting

/// Walks per timed run, of 50 steps each (`explore`'s default length).
let exploreWalks = 2_000

/// Steps per second of `explore` on `machine`: the median of `medianOfRuns`'s runs, each a
/// fresh exploration of `exploreWalks` walks from one seed.
func exploreStepsPerSecond<M: StateMachine>(_ explore: @escaping () -> Exploration<M>) -> Double {
    _ = explore()   // warm-up
    return medianOfRuns {
        let clock = ContinuousClock()
        var steps = 0
        let elapsed = clock.measure { steps = explore().steps }
        return Double(steps) / (nanoseconds(per: 1, in: elapsed) / 1e9)
    }
}

/// The steps `explore` took to break Ladder's invariant (eight steps deep), one walk at a time
/// from `seed`, and the steps of the run it shrank that to; the median over five seeds.
func ladderFound() -> (steps: Double, shrunk: Double) {
    var found: [(steps: Int, shrunk: Int)] = []
    for seed in UInt64(1)...5 {
        var steps = 0
        for walk in UInt64(0)..<100_000 {
            var exploration: Exploration<Ladder>?
            // The failure is reported to the recorder, not to a test library (none runs here).
            _ = withRecordedFailures {
                exploration = MachineTest.explore(Ladder.self, state: .initial, sending: [.just(.a), .just(.b), .just(.c)], walks: 1, seed: seed &* 1_000_003 &+ walk)
            }
            steps += exploration!.steps
            if let counterexample = exploration!.counterexamples.first {
                found.append((steps, counterexample.steps))
                break
            }
        }
    }
    precondition(found.count == 5, "an exploration of Ladder did not break its invariant in 100,000 walks")
    return (Double(found.map(\.steps).sorted()[2]), Double(found.map(\.shrunk).sorted()[2]))
}

let exploreBenchmarks: [Benchmark] = [
    Benchmark(name: "explore.github_search.steps_per_s", floor: 100_000) {
        exploreStepsPerSecond {
            MachineTest.explore(
                GitHubSearch.self, state: .initial,
                sending: [.of(GitHubSearch.Event.searchChanged), .just(.scrolledNearBottom)],
                answering: [.just(.loaded(repositories: [], nextURL: nil)), .just(.loaded(repositories: [], nextURL: GitHub.searchURL("b"))), .just(.failed(error: .offline))],
                walks: exploreWalks, seed: 34)
        }
    },
    Benchmark(name: "explore.tcp.steps_per_s", floor: 100_000) {
        exploreStepsPerSecond {
            let events: [TCP.Event] = [.passiveOpen, .activeOpen, .send, .close, .abort, .syn, .synAck, .ack, .fin, .rst]
            return MachineTest.explore(TCP.self, state: .initial, sending: events.map { .just($0) }, walks: exploreWalks, seed: 34)
        }
    },
    Benchmark(name: "explore.ladder.steps_to_find", goal: 100_000) { ladderFound().steps },
    Benchmark(name: "explore.ladder.shrunk_over_shortest", goal: 1) {
        var shortest = 0
        _ = withRecordedFailures {
            shortest = MachineTest.exploreAll(Ladder.self, state: .initial, sending: [.just(.a), .just(.b), .just(.c)], depth: 12)
                .counterexamples.first?.steps ?? 0
        }
        precondition(shortest == 8, "Ladder's shortest counterexample has 8 steps, not \(shortest)")
        return ladderFound().shrunk - Double(shortest)
    },
    Benchmark(name: "explore_all.grid.10k_configurations.s", goal: 1) {
        medianOfRuns {
            let clock = ContinuousClock()
            var configurations = 0
            let elapsed = clock.measure {
                configurations = MachineTest.exploreAll(
                    Grid.self, state: .initial, sending: [.just(.right), .just(.left), .just(.up), .just(.down)], depth: 200
                ).configurations
            }
            precondition(configurations == 10_000, "Grid has 10,000 configurations, not \(configurations)")
            return nanoseconds(per: 1, in: elapsed) / 1e9
        }
    },
]
