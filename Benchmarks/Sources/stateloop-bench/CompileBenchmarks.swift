// CompileBenchmarks: how long swiftc takes on generated reducers, against a hand-written nested
// switch with the same transitions, and how that time grows with the number of (state, event) pairs.
//
// Both files are compiled the same way, as a debug build compiles a file:
//   swiftc -c -Onone -parse-as-library -swift-version 6 -module-name M -I <Modules> FILE -o FILE.o
// where <Modules> is the `Modules` folder next to this executable: the StateLoop module built by
// this package's own release build (`swift run -c release --package-path Benchmarks ...`), which
// the generated file imports. Each figure is the median of `compileRuns` runs, in CPU seconds.

import Foundation
import StateLoopCodegen

/// How many compilations a figure takes the median of.
let compileRuns = 3

/// The machine sizes whose generated code is compiled: (states, events).
let compileSizes = [(100, 25), (200, 50), (400, 50)]

/// `swiftc` from PATH, else the toolchain's.
let swiftcPath: String = {
    let candidates = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/swiftc" }
        + ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"]
    guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
        fatalError("swiftc not found on PATH")
    }
    return found
}()

/// The `Modules` folder of the build this executable comes from, which holds StateLoop.swiftmodule.
let stateLoopModules: URL = {
    let modules = selfExecutable.deletingLastPathComponent().appendingPathComponent("Modules")
    guard FileManager.default.fileExists(atPath: modules.appendingPathComponent("StateLoop.swiftmodule").path) else {
        fatalError("no StateLoop.swiftmodule in \(modules.path); build with `swift build -c release --package-path Benchmarks`")
    }
    return modules
}()

/// The median CPU time, in seconds, of compiling `source` as module `module` (flags above), or
/// only type-checking it (`-typecheck` in place of `-c` and `-o`).
func compileSeconds(_ source: String, module: String, typecheckOnly: Bool = false) -> Double {
    do {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stateloop-compile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("\(module).swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        var samples: [Double] = []
        for _ in 0..<compileRuns {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: swiftcPath)
            process.arguments = [
                "-Onone", "-parse-as-library", "-swift-version", "6", "-module-name", module, "-I", stateLoopModules.path, file.path,
            ] + (typecheckOnly ? ["-typecheck"] : ["-c", "-o", directory.appendingPathComponent("\(module).o").path])
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            // CPU time of the compiler (user + system, of this process's finished children), not
            // wall time: on a shared 2-core machine wall time moved the ratio between 0.5x and 2.3x
            // from one run to the next; CPU time does not count the time swiftc waited for a core.
            let before = childrenCPUSeconds()
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard process.terminationStatus == 0, text.isEmpty else {
                fatalError("swiftc failed on \(module) (\(process.terminationStatus)):\n\(text.prefix(4000))")
            }
            samples.append(childrenCPUSeconds() - before)
        }
        return median(samples)
    } catch {
        fatalError("\(error)")
    }
}

/// The CPU time (user + system) of every child process that has finished so far, in seconds.
func childrenCPUSeconds() -> Double {
    var usage = rusage()
    #if os(Linux)
    getrusage(RUSAGE_CHILDREN.rawValue, &usage)
    #else
    getrusage(RUSAGE_CHILDREN, &usage)
    #endif
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// The generated Swift of `machine`.
func generatedSwift(_ machine: SyntheticMachine) -> String {
    generatedSwift(yaml: machine.yaml, path: "Synthetic.machine.yml")
}

/// The generated Swift of the spec `yaml`, which must generate without a diagnostic.
func generatedSwift(yaml: String, path: String) -> String {
    let output = GeneratorPipeline().generate(contents: Array(yaml.utf8), path: path)
    guard let source = output.source, output.diagnostics.isEmpty else {
        fatalError("the synthetic spec \(path) does not generate cleanly: \(output.diagnostics.prefix(5))")
    }
    return source
}

/// The compile times, measured once per process (`Measurements`) and shared by the figures
/// derived from them.
extension Measurements {
    func generated(states: Int, events: Int) -> Double {
        value("generated.\(states)x\(events)") {
            let machine = SyntheticMachine(states: states, events: events)
            let source = generatedSwift(machine)
            // The reducer as it ships: with the coverage hook of every branch (issue 11), the
            // compile time the goal of 1.2 × the hand-written switch is about.
            let hooks = source.components(separatedBy: "_trace.take(").count - 1
            guard hooks == machine.branches else {
                fatalError("the generated \(states) × \(events) reducer records \(hooks) branches, not its \(machine.branches)")
            }
            return compileSeconds(source, module: "Synthetic")
        }
    }

    func handwritten(states: Int, events: Int) -> Double {
        value("handwritten.\(states)x\(events)") { compileSeconds(SyntheticMachine(states: states, events: events).handwrittenSwift, module: "Handwritten") }
    }

    func hierarchicalGenerated(_ machine: SyntheticHierarchy) -> Double {
        value("hierarchical.generated.\(machine.sizeName)") {
            compileSeconds(generatedSwift(yaml: machine.yaml, path: "SyntheticHierarchy.machine.yml"), module: "SyntheticHierarchy")
        }
    }

    func hierarchicalHandwritten(_ machine: SyntheticHierarchy) -> Double {
        value("hierarchical.handwritten.\(machine.sizeName)") { compileSeconds(machine.handwrittenSwift, module: "HandwrittenHierarchy") }
    }

    func hierarchicalHandwrittenPerLeaf(_ machine: SyntheticHierarchy) -> Double {
        value("hierarchical.handwritten_per_leaf.\(machine.sizeName)") {
            compileSeconds(machine.handwrittenSwiftMethodPerLeaf, module: "HandwrittenHierarchy")
        }
    }
}

/// The statechart of the hierarchical figures: 200 leaves four composites deep, 50 events.
let compileHierarchy = SyntheticHierarchy()

/// The compiler's figures: the 200×50 comparison, the hierarchical 200×50 comparison, then every
/// size and its cost per pair.
let compileBenchmarks: [Benchmark] = [
    Benchmark(name: "compile.generated.s") { Measurements.shared.generated(states: 200, events: 50) },
    Benchmark(name: "compile.handwritten.s") { Measurements.shared.handwritten(states: 200, events: 50) },
    Benchmark(name: "compile.generated_over_handwritten.percent", goal: 120) {
        100 * Measurements.shared.generated(states: 200, events: 50) / Measurements.shared.handwritten(states: 200, events: 50)
    },
    // Issue 9: the generated Swift of a statechart (SyntheticHierarchy: 200 leaves under four levels
    // of composites, 37 of 50 events inherited) over the flat Swift written by hand for it.
    Benchmark(name: "compile.hierarchical.generated.s") { Measurements.shared.hierarchicalGenerated(compileHierarchy) },
    Benchmark(name: "compile.hierarchical.handwritten.s") { Measurements.shared.hierarchicalHandwritten(compileHierarchy) },
    Benchmark(name: "compile.hierarchical.generated_over_handwritten.percent", goal: 120) {
        100 * Measurements.shared.hierarchicalGenerated(compileHierarchy) / Measurements.shared.hierarchicalHandwritten(compileHierarchy)
    },
    // The same against a hand-written file split into one method per leaf, as the generated one
    // is: the stricter comparison (not the goal's figure, which compares with the plain nested
    // switch, as compile.generated_over_handwritten.percent does).
    Benchmark(name: "compile.hierarchical.handwritten_per_leaf.s") { Measurements.shared.hierarchicalHandwrittenPerLeaf(compileHierarchy) },
    Benchmark(name: "compile.hierarchical.generated_over_handwritten_per_leaf.percent") {
        100 * Measurements.shared.hierarchicalGenerated(compileHierarchy) / Measurements.shared.hierarchicalHandwrittenPerLeaf(compileHierarchy)
    },
] + compileSizes.flatMap { states, events in
    [
        Benchmark(name: "compile.generated.\(states)x\(events).s") { Measurements.shared.generated(states: states, events: events) },
        Benchmark(name: "compile.generated.\(states)x\(events).us_per_pair") {
            1e6 * Measurements.shared.generated(states: states, events: events) / Double(states * events)
        },
    ]
}

/// `stateloop-bench --write-compile-sources DIR`: writes the specs and the Swift the compile figures
/// compile (at 200 × 50) into DIR, to read them or to compile one by hand, and exits.
enum CompileSourcesMode {
    static let option = "--write-compile-sources"

    /// Runs the mode named by `arguments` and exits; returns when they name none.
    static func runIfRequested(_ arguments: [String]) {
        guard arguments.dropFirst().first == option, arguments.count == 3 else { return }
        let directory = URL(fileURLWithPath: arguments[2])
        let flat = SyntheticMachine(states: 200, events: 50)
        let files = [
            ("Synthetic.machine.yml", flat.yaml),
            ("Synthetic.swift", generatedSwift(flat)),
            ("Handwritten.swift", flat.handwrittenSwift),
            ("SyntheticHierarchy.machine.yml", compileHierarchy.yaml),
            ("SyntheticHierarchy.swift", generatedSwift(yaml: compileHierarchy.yaml, path: "SyntheticHierarchy.machine.yml")),
            ("HandwrittenHierarchy.swift", compileHierarchy.handwrittenSwift),
            ("HandwrittenHierarchyPerLeaf.swift", compileHierarchy.handwrittenSwiftMethodPerLeaf),
        ]
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for (name, text) in files { try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        } catch {
            fatalError("\(error)")
        }
        print("wrote \(files.map(\.0).joined(separator: ", ")) to \(directory.path)")
        exit(0)
    }
}
