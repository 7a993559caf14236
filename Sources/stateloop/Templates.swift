import ArgumentParser
import Foundation
import StateLoopSpec
import StateLoopCodegen

/// `stateloop templates --output DIR`
struct Templates: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the built-in templates into a folder, to customise the generated Swift.",
        discussion: """
            Edit the copies, then pass the folder with `stateloop generate --templates DIR` (or \
            "templates" in a target's stateloop-config.json for the build plugin). A template \
            missing from the folder falls back to the built-in one, so keep only those you change. \
            Existing files are not overwritten unless --force is given.
            """
    )

    @Option(name: .shortAndLong, help: "The folder to write the templates into (created when missing).")
    var output: String

    @Flag(help: "Overwrite templates that already exist in the folder.")
    var force = false

    func run() throws {
        do {
            try OutputWriter.createDirectory(output)
            for name in TemplateSet.builtInNames {
                let path = (output as NSString).appendingPathComponent(name + TemplateFolder.suffix)
                if FileManager.default.fileExists(atPath: path), !force {
                    Console.report([.warning("exists; left as it is (use --force to overwrite)", at: .wholeFile(path))])
                    continue
                }
                try OutputWriter.writeIfChanged(TemplateSet.builtInText(named: name) ?? "", to: path)
                print(path)
            }
        } catch {
            throw Console.fail("cannot write the templates", error)
        }
    }
}
