// stateloop-bench: prints `BENCH <name> <value>` for every benchmark whose name contains the
// optional first argument. Add a component's figures by appending its list below.

let benchmarks: [Benchmark] = runtimeBenchmarks

let filter = CommandLine.arguments.dropFirst().first
for benchmark in benchmarks where filter.map(benchmark.name.contains) ?? true {
    let value = benchmark.measure()
    print("BENCH \(benchmark.name) \((value * 10).rounded() / 10)")
}
