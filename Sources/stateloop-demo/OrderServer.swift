// `stateloop-demo serve --journal FILE --port P`: orders (Specs/Order.machine.yml) by id over HTTP
// on 127.0.0.1, one MachineHost on a SQLite journal behind a Hummingbird server, as a user would
// build one (Docs/Hosting.md H73, H74). Built with the Inspector trait, which builds the package's
// web servers (`swift run --traits Inspector stateloop-demo serve ...`).
//
//   POST /orders/{id}          creates the order: 201, or 409 when it exists
//   POST /orders/{id}/events   {"event": "add", "amount": 12} (add, pay, ship, cancel): 200 with
//                              the state after it once it is durable; 404 an unknown order, 409 a
//                              finished one, 400 an event it cannot read
//   GET  /orders/{id}          the last durable state: 200, or 404
//
// A state is `{"id", "state", "lines", "total", "paid"}`, with `"sequence"` after an event (its
// record's number). It prints `listening <port>` once it serves; SIGTERM or SIGINT shut it down
// gracefully (H55): the server stops taking requests, the host commits what it took and writes
// each order's snapshot, then it exits 0.

import Foundation
import StateLoopDurable
import StateLoopExamples

enum OrderServer {
    struct Arguments {
        var journal = ""
        var port = 8080

        init(_ arguments: [String]) throws(DurableDemo.UsageError) {
            var rest = arguments[...]
            while let argument = rest.popFirst() {
                switch argument {
                case "--journal": journal = rest.popFirst() ?? ""
                case "--port":
                    guard let port = rest.popFirst().flatMap(Int.init), (0...65_535).contains(port) else {
                        throw DurableDemo.UsageError("--port takes a port number, 0 to 65535 (0: any free port)")
                    }
                    self.port = port
                default: throw DurableDemo.UsageError("unknown argument '\(argument)'")
                }
            }
            if journal.isEmpty { throw DurableDemo.UsageError("--journal FILE is required") }
        }
    }

    static func main(_ arguments: [String]) async -> Int32 {
        await DurableDemo.main("serve", usage: "usage: stateloop-demo serve --journal FILE [--port P]", arguments, parse: Arguments.init) { options in
            try await serve(options)
            return 0
        }
    }

    // MARK: The wire

    /// An event as a request's body gives it.
    struct EventBody: Decodable {
        var event: String
        var amount: Int?
    }

    /// The event `body` names, or why it names none.
    static func event(_ body: Data) -> Result<Order.Event, EventError> {
        guard let read = try? JSONDecoder().decode(EventBody.self, from: body) else {
            return .failure(EventError("the body is not an event: send {\"event\": \"add\", \"amount\": 12}"))
        }
        switch (read.event, read.amount) {
        case ("add", let amount?): return .success(.add(amount: amount))
        case ("pay", let amount?): return .success(.pay(amount: amount))
        case ("ship", nil): return .success(.ship)
        case ("cancel", nil): return .success(.cancel)
        case ("add", nil), ("pay", nil): return .failure(EventError("'\(read.event)' takes an amount"))
        case ("ship", _), ("cancel", _): return .failure(EventError("'\(read.event)' takes no amount"))
        default: return .failure(EventError("no event '\(read.event)': an order takes add, pay, ship and cancel"))
        }
    }

    struct EventError: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// A state as a response gives it.
    struct StateBody: Codable, Equatable {
        var id: String
        var state: String
        var lines: Int
        var total: Int
        var paid: Int
        var sequence: Int64?

        init(id: String, _ state: Order.State, sequence: Int64? = nil) {
            self.id = id
            self.state = "\(state.mode)"
            lines = state.lines
            total = state.total
            paid = state.paid
            self.sequence = sequence
        }
    }

    /// What a send, a create or a read that threw answers: its status and its message.
    static func failure(_ error: any Error) -> (status: Int, message: String) {
        switch error as? HostError {
        case .unknownInstance?: (404, "\(error)")
        case .finished?, .instanceExists?: (409, "\(error)")
        case .invalidID?: (400, "\(error)")
        case .shuttingDown?: (503, "\(error)")
        default: (500, "\(error)")
        }
    }
}

#if Inspector
import Hummingbird
import Logging
import ServiceLifecycle
import StateLoopHost

extension OrderServer {
    static func serve(_ options: Arguments) async throws {
        var logger = Logger(label: "stateloop-demo.serve")
        logger.logLevel = .warning
        let telemetry = HostTelemetry(Order.self, logger: logger)
        let host = MachineHost<Order>(
            store: try SQLiteJournalStore(path: options.journal), initial: { _ in nil },
            options: HostOptions(observer: telemetry))
        let app = Application(
            router: router(host),
            configuration: .init(address: .hostname("127.0.0.1", port: options.port)),
            services: [HostService(host, telemetry: telemetry)],
            onServerRunning: { channel in DurableDemo.say("listening \(channel.localAddress?.port ?? options.port)") },
            logger: logger)
        try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
    }

    static func router(_ host: MachineHost<Order>) -> Router<BasicRequestContext> {
        let router = Router()
        router.post("/orders/:id") { _, context -> Response in
            let id = try context.parameters.require("id")
            do {
                try await host.create(id, initial: .initial)
                return try json(StateBody(id: id, .initial, sequence: 0), status: .created)
            } catch {
                return problem(error)
            }
        }
        router.post("/orders/:id/events") { request, context -> Response in
            let id = try context.parameters.require("id")
            let body = try await request.body.collect(upTo: 16 * 1024)
            switch event(Data(buffer: body)) {
            case .failure(let refused):
                return message(refused.message, status: .badRequest)
            case .success(let event):
                do {
                    let receipt = try await host.send(event, to: id)
                    return try json(StateBody(id: id, receipt.state, sequence: receipt.sequence), status: .ok)
                } catch {
                    return problem(error)
                }
            }
        }
        router.get("/orders/:id") { _, context -> Response in
            let id = try context.parameters.require("id")
            do {
                guard let state = try await host.state(of: id) else { return message("no order '\(id)'", status: .notFound) }
                return try json(StateBody(id: id, state), status: .ok)
            } catch {
                return problem(error)
            }
        }
        return router
    }

    static func json(_ body: some Encodable, status: HTTPResponse.Status) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: try encoder.encode(body))))
    }

    static func message(_ text: String, status: HTTPResponse.Status) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(string: text + "\n")))
    }

    static func problem(_ error: any Error) -> Response {
        let (status, text) = failure(error)
        return message(text, status: HTTPResponse.Status(code: status))
    }
}
#else
extension OrderServer {
    static func serve(_ options: Arguments) async throws {
        throw DurableDemo.UsageError(
            "this stateloop-demo was built without its web server: build it with the Inspector trait (swift run --traits Inspector stateloop-demo serve --journal FILE)")
    }
}
#endif
