// Shared, as source, by the `stateloop` CLI and its tests (each has a symbolic link to this file),
// like SpecFileNaming: it owns which files of a folder are templates.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A folder of `*.mustache` templates that override the built-in ones.
enum TemplateFolder {
    /// The ending of a template's file name.
    static let suffix = ".mustache"

    /// Why a template folder cannot be used.
    enum Failure: Error, Equatable {
        /// Nothing at the path.
        case missing
        /// A file, not a folder.
        case notAFolder
        /// The folder cannot be listed (the reason in words).
        case unreadable(String)

        /// The problem as a sentence about "the templates folder".
        var sentence: String {
            switch self {
            case .missing: "the templates folder does not exist"
            case .notAFolder: "the templates folder is a file, not a folder"
            case .unreadable(let reason): "the templates folder cannot be read: \(reason)"
            }
        }
    }

    /// The template files of `directory`, sorted by name, each as `directory/NAME.mustache`.
    static func files(in directory: String) throws(Failure) -> [String] {
        var status = stat()
        guard stat(directory, &status) == 0 else { throw errno == ENOENT ? .missing : .unreadable(String(cString: strerror(errno))) }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw .notAFolder }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw .unreadable("it cannot be listed")
        }
        let folder = directory.hasSuffix("/") ? directory : directory + "/"
        return names.filter { $0.hasSuffix(suffix) && $0.utf8.count > suffix.utf8.count }.sorted().map { folder + $0 }
    }
}
