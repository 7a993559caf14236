import Mustache

// Owns the last step of generation: a `MachineContext` printed through the templates.

/// Prints a `MachineContext` as Swift source with a `TemplateSet`.
public struct SwiftRenderer: Sendable {
    /// The templates to print with.
    public var templates: TemplateSet

    /// A renderer printing with `templates`.
    public init(templates: TemplateSet) {
        self.templates = templates
    }

    /// The Swift source of one machine. Same context, same templates: same bytes.
    public func render(_ context: MachineContext) -> String {
        // The main template is always registered: an override replaces it, never removes it.
        templates.library.render(context, withTemplate: TemplateSet.mainTemplate) ?? ""
    }
}
