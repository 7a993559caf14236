// The command plugin: writes generated Swift or diagrams of the package's specs INTO the package,
// for people who want them checked in, reviewed or rendered (the build-tool plugin writes only
// into its work directory, as SwiftPM requires).
//
//   swift package --allow-writing-to-package-directory stateloop generate [--target T]...
//       -> <target>/Generated/<name>.machine.swift  (use this OR the build plugin on a target;
//          the target's stateloop-config.json applies as in the build plugin)
//   swift package --allow-writing-to-package-directory stateloop diagram [--target T]... [--format svg|png|dot|mermaid]
//       -> <name>.<ext> next to each spec
import Foundation
import PackagePlugin

@main
struct StateLoopCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        let format = extractor.extractOption(named: "format").last ?? "svg"
        let verb = extractor.remainingArguments.first ?? "generate"
        guard ["generate", "diagram"].contains(verb), extractor.remainingArguments.count <= 1 else {
            throw CommandError.usage("unknown arguments \(extractor.remainingArguments); usage: stateloop generate|diagram [--target NAME]... [--format svg|png|dot|mermaid]")
        }

        let targets = try targetNames.isEmpty
            ? context.package.targets
            : context.package.targets(named: targetNames)
        let tool = try context.tool(named: "stateloop").url
        var wrote = 0
        for case let target as SourceModuleTarget in targets {
            let specs = target.sourceFiles.map(\.url).filter { SpecFileNaming.isSpec(fileName: $0.lastPathComponent) }.sorted { $0.path(percentEncoded: false) < $1.path(percentEncoded: false) }
            guard !specs.isEmpty else { continue }
            switch verb {
            case "generate":
                let output = target.directoryURL.appending(path: "Generated")
                // The target's stateloop-config.json applies as in the build plugin (the CLI reads it).
                let config = target.directoryURL.appending(path: StateLoopConfiguration.fileName).path(percentEncoded: false)
                let configuration = FileManager.default.fileExists(atPath: config)
                    ? StateLoopConfiguration.generatorArguments(config: config, packageDirectory: context.package.directoryURL.path(percentEncoded: false))
                    : []
                try run(tool, ["generate"] + specs.map { $0.path(percentEncoded: false) } + ["--output", output.path(percentEncoded: false)] + configuration)
                print("\(target.name): wrote \(specs.count) file(s) into \(output.path(percentEncoded: false))")
            default:
                for spec in specs {
                    let output = spec.deletingLastPathComponent().appending(path: SpecFileNaming.stem(ofSpecAt: spec.path(percentEncoded: false)) + "." + Self.fileExtension(format))
                    try run(tool, ["diagram", spec.path(percentEncoded: false), "--format", format, "--output", output.path(percentEncoded: false)])
                    print("wrote \(output.path(percentEncoded: false))")
                }
            }
            wrote += specs.count
        }
        if wrote == 0 {
            Diagnostics.warning("no *.machine.yml found in \(targetNames.isEmpty ? "any target" : targetNames.joined(separator: ", "))")
        }
    }

    private func run(_ tool: URL, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CommandError.toolFailed("stateloop \(arguments.first ?? "") exited with status \(process.terminationStatus); see the errors above")
        }
    }

    static func fileExtension(_ format: String) -> String {
        format == "mermaid" ? "mmd" : format
    }

    enum CommandError: Error, CustomStringConvertible {
        case usage(String)
        case toolFailed(String)

        var description: String {
            switch self {
            case .usage(let message), .toolFailed(let message): message
            }
        }
    }
}
