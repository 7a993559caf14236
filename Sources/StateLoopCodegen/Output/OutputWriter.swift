import Foundation

// The one place the generator writes to disk. Writing only changed bytes keeps incremental builds
// incremental (an untouched file keeps its modification date); writing a temporary file in the
// same directory and renaming it over the target means a reader sees the old file or the new
// one, never half of one, even if the process dies midway.

/// Writes generated files: only when their bytes change, and atomically.
public enum OutputWriter {
    /// Writes `text` (UTF-8) to `path` unless the file already holds exactly these bytes.
    ///
    /// - Returns: `true` when the file was written, `false` when it was already up to date.
    /// - Throws: the file system's error when the directory is missing or not writable.
    @discardableResult
    public static func writeIfChanged(_ text: String, to path: String) throws -> Bool {
        let data = Data(text.utf8)
        let url = URL(fileURLWithPath: path)
        if let existing = try? Data(contentsOf: url), existing == data {
            return false
        }
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try data.write(to: temporary, options: .withoutOverwriting)
            // rename(2) replaces the target in one step on the same file system.
            guard rename(temporary.path, url.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [
                    NSFilePathErrorKey: path,
                    NSLocalizedDescriptionKey: "cannot replace \(path): \(String(cString: strerror(errno)))",
                ])
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        return true
    }
}
