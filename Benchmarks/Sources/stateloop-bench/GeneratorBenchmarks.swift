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

/// Runs `body` on `machine`'s spec, written as `Synthetic.machine.yml` into a fresh temporary
/// directory that is removed afterwards; an error stops the benchmarks.
func withSpecFile<T>(_ machine: SyntheticMachine, _ body: (URL) throws -> T) -> T {
    do {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stateloop-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let spec = directory.appendingPathComponent("Synthetic.machine.yml")
        try machine.yaml.write(to: spec, atomically: true, encoding: .utf8)
        return try body(spec)
    } catch {
        fatalError("\(error)")
    }
}

/// What `stateloop generate SPEC -o DIR` does, in-process: read, load and check, render, write
/// `Synthetic.swift` beside the spec. Returns the number of diagnostics (the benchmark spec must
/// have none).
@discardableResult
func generateOnce(spec: URL, into directory: URL) throws -> Int {
    try generateOnce(contents: [UInt8](Data(contentsOf: spec)), spec: spec, into: directory)
}

/// The same from the spec's bytes, already read.
@discardableResult
func generateOnce(contents: [UInt8], spec: URL, into directory: URL) throws -> Int {
    let output = GeneratorPipeline().generate(contents: contents, path: spec.path)
    guard let source = output.source, output.diagnostics.isEmpty else {
        fatalError("the benchmark spec does not generate cleanly: \(output.diagnostics.prefix(5))")
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

/// This executable, which runs itself again as a child.
let selfExecutable: URL = {
    #if os(Linux)
    URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    #else
    Bundle.main.executableURL!
    #endif
}()

/// Runs this executable again with `arguments` and returns the number it prints (a child's own
/// peak memory): a fresh process, so earlier benchmarks' allocations do not count.
func runChild(_ arguments: [String]) throws -> Double {
    let process = Process()
    process.executableURL = selfExecutable
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

/// The peak resident memory, in MiB, of a child of this executable that does nothing.
func idlePeakMiB() -> Double {
    do { return try runChild([ChildMode.idle]) } catch { fatalError("\(error)") }
}

/// The child modes of this executable (see main.swift): generate once, parse once with libyaml,
/// search the paths as `stateloop paths` does, or do nothing, then print the process's peak
/// memory in MiB.
enum ChildMode {
    static let generate = "--child-generate-once"
    static let parse = "--child-parse-once"
    static let paths = "--child-paths"
    static let idle = "--child-idle"

    /// Runs the mode named by `arguments` and exits; returns when they name none.
    static func runIfRequested(_ arguments: [String]) {
        guard let mode = arguments.dropFirst().first, [generate, parse, paths, idle].contains(mode) else { return }
        do {
            if mode != idle {
                let spec = URL(fileURLWithPath: arguments[2])
                let contents = try [UInt8](Data(contentsOf: spec))
                try countedWork {
                    switch mode {
                    case generate: blackHole(try generateOnce(contents: contents, spec: spec, into: spec.deletingLastPathComponent()))
                    case parse: blackHole(parseEvents(contents))
                    default: blackHole(printPaths(contents: contents, path: spec.lastPathComponent))
                    }
                }
            }
        } catch {
            fatalError("\(error)")
        }
        print(peakResidentMiB())
        exit(0)
    }
}

/// Runs `body`: the one function whose instructions `instructionCount(_:_:)` counts (callgrind's
/// `--toggle-collect` turns counting on when it is entered and off when it returns), so that
/// the child's start, its reading of the spec and its exit are not counted.
@inline(never)
func countedWork(_ body: () throws -> Void) rethrows {
    try body()
}

/// What `stateloop paths SPEC` does but print: load, search, and make the text of every step of
/// every path (written to standard output a block at a time, so it takes no memory there).
/// Returns the number of UTF-8 bytes of that text.
func printPaths(contents: [UInt8], path: String) -> Int {
    guard let machine = SpecLoader.load(contents: contents, path: path).spec else {
        fatalError("the paths benchmark spec does not load cleanly")
    }
    let paths = MachinePaths(machine.spec)
    // One path at a time, as the command prints them: all of them at once would hold the square
    // of a chain's length.
    var bytes = 0
    func write(_ steps: [MachinePaths.Step]?) {
        for step in steps ?? [] { bytes += paths.text(of: step).utf8.count + 3 }
    }
    for state in paths.states { write(state.steps) }
    for transition in paths.transitions { write(transition.steps) }
    return bytes
}

/// The instructions (callgrind's `Ir`) that the child `mode` of this executable executes inside
/// `countedWork` on `spec`. Needs valgrind: instruction counts, unlike times, do not depend on
/// what else the machine runs.
func instructionCount(_ mode: String, _ spec: URL) throws -> Double {
    let output = spec.deletingLastPathComponent().appendingPathComponent("callgrind-\(UUID().uuidString).out")
    defer { try? FileManager.default.removeItem(at: output) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
        "valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=*countedWork*",
        "--callgrind-out-file=\(output.path)", selfExecutable.path, mode, spec.path,
    ]
    process.standardOutput = FileHandle.nullDevice
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        fatalError("valgrind failed (\(process.terminationStatus)); install it (apt-get install valgrind):\n\(log.suffix(2000))")
    }
    let counts = try String(contentsOf: output, encoding: .utf8)
    guard let line = counts.split(separator: "\n").last(where: { $0.hasPrefix("totals:") || $0.hasPrefix("summary:") }),
        let total = Double(line.split(separator: " ").last ?? ""), total > 0
    else { fatalError("no instructions counted in countedWork: \(output.path)") }
    return total
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
        withSpecFile(generatorSpec) { spec in
            let output = spec.deletingLastPathComponent().appendingPathComponent("Synthetic.swift")
            return try medianMilliseconds(runs: generatorRuns) {
                // An existing identical file would turn the write into a compare; time a real write.
                try? FileManager.default.removeItem(at: output)
                try generateOnce(spec: spec, into: spec.deletingLastPathComponent())
            }
        }
    },

    // generator.total over libyaml.parse, in instructions (callgrind), which unlike times do not
    // depend on the load of a shared machine: a child generates once, another parses once.
    Benchmark(name: "generator.over_libyaml.instructions.ratio", goal: 3) {
        withSpecFile(generatorSpec) { spec in
            try instructionCount(ChildMode.generate, spec) / instructionCount(ChildMode.parse, spec)
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
        // peak: the whole peak of a `stateloop generate` run, runtime and libraries included.
        withSpecFile(generatorSpec) { spec in try runChild([ChildMode.generate, spec.path]) }
    },

    Benchmark(name: "generator.idle_rss.mb") {
        // The same child doing nothing: the part of the peak above that is not the generator's.
        idlePeakMiB()
    },
]
