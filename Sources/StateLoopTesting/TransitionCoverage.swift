// TransitionCoverage: which branches of each spec the harness's steps took (T11-T13).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import StateLoop

/// The branches (`StateMachine.transitions`) each machine has taken in this process, as the
/// harness records them: every `MachineTest` step reduces with a `TransitionTrace` and adds the
/// ids taken to its registry, `shared` unless it was given another.
///
/// When the environment variable `STATELOOP_COVERAGE` names a directory, the shared registry
/// writes what it holds there as the process exits (see `writeTaken(toDirectory:processID:)`),
/// for `stateloop coverage` to merge.
///
/// `@unchecked Sendable` because every mutable field is touched only under `lock`: tests record
/// from any thread.
public final class TransitionCoverage: @unchecked Sendable {
    /// The registry every `MachineTest` records into unless given another.
    public static let shared: TransitionCoverage = {
        installExitWriter()
        return TransitionCoverage()
    }()

    /// The environment variable that names the directory the shared registry writes to at exit.
    public static let directoryVariable = "STATELOOP_COVERAGE"

    /// What the registry knows of one machine.
    private struct Machine {
        var specFile: String
        var transitions: [TransitionInfo]
        var taken: Set<Int> = []
    }

    private let lock = NSLock()
    // Guarded by `lock`.
    private var machines: [ObjectIdentifier: Machine] = [:]

    /// An empty registry, separate from `shared`.
    public init() {}

    /// Adds `taken` (ids into `M.transitions`) to what `machine` has taken. Recording an empty
    /// list still registers the machine, so that it is written (with nothing taken) at exit.
    public func record<M: StateMachine>(_ machine: M.Type, taken: some Sequence<Int>) {
        lock.withLock {
            machines[ObjectIdentifier(machine), default: Machine(specFile: M.specFile, transitions: M.transitions)]
                .taken.formUnion(taken)
        }
    }

    /// The ids of `M.transitions` that `machine` has taken so far.
    public func taken<M: StateMachine>(_ machine: M.Type) -> Set<Int> {
        lock.withLock { machines[ObjectIdentifier(machine)]?.taken ?? [] }
    }

    /// The branches of `machine` never taken so far, with a summary.
    ///
    /// - Parameter specDirectory: the directory the warnings' paths start with; without it,
    ///   they are `M.specFile` alone.
    public func report<M: StateMachine>(_ machine: M.Type, specDirectory: String? = nil) -> CoverageReport {
        let path = specDirectory.map { ($0.hasSuffix("/") ? $0 : $0 + "/") + M.specFile } ?? M.specFile
        return CoverageReport(
            machine: ValueDump.typeName(machine),
            specPath: path, transitions: M.transitions, taken: taken(machine)
        )
    }

    /// Writes one file per spec file recorded, `DIRECTORY/<specFile>.<processID>.taken`, with one
    /// line `LINE:COL` per branch taken, sorted; the directory is created if missing.
    ///
    /// Each file is written to a new temporary file in the directory (created with `O_EXCL` and
    /// `O_NOFOLLOW`, so that no planted link is followed) and renamed over its name: a link planted
    /// at that name is replaced, and its target is never written (T15).
    ///
    /// - Throws: `CoverageWriteError`, in words ("DIR is a file, not a folder", "permission denied").
    public func writeTaken(toDirectory directory: String, processID: Int32) throws {
        var lines = [String: Set<TransitionInfo>]()
        lock.withLock {
            for machine in machines.values {
                lines[machine.specFile, default: []].formUnion(machine.transitions.filter { machine.taken.contains($0.id) })
            }
        }
        try CoverageFiles.createDirectory(directory)
        for (specFile, taken) in lines.sorted(by: { $0.key < $1.key }) {
            let text = taken.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
                .map { "\($0.line):\($0.column)\n" }.joined()
            let path = (directory.hasSuffix("/") ? directory : directory + "/") + "\(specFile).\(processID).taken"
            try CoverageFiles.replace(path, with: Array(text.utf8), directory: directory)
        }
    }

    /// Registers the exit writer of the shared registry if `STATELOOP_COVERAGE` is set.
    private static func installExitWriter() {
        guard ProcessInfo.processInfo.environment[directoryVariable] != nil else { return }
        // A C function pointer: no captures, so it reads the shared registry when it runs.
        atexit {
            guard let directory = ProcessInfo.processInfo.environment[TransitionCoverage.directoryVariable] else { return }
            do {
                try TransitionCoverage.shared.writeTaken(
                    toDirectory: directory, processID: ProcessInfo.processInfo.processIdentifier
                )
            } catch {
                FileHandle.standardError.write(Data("stateloop: \(error)\n".utf8))
            }
        }
    }
}

/// The branches of a machine its tests never took, as `stateloop` prints warnings:
///
/// ```
/// GitHubSearch.machine.yml:48:31: warning: transition never taken in tests: failed --scrolledNearBottom--> loading
/// GitHubSearch: 6/7 transitions taken, 2/4 ignores
/// ```
public struct CoverageReport: Hashable, Sendable, CustomStringConvertible {
    /// The machine's type name: `GitHubSearch`.
    public var machine: String
    /// The spec's path as the warnings start with it.
    public var specPath: String
    /// Every branch of the spec, `StateMachine.transitions`.
    public var transitions: [TransitionInfo]
    /// The ids of the branches taken.
    public var taken: Set<Int>

    public init(machine: String, specPath: String, transitions: [TransitionInfo], taken: Set<Int>) {
        self.machine = machine
        self.specPath = specPath
        self.transitions = transitions
        self.taken = taken
    }

    /// The branches never taken, in `transitions` order.
    public var untaken: [TransitionInfo] {
        transitions.filter { !taken.contains($0.id) }
    }

    /// One warning per branch never taken: `PATH:LINE:COL: warning: transition never taken in tests: ...`.
    public var warnings: [String] {
        untaken.map(warning)
    }

    /// The warnings of the branches never taken but the ignores: what an exploration reports,
    /// whose sends never take an ignore (Docs/Testing.md V9, V23).
    public var transitionWarnings: [String] {
        untaken.filter { !$0.isIgnore }.map(warning)
    }

    private func warning(_ transition: TransitionInfo) -> String {
        "\(specPath):\(transition.line):\(transition.column): warning: transition never taken in tests: \(transition.description)"
    }

    /// `GitHubSearch: 6/7 transitions taken, 2/4 ignores`: the ignores counted apart, and left
    /// out when the spec has none (Docs/Testing.md C8).
    public var summary: String {
        let ignores = transitions.filter(\.isIgnore)
        let takenIgnores = ignores.filter { taken.contains($0.id) }.count
        let all = transitions.count - ignores.count
        let takenAll = transitions.count - untaken.count - takenIgnores
        return "\(machine): \(takenAll)/\(all) transitions taken" + (ignores.isEmpty ? "" : ", \(takenIgnores)/\(ignores.count) ignores")
    }

    /// The warnings, then the summary, one per line.
    public var description: String {
        (warnings + [summary]).joined(separator: "\n")
    }
}

/// Why the coverage files could not be written, in words: `cannot write transition coverage to
/// DIR: DIR is a file, not a folder`.
public struct CoverageWriteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The directory `STATELOOP_COVERAGE` named.
    public var directory: String
    /// What went wrong: `permission denied`, `out is a file, not a folder`.
    public var reason: String

    public var description: String { "cannot write transition coverage to \(directory): \(reason)" }
}

/// The file system calls of `writeTaken`, with `errno` put in words.
enum CoverageFiles {
    /// Creates `directory` and any missing folders above it.
    static func createDirectory(_ directory: String) throws {
        var prefix = directory.hasPrefix("/") ? "/" : ""
        for component in directory.split(separator: "/") {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + component
            if mkdir(prefix, 0o777) != 0, errno != EEXIST { throw failure(directory, errno, at: prefix) }
            var status = stat()
            guard stat(prefix, &status) == 0 else { throw failure(directory, errno, at: prefix) }
            guard status.st_mode & S_IFMT == S_IFDIR else { throw failure(directory, ENOTDIR, at: prefix) }
        }
    }

    /// Writes `bytes` to a new temporary file in `directory` and renames it to `path`: whatever
    /// stands at `path` (a file, a link) is replaced, never written through.
    static func replace(_ path: String, with bytes: [UInt8], directory: String) throws {
        let temporary = (directory.hasSuffix("/") ? directory : directory + "/") + ".\(UUID().uuidString).taken.tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure(directory, errno, at: path) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(descriptor)
                unlink(temporary)
                throw failure(directory, code, at: path)
            }
            written += count
        }
        close(descriptor)
        // rename(2) replaces the name itself, a symbolic link included, in one step.
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw failure(directory, code, at: path)
        }
    }

    private static func failure(_ directory: String, _ code: Int32, at path: String) -> CoverageWriteError {
        let reason = switch code {
        case ENOTDIR: "\(path) is a file, not a folder"
        case EISDIR: "\(path) is a folder"
        case EACCES, EPERM: "\(path): permission denied"
        case EROFS: "\(path): the file system is read-only"
        case ENOSPC: "\(path): the disk is full"
        case ENOENT: "\(path): no such file or folder"
        default: "\(path): " + String(cString: strerror(code)).lowercased()
        }
        return CoverageWriteError(directory: directory, reason: reason)
    }
}
