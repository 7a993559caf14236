// The build-tool plugin: for every `*.machine.yml` (or `.machine.yaml`) of the target it is
// applied to, one build command runs `stateloop generate` into the plugin's work directory.
//
// Each command declares the spec, the target's other specs (each may be run by it as a child
// machine, passed with --child), the spec's lock file (Docs/Durability.md D58), the target's
// stateloop-config.json and the templates as inputs
// and the one Swift file as output, so SwiftPM runs it only when one of them changed. Output names
// are known before any spec is read (`<stem>.machine.swift`), which is why two specs with the same
// stem in one target are an error. SwiftPM asks for the commands again only when it re-plans the
// build (files come or go), not when a file changes: so the config is passed by path, for the
// generator to read on every run, never baked into the arguments.
import Foundation
import PackagePlugin

@main
struct StateLoopPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        return try StateLoopBuildCommands(
            files: target.sourceFiles.map(\.url),
            targetDirectory: target.directoryURL,
            packageDirectory: context.package.directoryURL,
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
            files: target.inputFiles.map(\.url),
            targetDirectory: context.xcodeProject.directoryURL,
            packageDirectory: context.xcodeProject.directoryURL,
            workDirectory: context.pluginWorkDirectoryURL,
            tool: try context.tool(named: "stateloop").url
        ).commands()
    }
}
#endif

/// The build commands of one target, independent of SwiftPM or Xcode.
struct StateLoopBuildCommands {
    /// The files of the target: its specs, and any templates it holds.
    var files: [URL]
    var targetDirectory: URL
    /// The package (or project): no template may be read from outside it.
    var packageDirectory: URL
    var workDirectory: URL
    var tool: URL

    func commands() throws -> [Command] {
        let specs = files
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
        var inputs: [URL] = []
        let configURL = targetDirectory.appending(path: StateLoopConfiguration.fileName)
        if FileManager.default.fileExists(atPath: configURL.path(percentEncoded: false)) {
            let templates = try templateFiles(configuredBy: configURL)
            arguments += StateLoopConfiguration.generatorArguments(
                config: configURL.path(percentEncoded: false), packageDirectory: packageDirectory.path(percentEncoded: false))
            // The configured templates, and every template of the target: so that an edit of a
            // template reruns the commands also after the config names another folder of the target.
            let targetTemplates = files.filter { $0.lastPathComponent.hasSuffix(TemplateFolder.suffix) }.map { $0.path(percentEncoded: false) }
            inputs = [configURL] + Set(templates + targetTemplates).sorted().map { URL(fileURLWithPath: $0) }
        }

        let targetFiles = Set(files.map { $0.path(percentEncoded: false) })
        return specs.map { spec in
            let path = spec.path(percentEncoded: false)
            let output = workDirectory.appending(path: SpecFileNaming.outputFileName(forSpecAt: path))
            // Every other spec may be run as a child machine: an edit of one reruns this command.
            let children = SpecFileNaming.childSpecs(of: path, in: paths).map { URL(fileURLWithPath: $0) }
            // The lock beside the spec (D58), which the generator reads: an edit of it reruns the
            // check. One written later is a new file of the target, so SwiftPM re-plans.
            let lock = SpecFileNaming.lockPath(forSpecAt: path)
            let locks = targetFiles.contains(lock) ? [URL(fileURLWithPath: lock)] : []
            return .buildCommand(
                displayName: "Generating \(output.lastPathComponent) from \(spec.lastPathComponent)",
                executable: tool,
                arguments: ["generate", path, "--output", workDirectory.path(percentEncoded: false)]
                    + SpecFileNaming.childArguments(of: path, in: paths) + arguments,
                inputFiles: [spec] + children + locks + inputs,
                outputFiles: [output]
            )
        }
    }

    /// The templates the config names (symlinks resolved), or its problems as errors at its lines:
    /// the same reading `stateloop generate --config` does on every run, done here before anything
    /// runs, so that no command is planned that would read outside the package.
    private func templateFiles(configuredBy configURL: URL) throws -> [String] {
        let path = configURL.path(percentEncoded: false)
        guard let json = FileManager.default.contents(atPath: path) else {
            let problem = StateLoopConfiguration.Problem(
                file: path, position: .init(line: 1, column: 1), message: "the configuration cannot be read", fix: "make it a readable file")
            Diagnostics.error(problem.compilerStyleError)
            throw PluginError.invalidConfiguration
        }
        do {
            return try StateLoopConfiguration(json: [UInt8](json), path: path)
                .templateFiles(packageDirectory: packageDirectory.path(percentEncoded: false))
        } catch let problems as StateLoopConfiguration.ProblemList {
            problems.problems.forEach { Diagnostics.error($0.compilerStyleError) }
        } catch let problem as StateLoopConfiguration.Problem {
            Diagnostics.error(problem.compilerStyleError)
        }
        throw PluginError.invalidConfiguration
    }

    enum PluginError: Error, CustomStringConvertible {
        case specNames
        case invalidConfiguration

        var description: String {
            switch self {
            case .specNames: "a spec's file name cannot be generated (see the errors above)"
            case .invalidConfiguration: "\(StateLoopConfiguration.fileName) cannot be used (see the errors above)"
            }
        }
    }
}
