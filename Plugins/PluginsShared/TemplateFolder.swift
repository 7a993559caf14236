// Shared, as source, by both plugins and the `stateloop` CLI (each has a symbolic link to this
// file). It owns which files of a folder are templates, and the rule that a build plugin
// reads no template from outside the package it builds: the plugin declares exactly the files the
// CLI will read.
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
        /// The folder cannot be listed or resolved (the reason in words).
        case unreadable(String)
        /// The folder, symlinks resolved, lies outside the boundary.
        case outside
        /// A template of the folder, symlinks resolved, lies outside the boundary.
        case templateOutside(name: String)
        /// A template of the folder is a link to nothing.
        case templateMissing(name: String)

        /// The problem as a sentence about "the templates folder".
        var sentence: String {
            switch self {
            case .missing: "the templates folder does not exist"
            case .notAFolder: "the templates folder is a file, not a folder"
            case .unreadable(let reason): "the templates folder cannot be read: \(reason)"
            case .outside: "the templates folder is outside the package"
            case .templateOutside(let name): "the template \(name) links to a file outside the package"
            case .templateMissing(let name): "the template \(name) links to a file that does not exist"
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

    /// The template files of `directory` with every symbolic link and `..` resolved, provided the
    /// folder and each template lie inside `boundary` (itself resolved): what a build plugin may
    /// read on behalf of a package.
    static func files(in directory: String, inside boundary: String) throws(Failure) -> [String] {
        guard let root = resolved(boundary) else { throw .unreadable("the package folder \(boundary) cannot be resolved") }
        guard let folder = resolved(directory) else { throw errno == ENOENT ? .missing : .unreadable(String(cString: strerror(errno))) }
        guard contains(root, folder) else { throw .outside }
        var files: [String] = []
        for file in try self.files(in: folder) {
            let name = String(file.split(separator: "/").last ?? "")
            guard let target = resolved(file) else { throw .templateMissing(name: name) }
            guard contains(root, target) else { throw .templateOutside(name: name) }
            files.append(target)
        }
        return files
    }

    /// True when `path` is `root` or lies below it (both resolved).
    static func contains(_ root: String, _ path: String) -> Bool {
        path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// `path` with every symbolic link, `.` and `..` resolved, or nil (and `errno`) when it does not exist.
    static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
