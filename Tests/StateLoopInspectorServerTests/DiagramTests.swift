import Foundation
import StateLoop
import StateLoopExamples
import StateLoopInspector
import StateLoopTestSupport
import Testing
@testable import StateLoopInspectorServer

/// The package's root folder (this file is Tests/StateLoopInspectorServerTests/DiagramTests.swift).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

@Suite struct DiagramTests {
    /// A new folder `inspector-NAME-…` in the temporary directory, with the folder `subfolder` in it.
    static func folder(_ name: String, containing subfolder: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "inspector-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appending(path: subfolder), withIntermediateDirectories: true)
        return folder
    }

    @Test("I34: a spec named on the command line, else found by its file name below the current folder")
    func i34Lookup() async throws {
        let folder = try Self.folder("i34", containing: "deep/er")
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = try String(contentsOf: packageRoot.appending(path: "Specs/Counter.machine.yml"), encoding: .utf8)
        try spec.write(to: folder.appending(path: "deep/Counter.machine.yml"), atomically: true, encoding: .utf8)
        // The deeper copy is another machine: the shallower one must win.
        try spec.replacingOccurrences(of: "counting", with: "deeper").write(to: folder.appending(path: "deep/er/Counter.machine.yml"), atomically: true, encoding: .utf8)

        let found = try await Diagrams(specs: [], searchRoot: folder.path).svg(forSpecNamed: "Counter.machine.yml").get()
        #expect(found.contains("<title>counting</title>"))
        let named = try await Diagrams(specs: [packageRoot.appending(path: "Specs/TrafficLight.machine.yml").path], searchRoot: folder.path)
            .svg(forSpecNamed: "TrafficLight.machine.yml").get()
        #expect(named.contains("<title>flashing</title>"))

        let missing = await Diagrams(specs: [], searchRoot: folder.path).svg(forSpecNamed: "Door.machine.yml")
        #expect(throws: InspectorError.spec("no spec Door.machine.yml was given on the command line or found in the folder stateloop inspect runs in or below it: name it, `stateloop inspect path/to/Door.machine.yml`")) { try missing.get() }

        try "machine: Broken\nstates: [".write(to: folder.appending(path: "Broken.machine.yml"), atomically: true, encoding: .utf8)
        let broken = await Diagrams(specs: [], searchRoot: folder.path).svg(forSpecNamed: "Broken.machine.yml")
        #expect(throws: (any Error).self) { try broken.get() }
        if case .failure(let error) = broken {
            #expect(error.description.hasPrefix("Broken.machine.yml has errors (`stateloop check Broken.machine.yml` lists them):\nBroken.machine.yml:"), "\(error)")
        }
    }

    @Test("I73: a hello's spec must be a *.machine.yml file name; a spec found below the folder is named by its path there")
    func i73OnlySpecs() async throws {
        let folder = try Self.folder("i73", containing: "Specs")
        defer { try? FileManager.default.removeItem(at: folder) }
        try "api_key: s3cret\n".write(to: folder.appending(path: "secrets.yml"), atomically: true, encoding: .utf8)
        try "machine: Broken\nstates: [".write(to: folder.appending(path: "Specs/Broken.machine.yml"), atomically: true, encoding: .utf8)
        let diagrams = Diagrams(specs: [], searchRoot: folder.path)
        for name in ["secrets.yml", "../secrets.yml", "Specs/Broken.machine.yml", ".machine.yml", ""] {
            await #expect(throws: InspectorError.spec("'\(name)' is not a spec's file name (NAME.machine.yml): the app's machine must be generated from a *.machine.yml")) {
                try await diagrams.svg(forSpecNamed: name).get()
            }
        }
        let broken = await diagrams.svg(forSpecNamed: "Broken.machine.yml")
        if case .failure(let error) = broken {
            #expect(error.description.hasPrefix("Specs/Broken.machine.yml has errors (`stateloop check Specs/Broken.machine.yml` lists them):\nSpecs/Broken.machine.yml:"), "\(error)")
            #expect(!error.description.contains(folder.path))
        } else {
            Issue.record("a broken spec was drawn")
        }
    }

    @Test("I35: states are the SVG's titles, each arrow of a branch has the id branch-N")
    func i35ElementIDs() async throws {
        let svg = try await Diagrams(specs: [packageRoot.appending(path: "Specs/Upload.machine.yml").path]).svg(forSpecNamed: "Upload.machine.yml").get()
        let light = try await Diagrams(specs: [packageRoot.appending(path: "Specs/TrafficLight.machine.yml").path]).svg(forSpecNamed: "TrafficLight.machine.yml").get()
        for state in ["sending", "paused", "hashing", "failed", "finished"] {
            #expect(svg.contains("<title>\(state)</title>"), "state \(state)")
        }
        for composite in ["working", "transfer", "checksum"] {
            #expect(svg.contains("<title>cluster_\(composite)</title>"), "composite \(composite)")
        }
        // Every branch that is drawn as an arrow of its own, by its id in traces (TransitionList):
        // the machine's powerFailed (0), red's timer (3), green's pedestrianWaiting (4) and timer
        // (5), yellow's timer (7), flashing's powerRestored (8); the ignores (1, 2, 6, 9, 10) have none.
        // (Graphviz writes the hyphen as `&#45;`.)
        let ids = light.matches(of: /<g id="branch&#45;([0-9]+)" class="edge">/).map { Int($0.1)! }
        #expect(ids.sorted() == [0, 3, 4, 5, 7, 8])
    }

    @Test("I49: both legs of a state's loop name each branch the loop draws as a class")
    func i49LoopsNameTheirBranches() async throws {
        let svg = try await Diagrams(specs: [packageRoot.appending(path: "Specs/Checkout.machine.yml").path]).svg(forSpecNamed: "Checkout.machine.yml").get()
        let legs = svg.matches(of: /<g id="edge[0-9]+" class="edge((?: branch&#45;[0-9]+)+)">/).map { match in
            match.1.split(separator: " ").map { Int($0.dropFirst("branch&#45;".count))! }
        }
        let arrows = svg.matches(of: /<g id="branch&#45;([0-9]+)" class="edge">/).map { Int($0.1)! }
        // Checkout's loops: browsing's imageLoaded and imageFailed as one loop, shipped's delivery.
        #expect(legs.count == 4, "\(legs)")
        #expect(legs.map(\.count).sorted() == [1, 1, 2, 2])
        // Both legs of a loop name the same branches.
        #expect(Dictionary(grouping: legs, by: { $0 }).values.map(\.count) == [2, 2], "\(legs)")
        #expect(Set(legs.joined()).isDisjoint(with: arrows), "a branch is drawn once")
    }

    @Test("I76: of the specs of a hello's file name, the one whose branches give its fingerprint is drawn; none, and the page says so")
    func i76TheAppsSpec() async throws {
        let folder = try Self.folder("i76", containing: "Tests/Fixtures")
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = try String(contentsOf: packageRoot.appending(path: "Specs/Counter.machine.yml"), encoding: .utf8)
        // A shallower copy that is another machine (a fixture of the same name), and the app's own deeper down.
        try spec.replacingOccurrences(of: "counting", with: "fixture").write(to: folder.appending(path: "Counter.machine.yml"), atomically: true, encoding: .utf8)
        try spec.write(to: folder.appending(path: "Tests/Fixtures/Counter.machine.yml"), atomically: true, encoding: .utf8)
        let diagrams = Diagrams(specs: [], searchRoot: folder.path)

        let apps = try await diagrams.svg(forSpecNamed: "Counter.machine.yml", fingerprint: BranchFingerprint.of(Counter.transitions)).get()
        #expect(apps.contains("<title>counting</title>") && !apps.contains("fixture"))
        // Without a fingerprint (a journal's hello), the shallowest.
        #expect(try await diagrams.svg(forSpecNamed: "Counter.machine.yml").get().contains("<title>fixture</title>"))
        await #expect(throws: InspectorError.spec("no spec Counter.machine.yml found is the one the app was generated from (its branches differ: Counter.machine.yml, Tests/Fixtures/Counter.machine.yml): name the app's own, `stateloop inspect path/to/Counter.machine.yml`")) {
            try await diagrams.svg(forSpecNamed: "Counter.machine.yml", fingerprint: "0123456789abcdef").get()
        }
    }

    @Test("I76: the fingerprint an app's machine sends is the one the inspector reads from its spec, for every example machine")
    func i76BothSidesAgree() async throws {
        let machines: [(file: String, transitions: [TransitionInfo])] = [
            ("Checkout", Checkout.transitions), ("Counter", Counter.transitions), ("Downloader", Downloader.transitions),
            ("GitHubSearch", GitHubSearch.transitions), ("Keyboard", Keyboard.transitions), ("Microwave", Microwave.transitions),
            ("Movies", Movies.transitions), ("Order", Order.transitions), ("Payment", Payment.transitions), ("PlayCatch", PlayCatch.transitions),
            ("Player", Player.transitions), ("SearchBox", SearchBox.transitions), ("SignIn", SignIn.transitions),
            ("Tab", Tab.transitions), ("TCP", TCP.transitions), ("Till", Till.transitions), ("TrafficLight", TrafficLight.transitions),
            ("Transfer", Transfer.transitions), ("Upload", Upload.transitions),
        ]
        let specs = try FileManager.default.contentsOfDirectory(atPath: packageRoot.appending(path: "Specs").path).filter { $0.hasSuffix(".machine.yml") }
        #expect(specs.count == machines.count, "a spec of Specs/ is missing here")
        let diagrams = Diagrams(specs: [], searchRoot: packageRoot.path)
        for machine in machines {
            let svg = await diagrams.svg(forSpecNamed: machine.file + ".machine.yml", fingerprint: BranchFingerprint.of(machine.transitions))
            #expect(throws: Never.self, "\(machine.file)") { try svg.get() }
        }
    }
}
