import Foundation

/// Runs Graphviz `dot` to turn DOT text (from `DOTRenderer`) into an SVG or PNG picture.
///
/// The DOT goes to `dot`'s standard input and the picture comes back from its standard output;
/// nothing is written to disk. `dot` is looked up on `PATH` at render time, so a missing
/// Graphviz is reported by `render` as `GraphvizError.dotNotFound` with install instructions,
/// and a failing `dot` as `GraphvizError.dotFailed` with what it printed on standard error.
///
/// ```swift
/// let png = try Graphviz().render(DOTRenderer().render(spec), format: .png)
/// ```
public struct Graphviz: Sendable {
    /// The picture formats `render` can produce (the `-T` option of `dot`).
    public enum Format: String, CaseIterable, Sendable {
        /// Scalable vector graphics, text: for the web and READMEs.
        case svg
        /// A bitmap.
        case png
    }

    /// Where the `dot` executable comes from.
    private enum Executable: Sendable {
        case searchPath(String)
        case path(String)
    }

    private let executable: Executable

    /// Finds `dot` in the folders of `searchPath`, a `PATH`-style list (`/usr/local/bin:/usr/bin`).
    /// By default the process's `PATH`.
    public init(searchPath: String? = nil) {
        executable = .searchPath(searchPath ?? ProcessInfo.processInfo.environment["PATH"] ?? "")
    }

    /// Uses the `dot` executable at `path` (for example a Graphviz outside `PATH`).
    public init(executablePath path: String) {
        executable = .path(path)
    }

    /// The first executable named `dot` in the folders of `searchPath`, or `nil`. Empty entries
    /// are skipped rather than read as the current folder, so the working directory cannot
    /// supply a `dot`.
    public static func findDot(searchPath: String) -> String? {
        for folder in searchPath.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("dot").path
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isFolder), !isFolder.boolValue,
               FileManager.default.isExecutableFile(atPath: candidate) {
                return candidate
            }
        }
        return nil
    }

    /// Renders `dot` text to `format` with `dot -T<format>` and returns the picture's bytes.
    ///
    /// Blocks the calling thread until `dot` exits.
    /// - Throws: `GraphvizError` when `dot` is missing, cannot start, or fails (with its stderr).
    public func render(_ dot: String, format: Format) throws(GraphvizError) -> [UInt8] {
        let path: String
        switch executable {
        case .path(let explicit):
            path = explicit
        case .searchPath(let searchPath):
            guard let found = Self.findDot(searchPath: searchPath) else {
                throw .dotNotFound(searchPath: searchPath)
            }
            path = found
        }
        return try run(path, arguments: ["-T\(format.rawValue)"], input: Array(dot.utf8))
    }

    /// Runs `executable` with `input` on standard input, collecting standard output and error.
    ///
    /// Input is written and both outputs are read concurrently: done one after the other, a large
    /// graph fills a pipe buffer and both processes wait for each other forever.
    private func run(_ executable: String, arguments: [String], input: [UInt8]) throws(GraphvizError) -> [UInt8] {
        Self.ignoreBrokenPipes
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let standardInput = Pipe()
        let standardOutput = Pipe()
        let standardError = Pipe()
        process.standardInput = standardInput
        process.standardOutput = standardOutput
        process.standardError = standardError
        do {
            try process.run()
        } catch {
            throw .launchFailed(executable: executable, reason: "\(error.localizedDescription)")
        }

        let errorBytes = ByteCollector()
        let group = DispatchGroup()
        let inputHandle = standardInput.fileHandleForWriting
        DispatchQueue.global().async(group: group) {
            // A `dot` that stops reading early (a syntax error) makes this write fail; its exit
            // status and stderr then tell the story, so the write error itself is not reported.
            try? inputHandle.write(contentsOf: Data(input))
            try? inputHandle.close()
        }
        let errorHandle = standardError.fileHandleForReading
        DispatchQueue.global().async(group: group) {
            errorBytes.store(errorHandle.readDataToEndOfFile())
        }
        let output = standardOutput.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()

        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw .dotFailed(
                executable: executable,
                status: process.terminationStatus,
                standardError: String(decoding: errorBytes.bytes, as: UTF8.self)
            )
        }
        return Array(output)
    }

    /// Writing to a pipe whose reader has exited raises SIGPIPE, which by default kills the
    /// writer — here the whole CLI or test runner — instead of failing the write. Ignoring it
    /// (once, for the process) turns that into an EPIPE error the runner handles.
    private static let ignoreBrokenPipes: Void = {
        signal(SIGPIPE, SIG_IGN)
    }()
}

/// Bytes handed from the stderr-reading thread to the caller; the lock makes the hand-over safe.
private final class ByteCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func store(_ data: Data) {
        lock.withLock { self.data = data }
    }

    var bytes: Data {
        lock.withLock { data }
    }
}
