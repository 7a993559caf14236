// ScalingBenchmarks: whether what the tools cost grows with the machine as the machine grows
// (issue 19): `stateloop generate` at 1,000 and 4,000 states, type-checking the generated Swift
// at 500 and 1,000 states, and the peak memory of `stateloop paths` at 1,000 and 4,000 states.
// Each figure's goal is the ratio a linear cost gives, with a tenth to spare for time.

import Foundation

/// The events of the scaling machines: two, so that what a state costs once (a `Mode` case, an
/// `isIn` case, the checks of its name) weighs as much as its transitions, and so that the
/// machine is nearly a chain (event 0 goes to the next state, event 1 two states on, when a
/// state handles it) whose shortest paths are long: the shape on which paths stored one by one
/// grow with the square of the states.
let scalingEvents = 2

/// The scaling measurements, each taken once per process.
extension Measurements {
    /// The instructions a child process executes to load, check, render and write a machine of
    /// `states` × `scalingEvents` (callgrind: a count, which does not depend on the load), less
    /// those of a ten-state machine (about 60 M: the templates, the tables every machine has).
    func generateInstructions(states: Int) -> Double {
        func count(_ states: Int) -> Double {
            value("generate.\(states)") {
                withSpecFile(SyntheticMachine(states: states, events: scalingEvents)) { spec in try instructionCount(ChildMode.generate, spec) }
            }
        }
        return count(states) - count(10)
    }

    /// The median CPU seconds swiftc takes to type-check the generated Swift of a machine of
    /// `states` × `scalingEvents`, less what it takes for a file that only imports StateLoop.
    func typecheckSeconds(states: Int) -> Double {
        let empty = value("typecheck.empty") { compileSeconds("import StateLoop\n", module: "Empty", typecheckOnly: true) }
        return value("typecheck.\(states)") {
            compileSeconds(generatedSwift(SyntheticMachine(states: states, events: scalingEvents)), module: "Synthetic", typecheckOnly: true)
        } - empty
    }

    /// The peak resident memory, in MiB, of a child process that does what `stateloop paths`
    /// does on a machine of `states` × `scalingEvents`, less that of a child that does nothing.
    func pathsPeakMiB(states: Int) -> Double {
        let idle = value("idle.peak", idlePeakMiB)
        return value("paths.\(states)") {
            withSpecFile(SyntheticMachine(states: states, events: scalingEvents)) { spec in
                try runChild([ChildMode.paths, spec.path])
            }
        } - idle
    }
}

/// The scaling figures: for each, the two sizes and their ratio, which has the goal.
let scalingBenchmarks: [Benchmark] = [
    Benchmark(name: "scaling.generate.1000_states.instructions") { Measurements.shared.generateInstructions(states: 1_000) },
    Benchmark(name: "scaling.generate.4000_states.instructions") { Measurements.shared.generateInstructions(states: 4_000) },
    Benchmark(name: "scaling.generate.4000_over_1000_states.ratio", goal: 4.4) {
        Measurements.shared.generateInstructions(states: 4_000) / Measurements.shared.generateInstructions(states: 1_000)
    },
    Benchmark(name: "scaling.typecheck.500_states.cpu_s") { Measurements.shared.typecheckSeconds(states: 500) },
    Benchmark(name: "scaling.typecheck.1000_states.cpu_s") { Measurements.shared.typecheckSeconds(states: 1_000) },
    Benchmark(name: "scaling.typecheck.1000_over_500_states.ratio", goal: 2.2) {
        Measurements.shared.typecheckSeconds(states: 1_000) / Measurements.shared.typecheckSeconds(states: 500)
    },
    Benchmark(name: "scaling.paths.1000_states.peak_rss.mb") { Measurements.shared.pathsPeakMiB(states: 1_000) },
    Benchmark(name: "scaling.paths.4000_states.peak_rss.mb") { Measurements.shared.pathsPeakMiB(states: 4_000) },
    Benchmark(name: "scaling.paths.4000_over_1000_states.peak_rss_ratio", goal: 4.4) {
        Measurements.shared.pathsPeakMiB(states: 4_000) / Measurements.shared.pathsPeakMiB(states: 1_000)
    },
]
