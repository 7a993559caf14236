// End to end, as a user meets StateLoop: a package applies StateLoopPlugin to a target with a
// *.machine.yml, and `swift build` generates, compiles and fails exactly where the YAML is wrong.
// The package is the README's tour (ReadmeTourTests keeps Tests/Fixtures/DoorApp equal to it), and
// what the tour says `swift run` and `swift build` print is what these builds print.
import Foundation
import StateLoopTestSupport
import Testing

@Suite(.serialized, .timeLimit(.minutes(20)))
struct PluginBuildTests {
    static let spec = "Sources/DoorApp/Door.machine.yml"

    /// `path:line:column` of the first occurrence of `text` in the fixture's spec (1-based).
    static func location(of text: String, in package: FixturePackage) throws -> String {
        let lines = try package.contents(of: spec).components(separatedBy: "\n")
        let index = try #require(lines.firstIndex { $0.contains(text) }, "\(text) is not in the spec")
        let column = lines[index].distance(from: lines[index].startIndex, to: lines[index].range(of: text)!.lowerBound) + 1
        return "\(package.directory.appending(path: spec).path):\(index + 1):\(column)"
    }

    @Test func buildsRunsAndDoesNotRegenerateAnUnchangedSpec() throws {
        let package = try FixturePackage(copying: "DoorApp")
        let build = try package.swift("build")
        #expect(build.status == 0, "swift build failed:\n\(build.output)")
        #expect(build.output.contains("Generating Door.machine.swift from Door.machine.yml"), "\(build.output)")
        #expect(!build.output.contains("warning:"), "the generated code or the spec caused warnings:\n\(build.output)")

        // The build after a manifest change relinks the plugin's tool once more (SwiftPM plans
        // plugin tools in a separate pass), and a relinked tool rightly reruns its commands. From
        // then on an unchanged spec must not be generated again...
        let settle = try package.swift("build")
        #expect(settle.status == 0, "\(settle.output)")
        let again = try package.swift("build")
        #expect(again.status == 0, "\(again.output)")
        #expect(!again.output.contains("Generating"), "an unchanged spec was generated again:\n\(again.output)")
        // ...while a changed one is.
        try package.edit(Self.spec, replacing: "machine: Door\n", with: "machine: Door   # edited\n")
        let edited = try package.swift("build")
        #expect(edited.output.contains("Generating Door.machine.swift from Door.machine.yml"), "\(edited.output)")

        let run = try package.swift("run", "--skip-build", "DoorApp")
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output == (try ReadmeTour().block("swift run")))

        // The tour's step 6: the package's own test of its machine, with StateLoopTesting.
        let test = try package.swift("test")
        #expect(test.status == 0, "swift test failed:\n\(test.output)")
        #expect(test.output.contains("theDoorChimesWhenOpenedAndUnlocksOnlyWithItsCode() passed"), "\(test.output)")

        // The CLI of the dependency, run as the README says (SwiftPM builds it first, and prints
        // its build lines before what the command prints).
        let tour = try ReadmeTour()
        let command = try #require(tour.blocks.keys.first { $0.hasPrefix("swift run stateloop ") }, "the tour runs no `swift run stateloop ...`")
        let cli = try package.swift(Array(command.split(separator: " ").dropFirst().map(String.init)), environment: [:])
        #expect(cli.status == 0, "\(command) failed:\n\(cli.output)")
        #expect(cli.output.hasSuffix(try tour.block(command)), "\(command) printed:\n\(cli.output)")
    }

    /// The README's other ways to name the dependency: from Git by URL and branch (there is no
    /// tagged version), and by path from a folder not named StateLoop with `name:`; and the error
    /// it quotes for `path:` alone from such a folder. Resolving is enough: the package graph,
    /// with `package: "StateLoop"` of the product and the plugin, is checked before building.
    @Test func theToursOtherSpellingsOfTheDependencyResolve() throws {
        let tour = try ReadmeTour()
        let written = #".package(path: "../StateLoop"),"#
        #expect(try tour.block("Package.swift").contains(written))
        let spellings = tour.text.matches(of: /`(\.package\([^`]*\))`/).map { String($0.1) }
        let url = try #require(spellings.first { $0.contains("url:") }, "the tour shows no `.package(url: ...)`: \(spellings)")
        let named = try #require(spellings.first { $0.contains("name:") && $0.contains("path:") }, "the tour shows no `.package(name: ..., path: ...)`: \(spellings)")

        // The URL as published, served from a Git repository of this checkout's commit whose
        // folder is not named StateLoop: SwiftPM names the package after the URL, git fetches it
        // from the folder.
        let address = try #require(url.firstMatch(of: /url: "([^"]+)"/)?.1).description
        let branch = try #require(url.firstMatch(of: /branch: "([^"]+)"/)?.1, "\(url) names no branch (no version is tagged)").description
        let published = FixturePackage.copies.appending(path: "published.git")
        if !FileManager.default.fileExists(atPath: published.path) {
            #expect(try Self.git(["init", "--quiet", "--bare", published.path]).status == 0)
        }
        let push = try Self.git(["-C", FixturePackage.repositoryRoot.path, "push", "--quiet", "--force", published.path, "HEAD:refs/heads/\(branch)"])
        #expect(push.status == 0, "\(push.output)")
        let package = try FixturePackage(copying: "DoorApp", into: "DoorApp resolve")
        try package.edit("Package.swift", replacing: written, with: url + ",")
        let fromGit = try package.swift(["package", "--disable-dependency-cache", "show-dependencies"], environment: [
            "GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "url.\(published.path).insteadOf", "GIT_CONFIG_VALUE_0": address,
        ])
        #expect(fromGit.status == 0, "\(url):\n\(fromGit.output)")
        #expect(fromGit.output.contains("stateloop<\(address)"), "\(fromGit.output)")

        // By path, from a folder of another name: this checkout's own.
        let root = FixturePackage.repositoryRoot.path
        let folder = FixturePackage.repositoryRoot.lastPathComponent
        let byName = try #require(named.firstMatch(of: /path: "([^"]+)"/)?.1).description
        try package.edit("Package.swift", replacing: url + ",", with: named.replacingOccurrences(of: byName, with: root) + ",")
        let fromFolder = try package.swift("package", "show-dependencies")
        #expect(fromFolder.status == 0, "\(named):\n\(fromFolder.output)")

        // `path:` alone from that folder fails as the README says (unless it is named StateLoop).
        guard folder.lowercased() != "stateloop" else { return }
        try package.edit("Package.swift", replacing: named.replacingOccurrences(of: byName, with: root) + ",", with: ".package(path: \"\(root)\"),")
        let unnamed = try package.swift("package", "show-dependencies")
        #expect(unnamed.status != 0, "\(unnamed.output)")
        let quoted = try #require(tour.text.firstMatch(of: /`(error: [^`]*unknown package 'StateLoop'[^`]*)`/)?.1, "the tour quotes no 'unknown package' error").description
        // The README's example folder is `/…/main`; the package's own identity is its folder's.
        let expected = quoted
            .replacingOccurrences(of: "'/…/main'", with: "'\(root)'")
            .replacingOccurrences(of: "'main'", with: "'\(folder.lowercased())'")
            .replacingOccurrences(of: "error: 'doorapp':", with: "error: '\(package.directory.lastPathComponent.lowercased())':")
        #expect(unnamed.output.contains(expected), "expected \(expected):\n\(unnamed.output)")
    }

    /// Runs `git ARGUMENTS`; returns the exit status and stdout+stderr.
    static func git(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// SwiftPM decides which targets to build before any plugin runs, so a target that holds only
    /// specs has no sources and is dropped (swiftlang/swift-package-manager#8061): the README says
    /// so at the plugin step, with the warning and the error a user sees, and that one Swift file
    /// of the target's own (empty will do) keeps it.
    @Test func aTargetOfOnlySpecsIsDroppedAndOneSwiftFileKeepsIt() throws {
        let tour = try ReadmeTour()
        let warning = try #require(tour.text.firstMatch(of: /`(warning: [^`]*Source files for target [^`]*)`/)?.1, "the tour quotes no 'Source files for target' warning").description
        let error = try #require(tour.text.firstMatch(of: /`(error: no such module [^`]*)`/)?.1, "the tour quotes no 'no such module' error").description
        let target = try #require(error.firstMatch(of: /'([A-Za-z]+)'/)?.1).description

        let package = try FixturePackage(copying: "DoorApp")
        try package.edit("Package.swift", replacing: "    targets: [\n", with: """
                targets: [
                    .target(
                        name: "\(target)",
                        dependencies: [.product(name: "StateLoop", package: "StateLoop")],
                        plugins: [.plugin(name: "StateLoopPlugin", package: "StateLoop")]
                    ),

            """)
        // The executable's plugin goes: the specs' target generates; the tour's test target stays after it.
        try package.edit("Package.swift", replacing: "dependencies: [.product(name: \"StateLoop\", package: \"StateLoop\")],\n            plugins: [.plugin(name: \"StateLoopPlugin\", package: \"StateLoop\")]\n        ),\n        .testTarget(", with: "dependencies: [\"\(target)\", .product(name: \"StateLoop\", package: \"StateLoop\")]\n        ),\n        .testTarget(")
        let sources = package.directory.appending(path: "Sources/\(target)")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: package.directory.appending(path: Self.spec), to: sources.appending(path: "Door.machine.yml"))
        try package.edit("Sources/DoorApp/DoorApp.swift", replacing: "import StateLoop\n", with: "import StateLoop\nimport \(target)\n")

        // The build folder is kept between runs: the module an earlier run built for the target
        // would be found (and fail at the link instead).
        try package.removeBuildProducts(of: target)
        defer { try? package.removeBuildProducts(of: target) }
        let dropped = try package.swift("build")
        #expect(dropped.status != 0, "the build should fail:\n\(dropped.output)")
        let identity = package.directory.lastPathComponent.lowercased()
        #expect(dropped.output.contains(warning.replacingOccurrences(of: "warning: 'doorapp':", with: "warning: '\(identity)':")), "expected \(warning):\n\(dropped.output)")
        #expect(dropped.output.contains(error), "expected \(error):\n\(dropped.output)")

        // One Swift file of its own, with nothing in it, and the target is built.
        try "// The specs of this folder are generated into this module by StateLoopPlugin.\n".write(to: sources.appending(path: "\(target).swift"), atomically: true, encoding: .utf8)
        let kept = try package.swift("build")
        #expect(kept.status == 0, "\(kept.output)")
        #expect(!kept.output.contains("Source files for target"), "\(kept.output)")
        #expect(kept.output.contains("Generating Door.machine.swift from Door.machine.yml"), "\(kept.output)")
    }

    @Test func unhandledEventFailsTheBuildAtTheYAMLLine() throws {
        let package = try FixturePackage(copying: "DoorApp")
        try package.edit(Self.spec, replacing: "    ignore: [close, unlock]\n", with: "    ignore: [unlock]\n")
        let build = try package.swift("build")
        #expect(build.status != 0, "the build should fail:\n\(build.output)")
        let closed = try Self.location(of: "closed:", in: package)
        let errors = build.output.components(separatedBy: "\n").filter { $0.hasPrefix("\(closed): error:") }
        #expect(errors.count == 1, "no error at \(closed):\n\(build.output)")
        // The README shows this error, with "/…/" for the package's folder.
        let shown = try ReadmeTour().lines(of: "swift build", containing: ": error: ")
        #expect(errors == shown.map { $0.replacingOccurrences(of: "/…/", with: package.directory.path + "/") }, "\(errors)")

        // S15, S17: a nested leaf that misses an event no ancestor takes fails at the leaf's line.
        try package.edit(Self.spec, replacing: "    ignore: [unlock]\n", with: "    ignore: [close, unlock]\n")
        try package.edit(Self.spec, replacing: "    ignore: [open, close, lock]\n", with: "    ignore: [open, close]\n    initial: bolted\n    states:\n      bolted: {}\n")
        let nested = try package.swift("build")
        #expect(nested.status != 0, "the build should fail:\n\(nested.output)")
        let bolted = try Self.location(of: "bolted:", in: package)
        #expect(
            nested.output.contains("\(bolted): error: state 'bolted' does not handle event 'lock' (fix: add `ignore: [lock]` to state 'bolted' or to its ancestor 'locked', or handle it under `on:`)"),
            "no error at \(bolted):\n\(nested.output)")
    }

    /// The lock of the door persisted at version 1, as `stateloop lock` wrote it before it locked
    /// each version's journal layout too (LockTests pins the same text from the tool, which now
    /// adds `layout:`); such a lock is still read and checked (Docs/Durability.md D91).
    static let lockVersion1 = """
        # The persisted shape of each shipped version of Door.machine.yml, written by `stateloop lock`.
        # Commit it with the spec and do not edit it: a newer version of the spec must read what these
        # versions saved, or the build fails (Docs/Durability.md).
        versions:
          1:
            states:
              closed: leaf
              opened: leaf
              locked: leaf
            context:
              openings: Int
              code: Int?
              chimes: "[String]"
            events:
              open: {}
              close: {}
              lock: {code: Int}
              unlock: {code: Int}
              chimed: {message: String}
            runs: {}

        """

    /// Issue 21's case, in a real build: version 1 persisted and locked; version 2 renames the
    /// persisted state `locked` to `bolted` and adds a field. Without the migration the build fails
    /// at the renamed state's YAML line; with it the build passes; and an edit of the lock alone
    /// (the plugin declares it an input) runs the check again.
    @Test("D54, D58: a persisted state renamed without a migration fails the build at its YAML line")
    func renamedPersistedStateFailsTheBuildAtTheYAMLLine() throws {
        let package = try FixturePackage(copying: "DoorApp")
        try package.edit(Self.spec, replacing: "machine: Door\n", with: "machine: Door\npersist: true\n")
        try Self.lockVersion1.write(to: package.directory.appending(path: "Sources/DoorApp/Door.machine.lock"), atomically: true, encoding: .utf8)
        let locked = try package.swift("build")
        #expect(locked.status == 0, "\(locked.output)")
        #expect(!locked.output.contains("warning:"), "\(locked.output)")

        try package.edit(Self.spec, replacing: "persist: true\n", with: "persist:\n  version: 2\n")
        try package.edit(Self.spec, replacing: "  chimes:   {type: \"[String]\", default: \"[]\"}\n", with: "  chimes:   {type: \"[String]\", default: \"[]\"}\n  attempts: {type: Int, default: \"0\"}\n")
        try package.edit(Self.spec, replacing: "target: locked", with: "target: bolted")
        try package.edit(Self.spec, replacing: "  locked:\n", with: "  bolted:\n")
        let unmigrated = try package.swift("build")
        #expect(unmigrated.status != 0, "the build should fail:\n\(unmigrated.output)")
        let bolted = try Self.location(of: "bolted:", in: package)
        #expect(
            unmigrated.output.contains("\(bolted): error: state 'locked' of version 1 is gone, and 'bolted' took its place (fix: if 'bolted' is 'locked' renamed, add 'locked: bolted' to persist.migrations.1.states; otherwise map 'locked' there to the state its journals resume in)"),
            "no error at \(bolted):\n\(unmigrated.output)")

        try package.edit(Self.spec, replacing: "  version: 2\n", with: "  version: 2\n  migrations:\n    1: {states: {locked: bolted}}\n")
        let migrated = try package.swift("build")
        #expect(migrated.status == 0, "\(migrated.output)")

        // Only the lock changes: version 1 saved chimes as [Int], which version 2 cannot read.
        try package.edit("Sources/DoorApp/Door.machine.lock", replacing: "chimes: \"[String]\"", with: "chimes: \"[Int]\"")
        let relocked = try package.swift("build")
        #expect(relocked.status != 0, "an edit of the lock did not run the check:\n\(relocked.output)")
        let chimes = try Self.location(of: "[String]", in: package)
        #expect(relocked.output.contains("\(chimes): error: context field 'chimes' was '[Int]' in version 1 and is '[String]' now"), "no error at \(chimes):\n\(relocked.output)")
    }

    @Test func typeErrorInASetExpressionFailsTheBuildAtTheYAMLLine() throws {
        let package = try FixturePackage(copying: "DoorApp")
        try package.edit(Self.spec, replacing: "openings: openings + 1", with: "openings: openings + \"one\"")
        let build = try package.swift("build")
        #expect(build.status != 0, "the build should fail:\n\(build.output)")
        let text = "openings + \"one\""
        let start = try Self.location(of: text, in: package)
        let line = start.components(separatedBy: ":").dropLast().joined(separator: ":")
        let startColumn = Int(start.components(separatedBy: ":").last!)!
        // swiftc points somewhere inside the expression (the operator or the literal): the column
        // must fall within the expression as written in the YAML.
        let columns = build.output.components(separatedBy: "\n")
            .filter { $0.hasPrefix("\(line):") && $0.contains(": error:") }
            .compactMap { Int($0.dropFirst(line.count + 1).prefix { $0.isNumber }) }
        #expect(!columns.isEmpty, "no error at \(line):\n\(build.output)")
        #expect(columns.allSatisfy { (startColumn..<startColumn + text.count).contains($0) }, "columns \(columns), expression at \(start)")
    }

    /// A type or a module the spec names wrongly is reported by swiftc at the YAML line and column
    /// where the spec names it: a context field's type, a payload field's, a request's, an import.
    @Test func wrongTypesAndImportsFailTheBuildAtTheYAMLLine() throws {
        let package = try FixturePackage(copying: "DoorApp")
        try package.edit(Self.spec, replacing: "openings: {type: Int,", with: "openings: {type: Innt,")
        try package.edit(Self.spec, replacing: "lock: {code: Int}", with: "lock: {code: Intt}")
        try package.edit(Self.spec, replacing: "request: {type: Int,", with: "request: {type: Inttt,")
        let build = try package.swift("build")
        #expect(build.status != 0, "the build should fail:\n\(build.output)")
        // The text after each type makes it unique in the spec; the location is the type's own.
        for (type, after) in [("Innt", ","), ("Intt", "}"), ("Inttt", ",")] {
            let at = try Self.location(of: type + after, in: package)
            #expect(build.output.contains("\(at): error: cannot find type '\(type)' in scope"), "no error for \(type) at \(at):\n\(build.output)")
        }
        // swiftc may add follow-on errors in the generated file (a call that uses the broken
        // type), as it does in hand-written code, but the misspelt type is named only in the spec.
        let inGenerated = build.output.components(separatedBy: "\n").filter { $0.contains(".machine.swift:") && $0.contains("error:") }
        #expect(!inGenerated.contains { $0.contains("Innt") || $0.contains("Intt") }, "\(inGenerated)")

        try package.edit(Self.spec, replacing: "Innt,", with: "Int,")
        try package.edit(Self.spec, replacing: "Intt}", with: "Int}")
        try package.edit(Self.spec, replacing: "Inttt,", with: "Int,")
        try package.edit(Self.spec, replacing: "machine: Door\n", with: "machine: Door\nimports: [Foundaton]\n")
        let imports = try package.swift("build")
        #expect(imports.status != 0, "the build should fail:\n\(imports.output)")
        let module = try Self.location(of: "Foundaton", in: package)
        #expect(imports.output.contains("\(module): error: no such module 'Foundaton'"), "\(imports.output)")
    }

    static let config = "Sources/DoorApp/stateloop-config.json"

    /// Writes `Machine.swift.mustache` into `folder` of the copy: the built-in template under a
    /// first line of its own, by which the generated file shows which template it came from.
    static func writeTemplate(header: String, into folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let builtIn = try String(contentsOf: FixturePackage.repositoryRoot.appending(path: "Templates/Machine.swift.mustache"), encoding: .utf8)
        try (header + "\n" + builtIn).write(to: folder.appending(path: "Machine.swift.mustache"), atomically: true, encoding: .utf8)
    }

    /// `path:line:column` of the first occurrence of `text` in the copy's stateloop-config.json.
    static func configLocation(of text: String, in package: FixturePackage) throws -> String {
        let lines = try package.contents(of: config).components(separatedBy: "\n")
        let index = try #require(lines.firstIndex { $0.contains(text) }, "\(text) is not in the config")
        let column = lines[index].distance(from: lines[index].startIndex, to: lines[index].range(of: text)!.lowerBound) + 1
        return "\(package.directory.appending(path: config).path):\(index + 1):\(column)"
    }

    /// The configuration is read by the generator on every run (SwiftPM asks the plugin for its
    /// commands only when it re-plans the build, which an edit of the file does not cause), so an
    /// edit applies at the next build, and a wrong value fails it at the config's line.
    @Test func configurationFileSetsTheAccessLevelAndTheTemplatesAndEveryEditApplies() throws {
        let package = try FixturePackage(copying: "DoorApp")
        let sources = package.directory.appending(path: "Sources/DoorApp")
        // Both folders exist from the start: a new file would make SwiftPM re-plan, hiding the bug.
        try Self.writeTemplate(header: "// Our house header.", into: sources.appending(path: "StateLoopTemplates"))
        try Self.writeTemplate(header: "// Another house header.", into: sources.appending(path: "OtherTemplates"))
        try """
            {
              "accessLevel": "internal",
              "templates": "StateLoopTemplates"
            }
            """.write(to: package.directory.appending(path: Self.config), atomically: true, encoding: .utf8)

        let build = try package.swift("build")
        #expect(build.status == 0, "\(build.output)")
        #expect(!build.output.contains("warning:"), "\(build.output)")
        let generated = try package.generatedFile(named: "Door.machine.swift")
        #expect(generated.hasPrefix("// Our house header.\n"))
        #expect(generated.contains("\nenum Door {"), "the access level was not applied")
        #expect(!generated.contains("public "))

        // The build after the first plans the plugin's tool once more (see above), and SwiftPM
        // re-plans with it; from then on a build re-plans only when files come or go.
        let settle = try package.swift("build")
        #expect(settle.status == 0, "\(settle.output)")

        // An edit of both values, without re-planning, applies at the next build...
        try package.edit(Self.config, replacing: "\"internal\"", with: "\"package\"")
        try package.edit(Self.config, replacing: "\"StateLoopTemplates\"", with: "\"OtherTemplates\"")
        let edited = try package.swift("build")
        #expect(edited.status == 0, "\(edited.output)")
        let regenerated = try package.generatedFile(named: "Door.machine.swift")
        #expect(regenerated.hasPrefix("// Another house header.\n"), "the templates edit was ignored")
        #expect(regenerated.contains("\npackage enum Door {"), "the access level edit was ignored")
        // ...and so does an edit of a template of the newly named folder.
        try package.edit("Sources/DoorApp/OtherTemplates/Machine.swift.mustache", replacing: "// Another house header.", with: "// A third house header.")
        let retemplated = try package.swift("build")
        #expect(retemplated.status == 0, "\(retemplated.output)")
        #expect(try package.generatedFile(named: "Door.machine.swift").hasPrefix("// A third house header.\n"), "the template edit was ignored")

        // A wrong value fails the build at the config's line and column.
        try package.edit(Self.config, replacing: "\"package\"", with: "\"open\"")
        let wrong = try package.swift("build")
        #expect(wrong.status != 0, "the build should fail:\n\(wrong.output)")
        let at = try Self.configLocation(of: "\"open\"", in: package)
        #expect(wrong.output.contains("\(at): error: \"open\" is not an access level"), "no error at \(at):\n\(wrong.output)")
    }

    /// A build plugin runs in every user's build: a package's config may not make it read (and
    /// compile, or print) a file from outside the package, neither by a path nor by a symlink.
    @Test func configurationCannotReadTemplatesFromOutsideThePackage() throws {
        let package = try FixturePackage(copying: "DoorApp")
        let outside = FixturePackage.repositoryRoot.appending(path: ".build-e2e/outside the package")
        try Self.writeTemplate(header: "// Read from outside the package.", into: outside)
        try """
            {
              "templates": "../../../outside the package"
            }
            """.write(to: package.directory.appending(path: Self.config), atomically: true, encoding: .utf8)
        let byPath = try package.swift("build")
        #expect(byPath.status != 0, "the build should fail:\n\(byPath.output)")
        let folder = try Self.configLocation(of: "\"../../../outside the package\"", in: package)
        #expect(byPath.output.contains("\(folder): error: the templates folder is outside the package"), "no error at \(folder):\n\(byPath.output)")
        #expect(!byPath.output.contains("Compiling DoorApp"), "\(byPath.output)")

        // A template inside the package that links to a file outside it.
        let templates = package.directory.appending(path: "Sources/DoorApp/StateLoopTemplates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: templates.appending(path: "Machine.swift.mustache"), withDestinationURL: outside.appending(path: "Machine.swift.mustache"))
        try package.edit(Self.config, replacing: "\"../../../outside the package\"", with: "\"StateLoopTemplates\"")
        let byLink = try package.swift("build")
        #expect(byLink.status != 0, "the build should fail:\n\(byLink.output)")
        let link = try Self.configLocation(of: "\"StateLoopTemplates\"", in: package)
        #expect(byLink.output.contains("\(link): error: the template Machine.swift.mustache links to a file outside the package"), "no error at \(link):\n\(byLink.output)")
        #expect(!byLink.output.contains("Compiling DoorApp"), "\(byLink.output)")
    }

    /// The plugin declares the output the CLI writes for every spec name, and a name SwiftPM
    /// cannot carry through its build description is refused at the spec.
    @Test func specFileNamesGiveTheSameOutputInThePluginAndTheCLI() throws {
        let package = try FixturePackage(copying: "DoorApp")
        let spec = try package.contents(of: Self.spec)
        let quoted = package.directory.appending(path: "Sources/DoorApp/Ha\"tch.machine.yml")
        try spec.replacingOccurrences(of: "machine: Door\n", with: "machine: Hatch\n").write(to: quoted, atomically: true, encoding: .utf8)
        let refused = try package.swift("build")
        #expect(refused.status != 0, "the build should fail:\n\(refused.output)")
        #expect(refused.output.contains("\(quoted.path):1:1: error: a spec's file name cannot contain '\"'"), "\(refused.output)")

        try FileManager.default.removeItem(at: quoted)
        try spec.replacingOccurrences(of: "machine: Door\n", with: "machine: Hinge\n")
            .write(to: package.directory.appending(path: "Sources/DoorApp/Hinge.machine.yaml.machine.yml"), atomically: true, encoding: .utf8)
        let build = try package.swift("build")
        #expect(build.status == 0, "\(build.output)")
        #expect(try package.generatedFile(named: "Hinge.machine.yaml.machine.swift").contains("enum Hinge {"))
    }

    @Test func commandPluginWritesSwiftAndDiagramsIntoThePackage() throws {
        let package = try FixturePackage(copying: "DoorApp")
        let diagram = try package.swift("package", "--allow-writing-to-package-directory", "stateloop", "diagram", "--target", "DoorApp", "--format", "dot")
        #expect(diagram.status == 0, "\(diagram.output)")
        #expect(try package.contents(of: "Sources/DoorApp/Door.dot").contains("digraph"))

        // The target's configuration applies as in the build plugin.
        try #"{"accessLevel": "internal"}"#.write(to: package.directory.appending(path: Self.config), atomically: true, encoding: .utf8)
        let generate = try package.swift("package", "--allow-writing-to-package-directory", "stateloop", "generate", "--target", "DoorApp")
        #expect(generate.status == 0, "\(generate.output)")
        let generated = try package.contents(of: "Sources/DoorApp/Generated/Door.machine.swift")
        #expect(generated.hasPrefix("// Generated by stateloop from Door.machine.yml. Do not edit."))
        #expect(generated.contains("\nenum Door {"), "the configuration's access level was not applied")
    }

    @Test func twoSpecsWithTheSameNameInOneTargetFailTheBuild() throws {
        let package = try FixturePackage(copying: "DoorApp")
        let nested = package.directory.appending(path: "Sources/DoorApp/Back")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        try package.contents(of: Self.spec).write(to: nested.appending(path: "Door.machine.yml"), atomically: true, encoding: .utf8)
        let build = try package.swift("build")
        #expect(build.status != 0, "the build should fail:\n\(build.output)")
        // Specs are taken in path order, so the error stands at the later path.
        #expect(build.output.contains("\(package.directory.path)/\(Self.spec):1:1: error: this spec would generate Door.machine.swift, like \(nested.path)/Door.machine.yml"), "\(build.output)")
    }

    /// E23, E31: a parent and its child machine in one target. The plugin passes the child's spec
    /// to the parent's command (and lists it as an input), so the parent compiles against the
    /// child's `Input`, `Event` and `Output`, and an edit of the child alone is checked against
    /// the parent at the parent's YAML line.
    @Test func childMachineBuildsWithItsParentAndAnEditOfTheChildRegeneratesTheParent() throws {
        let package = try FixturePackage(copying: "DoorApp")
        let alarm = "Sources/DoorApp/Alarm.machine.yml"
        try """
            machine: Alarm
            events:
              tripped: {}
            initial: armed
            states:
              armed:
                on:
                  tripped: rang
              rang:
                type: final

            """.write(to: package.directory.appending(path: alarm), atomically: true, encoding: .utf8)
        try package.edit(Self.spec, replacing: "  chimed: {from: effects, message: String}   # only the chime effect sends it\n", with: """
              chimed: {from: effects, message: String}   # only the chime effect sends it
              alarmRang: {from: effects}

            """)
        try package.edit(Self.spec, replacing: "        - ignore                       # wrong code: stay locked\n", with: """
                    - ignore
                  alarmRang: {set: {chimes: "chimes + [\\"alarm\\"]"}}

            """)
        try package.edit(Self.spec, replacing: "    ignore: [open, close, lock]\n", with: "    ignore: [close, lock]   # open is forwarded to the alarm\n")
        try package.edit(Self.spec, replacing: "    emits: [chimed]\n", with: """
                emits: [chimed]
              alarm:
                in: [locked]
                machine: Alarm
                forward: {open: tripped}
                onDone: {rang: alarmRang}

            """)
        let build = try package.swift("build")
        #expect(build.status == 0, "swift build failed:\n\(build.output)")
        #expect(build.output.contains("Generating Alarm.machine.swift from Alarm.machine.yml"), "\(build.output)")

        try package.edit(alarm, replacing: "    type: final\n", with: "    type: final\n  silenced:\n    type: final\n")
        let edited = try package.swift("build")
        #expect(edited.status != 0, "the build should fail:\n\(edited.output)")
        let onDone = try Self.location(of: "onDone:", in: package)
        #expect(
            edited.output.contains("\(onDone): error: 'onDone:' of effect 'alarm' does not map final state 'silenced' of machine 'Alarm'"),
            "no error at \(onDone):\n\(edited.output)")
    }
}
