import Foundation
import Testing

/// Which files are templates, and that a package's templates stay inside it.
@Suite struct TemplateFolderTests {
    /// `root/package/Templates/` (one template among other files), `root/package/Linked -> ../outside`
    /// and `root/outside/Secret.mustache`.
    static func layout() throws -> (package: String, outside: String) {
        let root = FileManager.default.temporaryDirectory.appending(path: "stateloop-folder-\(UUID().uuidString)")
        let package = root.appending(path: "package")
        let outside = root.appending(path: "outside")
        for folder in [package.appending(path: "Templates"), outside] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        for file in ["Templates/Machine.swift.mustache", "Templates/README.md", "Templates/.mustache"] {
            try Data("{{machine}}".utf8).write(to: package.appending(path: file))
        }
        try Data("secret".utf8).write(to: outside.appending(path: "Secret.mustache"))
        try FileManager.default.createSymbolicLink(atPath: package.appending(path: "Linked").path, withDestinationPath: "../outside")
        return (package.path, outside.path)
    }

    @Test func theTemplatesOfAFolderAreItsMustacheFiles() throws {
        let (package, _) = try Self.layout()
        #expect(try TemplateFolder.files(in: package + "/Templates") == [package + "/Templates/Machine.swift.mustache"])
        #expect(throws: TemplateFolder.Failure.missing) { try TemplateFolder.files(in: package + "/None") }
        #expect(throws: TemplateFolder.Failure.notAFolder) { try TemplateFolder.files(in: package + "/Templates/README.md") }
    }

    @Test func theFolderAndEveryTemplateMustStayInsideThePackageWithLinksResolved() throws {
        let (package, outside) = try Self.layout()
        let resolvedPackage = try #require(TemplateFolder.resolved(package))
        #expect(try TemplateFolder.files(in: package + "/Templates/../Templates", inside: package) == [resolvedPackage + "/Templates/Machine.swift.mustache"])
        #expect(throws: TemplateFolder.Failure.outside) { try TemplateFolder.files(in: package + "/../outside", inside: package) }
        #expect(throws: TemplateFolder.Failure.outside) { try TemplateFolder.files(in: package + "/Linked", inside: package) }
        #expect(throws: TemplateFolder.Failure.outside) { try TemplateFolder.files(in: "/", inside: package) }
        // A sibling whose name starts with the package's name is outside it.
        try FileManager.default.createDirectory(atPath: package + "-sibling", withIntermediateDirectories: true)
        #expect(throws: TemplateFolder.Failure.outside) { try TemplateFolder.files(in: package + "-sibling", inside: package) }

        try FileManager.default.createSymbolicLink(atPath: package + "/Templates/Out.mustache", withDestinationPath: outside + "/Secret.mustache")
        #expect(throws: TemplateFolder.Failure.templateOutside(name: "Out.mustache")) { try TemplateFolder.files(in: package + "/Templates", inside: package) }
        try FileManager.default.removeItem(atPath: package + "/Templates/Out.mustache")
        try FileManager.default.createSymbolicLink(atPath: package + "/Templates/Gone.mustache", withDestinationPath: package + "/none")
        #expect(throws: TemplateFolder.Failure.templateMissing(name: "Gone.mustache")) { try TemplateFolder.files(in: package + "/Templates", inside: package) }
    }

    @Test func theConfigurationReportsAFolderOutsideThePackageAtItsTemplatesValue() throws {
        let (package, _) = try Self.layout()
        let configuration = try StateLoopConfiguration(json: Array(#"{"templates": "Linked"}"#.utf8), path: package + "/stateloop-config.json")
        #expect(throws: StateLoopConfiguration.Problem(
            file: package + "/stateloop-config.json", position: .init(line: 1, column: 15),
            message: "the templates folder is outside the package", fix: "keep the templates inside \(package)")) {
            try configuration.templateFiles(packageDirectory: package)
        }
    }
}
