// Runs TemplateEmbedder over the package's Templates/*.mustache for the target it is applied to
// (StateLoopCodegen). The templates are declared inputs, so editing one re-embeds it.
import Foundation
import PackagePlugin

@main
struct EmbedTemplates: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let templatesDirectory = context.package.directoryURL.appending(path: "Templates")
        let templates = try FileManager.default
            .contentsOfDirectory(at: templatesDirectory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "mustache" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedTemplates.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(templates.count) StateLoop templates",
                executable: try context.tool(named: "TemplateEmbedder").url,
                arguments: [output.path()] + templates.map { $0.path() },
                inputFiles: templates,
                outputFiles: [output]
            )
        ]
    }
}
