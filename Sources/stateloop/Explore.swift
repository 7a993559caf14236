import ArgumentParser
import Foundation
import StateLoopCodegen
import StateLoopSpec

/// `stateloop explore SPEC [--walks N] [--steps N] [--seed N] [--exhaustive [--depth N]]`
/// (Docs/Testing.md V19-V26).
struct Explore: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Search a machine for a run that breaks an invariant, and print it as a test.",
        discussion: """
            Checks the spec, generates its Swift, compiles it with StateLoopTesting in a throwaway \
            package and runs MachineTest.explore from State.initial: random walks that send every \
            event not `from: effects`, answer pending runs with their results and move the clock, \
            checking the invariants after every step. Payloads are drawn by the built-in \
            generators, so every event's payload must be Bool, Int, String or an optional of one; \
            another type, or `input:`, is an error at its YAML line (explore such a machine from a \
            test with MachineTest.explore and a Gen of your own).

            Prints each run that breaks an invariant, shrunk, as a MachineTest to paste, then a \
            summary and the transitions taken; the transitions no step took are warnings on \
            standard error. The same --seed prints the same runs. The first run also compiles \
            StateLoop into the scratch folder; later runs reuse it.

            Exit status: 0 no invariant broken, 1 a counterexample found (or a step trapped), 2 \
            bad input: spec errors, a payload without a generator, bad options, Swift that does \
            not compile.
            """
    )

    @Argument(help: "The spec file (*.machine.yml or *.machine.yaml).")
    var spec: String

    @Option(help: "The number of random walks (default 100).")
    var walks: Int?

    @Option(help: "The most steps of a walk (default 50).")
    var steps: Int?

    @Option(help: "The seed of the walks (default: a random one, printed); the same seed gives the same walks.")
    var seed: UInt64?

    @Flag(help: "Search breadth first every run up to --depth steps (MachineTest.exploreAll) instead of walking at random.")
    var exhaustive = false

    @Option(help: "With --exhaustive, the most steps of a run (default 10).")
    var depth: Int?

    @Option(name: .customLong("child"), help: ArgumentHelp("A spec the spec may run as a child machine ('machine: Name'); repeatable.", valueName: "child"))
    var children: [String] = []

    @Option(help: ArgumentHelp("The StateLoop package to compile with (default: $STATELOOP_PACKAGE, else the one this stateloop was built in).", valueName: "dir"))
    var packagePath: String?

    @Option(help: ArgumentHelp("The folder of the throwaway package, kept between runs (default: .build/explore in the StateLoop package).", valueName: "dir"))
    var scratchPath: String?

    func validate() throws {
        for (name, value) in [("--walks", walks), ("--steps", steps), ("--depth", depth)] {
            if let value, value < 1 { throw ValidationError("\(name) must be at least 1.") }
        }
        if exhaustive, walks != nil || steps != nil || seed != nil {
            throw ValidationError("--walks, --steps and --seed choose random walks; --exhaustive searches every run up to --depth.")
        }
        if !exhaustive, depth != nil {
            throw ValidationError("--depth is the depth of --exhaustive; random walks take --steps.")
        }
    }

    func run() throws {
        let read = try ChildSpecs(specs: [spec], children: children)
        let loaded = GeneratorPipeline.load(contents: read.contents(of: spec), path: spec, library: read.library, lock: try Console.readLock(besideSpec: spec))
        guard let machine = loaded.spec else {
            Console.report(loaded.diagnostics)
            throw ExitCode.usageOrIO
        }
        let generators = ExplorationGenerators(machine)
        Console.report((loaded.diagnostics + generators.problems).sorted { $0.location < $1.location })
        guard generators.problems.isEmpty else { throw ExitCode.usageOrIO }

        let stateLoop = try ExplorationPackage.stateLoopPackage(packagePath)
        let scratch = scratchPath.map { URL(fileURLWithPath: $0) } ?? stateLoop.appending(path: ".build/explore")
        let package = ExplorationPackage(folder: scratch.standardizedFileURL, stateLoop: stateLoop)
        let files = try Self.sources(of: machine, generators: generators, library: read.library)
        var arguments = exhaustive
            ? ["--depth", "\(depth ?? 10)"]
            : ["--walks", "\(walks ?? 100)", "--steps", "\(steps ?? 50)", "--seed", "\(seed ?? .random(in: .min ... .max))"]
        let directory = (spec as NSString).deletingLastPathComponent
        if !directory.isEmpty { arguments += ["--spec-directory", directory] }
        do {
            try OutputWriter.createDirectory(scratch.path)
        } catch {
            throw Console.fail("cannot make the scratch folder", error)
        }
        let status = try package.locked {
            try package.write(files)
            try package.build()
            return try package.explore(arguments)
        }
        switch status {
        case 0: return
        case 1, 2: throw ExitCode(status)
        default:
            let how = status > 128 ? "on signal \(status - 128)" : "with status \(status)"
            throw Console.fail("the exploration stopped \(how): a step trapped (an overflow, a force unwrap, a precondition); the lines above say where", about: spec, status: .counterexampleFound)
        }
    }

    /// The package's sources: the machine's Swift, its child machines' (which it names as types),
    /// and `main.swift`.
    static func sources(of machine: CheckedMachineSpec, generators: ExplorationGenerators, library: MachineLibrary) throws -> [String: String] {
        let pipeline = GeneratorPipeline()
        var files = [SpecFileNaming.outputFileName(forSpecAt: machine.file): pipeline.generate(spec: machine)]
        var children = Array(machine.children.values)
        var seen: Set<String> = [machine.name.value]
        while let child = children.popLast() {
            guard seen.insert(child.name.value).inserted else { continue }
            let loaded = GeneratorPipeline.load(contents: try Console.readSpec(child.file), path: child.file, library: library, lock: try Console.readLock(besideSpec: child.file))
            guard let checked = loaded.spec else {
                Console.report(loaded.diagnostics)
                throw ExitCode.usageOrIO
            }
            files[SpecFileNaming.outputFileName(forSpecAt: child.file)] = pipeline.generate(spec: checked)
            children += checked.children.values
        }
        let name = machine.name.value
        files["main.swift"] = """
            // Written by `stateloop explore`: explores \(name). Do not edit.
            import StateLoop
            @_spi(Internals) import StateLoopTesting

            ExplorationTool.main(
                \(name).self, state: .initial,
                sending: [\(generators.sending.joined(separator: ", "))],
                answering: [\(generators.answering.joined(separator: ", "))]
            )

            """
        return files
    }
}
