#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

// The one place the generator writes to disk. Writing only changed bytes keeps incremental builds
// incremental (an untouched file keeps its modification date); writing a temporary file in the
// same directory and renaming it over the target means a reader sees the old file or the new
// one, never half of one, even if the process dies midway.
//
// A process killed between the two (SIGKILL, a file size limit) leaves its temporary file. Its
// name carries the writer's process id, so the next write into that folder removes every
// temporary file whose process is gone, and never one that a running writer (a parallel build
// command writing into the same folder) still needs.

/// Writes generated files: only when their bytes change, and atomically.
public enum OutputWriter {
    /// Writes `text` (UTF-8) to `path` unless the file already holds exactly these bytes.
    ///
    /// - Returns: `true` when the file was written, `false` when it was already up to date.
    /// - Throws: `FileError`, in words, when the folder is missing or not writable, or `path` is a folder.
    @discardableResult
    public static func writeIfChanged(_ text: String, to path: String) throws(FileError) -> Bool {
        try writeIfChanged(Array(text.utf8), to: path)
    }

    /// Writes `bytes` to `path` unless the file already holds exactly these bytes.
    @discardableResult
    public static func writeIfChanged(_ bytes: [UInt8], to path: String) throws(FileError) -> Bool {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        removeAbandonedTemporaryFiles(in: directory)
        if isRegularFile(path), let existing = try? FileReader.contents(of: path), existing == bytes {
            return false
        }
        let temporary = (directory as NSString).appendingPathComponent(
            ".\(url.lastPathComponent).\(UUID().uuidString)\(temporaryMarker)\(getpid()).tmp")
        do throws(FileError) {
            try writeNewFile(temporary, bytes, for: path)
            // rename(2) replaces the target in one step on the same file system.
            guard rename(temporary, path) == 0 else { throw FileError(path: path, code: errno) }
        } catch {
            unlink(temporary)
            throw error
        }
        return true
    }

    /// Creates the folder `path` and any missing folders above it.
    ///
    /// - Throws: `FileError` at `path` in words ("out is a file, not a folder", "permission denied").
    public static func createDirectory(_ path: String) throws(FileError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + component
            if mkdir(prefix, 0o777) != 0, errno != EEXIST { throw FileError(path: path, code: errno) }
            var status = stat()
            guard stat(prefix, &status) == 0 else { throw FileError(path: path, code: errno) }
            guard status.st_mode & S_IFMT == S_IFDIR else { throw FileError(path: path, code: ENOTDIR) }
        }
    }

    /// What stands between a temporary file's name and its writer's process id.
    static let temporaryMarker = ".stateloop-"

    /// Removes the temporary files of writers that died before renaming them.
    static func removeAbandonedTemporaryFiles(in directory: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            guard let marker = name.range(of: temporaryMarker, options: .backwards),
                  let pid = pid_t(name[marker.upperBound...].dropLast(".tmp".count)),
                  pid != getpid(), kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            unlink((directory as NSString).appendingPathComponent(name))
        }
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// Writes `bytes` into the new file `temporary` (it must not exist yet); failures are `target`'s.
    private static func writeNewFile(_ temporary: String, _ bytes: [UInt8], for target: String) throws(FileError) {
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            // The temporary file is new, so a missing name is a missing folder.
            throw errno == ENOENT ? FileError(path: target, reason: "its folder does not exist", code: ENOENT) : FileError(path: target, code: errno)
        }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileError(path: target, code: errno)
            }
            written += count
        }
    }
}
