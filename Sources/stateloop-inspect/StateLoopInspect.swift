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
            Serves a page at http://HOST:PORT/?token=TOKEN (TOKEN drawn afresh each run, and \
            printed) showing every machine attached to ws://HOST:PORT/app: \
            its diagram with the active states highlighted, a timeline of its steps with the state \
            diffs, its runs and timers, time travel, and the steps exported as a MachineTest. \
            Diagrams need Graphviz's `dot`. Specs not named here are looked for by the file name \
            the app gives, in the current folder and below it. Listens on the loopback address \
            only, unless --host says otherwise, and answers only its own page (Host, Origin and token \
            checked) and apps (which send no Origin). With --journal and --spec, a durable machine's \
            journal is shown offline, as if the machine had sent it (exit status 2 when it cannot \
            be read).
            """
    )

    @Option(help: "The port of the page and of the apps' WebSocket.")
    var port = 4567

    @Option(help: "The address to listen on (127.0.0.1: this machine only).")
    var host = "127.0.0.1"

    @Option(help: "How many messages to keep per machine instance; past that the oldest are dropped.")
    var keep = 20_000

    @Option(help: "A durable machine's journal file (SQLite) to show offline, each machine in it as an instance; needs --spec.")
    var journal: String?

    @Option(help: "The spec (*.machine.yml, with 'persist:') of the machine that wrote --journal; its children's specs are found beside it.")
    var spec: String?

    @Argument(help: "The specs of the machines (*.machine.yml).")
    var specs: [String] = []

    func validate() throws {
        guard keep > 0 else { throw ValidationError("--keep takes a count of messages, 1 or more") }
        guard (0...65535).contains(port) else { throw ValidationError("--port takes a port number, 0 to 65535") }
        for path in specs + (spec.map { [$0] } ?? []) where !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("no spec file at \(path)")
        }
        if journal != nil, spec == nil {
            throw ValidationError("--journal needs --spec SPEC, the spec of the machine that wrote the journal, to read its values (I45)")
        }
        if let journal, !FileManager.default.fileExists(atPath: journal) {
            throw ValidationError("no journal file at \(journal): give the path the durable machine's SQLiteJournalStore writes to")
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
        if let journal, let spec {
            do throws(InspectorError) {
                for message in try JournalMessages.read(journal: journal, spec: spec) { await store.receive(message) }
            } catch {
                FileHandle.standardError.write(Data("error: \(error)\n".utf8))
                throw ExitCode(2)
            }
        }
        let server = InspectorServer(host: host, port: port, store: store, diagrams: Diagrams(specs: specs + (spec.map { [$0] } ?? [])))
        try await server.run { port in
            FileHandle.standardOutput.write(Data("stateloop inspect: the page is at http://\(host):\(port)/?token=\(server.token) ; apps attach to ws://\(host):\(port)/app\n".utf8))
        }
        #endif
    }
}
