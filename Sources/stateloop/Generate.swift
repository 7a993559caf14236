import ArgumentParser
import Foundation
import StateLoopCodegen
import StateLoopSpec

/// `stateloop generate SPEC... --output DIR`
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Generate Swift from one or more *.machine.yml specs.",
        discussion: """
            Writes <name>.machine.swift into the output folder for each Foo.machine.yml: the \
            machine's State, Event, reducer, Effects protocol and feedback loops, for the StateLoop \
            runtime. Nothing is written when any spec has an error, and a file whose content did \
            not change is left untouched (so incremental builds stay incremental).

            A spec may run as a child machine ('machine: Name') any spec named here, passed with \
            --child, or lying in the same folder.

            With --config, the accessLevel and templates of a target's stateloop-config.json \
            apply (the build plugin passes it, so an edit applies at the next build); --templates \
            and --access-level win over it. Its templates must lie inside --package-directory, \
            symbolic links resolved.
            """
    )

    @Argument(help: "The spec files (*.machine.yml or *.machine.yaml).")
    var specs: [String]

    @Option(name: .shortAndLong, help: "The folder to write the generated Swift files into (created when missing).")
    var output: String

    @Option(name: .customLong("child"), help: ArgumentHelp("A spec the specs may run as a child machine ('machine: Name'), not generated itself; repeatable.", valueName: "child"))
    var children: [String] = []

    @Option(help: "A folder of *.mustache templates overriding the built-in ones (see `stateloop templates`).")
    var templates: String?

    @Option(help: "The access level of the generated declarations: public (the default), package or internal.")
    var accessLevel: AccessLevel?

    @Option(help: "A stateloop-config.json whose accessLevel and templates (relative to the file) apply.")
    var config: String?

    @Option(help: "The package --config belongs to; no template may come from outside it (default: the config's folder).")
    var packageDirectory: String?

    func run() throws {
        let configured = try config.map { try ConfigurationOption.load($0, packageDirectory: packageDirectory) }
        let templateSet = try templates.map { try TemplateOption.load($0) }
            ?? configured?.templateFiles.map { try TemplateOption.load(files: $0) }
            ?? .builtIn
        let pipeline = GeneratorPipeline(templates: templateSet, accessLevel: accessLevel ?? configured?.accessLevel ?? .public)
        var files: [(path: String, source: String)] = []
        // Names the build plugin would refuse or declare twice: the same rules, at the spec.
        let refusals = specs.compactMap(SpecFileNaming.refusal(ofSpecAt:)).map { ($0.spec, $0.message) }
        let collisions = SpecFileNaming.collisions(specs).map { ($0.spec, $0.message) }
        Console.report((refusals + collisions).map { .error($0.1, at: SourceLocation(file: $0.0, line: 1, column: 1)) })
        let named = Set((refusals + collisions).map(\.0))
        var failed = !named.isEmpty
        // Refused specs are neither read nor known as children: the plugin cannot build them.
        let read = try ChildSpecs(specs: specs.filter { !named.contains($0) }, children: children)
        Console.report(read.duplicateNames)
        failed = failed || !read.duplicateNames.isEmpty
        for spec in specs where !named.contains(spec) {
            let name = SpecFileNaming.outputFileName(forSpecAt: spec)
            let result = pipeline.generate(contents: read.contents(of: spec), path: spec, library: read.library, lock: try Console.readLock(besideSpec: spec))
            Console.report(result.diagnostics)
            if let source = result.source {
                files.append(((output as NSString).appendingPathComponent(name), source))
            } else {
                failed = true
            }
        }
        guard !failed else { throw ExitCode.specErrors }
        do {
            try OutputWriter.createDirectory(output)
            for file in files {
                try OutputWriter.writeIfChanged(file.source, to: file.path)
            }
        } catch {
            throw Console.fail("cannot write the generated Swift", error)
        }
    }
}

extension AccessLevel: ExpressibleByArgument {}

/// `--templates DIR`, shared by the verbs that render templates.
enum TemplateOption {
    static func load(_ directory: String) throws -> TemplateSet {
        do {
            return try load(files: TemplateFolder.files(in: directory))
        } catch let failure as TemplateFolder.Failure {
            Console.report([.error(failure.sentence, at: .wholeFile(directory), fixIt: "pass a folder of *.mustache files, as `stateloop templates` writes")])
            throw ExitCode.usageOrIO
        }
    }

    /// The built-in templates with `files` in place of those they name.
    static func load(files: [String]) throws -> TemplateSet {
        do {
            return try TemplateSet(files: files)
        } catch {
            Console.report([error.diagnostic])
            throw ExitCode.usageOrIO
        }
    }
}

/// `--config FILE [--package-directory DIR]`: a target's stateloop-config.json, read and checked
/// on every run (Plugins/PluginsShared/StateLoopConfiguration.swift reads it, as the plugin does).
enum ConfigurationOption {
    /// What the configuration sets: an access level, template files (resolved, inside the package).
    struct Settings {
        var accessLevel: AccessLevel?
        var templateFiles: [String]?
    }

    /// The settings of the configuration at `path`, or every problem of it at its line and column
    /// and exit status 2.
    static func load(_ path: String, packageDirectory: String?) throws -> Settings {
        let json: [UInt8]
        do {
            json = try FileReader.contents(of: path)
        } catch {
            throw Console.fail("cannot read the configuration", error)
        }
        var problems: [StateLoopConfiguration.Problem] = []
        var settings = Settings()
        do {
            let configuration = try StateLoopConfiguration(json: json, path: path)
            if let level = configuration.accessLevel {
                if let accessLevel = AccessLevel(rawValue: level.value) {
                    settings.accessLevel = accessLevel
                } else {
                    let levels = AccessLevel.allCases.map { "\"\($0.rawValue)\"" }
                    problems.append(.init(
                        file: path, position: level.position, message: "\"\(level.value)\" is not an access level",
                        fix: "write \(levels.dropLast().joined(separator: ", ")) or \(levels.last!)"))
                }
            }
            if configuration.templates != nil {
                do {
                    settings.templateFiles = try configuration.templateFiles(packageDirectory: packageDirectory)
                } catch {
                    problems.append(error)
                }
            }
        } catch {
            problems = error.problems
        }
        guard problems.isEmpty else {
            Console.report(problems.map { .error($0.message, at: SourceLocation(file: $0.file, line: $0.position.line, column: $0.position.column), fixIt: $0.fix) })
            throw ExitCode.usageOrIO
        }
        return settings
    }
}
