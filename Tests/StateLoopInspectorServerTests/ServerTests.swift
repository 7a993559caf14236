import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StateLoopTestSupport
import Testing
@testable import StateLoopInspectorServer

/// A `stateloop-inspect` (or `stateloop inspect`) process on a free port, stopped when released.
final class RunningInspector: @unchecked Sendable {
    let process = Process()
    let base: URL

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
        guard let match = text.firstMatch(of: /the page is at (http:\/\/[0-9.]+:[0-9]+\/)/) else {
            process.terminate()
            throw Failure(description: "stateloop-inspect said \(text.debugDescription)")
        }
        base = URL(string: String(match.1))!
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    deinit {
        // SIGKILL: on SIGTERM the server shuts down gracefully, waiting for the WebSockets of the
        // apps still attached (an `Inspector` reconnects until its process ends).
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// `GET path`: the status and the body.
    func get(_ path: String) async throws -> (status: Int, body: String) {
        let (data, response) = try await URLSession.shared.data(from: URL(string: path, relativeTo: base)!)
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
        // A user's package (the Inspector trait off, as by default) resolves StateLoop's three
        // other dependencies and nothing of the web server's.
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
        #expect(checkouts.sorted() == ["swift-argument-parser", "swift-collections", "swift-mustache"])
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

    @Test("I37: stateloop inspect runs stateloop-inspect beside it, or says how to build it", .enabled(if: serverBuilt, "runs the server: build with --traits Inspector"))
    func i37Forwarding() async throws {
        let inspector = try RunningInspector(builtExecutable("stateloop"), ["inspect", "--port", "0", "Specs/Counter.machine.yml"])
        let svg = try await inspector.get("/diagram?spec=Counter.machine.yml")
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
