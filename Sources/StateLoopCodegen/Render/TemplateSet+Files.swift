// The only place templates are read from disk: the files the CLI found in `--templates DIR` or in
// the folder a stateloop-config.json names (which files of a folder are templates, and that they
// stay inside the package, is decided there: Plugins/PluginsShared/TemplateFolder.swift).

extension TemplateSet {
    /// The built-in templates with each of `files` (`.../NAME.mustache`) in place of the built-in
    /// `NAME`; a template not among them keeps its built-in text.
    ///
    /// - Throws: `TemplateError` when a template cannot be read (in words) or does not parse (at
    ///   its file, line and column).
    public init(files: [String]) throws(TemplateError) {
        var overrides: [String: (text: String, path: String)] = [:]
        for path in files {
            var name = path.split(separator: "/").last.map(String.init) ?? path
            if name.hasSuffix(".mustache") { name.removeLast(".mustache".count) }
            let bytes: [UInt8]
            do {
                bytes = try FileReader.contents(of: path)
            } catch {
                throw TemplateError(path: path, line: 1, column: 1, problem: "cannot read the template: \(error.reason)")
            }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw TemplateError(path: path, line: 1, column: 1, problem: "the template is not UTF-8 text; save it as UTF-8")
            }
            overrides[name] = (text, path)
        }
        try self.init(overrides: overrides)
    }
}
