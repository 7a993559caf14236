import Mustache
import StateLoopSpec

/// A template that does not parse, located like a compiler error: `path:line:column: error: ...`.
public struct TemplateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The template file, as given (built-in templates are named `Templates/NAME.mustache (built in)`).
    public var path: String
    /// 1-based line of the problem in the template.
    public var line: Int
    /// 1-based column of the problem in the template.
    public var column: Int
    /// What is wrong and how to fix it.
    public var problem: String

    /// Creates an error at a position of a template.
    public init(path: String, line: Int, column: Int, problem: String) {
        self.path = path
        self.line = line
        self.column = column
        self.problem = problem
    }

    /// The error as a diagnostic, printed like any other (`path:line:column: error: problem`).
    public var diagnostic: Diagnostic {
        .error(problem, at: SourceLocation(file: path, line: line, column: column))
    }

    public var description: String { diagnostic.description }

    /// A sentence for each error swift-mustache reports, saying how to fix it.
    static func advice(for error: any Error) -> String {
        guard let error = error as? MustacheTemplate.Error else { return "the template does not parse: \(error)" }
        switch error {
        case .sectionCloseNameIncorrect:
            return "this closing tag does not match the section it closes; close `{{#name}}` with `{{/name}}`"
        case .unfinishedName:
            return "unfinished tag; end it with `}}` (or `}}}` after `{{{`)"
        case .expectedSectionEnd:
            return "a section is never closed; add its `{{/name}}`"
        case .invalidSetDelimiter:
            return "malformed set-delimiter tag; write it as `{{=<% %>=}}`"
        case .transformAppliedToInheritanceSection:
            return "a transform cannot be applied to an inheritance section; remove it"
        case .illegalTokenInsideInheritSection:
            return "only `{{$block}}` overrides may stand inside a partial's inheritance section"
        case .textInsideInheritSection:
            return "text inside a partial's inheritance section is not allowed; move it into a `{{$block}}`"
        case .invalidConfigVariableSyntax:
            return "malformed configuration tag; write it as `{{%CONTENT_TYPE:TEXT}}`"
        case .unrecognisedConfigVariable:
            return "unknown configuration; the templates accept `{{%CONTENT_TYPE:TEXT}}` and `{{%CONTENT_TYPE:HTML}}`"
        }
    }
}
