// GeneratorBenchmarks: what `stateloop generate` costs on a large spec, against the floor set by
// libyaml itself, and how much memory it needs.

// CYAML is the root package's libyaml module; it is visible here through StateLoopSpec, which
// re-exports nothing but puts the module map on the search path of every client. Declaring a
// second module map for <yaml.h> in this package would clash with it in the same build.
import CYAML
import Foundation
import StateLoopCodegen
import StateLoopSpec

/// The spec every generator figure is measured on: 500 states × 50 events (25,000 pairs).
let generatorSpec = SyntheticMachine(states: 500, events: 50)

/// How many timed runs a generator figure takes the median of: 15, or `STATELOOP_BENCH_RUNS`
/// (1 under callgrind, which counts instructions and needs no median).
let generatorRuns = Int(ProcessInfo.processInfo.environment["STATELOOP_BENCH_RUNS"] ?? "") ?? 15

/// The median of `runs` timings of `body`, in milliseconds, after one untimed warm-up run.
func medianMilliseconds(runs: Int, _ body: () throws -> Void) rethrows -> Double {
    try body()
    var samples: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<runs {
        let start = clock.now
        try body()
        samples.append(nanoseconds(per: 1, in: clock.now - start) / 1e6)
    }
    return median(samples)
}

/// The middle value (the mean of the two middle values for an even count).
func median(_ samples: [Double]) -> Double {
    let sorted = samples.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// A fresh temporary directory holding the benchmark spec as `Synthetic.machine.yml`.
func writeGeneratorSpec() throws -> (directory: URL, spec: URL) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stateloop-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let spec = directory.appendingPathComponent("Synthetic.machine.yml")
    try generatorSpec.yaml.write(to: spec, atomically: true, encoding: .utf8)
    return (directory, spec)
}

/// What `stateloop generate SPEC -o DIR` does, in-process: read, load and check, render, write.
/// Returns the number of diagnostics (the benchmark spec must have none).
@discardableResult
func generateOnce(spec: URL, into directory: URL) throws -> Int {
    let contents = try [UInt8](Data(contentsOf: spec))
    let output = GeneratorPipeline().generate(contents: contents, path: spec.path)
    guard let source = output.source, output.diagnostics.isEmpty else {
        fatalError("the benchmark spec does not generate cleanly: \(output.diagnostics)")
    }
    try OutputWriter.writeIfChanged(source, to: directory.appendingPathComponent("Synthetic.swift").path)
    return output.diagnostics.count
}

/// libyaml's event loop over `bytes`, building nothing: the least any YAML front end must pay.
/// Returns the number of events, so the loop cannot be optimized away.
func parseEvents(_ bytes: [UInt8]) -> Int {
    var parser = yaml_parser_t()
    guard yaml_parser_initialize(&parser) == 1 else { fatalError("yaml_parser_initialize failed") }
    defer { yaml_parser_delete(&parser) }
    var count = 0
    bytes.withUnsafeBufferPointer { buffer in
        yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(&parser, &event) == 1 else { fatalError("libyaml rejected the benchmark spec") }
            let type = event.type
            yaml_event_delete(&event)
            count += 1
            if type == YAML_STREAM_END_EVENT { break }
        }
    }
    return count
}

/// The peak resident memory of this process so far, in MiB.
///
/// On Linux this is `VmHWM` of /proc/self/status, not `ru_maxrss`: the kernel carries `ru_maxrss`
/// over from the parent across fork and exec, so a child of a large benchmark process would report
/// the parent's peak. `VmHWM` belongs to the address space that exec made fresh.
func peakResidentMiB() -> Double {
    #if os(Linux)
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
        let kibibytes = Double(line.split(separator: " ").dropFirst().first ?? "")
    else { fatalError("no VmHWM in /proc/self/status") }
    return kibibytes / 1024
    #else
    var usage = rusage()
    getrusage(RUSAGE_SELF, &usage)
    return Double(usage.ru_maxrss) / (1024 * 1024)
    #endif
}

/// Runs this executable again with `arguments` and returns the number it prints (a child's own
/// peak memory): a fresh process, so earlier benchmarks' allocations do not count.
func runChild(_ arguments: [String]) throws -> Double {
    let process = Process()
    #if os(Linux)
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    #else
    process.executableURL = Bundle.main.executableURL
    #endif
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0, let value = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
        fatalError("child \(arguments) failed (\(process.terminationStatus)): \(text)")
    }
    return value
}

/// The child modes of this executable (see main.swift): generate once, or do nothing, then print
/// the process's peak memory in MiB.
enum ChildMode {
    static let generate = "--child-generate-once"
    static let idle = "--child-idle"

    /// Runs the mode named by `arguments` and exits; returns when they name none.
    static func runIfRequested(_ arguments: [String]) {
        guard let mode = arguments.dropFirst().first, mode == generate || mode == idle else { return }
        do {
            if mode == generate {
                let spec = URL(fileURLWithPath: arguments[2])
                try generateOnce(spec: spec, into: spec.deletingLastPathComponent())
            }
        } catch {
            fatalError("\(error)")
        }
        print(peakResidentMiB())
        exit(0)
    }
}

/// The generator's figures.
let generatorBenchmarks: [Benchmark] = [
    Benchmark(name: "libyaml.parse.ms") {
        let bytes = Array(generatorSpec.yaml.utf8)
        var events = 0
        let milliseconds = medianMilliseconds(runs: generatorRuns) { events = parseEvents(bytes) }
        blackHole(events)
        return milliseconds
    },

    Benchmark(name: "generator.total.ms") {
        do {
            let (directory, spec) = try writeGeneratorSpec()
            defer { try? FileManager.default.removeItem(at: directory) }
            let output = directory.appendingPathComponent("Synthetic.swift")
            return try medianMilliseconds(runs: generatorRuns) {
                // An existing identical file would turn the write into a compare; time a real write.
                try? FileManager.default.removeItem(at: output)
                try generateOnce(spec: spec, into: directory)
            }
        } catch {
            fatalError("\(error)")
        }
    },

    // The stages of generator.total.ms, to see where its time goes.
    Benchmark(name: "generator.stage.load.ms") {
        let bytes = Array(generatorSpec.yaml.utf8)
        return medianMilliseconds(runs: generatorRuns) { blackHole(SpecLoader.load(contents: bytes, path: "Synthetic.machine.yml")) }
    },
    Benchmark(name: "generator.stage.translate.ms") {
        let spec = SpecLoader.load(contents: Array(generatorSpec.yaml.utf8), path: "Synthetic.machine.yml").spec!
        return medianMilliseconds(runs: generatorRuns) { blackHole(MachineContextBuilder.build(spec)) }
    },
    Benchmark(name: "generator.stage.render.ms") {
        let spec = SpecLoader.load(contents: Array(generatorSpec.yaml.utf8), path: "Synthetic.machine.yml").spec!
        let context = MachineContextBuilder.build(spec)
        let renderer = SwiftRenderer(templates: .builtIn)
        return medianMilliseconds(runs: generatorRuns) { blackHole(renderer.render(context)) }
    },

    Benchmark(name: "generator.peak_rss.mb") {
        // A child process that only reads, generates and writes the spec, then reports its own
        // ru_maxrss: the whole peak of a `stateloop generate` run, runtime and libraries included.
        do {
            let (directory, spec) = try writeGeneratorSpec()
            defer { try? FileManager.default.removeItem(at: directory) }
            return try runChild([ChildMode.generate, spec.path])
        } catch {
            fatalError("\(error)")
        }
    },

    Benchmark(name: "generator.idle_rss.mb") {
        // The same child doing nothing: the part of the peak above that is not the generator's.
        do { return try runChild([ChildMode.idle]) } catch { fatalError("\(error)") }
    },
]
