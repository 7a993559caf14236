#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The one place the CLI reads files from (specs, a configuration, templates). It reads to the end
// of whatever the path is — a regular file, a pipe, a FIFO, standard input (`/dev/stdin`) — as
// `cat` would, but bounded, so that a device that never ends (`/dev/zero`) is an error, not a hang.

/// Reads a whole file, pipe or FIFO.
public enum FileReader {
    /// The most bytes read from one path. The YAML reader accepts far less (a spec is kilobytes);
    /// this only keeps an endless stream from exhausting memory.
    public static let maximumSize = 64 << 20

    /// The bytes at `path`, read to the end.
    ///
    /// - Throws: `FileError` in words: no such file, permission denied, a folder (`code` is
    ///   `EISDIR`), or a stream past `maximumSize`.
    public static func contents(of path: String) throws(FileError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError(path: path, code: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw FileError(path: path, code: errno) }
        let kind = status.st_mode & S_IFMT
        if kind == S_IFDIR { throw FileError(path: path, code: EISDIR) }
        if kind == S_IFREG, Int(status.st_size) > maximumSize {
            throw FileError(path: path, reason: "it is larger than \(maximumSize >> 20) MiB")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, code: errno)
            }
            bytes += chunk[..<count]
            if bytes.count > maximumSize {
                throw FileError(path: path, reason: kind == S_IFREG
                    ? "it is larger than \(maximumSize >> 20) MiB"
                    : "it is not a regular file and goes on past \(maximumSize >> 20) MiB")
            }
        }
    }
}
