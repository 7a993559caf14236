// The build-tool plugin: for every `*.machine.yml` (or `.machine.yaml`) of the target it is
// applied to, one build command runs `stateloop generate` into the plugin's work directory.
//
// Each command declares the spec (and any custom templates) as inputs and the one Swift file as
// output, so SwiftPM runs it only when one of them changed. Output names are known before any spec
// is read (`<stem>.machine.swift`), which is why two specs with the same stem in one target are an error.
import Foundation
import PackagePlugin

@main
struct StateLoopPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        return try StateLoopBuildCommands(
            specs: target.sourceFiles.map(\.url),
            targetDirectory: target.directoryURL,
            workDirectory: context.pluginWorkDirectoryURL,
            tool: try context.tool(named: "stateloop").url
        ).commands()
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension StateLoopPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        try StateLoopBuildCommands(
            specs: target.inputFiles.map(\.url),
            targetDirectory: context.xcodeProject.directoryURL,
            workDirectory: context.pluginWorkDirectoryURL,
            tool: try context.tool(named: "stateloop").url
        ).commands()
    }
}
#endif

/// The build commands of one target, independent of SwiftPM or Xcode.
struct StateLoopBuildCommands {
    var specs: [URL]
    var targetDirectory: URL
    var workDirectory: URL
    var tool: URL

    /// Options a target can set in `stateloop-config.json` next to its sources.
    struct Configuration: Decodable {
        /// A folder of `*.mustache` templates, relative to the target, that overrides the built-in ones.
        var templates: String?
        /// The access level of the generated declarations: `public` (default), `package` or `internal`.
        var accessLevel: String?
    }

    static let configurationFileName = "stateloop-config.json"

    func commands() throws -> [Command] {
        let specs = self.specs
            .filter { SpecFileNaming.isSpec(fileName: $0.lastPathComponent) }
            .sorted { $0.path(percentEncoded: false) < $1.path(percentEncoded: false) }
        guard !specs.isEmpty else { return [] }
        let paths = specs.map { $0.path(percentEncoded: false) }
        let errors = paths.compactMap { SpecFileNaming.refusal(ofSpecAt: $0)?.compilerStyleError }
            + SpecFileNaming.collisions(paths).map(\.compilerStyleError)
        guard errors.isEmpty else {
            errors.forEach { Diagnostics.error($0) }
            throw PluginError.specNames
        }

        var arguments: [String] = []
        var extraInputs: [URL] = []
        let configURL = targetDirectory.appending(path: Self.configurationFileName)
        if FileManager.default.fileExists(atPath: configURL.path(percentEncoded: false)) {
            let configuration: Configuration
            do {
                configuration = try JSONDecoder().decode(Configuration.self, from: Data(contentsOf: configURL))
            } catch {
                Diagnostics.error("\(configURL.path(percentEncoded: false)):1:1: error: cannot read StateLoop configuration: \(error)")
                throw error
            }
            extraInputs.append(configURL)
            if let templates = configuration.templates {
                let directory = targetDirectory.appending(path: templates)
                arguments += ["--templates", directory.path(percentEncoded: false)]
                extraInputs += (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil))?
                    .filter { $0.pathExtension == "mustache" }
                    .sorted { $0.path(percentEncoded: false) < $1.path(percentEncoded: false) } ?? []
            }
            if let accessLevel = configuration.accessLevel {
                arguments += ["--access-level", accessLevel]
            }
        }

        return specs.map { spec in
            let output = workDirectory.appending(path: SpecFileNaming.outputFileName(forSpecAt: spec.path(percentEncoded: false)))
            return .buildCommand(
                displayName: "Generating \(output.lastPathComponent) from \(spec.lastPathComponent)",
                executable: tool,
                arguments: ["generate", spec.path(percentEncoded: false), "--output", workDirectory.path(percentEncoded: false)] + arguments,
                inputFiles: [spec] + extraInputs,
                outputFiles: [output]
            )
        }
    }

    enum PluginError: Error, CustomStringConvertible {
        case specNames
        var description: String { "a spec's file name cannot be generated (see the errors above)" }
    }
}
