// ReadmeTour: the README's tour as the tests read it, so that what it tells a user to write, and
// what it says they will see, is what the tests build and check.

import Foundation

/// The fenced blocks of README.md's "A tour" section, each under the name the README gives it.
///
/// The convention (README.md says it in a comment at the tour): the line before a fenced block
/// ends with a name in backticks and a colon — a file of the package, such as
/// `` `Sources/DoorApp/Door.machine.yml`: ``, or a command whose output the block shows, such as
/// `` `swift run` prints: ``. A block without such a line is not part of the tour's checked text.
public struct ReadmeTour: Sendable {
    /// The StateLoop repository root, found from this file's path.
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The text of the README's "A tour" section.
    public let text: String
    /// Each named block's text (without its fences, ending in a newline), by name.
    public let blocks: [String: String]

    /// Reads README.md of this repository.
    public init() throws {
        try self.init(readme: String(contentsOf: Self.repositoryRoot.appending(path: "README.md"), encoding: .utf8))
    }

    /// Reads the tour out of README text.
    public init(readme: String) throws {
        let lines = readme.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "## A tour") else { throw Problem("README.md has no '## A tour' section") }
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("## ") } ?? lines.endIndex
        let section = Array(lines[start..<end])
        text = section.joined(separator: "\n")
        var blocks: [String: String] = [:]
        var index = 0
        while index < section.count {
            guard section[index].hasPrefix("```") else {
                index += 1
                continue
            }
            let close = try section[(index + 1)...].firstIndex(of: "```") ?? { throw Problem("a fenced block of the tour is not closed") }()
            let previous = section[..<index].last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
            if let name = Self.name(labelling: previous) {
                guard blocks[name] == nil else { throw Problem("the tour has two blocks named '\(name)'") }
                blocks[name] = section[(index + 1)..<close].map { $0 + "\n" }.joined()
            }
            index = close + 1
        }
        self.blocks = blocks
    }

    /// The block named `name`; throws when the tour has none.
    public func block(_ name: String) throws -> String {
        guard let block = blocks[name] else {
            throw Problem("the README's tour names no block '\(name)' (it names: \(blocks.keys.sorted().joined(separator: ", ")))")
        }
        return block
    }

    /// The lines of the block named `name` that contain `text`.
    public func lines(of name: String, containing text: String) throws -> [String] {
        try block(name).components(separatedBy: "\n").filter { $0.contains(text) }
    }

    /// `PATH` for a line ending in `` `PATH`: ``; `COMMAND` for one ending in `` `COMMAND` prints: ``.
    static func name(labelling line: String) -> String? {
        var line = line.trimmingCharacters(in: .whitespaces)
        guard line.hasSuffix("`:") || line.hasSuffix("` prints:") else { return nil }
        line.removeLast(line.hasSuffix("`:") ? 2 : "` prints:".count)
        guard let open = line.lastIndex(of: "`") else { return nil }
        return String(line[line.index(after: open)...])
    }

    /// Why the tour could not be read.
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
