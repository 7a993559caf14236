// Shared, as source, by both plugins and the `stateloop` CLI (each has a symbolic link to this
// file, and to TemplateFolder.swift, which it uses). It owns how a target's stateloop-config.json is read: the plugin reads it when SwiftPM
// plans the build (to declare the templates as inputs, and to refuse templates from outside the
// package before anything runs); `stateloop generate --config` reads it again on every run, so an
// edit applies at the next build although SwiftPM does not ask the plugin again. Every problem
// stands at the line and column of the value (or of the JSON mistake) it is about.
import Foundation

/// A target's `stateloop-config.json`: `{"accessLevel": "internal", "templates": "Templates"}`.
struct StateLoopConfiguration: Equatable {
    /// The name of the file, next to a target's sources.
    static let fileName = "stateloop-config.json"

    /// The arguments that make `stateloop generate` read the config at `path` on every run, for
    /// a target of the package in `packageDirectory`: its path, never its values.
    static func generatorArguments(config path: String, packageDirectory: String) -> [String] {
        ["--config", path, "--package-directory", packageDirectory]
    }

    /// A line and a column of the file, 1-based; columns count Unicode scalars, as the spec's do.
    struct Position: Equatable {
        var line: Int
        var column: Int
    }

    /// A string value of the file and where it is written.
    struct Setting: Equatable {
        var value: String
        var position: Position
    }

    /// A problem of the file, at a position, with how to fix it.
    struct Problem: Error, Equatable {
        var file: String
        var position: Position
        var message: String
        var fix: String

        /// The problem in the compiler's form, for the plugin: SwiftPM prints a plugin's
        /// `Diagnostics.error(_:file:line:)` without its file and line. The CLI prints a
        /// `Diagnostic`, which reads the same.
        var compilerStyleError: String {
            "\(file):\(position.line):\(position.column): error: \(message) (fix: \(fix))"
        }
    }

    /// The file's path, as given; problems are reported at it.
    var path: String
    /// `accessLevel` as written (the generator checks that it names an access level).
    var accessLevel: Setting?
    /// `templates` as written: a folder relative to the file's own folder.
    var templates: Setting?

    static let exampleFix = #"write it as {"accessLevel": "internal", "templates": "Templates"}"#
    static let templatesFix = "write the path of a folder of *.mustache files, relative to this file"

    /// Reads the JSON text of the file at `path` (touching nothing on disk).
    ///
    /// - Throws: the problems, at their positions: text that is not JSON, not an object, or a
    ///   value of the wrong type.
    init(json: [UInt8], path: String) throws(ProblemList) {
        self.path = path
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(json), options: [])
        } catch {
            let detail = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String).map { " (\($0))" } ?? ""
            throw ProblemList([Problem(
                file: path, position: Self.position(ofSyntaxError: error, in: json),
                message: "the configuration is not valid JSON\(detail)", fix: Self.exampleFix)])
        }
        guard let values = object as? [String: Any] else {
            throw ProblemList([Problem(file: path, position: Position(line: 1, column: 1), message: "the configuration must be a JSON object", fix: Self.exampleFix)])
        }
        let positions = Self.valuePositions(in: json)
        var problems: [Problem] = []
        func setting(_ key: String, fix: String) -> Setting? {
            guard let value = values[key] else { return nil }
            let position = positions[key] ?? Position(line: 1, column: 1)
            guard let string = value as? String else {
                problems.append(Problem(file: path, position: position, message: "\"\(key)\" must be a string", fix: fix))
                return nil
            }
            return Setting(value: string, position: position)
        }
        accessLevel = setting("accessLevel", fix: #"write it in quotes, as in "internal""#)
        templates = setting("templates", fix: Self.templatesFix)
        guard problems.isEmpty else { throw ProblemList(problems) }
    }

    /// The problems of one file, in the order found.
    struct ProblemList: Error, Equatable {
        var problems: [Problem]
        init(_ problems: [Problem]) { self.problems = problems }
    }

    /// The folder `templates` names, relative to the file's own folder.
    var templatesDirectory: String? {
        guard let templates else { return nil }
        if templates.value.hasPrefix("/") { return templates.value }
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? templates.value : folder + "/" + templates.value
    }

    /// The template files `templates` names, symlinks resolved, all inside `packageDirectory`
    /// (the file's own folder when nil); none without `templates`.
    ///
    /// - Throws: a problem at the `templates` value when the folder is missing, is not a folder,
    ///   or it or one of its templates lies outside the package.
    func templateFiles(packageDirectory: String?) throws(Problem) -> [String] {
        guard let templates, let directory = templatesDirectory else { return [] }
        let boundary = packageDirectory ?? { let folder = (path as NSString).deletingLastPathComponent; return folder.isEmpty ? "." : folder }()
        do {
            return try TemplateFolder.files(in: directory, inside: boundary)
        } catch {
            let fix: String = switch error {
            case .outside, .templateOutside: "keep the templates inside \(boundary)"
            case .missing, .notAFolder, .unreadable, .templateMissing: Self.templatesFix
            }
            throw Problem(file: path, position: templates.position, message: error.sentence, fix: fix)
        }
    }

    /// The position of the value of each key of the top-level object of `json` (valid JSON).
    ///
    /// A scan of the text, not a parser: JSONSerialization has already accepted it, so it only
    /// tracks strings (and their escapes), nesting, and lines.
    static func valuePositions(in json: [UInt8]) -> [String: Position] {
        var positions: [String: Position] = [:]
        var line = 1
        var column = 0  // of the byte at `index`, once counted
        var depth = 0
        var expectingKey = false
        var pendingKey: String?
        var index = 0
        func advance() {
            let byte = json[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 0
            } else if byte & 0xC0 != 0x80 {
                column += 1  // a Unicode scalar starts here
            }
            index += 1
        }
        while index < json.count {
            let byte = json[index]
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") {
                advance()
                continue
            }
            let here = Position(line: line, column: column + 1)
            if depth == 1, !expectingKey, let key = pendingKey, byte != UInt8(ascii: ":") {
                positions[key] = here
                pendingKey = nil
            }
            switch byte {
            case UInt8(ascii: "\""):
                let start = index
                advance()
                while index < json.count, json[index] != UInt8(ascii: "\"") {
                    if json[index] == UInt8(ascii: "\\") { advance() }
                    if index < json.count { advance() }
                }
                if index < json.count { advance() }
                if depth == 1, expectingKey {
                    let literal = Data(json[start..<index])
                    pendingKey = (try? JSONSerialization.jsonObject(with: literal, options: .fragmentsAllowed)) as? String
                    expectingKey = false
                }
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                expectingKey = depth == 1 && byte == UInt8(ascii: "{")
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
            case UInt8(ascii: ","):
                expectingKey = depth == 1
            default:
                break
            }
            advance()
        }
        return positions
    }

    /// Where JSONSerialization says the text goes wrong: "around line L, column C" (Darwin) or
    /// "around character N" (a byte offset, swift-corelibs-foundation); the start otherwise.
    static func position(ofSyntaxError error: any Error, in json: [UInt8]) -> Position {
        let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
        func number(after marker: String) -> Int? {
            guard let range = text.range(of: marker) else { return nil }
            return Int(text[range.upperBound...].prefix { $0.isNumber })
        }
        if let line = number(after: "line "), let column = number(after: "column ") {
            return Position(line: line, column: column)
        }
        guard let offset = number(after: "character "), offset <= json.count else { return Position(line: 1, column: 1) }
        let before = json[..<offset]
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        return Position(
            line: before.filter { $0 == UInt8(ascii: "\n") }.count + 1,
            column: json[lineStart..<offset].filter { $0 & 0xC0 != 0x80 }.count + 1)
    }
}
