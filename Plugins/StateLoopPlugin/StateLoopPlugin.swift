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
            .filter { Self.isSpec($0) }
            .sorted { $0.path(percentEncoded: false) < $1.path(percentEncoded: false) }
        guard !specs.isEmpty else { return [] }
        try Self.rejectCollidingStems(specs)

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
            let output = workDirectory.appending(path: Self.outputName(of: spec))
            return .buildCommand(
                displayName: "Generating \(output.lastPathComponent) from \(spec.lastPathComponent)",
                executable: tool,
                arguments: ["generate", spec.path(percentEncoded: false), "--output", workDirectory.path(percentEncoded: false)] + arguments,
                inputFiles: [spec] + extraInputs,
                outputFiles: [output]
            )
        }
    }

    static func isSpec(_ url: URL) -> Bool {
        let name = url.lastPathComponent
        return name.hasSuffix(".machine.yml") || name.hasSuffix(".machine.yaml")
    }

    /// `Door.machine.yml` -> `Door.machine.swift`; must match `stateloop generate`'s naming. Not
    /// `Door.swift`: swiftc rejects two files of one module with the same name, and `Door.swift`
    /// is where a user would put the machine's effects.
    static func outputName(of spec: URL) -> String {
        var name = spec.lastPathComponent
        for suffix in [".machine.yml", ".machine.yaml"] where name.hasSuffix(suffix) {
            name.removeLast(suffix.count)
        }
        return name + ".machine.swift"
    }

    /// Two `Door.machine.yml` in different folders of one target would write the same output file.
    static func rejectCollidingStems(_ specs: [URL]) throws {
        let byOutput = Dictionary(grouping: specs, by: outputName(of:))
        let collisions = byOutput.filter { $0.value.count > 1 }.sorted { $0.key < $1.key }
        guard !collisions.isEmpty else { return }
        for (output, specs) in collisions {
            for spec in specs.dropFirst() {
                Diagnostics.error(
                    "\(spec.path(percentEncoded: false)):1:1: error: this spec would generate \(output), like \(specs[0].path(percentEncoded: false)); rename one of them (one output file per spec name and target)"
                )
            }
        }
        throw PluginError.collidingSpecs
    }

    enum PluginError: Error, CustomStringConvertible {
        case collidingSpecs
        var description: String { "two specs of the target would generate the same Swift file (see the errors above)" }
    }
}
