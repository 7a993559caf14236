// ExplorationPackage: the throwaway SwiftPM package `stateloop explore` compiles a machine in
// (Docs/Testing.md V25, V26). Guards, actions and invariants are Swift, so exploring needs the
// generated reducer compiled; `MachineInterpreter` runs the statechart rules but leaves every
// expression to a host, which only the compiler can be.
//
// Layout, in the scratch folder (kept, so a rerun builds incrementally):
//
//   StateLoop -> the StateLoop package (a link: SwiftPM names a path dependency by its folder)
//   Explore/Package.swift                  depends on ../StateLoop: StateLoop, StateLoopTesting
//   Explore/Sources/Explore/*.machine.swift  the machine and its children, generated
//   Explore/Sources/Explore/main.swift       ExplorationTool.main(Machine.self, ...)
//   .lock                                   held while one run writes, builds and runs
import ArgumentParser
import Foundation
import StateLoopCodegen

struct ExplorationPackage {
    /// The scratch folder.
    let folder: URL
    /// The StateLoop package the throwaway package depends on.
    let stateLoop: URL

    var package: URL { folder.appending(path: "Explore") }
    var sources: URL { package.appending(path: "Sources/Explore") }
    var executable: URL { package.appending(path: ".build/debug/Explore") }

    /// The StateLoop package: `packagePath`, else `STATELOOP_PACKAGE`, else the package this
    /// executable was built in (`<package>/.build/<triple>/debug/stateloop`); an error and exit
    /// status 2 when none is a StateLoop package (V26).
    static func stateLoopPackage(_ packagePath: String?) throws -> URL {
        let fix = "pass --package-path DIR or set STATELOOP_PACKAGE=DIR, DIR a clone of StateLoop"
        if let given = packagePath ?? ProcessInfo.processInfo.environment["STATELOOP_PACKAGE"] {
            let url = URL(fileURLWithPath: given).standardizedFileURL
            guard isStateLoop(url) else {
                Console.report([.error("not a StateLoop package: no Package.swift of the package 'StateLoop' here", at: .wholeFile(given), fixIt: fix)])
                throw ExitCode.usageOrIO
            }
            return url
        }
        var folder = URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0]).resolvingSymlinksInPath()
        while folder.pathComponents.count > 1 {
            folder.deleteLastPathComponent()
            if isStateLoop(folder) { return folder }
        }
        Console.report([.error("cannot find the StateLoop package this stateloop was built in", at: .wholeFile(CommandLine.arguments[0]), fixIt: fix)])
        throw ExitCode.usageOrIO
    }

    private static func isStateLoop(_ folder: URL) -> Bool {
        guard let manifest = try? String(contentsOf: folder.appending(path: "Package.swift"), encoding: .utf8) else { return false }
        return manifest.contains("name: \"StateLoop\"")
    }

    /// Runs `body` holding the scratch folder's lock: two runs never write or build it at once.
    func locked<T>(_ body: () throws -> T) throws -> T {
        let lock = folder.appending(path: ".lock").path
        let descriptor = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Console.fail("cannot lock the scratch folder: \(String(cString: strerror(errno)))", about: lock) }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX) == 0 else { throw Console.fail("cannot lock the scratch folder: \(String(cString: strerror(errno)))", about: lock) }
        return try body()
    }

    /// Writes the package: the manifest, the link to StateLoop, `files` (name -> source) as its
    /// only sources. A file whose bytes did not change is left as it is, so the build is incremental.
    func write(_ files: [String: String]) throws {
        do {
            try OutputWriter.createDirectory(sources.path)
            let link = folder.appending(path: "StateLoop")
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) != stateLoop.path {
                try? FileManager.default.removeItem(at: link)
                try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: stateLoop.path)
            }
            _ = try OutputWriter.writeIfChanged(Self.manifest, to: package.appending(path: "Package.swift").path)
            for name in try FileManager.default.contentsOfDirectory(atPath: sources.path) where files[name] == nil {
                try FileManager.default.removeItem(at: sources.appending(path: name))
            }
            for (name, source) in files {
                _ = try OutputWriter.writeIfChanged(source, to: sources.appending(path: name).path)
            }
        } catch let error as FileError {
            throw Console.fail("cannot write the exploration package", error)
        } catch {
            throw Console.fail("cannot write the exploration package: \(error.localizedDescription)", about: folder.path)
        }
    }

    static let manifest = """
        // swift-tools-version: 6.1
        // Written by `stateloop explore`: the machine explored, compiled against StateLoop. Do not edit.
        import PackageDescription

        let package = Package(
            name: "Explore",
            platforms: [.macOS(.v14)],
            dependencies: [.package(path: "../StateLoop")],
            targets: [
                .executableTarget(
                    name: "Explore",
                    dependencies: [.product(name: "StateLoop", package: "StateLoop"), .product(name: "StateLoopTesting", package: "StateLoop")]
                ),
            ],
            swiftLanguageModes: [.v6]
        )

        """

    /// Builds the package with `swift build`; its output is printed only when it fails (the
    /// compiler's errors in the spec's Swift are at their YAML lines, `#sourceLocation`).
    func build() throws {
        if !FileManager.default.fileExists(atPath: executable.path) {
            Console.printError("note: compiling StateLoop with the machine in \(folder.path), this first time only; later runs reuse it")
        }
        let (status, output) = try Self.run("/usr/bin/env", ["swift", "build", "--package-path", package.path, "--product", "Explore"], capturing: true)
        guard status == 0 else {
            Console.printError(output.trimmingCharacters(in: .newlines))
            throw Console.fail("the machine did not compile with StateLoop (\(stateLoop.path)): the compiler's errors are above, those of the spec's Swift at their YAML lines", about: package.path)
        }
    }

    /// Runs the built exploration with `arguments`, its output going straight to this process's,
    /// and returns its exit status.
    func explore(_ arguments: [String]) throws -> Int32 {
        let (status, _) = try Self.run(executable.path, arguments, capturing: false)
        return status
    }

    /// Runs `program`; with `capturing`, returns what it printed on standard output and error.
    private static func run(_ program: String, _ arguments: [String], capturing: Bool) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let pipe = Pipe()
        if capturing {
            process.standardOutput = pipe
            process.standardError = pipe
        }
        do {
            try process.run()
        } catch {
            throw Console.fail("cannot run \(program): \(error.localizedDescription)", about: program)
        }
        let output = capturing ? String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) : ""
        process.waitUntilExit()
        if process.terminationReason == .uncaughtSignal {
            return (128 + process.terminationStatus, output)
        }
        return (process.terminationStatus, output)
    }
}
