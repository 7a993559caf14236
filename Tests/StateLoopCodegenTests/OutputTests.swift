import Foundation
import StateLoopCodegen
import Testing

/// The write-if-changed, atomic writer.
@Suite struct OutputTests {
    @Test func writesOnlyWhenTheBytesChangeAndLeavesNoTemporaryFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stateloop-out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("Door.swift").path

        #expect(try OutputWriter.writeIfChanged("one\n", to: path))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "one\n")
        #expect(try OutputWriter.writeIfChanged("one\n", to: path) == false)
        #expect(try OutputWriter.writeIfChanged("two\n", to: path))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "two\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["Door.swift"])
    }

    @Test func aMissingDirectoryIsAnErrorInWordsAndWritesNothing() {
        #expect(throws: FileError(path: "/nonexistent/stateloop/Door.swift", reason: "its folder does not exist", code: ENOENT)) {
            try OutputWriter.writeIfChanged("x", to: "/nonexistent/stateloop/Door.swift")
        }
    }
}
