// `stateloop-inspect`: the inspector's web server (Docs/Inspector.md). `stateloop inspect …` runs it.

import ArgumentParser
import Foundation
import StateLoopInspectorServer

@main
struct Inspect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stateloop-inspect",
        abstract: "Watch running state machines in the browser.",
        discussion: """
            Serves a page at http://HOST:PORT/ showing every machine attached to ws://HOST:PORT/app: \
            its diagram with the active states highlighted, a timeline of its steps with the state \
            diffs, its runs and timers, time travel, and the steps exported as a MachineTest. \
            Diagrams need Graphviz's `dot`. Specs not named here are looked for by the file name \
            the app gives, in the current folder and below it. Listens on the loopback address \
            only, unless --host says otherwise.
            """
    )

    @Option(help: "The port of the page and of the apps' WebSocket.")
    var port = 4567

    @Option(help: "The address to listen on (127.0.0.1: this machine only).")
    var host = "127.0.0.1"

    @Option(help: "How many messages to keep per machine instance; past that the oldest are dropped.")
    var keep = 20_000

    @Option(help: "A file of messages, one JSON object a line (what `stateloop inspect --journal` writes), shown as if an app had sent them.")
    var messages: String?

    @Argument(help: "The specs of the machines (*.machine.yml).")
    var specs: [String] = []

    func validate() throws {
        guard keep > 0 else { throw ValidationError("--keep takes a count of messages, 1 or more") }
        guard (0...65535).contains(port) else { throw ValidationError("--port takes a port number, 0 to 65535") }
        for spec in specs where !FileManager.default.fileExists(atPath: spec) {
            throw ValidationError("no spec file at \(spec)")
        }
    }

    func run() async throws {
        #if !Inspector
        // The product exists in every build of the package; its server only with the trait (I30).
        FileHandle.standardError.write(Data("""
            error: this stateloop-inspect was built without its web server. Build it with the \
            Inspector trait: `swift build --traits Inspector --product stateloop-inspect` in the \
            StateLoop package (Docs/Inspector.md I30).

            """.utf8))
        throw ExitCode(2)
        #else
        let store = InspectorStore(limit: keep)
        if let messages {
            guard let text = try? String(contentsOfFile: messages, encoding: .utf8) else {
                throw ValidationError("cannot read the messages file \(messages)")
            }
            for (index, line) in text.split(separator: "\n").enumerated() {
                do throws(InspectorError) {
                    try await store.receive(text: String(line))
                } catch {
                    throw ValidationError("\(messages):\(index + 1): \(error)")
                }
            }
        }
        let server = InspectorServer(host: host, port: port, store: store, diagrams: Diagrams(specs: specs))
        try await server.run { port in
            FileHandle.standardOutput.write(Data("stateloop inspect: the page is at http://\(host):\(port)/ ; apps attach to ws://\(host):\(port)/app\n".utf8))
        }
        #endif
    }
}
