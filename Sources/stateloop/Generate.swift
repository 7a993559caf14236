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
            """
    )

    @Argument(help: "The spec files (*.machine.yml or *.machine.yaml).")
    var specs: [String]

    @Option(name: .shortAndLong, help: "The folder to write the generated Swift files into (created when missing).")
    var output: String

    @Option(help: "A folder of *.mustache templates overriding the built-in ones (see `stateloop templates`).")
    var templates: String?

    @Option(help: "The access level of the generated declarations: public, package or internal.")
    var accessLevel: AccessLevel = .public

    func run() throws {
        let templateSet = try TemplateOption.load(templates)
        let pipeline = GeneratorPipeline(templates: templateSet, accessLevel: accessLevel)
        var files: [(path: String, source: String)] = []
        // Names the build plugin would refuse or declare twice: the same rules, at the spec.
        let refusals = specs.compactMap(SpecFileNaming.refusal(ofSpecAt:)).map { ($0.spec, $0.message) }
        let collisions = SpecFileNaming.collisions(specs).map { ($0.spec, $0.message) }
        Console.report((refusals + collisions).map { .error($0.1, at: SourceLocation(file: $0.0, line: 1, column: 1)) })
        let named = Set((refusals + collisions).map(\.0))
        var failed = !named.isEmpty
        for spec in specs where !named.contains(spec) {
            let name = SpecFileNaming.outputFileName(forSpecAt: spec)
            let result = pipeline.generate(contents: try Console.readSpec(spec), path: spec)
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
    static func load(_ directory: String?) throws -> TemplateSet {
        guard let directory else { return .builtIn }
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
