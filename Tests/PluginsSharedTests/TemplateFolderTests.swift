import Foundation
import Testing

/// Which files are templates (compiled into this test target from Plugins/PluginsShared/TemplateFolder.swift).
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
}
