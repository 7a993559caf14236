// Benchmark: one named figure and how to measure it.

/// One figure printed as `BENCH <name> <value>`.
struct Benchmark: Sendable {
    /// Dotted name, e.g. `runtime.send.ns_per_event`; the command-line filter matches on it.
    let name: String
    /// Runs the measurement and returns the figure.
    let measure: @Sendable () -> Double
}

/// Nanoseconds per operation for `count` operations that took `duration`.
func nanoseconds(per count: Int, in duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    let total = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    return total / Double(count)
}

/// Keeps the optimizer from deleting work whose result is otherwise unused.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
