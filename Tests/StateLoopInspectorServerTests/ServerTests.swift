import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import StateLoopInspector
import StateLoopTestSupport
import Testing
@testable import StateLoopInspectorServer

/// A `stateloop-inspect` (or `stateloop inspect`) process on a free port, stopped when released.
final class RunningInspector: @unchecked Sendable {
    let process = Process()
    /// `http://127.0.0.1:P/`.
    let base: URL
    /// The run's token (I68), and the page's address with it, as the first line prints it.
    let token: String
    let page: URL
    var port: Int { base.port! }

    /// Starts `executable` with `arguments` and waits for its first line, which says where the page is.
    init(_ executable: URL, _ arguments: [String], directory: URL = packageRoot) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let match = text.firstMatch(of: /the page is at ((http:\/\/[0-9.]+:[0-9]+\/)\?token=([0-9a-f]{32})) ;/) else {
            process.terminate()
            throw Failure(description: "stateloop-inspect said \(text.debugDescription)")
        }
        page = URL(string: String(match.1))!
        base = URL(string: String(match.2))!
        token = String(match.3)
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// An app's connection to `/app` (StateLoopInspector's own client, which sends no `Origin`)
    /// that has sent `texts`, one frame each.
    func attach(_ texts: [String]) throws -> WebSocketClient {
        let client = WebSocketClient()
        guard client.open(InspectorAddress(url: "ws://127.0.0.1:\(port)/app")!) else { throw Failure(description: "no /app connection") }
        for text in texts where !client.send(text: text) { throw Failure(description: "the connection broke") }
        return client
    }

    /// `GET path` again until its status is `status` (the app's messages are kept a moment after they are sent).
    func get(_ path: String, until status: Int) async throws -> (status: Int, body: String) {
        for _ in 0..<100 {
            let answer = try await get(path)
            if answer.status == status { return answer }
            try await Task.sleep(for: .milliseconds(50))
        }
        return try await get(path)
    }

    deinit {
        // SIGKILL: on SIGTERM the server shuts down gracefully, waiting for the WebSockets of the
        // apps still attached (an `Inspector` reconnects until its process ends).
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// `GET path` with the run's token added to its query: the status and the body.
    func get(_ path: String) async throws -> (status: Int, body: String) {
        let withToken = path + (path.contains("?") ? "&" : "?") + "token=" + token
        let (data, response) = try await URLSession.shared.data(from: URL(string: withToken, relativeTo: base)!)
        return ((response as! HTTPURLResponse).statusCode, String(decoding: data, as: UTF8.self))
    }
}

/// Whether this build has the web server: the package's Inspector trait was on
/// (`swift build --traits Inspector`, as Scripts/test.sh builds; Docs/Inspector.md I30).
#if Inspector
let serverBuilt = true
#else
let serverBuilt = false
#endif

@Suite struct ServerTests {
    @Test("I30: the stateloop CLI links no web server")
    func i30NoHummingbirdInTheCLI() throws {
        let nm = Process()
        nm.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        nm.arguments = ["nm", builtExecutable("stateloop").path]
        let symbols = Pipe()
        nm.standardOutput = symbols
        try nm.run()
        let text = String(decoding: symbols.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        nm.waitUntilExit()
        #expect(nm.terminationStatus == 0)
        #expect(text.contains("StateLoopCLI"), "nm read the stateloop executable")
        for module in ["11Hummingbird", "7NIOCore", "7NIOPosix"] {
            #expect(!text.contains(module), "stateloop links \(module)")
        }
    }

    @Test("I60: a package depending on StateLoop resolves none of the web server's packages")
    func i60UsersResolveNoHummingbird() throws {
        // A user's package (the Inspector trait off, as by default) resolves StateLoop's other
        // dependencies and nothing of the web server's: swift-log, swift-metrics and
        // swift-service-lifecycle (with its swift-async-algorithms) are the StateLoopHost
        // product's, resolved but linked only by an app that links that product (Docs/Hosting.md).
        let user = FileManager.default.temporaryDirectory.appending(path: "inspector-i60-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: user) }
        try FileManager.default.createDirectory(at: user.appending(path: "Sources/App"), withIntermediateDirectories: true)
        try """
            // swift-tools-version: 6.1
            import PackageDescription
            let package = Package(
                name: "App",
                platforms: [.macOS(.v14)],
                dependencies: [.package(name: "StateLoop", path: "\(packageRoot.path)")],
                targets: [.executableTarget(name: "App", dependencies: [.product(name: "StateLoop", package: "StateLoop")])]
            )
            """.write(to: user.appending(path: "Package.swift"), atomically: true, encoding: .utf8)
        try "print(0)\n".write(to: user.appending(path: "Sources/App/main.swift"), atomically: true, encoding: .utf8)
        let resolve = Process()
        resolve.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        resolve.arguments = ["swift", "package", "--package-path", user.path, "resolve"]
        resolve.standardOutput = FileHandle.nullDevice
        try resolve.run()
        resolve.waitUntilExit()
        #expect(resolve.terminationStatus == 0)
        let checkouts = try FileManager.default.contentsOfDirectory(atPath: user.appending(path: ".build/checkouts").path)
        #expect(checkouts.sorted() == [
            "swift-argument-parser", "swift-async-algorithms", "swift-collections", "swift-log", "swift-metrics", "swift-mustache",
            "swift-service-lifecycle",
        ])
    }

    @Test("I61: stateloop-inspect built without the Inspector trait says how to build its server", .enabled(if: !serverBuilt, "the build without the Inspector trait"))
    func i61WithoutTheTrait() throws {
        let process = Process()
        process.executableURL = builtExecutable("stateloop-inspect")
        let error = Pipe()
        process.standardError = error
        try process.run()
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(message.contains("`swift build --traits Inspector --product stateloop-inspect`"))
    }

    @Test("I31: stateloop-inspect listens on 127.0.0.1 unless --host says otherwise", .enabled(if: serverBuilt, "runs the server: build with --traits Inspector"))
    func i31Loopback() async throws {
        let inspector = try RunningInspector(builtExecutable("stateloop-inspect"), ["--port", "0"])
        #expect(inspector.base.host == "127.0.0.1")
        let page = try await inspector.get("/")
        #expect(page.status == 200 && page.body.contains("<title>StateLoop inspector</title>"))
        #expect(try await inspector.get("/stats").body == #"{"kept":0,"limitPerInstance":20000}"#)
        let other = try RunningInspector(builtExecutable("stateloop-inspect"), ["--port", "0", "--host", "127.0.0.2"])
        #expect(other.base.host == "127.0.0.2")
    }

    @Test("I36: the page loads nothing from another host")
    func i36Offline() {
        let page = InspectorPage.html
        #expect(page.firstMatch(of: /(src|href)\s*=/) == nil)
        #expect(!page.contains("url(") && !page.contains("@import"))
        // The only addresses it names are its own server's WebSocket.
        let schemes = page.matches(of: /"([a-z]+):\/\//).map { String($0.1) }
        #expect(Set(schemes) == ["ws", "wss"])
    }

    @Test("I69: a second /app connection's hello and steps for an instance the first owns are refused", .enabled(if: serverBuilt, "runs the server: build with --traits Inspector"))
    func i69TwoConnections() async throws {
        let inspector = try RunningInspector(builtExecutable("stateloop-inspect"), ["--port", "0"])
        func json(_ object: [String: Any]) throws -> String { try InspectorMessage(object: object).json }
        let vault = hello("Vault#1", machine: "Vault")
        let owner = try inspector.attach([try json(vault), try json(step("Vault#1", 0, event: nil, state: "S(\n  n: 0\n)"))])
        defer { owner.close() }
        _ = try await inspector.get("/stats", until: 200)
        let stranger = try inspector.attach([
            try json(vault.merging(["spec": "Evil.machine.yml"]) { $1 }), try json(step("Vault#1", 1, event: ".open", state: "S(\n  n: 666\n)")),
        ])
        defer { stranger.close() }
        #expect(owner.send(text: try json(step("Vault#1", 1, event: ".open", state: "S(\n  n: 1\n)"))))
        var kept = ""
        for _ in 0..<100 where !kept.contains(#""kept":3"#) {
            kept = try await inspector.get("/stats").body
            try await Task.sleep(for: .milliseconds(50))
        }
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await inspector.get("/stats").body == #"{"kept":3,"limitPerInstance":20000}"#)
        let export = try await inspector.get("/export?instance=Vault%231&from=1&to=1")
        #expect(export.status == 200 && export.body.contains("$0.n = 1") && !export.body.contains("666"), "\(export)")
    }

    @Test("I72: /diagram draws the spec of an instance that said hello, and refuses any other name", .enabled(if: serverBuilt, "runs the server: build with --traits Inspector"))
    func i72DiagramsOfInstances() async throws {
        let inspector = try RunningInspector(builtExecutable("stateloop-inspect"), ["--port", "0"])
        for path in ["/diagram?instance=Counter%231", "/diagram?spec=Counter.machine.yml", "/diagram?instance=..%2F..%2Fetc%2Fpasswd"] {
            let refused = try await inspector.get(path)
            #expect(refused.status == 404 && refused.body.hasPrefix("no machine instance '") && refused.body.hasSuffix("' has said hello to this inspector"), "\(path): \(refused)")
        }
        let app = try inspector.attach([try InspectorMessage(object: hello("Counter#1", machine: "Counter")).json])
        defer { app.close() }
        let svg = try await inspector.get("/diagram?instance=Counter%231", until: 200)
        #expect(svg.body.contains("<title>counting</title>"))
    }

    @Test("I75: the empty page, Inspector.md and Inspector's documentation show the attach line BrowserTests compiles")
    func i75TheAttachLine() throws {
        let line = "TrafficLight.system().inspected(TrafficLight.self"
        let browserTests = try String(contentsOf: packageRoot.appending(path: "Tests/StateLoopInspectorServerTests/BrowserTests.swift"), encoding: .utf8)
        #expect(browserTests.contains("let run = " + line + ", by: Inspector("))
        #expect(InspectorPage.html.contains("<code>" + line + ")</code>") && !InspectorPage.html.contains("inspector: .init()"))
        for file in ["Docs/Inspector.md", "Sources/StateLoopInspector/Inspector.swift"] {
            let text = try String(contentsOf: packageRoot.appending(path: file), encoding: .utf8)
            #expect(text.contains(line + ")"), "\(file)")
            #expect(!text.contains("Door.system().inspected"), "\(file)")
        }
    }

    @Test("I37: stateloop inspect runs stateloop-inspect beside it, or says how to build it", .enabled(if: serverBuilt, "runs the server: build with --traits Inspector"))
    func i37Forwarding() async throws {
        let inspector = try RunningInspector(builtExecutable("stateloop"), ["inspect", "--port", "0", "Specs/Counter.machine.yml"])
        let app = try inspector.attach([try InspectorMessage(object: hello("Counter#1", machine: "Counter")).json])
        defer { app.close() }
        let svg = try await inspector.get("/diagram?instance=Counter%231", until: 200)
        #expect(svg.status == 200 && svg.body.contains("<title>counting</title>"))

        let alone = FileManager.default.temporaryDirectory.appending(path: "inspector-i37-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: alone) }
        try FileManager.default.copyItem(at: builtExecutable("stateloop"), to: alone.appending(path: "stateloop"))
        let process = Process()
        process.executableURL = alone.appending(path: "stateloop")
        process.arguments = ["inspect"]
        let error = Pipe()
        process.standardError = error
        try process.run()
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(message.contains("there is none beside stateloop (\(alone.path)/stateloop-inspect). Build it: `swift build --traits Inspector --product stateloop-inspect`"))
    }
}
