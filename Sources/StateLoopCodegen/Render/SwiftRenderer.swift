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
        var twins: [String: String] = [:]
        for name in templates.precompiled {
            twins[TemplateSet.precompiledKey(name)] = PrecompiledTemplates.all[name]?(context)
        }
        // The main template is always registered: an override replaces it, never removes it.
        return templates.library.render(RenderedParts(context: context, twins: twins), withTemplate: TemplateSet.mainTemplate) ?? ""
    }
}

/// The context Mustache renders: the machine's, plus the output of the Swift twins of templates.
private struct RenderedParts: MustacheParent {
    let context: MachineContext
    let twins: [String: String]

    func child(named name: String) -> Any? {
        twins[name] ?? context.child(named: name)
    }
}
