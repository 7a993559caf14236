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

@Suite struct ServerTests {
    @Test("I30: the stateloop CLI links no web server, and STATELOOP_NO_INSPECTOR leaves the inspector out")
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
        // The manifest without the inspector: no hummingbird, no inspector target or product.
        let scratch = FileManager.default.temporaryDirectory.appending(path: "inspector-i30-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let dump = Process()
        dump.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        dump.arguments = ["swift", "package", "--package-path", packageRoot.path, "--scratch-path", scratch.path, "dump-package"]
        dump.environment = ProcessInfo.processInfo.environment.merging(["STATELOOP_NO_INSPECTOR": "1"]) { $1 }
        let manifest = Pipe()
        dump.standardOutput = manifest
        try dump.run()
        let json = String(decoding: manifest.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        dump.waitUntilExit()
        #expect(dump.terminationStatus == 0)
        #expect(json.contains("\"StateLoopExamples\""), "the manifest was dumped")
        for name in ["hummingbird-websocket", "\"Hummingbird\"", "StateLoopInspectorServer", "stateloop-inspect"] {
            #expect(!json.contains(name), "\(name) is in the manifest with STATELOOP_NO_INSPECTOR")
        }
    }

    @Test("I31: stateloop-inspect listens on 127.0.0.1 unless --host says otherwise")
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

    @Test("I37: stateloop inspect runs stateloop-inspect beside it, or says how to build it")
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
        #expect(message.contains("there is none beside stateloop (\(alone.path)/stateloop-inspect). Build it: `swift build --product stateloop-inspect`"))
    }
}
