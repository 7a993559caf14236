import Foundation

// The only place templates are read from disk: for the CLI's `--templates DIR`.

extension TemplateSet {
    /// The built-in templates with every `NAME.mustache` of `directory` in place of the built-in
    /// `NAME`; a template the directory lacks keeps its built-in text.
    ///
    /// - Throws: `TemplateError` when the directory cannot be read, a template cannot be read or
    ///   does not parse (at its file, line and column).
    public init(directory: String) throws(TemplateError) {
        let url = URL(fileURLWithPath: directory, isDirectory: true)
        let files: [URL]
        do {
            files = try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "mustache" }
        } catch {
            throw TemplateError(
                path: directory, line: 1, column: 1,
                problem: "cannot read the template directory (\(error.localizedDescription)); pass a directory of *.mustache files"
            )
        }
        var overrides: [String: (text: String, path: String)] = [:]
        for file in files {
            let path = (directory as NSString).appendingPathComponent(file.lastPathComponent)
            do {
                overrides[file.deletingPathExtension().lastPathComponent] = (try String(contentsOf: file, encoding: .utf8), path)
            } catch {
                throw TemplateError(
                    path: path, line: 1, column: 1,
                    problem: "cannot read the template (\(error.localizedDescription)); it must be a UTF-8 text file"
                )
            }
        }
        try self.init(overrides: overrides)
    }
}
