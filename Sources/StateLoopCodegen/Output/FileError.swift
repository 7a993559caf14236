#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// What the CLI says when the file system refuses: in words, at the path concerned, instead of
// Foundation's "The operation could not be completed (NSCocoaErrorDomain error 512)". Every
// reading and writing of files (FileReader, OutputWriter) fails with one of these.

/// A file system failure: the path it concerns and, in words, what went wrong.
public struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path the failure concerns, as the caller gave it.
    public var path: String
    /// What went wrong, as the rest of "cannot read the spec: ..." ("permission denied").
    public var reason: String
    /// The `errno` behind it, when there is one (`EISDIR` lets a caller add advice).
    public var code: Int32?

    /// A failure with its own words.
    public init(path: String, reason: String, code: Int32? = nil) {
        self.path = path
        self.reason = reason
        self.code = code
    }

    /// The failure `errno` `code` of an operation on `path`, in words; a path that runs through a
    /// file (`ENOTDIR`) names that file.
    public init(path: String, code: Int32) {
        self.init(path: path, reason: Self.words(for: code, path: path), code: code)
    }

    public var description: String { reason }

    static func words(for code: Int32, path: String) -> String {
        switch code {
        case ENOENT: "no such file"
        case ENOTDIR: Self.fileInTheWay(of: path).map { "\($0) is a file, not a folder" } ?? "a part of the path is a file, not a folder"
        case EISDIR: "it is a folder"
        case EACCES, EPERM: "permission denied"
        case EROFS: "the file system is read-only"
        case ENOSPC: "the disk is full"
        case EEXIST: "it already exists"
        case ENAMETOOLONG: "the name is too long"
        case ELOOP: "it runs through too many symbolic links"
        default:
            String(cString: strerror(code)).lowercased()
        }
    }

    /// The first leading part of `path` (as written) that exists and is not a folder.
    static func fileInTheWay(of path: String) -> String? {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + component
            var status = stat()
            guard stat(prefix, &status) == 0 else { return nil }
            if status.st_mode & S_IFMT != S_IFDIR { return prefix }
        }
        return nil
    }
}
