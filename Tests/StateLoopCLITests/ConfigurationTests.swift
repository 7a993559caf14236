// `stateloop generate --config FILE`: the generator reads a target's stateloop-config.json itself
// (the build plugin passes its path), reports a wrong value at its line and column, and reads no
// template from outside the package the configuration belongs to.
import Foundation
import Testing

@Suite struct ConfigurationTests {
    /// A package in a fresh folder: `Sources/App` with the Counter spec, a config and a template
    /// folder, `Shared/Templates` elsewhere in the package, and a folder `outside` next to the package.
    struct Package {
        let root: URL
        let outside: URL
        var directory: URL { root.appending(path: "Package") }
        var target: URL { directory.appending(path: "Sources/App") }
        var config: URL { target.appending(path: "stateloop-config.json") }
        var spec: String { target.appending(path: "Counter.machine.yml").path }
        var output: URL { root.appending(path: "out") }

        init() throws {
            root = try StateLoopTool.temporaryDirectory()
            outside = root.appending(path: "outside")
            let package = root.appending(path: "Package")
            try FileManager.default.createDirectory(at: package.appending(path: "Sources/App"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: StateLoopTool.repositoryRoot.appending(path: "Specs/Counter.machine.yml"),
                to: package.appending(path: "Sources/App/Counter.machine.yml"))
            try Self.writeTemplate(header: "// Target templates.", into: package.appending(path: "Sources/App/Templates"))
            try Self.writeTemplate(header: "// Shared templates.", into: package.appending(path: "Shared/Templates"))
            try Self.writeTemplate(header: "// Outside templates.", into: outside)
        }

        static func writeTemplate(header: String, into folder: URL) throws {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let builtIn = try String(contentsOf: StateLoopTool.repositoryRoot.appending(path: "Templates/Machine.swift.mustache"), encoding: .utf8)
            try (header + "\n" + builtIn).write(to: folder.appending(path: "Machine.swift.mustache"), atomically: true, encoding: .utf8)
        }

        func writeConfig(_ text: String) throws {
            try text.write(to: config, atomically: true, encoding: .utf8)
        }

        /// `stateloop generate` of the Counter spec with this config, for the package.
        func generate(_ extra: [String] = ["--package-directory", "Package"]) throws -> StateLoopTool.Result {
            try StateLoopTool.run(["generate", spec, "--output", output.path, "--config", "Package/Sources/App/stateloop-config.json"] + extra, in: root)
        }

        var generated: String {
            get throws { try String(contentsOf: output.appending(path: "Counter.machine.swift"), encoding: .utf8) }
        }
    }

    static let configPath = "Package/Sources/App/stateloop-config.json"

    @Test func generateTakesTheAccessLevelAndTheTemplatesFromTheConfiguration() throws {
        let package = try Package()
        try package.writeConfig(#"{"accessLevel": "internal", "templates": "Templates"}"#)
        let result = try package.generate()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        #expect(try package.generated.hasPrefix("// Target templates.\n"))
        #expect(try !package.generated.contains("public "))

        // Options on the command line win over the configuration.
        let overridden = try package.generate(["--package-directory", "Package", "--access-level", "package"])
        #expect(overridden.status == 0, "\(overridden.stderr)")
        #expect(try package.generated.contains("\npackage enum Counter {"))
        #expect(try package.generated.hasPrefix("// Target templates.\n"))
    }

    /// Each wrong configuration, and the one error it gives: at the line and column of the value
    /// (or of the JSON mistake), with how to fix it. Exit status 2, nothing written.
    @Test(arguments: [
        ("{\n  \"templates\": \"Templates\",\n  \"accessLevel\": \"open\"\n}",
         "3:18: error: \"open\" is not an access level (fix: write \"public\", \"package\" or \"internal\")"),
        ("{\n  \"accessLevel\": 3\n}",
         "2:18: error: \"accessLevel\" must be a string (fix: write it in quotes, as in \"internal\")"),
        ("{\n  \"templates\": [\"Templates\"]\n}",
         "2:16: error: \"templates\" must be a string (fix: write the path of a folder of *.mustache files, relative to this file)"),
        ("{\n  \"templates\": \"NoSuchFolder\"\n}",
         "2:16: error: the templates folder does not exist (fix: write the path of a folder of *.mustache files, relative to this file)"),
        ("[\"internal\"]",
         "1:1: error: the configuration must be a JSON object (fix: write it as {\"accessLevel\": \"internal\", \"templates\": \"Templates\"})"),
    ])
    func aWrongConfigurationIsReportedAtItsLineAndColumn(_ config: String, _ expected: String) throws {
        let package = try Package()
        try package.writeConfig(config)
        let result = try package.generate()
        #expect(result.status == 2)
        #expect(result.stderr == "\(Self.configPath):\(expected)\n")
        #expect(!FileManager.default.fileExists(atPath: package.output.path), "nothing may be written")
    }

    @Test func aConfigurationThatIsNotJSONIsReportedWhereTheJSONGoesWrong() throws {
        let package = try Package()
        try package.writeConfig("{\n  \"accessLevel\": \"internal\",\n  templates: \"Templates\"\n}")
        let result = try package.generate()
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("\(Self.configPath):3:3: error: the configuration is not valid JSON"), "\(result.stderr)")
    }

    @Test func templatesInsideThePackageAreRead() throws {
        let package = try Package()
        try package.writeConfig(#"{"templates": "../../Shared/Templates"}"#)
        let shared = try package.generate()
        #expect(shared.status == 0, "\(shared.stderr)")
        #expect(try package.generated.hasPrefix("// Shared templates.\n"))

        // A link to a template elsewhere in the package is as good as the template.
        let linked = package.target.appending(path: "Linked")
        try FileManager.default.createDirectory(at: linked, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: linked.appending(path: "Machine.swift.mustache").path, withDestinationPath: "../../../Shared/Templates/Machine.swift.mustache")
        try package.writeConfig(#"{"templates": "Linked"}"#)
        let link = try package.generate()
        #expect(link.status == 0, "\(link.stderr)")
        #expect(try package.generated.hasPrefix("// Shared templates.\n"))
    }

    /// The folder and every template, symlinks resolved, must lie inside the package directory
    /// (without `--package-directory`, the configuration's own folder).
    @Test func templatesOutsideThePackageAreRefusedAtTheConfiguration() throws {
        let package = try Package()
        let refusals: [(config: String, extra: [String], error: String)] = [
            (#"{"templates": "../../../outside"}"#, ["--package-directory", "Package"],
             "1:15: error: the templates folder is outside the package (fix: keep the templates inside Package)"),
            (#"{"templates": "../../Shared/Templates"}"#, [],
             "1:15: error: the templates folder is outside the package (fix: keep the templates inside Package/Sources/App)"),
            (#"{"templates": "Escape"}"#, ["--package-directory", "Package"],
             "1:15: error: the templates folder is outside the package (fix: keep the templates inside Package)"),
            (#"{"templates": "Templates"}"#, ["--package-directory", "Package"],
             "1:15: error: the template Machine.swift.mustache links to a file outside the package (fix: keep the templates inside Package)"),
        ]
        // A folder that is a link to the outside, and a template that is one.
        try FileManager.default.createSymbolicLink(at: package.target.appending(path: "Escape"), withDestinationURL: package.outside)
        let template = package.target.appending(path: "Templates/Machine.swift.mustache")
        for (index, refusal) in refusals.enumerated() {
            if index == 3 {
                try FileManager.default.removeItem(at: template)
                try FileManager.default.createSymbolicLink(at: template, withDestinationURL: package.outside.appending(path: "Machine.swift.mustache"))
            }
            try package.writeConfig(refusal.config)
            let result = try package.generate(refusal.extra)
            #expect(result.status == 2, "\(refusal.config)")
            #expect(result.stderr == "\(Self.configPath):\(refusal.error)\n", "\(refusal.config)")
            #expect(!FileManager.default.fileExists(atPath: package.output.path), "nothing may be written")
        }
    }
}
