// stateloop-bench: prints `BENCH <name> <value>` for every benchmark whose name contains the
// optional first argument. Add a component's figures by appending its list below.

import Foundation

// The memory figures run this executable again as a child, and `--write-compile-sources DIR`
// writes the compile figures' sources; such a run stops here.
ChildMode.runIfRequested(CommandLine.arguments)
RuntimeChildMode.runIfRequested(CommandLine.arguments)
InspectorChildMode.runIfRequested(CommandLine.arguments)
CompileSourcesMode.runIfRequested(CommandLine.arguments)
HostScaleChildMode.runIfRequested(CommandLine.arguments)

let benchmarks: [Benchmark] = runtimeBenchmarks + reduceBenchmarks + generatorBenchmarks + compileBenchmarks + scalingBenchmarks + durableBenchmarks + durableSystemBenchmarks + hostScaleBenchmarks + codecBenchmarks + inspectorBenchmarks + exploreBenchmarks + postgresBenchmarks

let filter = CommandLine.arguments.dropFirst().first
for benchmark in benchmarks where filter.map(benchmark.name.contains) ?? true {
    // Written at once, unbuffered: a long run shows each figure as soon as it is measured.
    FileHandle.standardOutput.write(Data((benchmark.line(benchmark.measure()) + "\n").utf8))
}
