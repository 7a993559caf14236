// Benchmark: one named figure, how to measure it, and the goal it is held to.

import Foundation

/// One figure printed as `BENCH <name> <value>`, followed by its goal when it has one:
/// `BENCH generator.over_libyaml.instructions.ratio 5.41 (goal ≤ 3: not met)`.
struct Benchmark: Sendable {
    /// Dotted name, e.g. `runtime.send.ns_per_event`; the command-line filter matches on it.
    let name: String
    /// The most the figure may be (the goals of Benchmarks/README.md), or `nil`.
    var goal: Double? = nil
    /// The least the figure must be, for a rate (`durable.sqlite.append.events_per_s`), or `nil`.
    var floor: Double? = nil
    /// Runs the measurement and returns the figure.
    let measure: @Sendable () -> Double

    /// The `BENCH` line of `value`: one decimal, two below 10 (ratios, nanoseconds per event).
    func line(_ value: Double) -> String {
        let figure = "BENCH \(name) \(Self.rounded(value))"
        if let goal { return figure + " (goal ≤ \(Self.rounded(goal)): \(value <= goal ? "met" : "not met"))" }
        if let floor { return figure + " (goal ≥ \(Self.rounded(floor)): \(value >= floor ? "met" : "not met"))" }
        return figure
    }

    private static func rounded(_ value: Double) -> Double {
        let scale = abs(value) < 10 ? 100.0 : 10.0
        return (value * scale).rounded() / scale
    }
}

/// Nanoseconds per operation for `count` operations that took `duration`.
func nanoseconds(per count: Int, in duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    let total = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    return total / Double(count)
}

/// The median of `STATELOOP_BENCH_RUNS` measurements (5 unless set).
func medianOfRuns(_ measure: () -> Double) -> Double {
    let runs = ProcessInfo.processInfo.environment["STATELOOP_BENCH_RUNS"].flatMap(Int.init) ?? 5
    let values = (0..<max(1, runs)).map { _ in measure() }.sorted()
    return values[values.count / 2]
}

/// `body` given a new folder under the system's temporary folder, removed once `body` returns.
func withTemporaryFolder<T>(_ body: (URL) throws -> T) rethrows -> T {
    let folder = FileManager.default.temporaryDirectory.appending(path: "stateloop-bench-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
}

/// Keeps the optimizer from deleting work whose result is otherwise unused.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// Measurements that several figures derive from (a time and a ratio of it), taken once per
/// process.
final class Measurements: @unchecked Sendable {
    static let shared = Measurements()
    private let lock = NSLock()
    private var values: [String: Double] = [:]

    /// The value of `key`, measured by `measure` on first use.
    func value(_ key: String, _ measure: () -> Double) -> Double {
        lock.lock()
        defer { lock.unlock() }
        if let known = values[key] { return known }
        let value = measure()
        values[key] = value
        return value
    }
}
