// The order server: `stateloop-demo serve --journal FILE --port 0` (Docs/Hosting.md H73, H74),
// driven over HTTP as a client would, killed, and started again. Built with the Inspector trait,
// which builds the package's web servers.
import Foundation
import StateLoopTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if Inspector
let orderServerBuilt = true
#else
let orderServerBuilt = false
#endif

@Suite(.serialized, .enabled(if: orderServerBuilt, "the order server is built with --traits Inspector"))
struct HostServerTests {
    /// A running `stateloop-demo serve` on `journal`, on a free port.
    final class Server: @unchecked Sendable {
        let process = Process()
        let port: Int

        init(journal: String) throws {
            process.executableURL = DurableDemoTests.demo
            process.arguments = ["serve", "--journal", journal, "--port", "0"]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let more = output.fileHandleForReading.availableData
                if more.isEmpty { break }
                line += more
            }
            let words = String(decoding: line, as: UTF8.self).split(whereSeparator: \.isWhitespace)
            guard words.count >= 2, words[0] == "listening", let port = Int(words[1]) else {
                process.terminate()
                throw ServerError("the server did not say where it listens: \(String(decoding: line, as: UTF8.self))")
            }
            self.port = port
        }

        /// Sends `signal` and waits for the process to end; returns its status.
        @discardableResult
        func end(_ signal: Int32) -> Int32 {
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            return process.terminationStatus
        }

        /// The status and body of `method path` with `body`.
        func call(_ method: String, _ path: String, _ body: String? = nil) async throws -> (status: Int, body: String) {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
            request.httpMethod = method
            request.httpBody = body.map { Data($0.utf8) }
            request.timeoutInterval = 30
            let (data, response) = try await URLSession.shared.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
        }

        /// The order's state as the server gives it.
        func state(_ id: String) async throws -> Order? {
            let (status, body) = try await call("GET", "/orders/\(id)")
            return status == 200 ? try JSONDecoder().decode(Order.self, from: Data(body.utf8)) : nil
        }
    }

    struct ServerError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// An order as the server's JSON gives it.
    struct Order: Decodable, Equatable {
        var id: String
        var state: String
        var lines: Int
        var total: Int
        var paid: Int
        var sequence: Int64?
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "stateloop-order-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The amount of line `k` (from 1) of order `order`.
    static func amount(_ order: Int, _ k: Int) -> Int { (order &* 31 &+ k &* 7) % 50 + 1 }

    @Test("H73: the server creates an order (201, 409 when it exists), answers an event with the state after it once durable (200), an unknown order with 404, a finished one with 409 and an event it cannot read with 400, gives the last durable state (GET, 404 for none), and shuts down gracefully on SIGTERM (status 0)")
    func h73OrdersOverHTTP() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try Server(journal: folder.appending(path: "orders.sqlite").path)
        #expect(try await server.call("POST", "/orders/o1").status == 201)
        #expect(try await server.call("POST", "/orders/o1").status == 409)
        let added = try await server.call("POST", "/orders/o1/events", #"{"event": "add", "amount": 12}"#)
        #expect(added.status == 200)
        #expect(try JSONDecoder().decode(Order.self, from: Data(added.body.utf8)) == Order(id: "o1", state: "open", lines: 1, total: 12, paid: 0, sequence: 1))
        #expect(try await server.call("POST", "/orders/o1/events", #"{"event": "pay", "amount": 12}"#).status == 200)
        #expect(try await server.call("POST", "/orders/o1/events", #"{"event": "ship"}"#).status == 200)
        let finished = try await server.call("POST", "/orders/o1/events", #"{"event": "add", "amount": 1}"#)
        #expect(finished.status == 409 && finished.body.contains("finished"), "\(finished)")
        #expect(try await server.call("POST", "/orders/nobody/events", #"{"event": "add", "amount": 1}"#).status == 404)
        for body in [#"{"event": "fly"}"#, #"{"event": "add"}"#, #"{"event": "ship", "amount": 3}"#, "not json"] {
            let refused = try await server.call("POST", "/orders/o1/events", body)
            #expect(refused.status == 400 && !refused.body.isEmpty, "\(body): \(refused)")
        }
        #expect(try await server.state("o1") == Order(id: "o1", state: "shipped", lines: 1, total: 12, paid: 12, sequence: nil))
        #expect(try await server.call("GET", "/orders/nobody").status == 404)
        #expect(server.end(SIGTERM) == 0, "a graceful shutdown did not exit 0")
    }

    @Test("H73: the server refuses arguments it cannot run with a usage line and status 64")
    func h73BadArgumentsAreRefused() throws {
        for arguments in [["serve"], ["serve", "--journal", "x", "--port", "70000"], ["serve", "--journal", "x", "--port"], ["serve", "--journal", "x", "--host", "0.0.0.0"]] {
            let (status, text) = try DurableDemoTests.refusal(arguments)
            #expect(status == 64, "\(arguments)")
            #expect(text.hasPrefix("stateloop-demo serve: ") && text.hasSuffix("usage: stateloop-demo serve --journal FILE [--port P]\n"), "\(text)")
        }
    }

    @Test("H74: events posted to many orders at once, the server SIGKILLed while they come, and started again: every order's state holds every event the server acknowledged, in order (and at most the one in flight after them), each line once")
    func h74KilledWhilePostingToManyOrders() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = folder.appending(path: "orders.sqlite").path
        let orders = 40
        var server = try Server(journal: journal)
        for order in 0..<orders { #expect(try await server.call("POST", "/orders/o\(order)").status == 201) }
        /// Per order, the lines of the last state the server acknowledged.
        let acknowledged = Box<[Int]>(Array(repeating: 0, count: orders))
        for round in 0..<3 {
            let posting = server
            let posts = Task {
                await withTaskGroup { group in
                    for order in 0..<orders {
                        group.addTask {
                            var k = acknowledged.value[order]
                            while true {
                                k += 1
                                let body = #"{"event": "add", "amount": \#(Self.amount(order, k))}"#
                                guard let answer = try? await posting.call("POST", "/orders/o\(order)/events", body), answer.status == 200,
                                      let state = try? JSONDecoder().decode(Order.self, from: Data(answer.body.utf8))
                                else { return }
                                acknowledged.update { $0[order] = state.lines }
                            }
                        }
                    }
                }
            }
            try await Task.sleep(for: .milliseconds(400 + 200 * round))
            server.end(SIGKILL)
            await posts.value
            server = try Server(journal: journal)
            for order in 0..<orders {
                let state = try #require(try await server.state("o\(order)"), "o\(order) was lost")
                let acked = acknowledged.value[order]
                // The event in flight at the kill may have committed without its answer.
                #expect(state.lines == acked || state.lines == acked + 1, "o\(order): \(state.lines) lines, \(acked) acknowledged")
                #expect(state.total == (0..<state.lines).reduce(0) { $0 + Self.amount(order, $1 + 1) }, "o\(order): a line lost or journaled twice")
                acknowledged.update { $0[order] = state.lines }
            }
        }
        #expect(acknowledged.value.reduce(0, +) >= orders, "too few events were acknowledged before the kills")
        #expect(server.end(SIGTERM) == 0)
    }
}
