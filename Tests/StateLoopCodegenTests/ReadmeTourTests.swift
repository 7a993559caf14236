import Foundation
import StateLoopCodegen
import StateLoopSpec
import StateLoopTestSupport
import Testing

/// The README's tour, followed literally: its files are the DoorApp fixture that the end-to-end
/// tests build and run, its Swift compiles in the file the README names, and the errors it shows
/// are the ones its own spec gives, at the lines and columns it gives.
@Suite struct ReadmeTourTests {
    static let specPath = "Sources/DoorApp/Door.machine.yml"
    static let swiftPath = "Sources/DoorApp/DoorApp.swift"
    static let fixture = TestPaths.package.appendingPathComponent("Tests/Fixtures/DoorApp")

    /// The fixture holds the tour's files as the README writes them, its manifest too: the
    /// dependency on StateLoop is spelt as the README tells a user to spell it (the end-to-end
    /// tests build a copy whose `../StateLoop` is this checkout).
    @Test func theFixturePackageIsTheToursPackage() throws {
        let tour = try ReadmeTour()
        for path in [Self.specPath, Self.swiftPath, "Tests/DoorAppTests/DoorTests.swift", "Package.swift"] {
            let file = try String(contentsOf: Self.fixture.appendingPathComponent(path), encoding: .utf8)
            let block = try tour.block(path)
            #expect(file == block, "\(path) differs from the README:\n\(lineDiff(expected: block, actual: file))")
        }
        // A version no tag has cannot resolve: the manifest names no `from:` or `exact:`.
        let manifest = try tour.block("Package.swift")
        #expect(!manifest.contains("from:") && !manifest.contains("exact:"), "\(manifest)")
    }

    /// The tour says how a package that depends on StateLoop runs its CLI (`swift run stateloop`),
    /// and what the command prints for the tour's spec (the end-to-end tests run it for real).
    @Test func theTourRunsTheCLIFromThePackage() throws {
        let tour = try ReadmeTour()
        let commands = tour.blocks.keys.filter { $0.hasPrefix("swift run stateloop ") }
        #expect(commands == ["swift run stateloop check \(Self.specPath)"], "\(tour.blocks.keys.sorted())")
        let result = SpecLoader.load(contents: Array(try tour.block(Self.specPath).utf8), path: Self.specPath)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        for command in commands {
            #expect(try tour.block(command) == "checked 1 spec: no errors, no warnings\n")
        }
    }

    /// "Delete `close` from `ignore: [close, unlock]` in `closed`": the error the README prints
    /// is the checker's, word for word, at the line and column of the README's own spec.
    @Test func theForgottenEventFailsWhereTheReadmeSays() throws {
        let tour = try ReadmeTour()
        let spec = try tour.block(Self.specPath)
        #expect(spec.contains("    ignore: [close, unlock]\n"))
        let edited = spec.replacingOccurrences(of: "    ignore: [close, unlock]\n", with: "    ignore: [unlock]\n")
        let shown = try tour.lines(of: "swift build", containing: ": error: ")
        #expect(shown.count == 1, "\(shown)")
        let path = try #require(shown.first?.components(separatedBy: Self.specPath).first) + Self.specPath  // "/…/Sources/..."
        let result = SpecLoader.load(contents: Array(edited.utf8), path: path)
        #expect(result.diagnostics.map(\.description) == shown)
    }

    /// The type error the README quotes (`Door.machine.yml:L:C: error: ...`) is swiftc's, for the
    /// edit the README names, at the README spec's line and column.
    @Test(.enabled(if: Swiftc.isAvailable, "needs swiftc and the StateLoop module in .build/debug/Modules"))
    func theTypeErrorIsReportedWhereTheReadmeSays() throws {
        let tour = try ReadmeTour()
        #expect(tour.text.contains(#"`set: {openings: openings + "one"}`"#))
        let quoted = try #require(tour.text.firstMatch(of: /`(Door\.machine\.yml:\d+:\d+: error: [^`]*)`/)?.1, "the tour quotes no swiftc error")
        let spec = try tour.block(Self.specPath)
        #expect(spec.contains("set: {openings: openings + 1}"))
        let edited = spec.replacingOccurrences(of: "set: {openings: openings + 1}", with: #"set: {openings: openings + "one"}"#)
        let source = try #require(GeneratorPipeline().generate(contents: Array(edited.utf8), path: Self.specPath).source)
        let result = try Swiftc.compile(["Door.machine.swift": source])
        let errors = result.output.components(separatedBy: "\n").filter { $0.hasPrefix(Self.specPath + ":") && $0.contains(": error: ") }
        #expect(errors == ["Sources/DoorApp/" + quoted], "swiftc said:\n\(result.output)")
    }

    /// The Swift of the tour compiles in the file the README puts it in, against the code
    /// generated from the README's spec (`main.swift` would not: `@main` is not allowed there).
    @Test(.enabled(if: Swiftc.isAvailable, "needs swiftc and the StateLoop module in .build/debug/Modules"))
    func theToursSwiftCompilesInTheFileTheReadmeNames() throws {
        let tour = try ReadmeTour()
        let swiftFiles = tour.blocks.keys.filter { $0.hasPrefix("Sources/") && $0.hasSuffix(".swift") }
        #expect(swiftFiles == [Self.swiftPath])
        let generated = try #require(GeneratorPipeline().generate(contents: Array(try tour.block(Self.specPath).utf8), path: Self.specPath).source)
        var files = ["Door.machine.swift": generated]
        for path in swiftFiles { files[URL(fileURLWithPath: path).lastPathComponent] = try tour.block(path) }
        let result = try Swiftc.compile(files)
        #expect(result.status == 0, "\(result.output)")
    }
}
