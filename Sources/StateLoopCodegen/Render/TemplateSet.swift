import Mustache

// Owns which Mustache templates the Swift is rendered from: the built-in ones carried inside the
// generator (`EmbeddedTemplates`, compiled in from Templates/*.mustache), or
// a user's overrides. Parsing happens here, once, so a template with a syntax error is reported
// before any spec is rendered, at its file, line and column.

/// The Mustache templates the generator renders from, parsed and ready.
///
/// `Machine.swift` is the main template; `StateMembers` and `Reducer` are partials it includes. An
/// override replaces the built-in template of the same name; every name not overridden keeps the
/// built-in text, so a user can copy and change just one template.
public struct TemplateSet: Sendable {
    /// The name of the template a Swift file is rendered with.
    public static let mainTemplate = "Machine.swift"

    /// The names of the built-in templates, sorted: the files a user may override.
    public static var builtInNames: [String] { EmbeddedTemplates.all.keys.sorted() }

    /// The text of a built-in template (`nil` for an unknown name), e.g. to copy it out for editing.
    public static func builtInText(named name: String) -> String? { EmbeddedTemplates.all[name] }

    /// The templates shipped with the generator.
    public static let builtIn: TemplateSet = {
        do {
            return try TemplateSet(overrides: [:])
        } catch {
            // The built-in templates are parsed by the tests; reaching this is a broken build.
            preconditionFailure("a built-in template does not parse: \(error)")
        }
    }()

    /// The parsed templates, by name; partials are looked up here.
    let library: MustacheLibrary

    /// The built-in templates with some replaced.
    ///
    /// - Parameter overrides: template name (file name without `.mustache`) -> `(text, path)`;
    ///   `path` only names the template in error messages.
    /// - Throws: `TemplateError` for the first template (by name) that does not parse.
    public init(overrides: [String: (text: String, path: String)]) throws(TemplateError) {
        var library = MustacheLibrary()
        var names = Set(EmbeddedTemplates.all.keys)
        names.formUnion(overrides.keys)
        for name in names.sorted() {
            let source = overrides[name] ?? (EmbeddedTemplates.all[name] ?? "", "Templates/\(name).mustache (built in)")
            // Mustache escapes `{{x}}` for HTML unless told otherwise, which would turn `->` and
            // `<T>` in Swift into entities. Templates render as text unless they say otherwise;
            // the added tag stands on a line of its own, which Mustache drops from the output.
            let addsTextTag = !source.text.hasPrefix("{{%CONTENT_TYPE:")
            let text = addsTextTag ? "{{%CONTENT_TYPE:TEXT}}\n" + source.text : source.text
            do {
                library.register(try MustacheTemplate(string: text), named: name)
            } catch let error as MustacheTemplate.ParserError {
                throw TemplateError(
                    path: source.path,
                    line: max(1, error.context.lineNumber - (addsTextTag ? 1 : 0)),
                    column: error.context.columnNumber,
                    problem: TemplateError.advice(for: error.error)
                )
            } catch {
                throw TemplateError(path: source.path, line: 1, column: 1, problem: "\(error)")
            }
        }
        self.library = library
    }
}
