// The inspector's HTTP server: the page, the diagrams, the exports, and the two WebSockets (I30-I33).
// Compiled with the package's Inspector trait only, which brings in hummingbird (I30).

#if Inspector
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore

/// Serves, on one port:
/// - `GET /`: the page (`InspectorPage`), which works offline: no script or style from elsewhere;
/// - `GET /diagram?instance=Door%231`: the SVG of the spec the instance's hello names (`Diagrams`, I72);
/// - `GET /export?instance=Door%231&from=1&to=4`: those steps as a `MachineTest` snippet (`TestExport`);
/// - `GET /stats`: how many messages the store keeps, and its bound;
/// - `ws://…/app`: apps send their messages here (Docs/Inspector.md, the wire);
/// - `ws://…/page`: a page receives every stored message, then the new ones, in batches (I63).
///
/// Every request passes its `RequestGate` first: the server's own `Host`, no `Origin` but its
/// page's, and `token` on the routes that read what apps sent (I66-I68).
public struct InspectorServer: Sendable {
    /// The address it listens on.
    public var host: String
    /// The port it listens on; 0: any free port.
    public var port: Int
    /// This run's secret, which the page's address carries and the gate asks for (I68).
    public let token: String
    /// The messages of every instance.
    public let store: InspectorStore
    /// The diagrams of the instances' specs.
    public let diagrams: Diagrams

    /// The loopback address unless `host` says otherwise (I31); a fresh token unless one is given.
    public init(host: String = "127.0.0.1", port: Int = 4567, token: String = RequestGate.randomToken(), store: InspectorStore, diagrams: Diagrams) {
        self.host = host
        self.port = port
        self.token = token
        self.store = store
        self.diagrams = diagrams
    }

    /// The largest frame an app may send: a state dump of a few megabytes.
    static let maxFrame = 16 << 20

    /// How often a page is sent the messages that came for it (I63).
    static let batch = Duration.milliseconds(25)

    /// Runs until cancelled; `onRunning` gets the port it listens on (the real one for port 0).
    public func run(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let router = Router(context: BasicWebSocketRequestContext.self)
        let store = self.store
        let diagrams = self.diagrams
        let gate = GateMiddleware(gate: port == 0 ? nil : RequestGate(host: host, port: port, token: token))
        router.add(middleware: gate)

        router.get("/") { _, _ in
            Self.response(InspectorPage.html, type: "text/html; charset=utf-8")
        }
        router.get("/diagram") { request, _ in
            // The spec of an instance that said hello, never a file a page names (I72).
            let instance = request.uri.queryParameters.get("instance") ?? ""
            let drawn: Result<String, InspectorError>
            do throws(InspectorError) {
                let hello = try await store.messages(of: instance).hello
                drawn = await diagrams.svg(forSpecNamed: hello["spec"] ?? "", fingerprint: hello["fingerprint"])
            } catch {
                drawn = .failure(error)
            }
            switch drawn {
            case .success(let svg): return Self.response(svg, type: "image/svg+xml")
            case .failure(let error): return Self.response(error.description, type: "text/plain; charset=utf-8", status: .notFound)
            }
        }
        router.get("/export") { request, _ in
            let query = request.uri.queryParameters
            let instance = query.get("instance") ?? ""
            do throws(InspectorError) {
                let (hello, messages) = try await store.messages(of: instance)
                if let journal = hello["journal"] {
                    throw .cannotExport("\(instance) was read from the journal \(journal), which holds events and the states of its snapshots only (I48); attach the running durable machine and export its steps")
                }
                guard let from = query.get("from").flatMap(Int.init), let to = query.get("to").flatMap(Int.init) else {
                    throw .cannotExport("say which steps: ?from=N&to=M")
                }
                let export = TestExport(machine: hello["machine"] ?? "", instance: instance, messages: messages)
                return Self.response(try export.snippet(from: from, to: to), type: "text/plain; charset=utf-8")
            } catch {
                return Self.response(error.description, type: "text/plain; charset=utf-8", status: .badRequest)
            }
        }
        router.get("/stats") { _, _ in
            Self.response("{\"kept\":\(await store.count),\"limitPerInstance\":\(store.limit)}", type: "application/json")
        }
        router.ws("/app") { _, _ in .upgrade([:]) } onUpgrade: { inbound, outbound, context in
            let connection = await store.connect()
            // The instances refused (I69), each said once, not at every message.
            var refused: Set<String> = []
            var failure: (any Error)?
            do {
                for try await message in inbound.messages(maxSize: Self.maxFrame) {
                    guard case .text(let text) = message else { continue }
                    do throws(InspectorError) {
                        try await store.receive(text: text, from: connection)
                    } catch {
                        if case .taken(let name) = error, !refused.insert(name).inserted { continue }
                        context.logger.warning("\(error)")
                    }
                }
            } catch {
                failure = error
            }
            await store.disconnect(connection)
            if let failure { throw failure }
        }
        router.ws("/page") { _, _ in .upgrade([:]) } onUpgrade: { inbound, outbound, _ in
            let (id, history) = await store.subscribe()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    // What is kept first, a thousand messages a frame; then, every `Self.batch`,
                    // all that came meanwhile in one frame (I63).
                    for start in stride(from: 0, to: history.count, by: 1_000) {
                        try await outbound.write(.text(InspectorStore.frame(history[start..<min(start + 1_000, history.count)])))
                    }
                    while let batch = await store.take(id) {
                        if !batch.isEmpty { try await outbound.write(.text(InspectorStore.frame(batch))) }
                        try await Task.sleep(for: Self.batch)
                    }
                }
                group.addTask {
                    // The page sends nothing; its stream ends when it goes away.
                    for try await _ in inbound {}
                }
                try await group.next()
                group.cancelAll()
            }
            await store.unsubscribe(id)
        }

        var logger = Logger(label: "stateloop-inspect")
        logger.logLevel = .warning
        let app = Application(
            router: router,
            // Frames as large as a state dump may be; no pings: an app's minimal client need not
            // answer them, and both ends are on this machine (I31).
            server: .http1WebSocketUpgrade(webSocketRouter: router, configuration: .init(maxFrameSize: Self.maxFrame, autoPing: .disabled)),
            configuration: .init(address: .hostname(host, port: port), serverName: "stateloop-inspect"),
            onServerRunning: { [host, token] channel in
                let port = channel.localAddress?.port ?? 0
                gate.open(RequestGate(host: host, port: port, token: token))
                await onRunning(port)
            },
            logger: logger
        )
        try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
    }

    fileprivate static func response(_ text: String, type: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: type, .cacheControl: "no-store"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

/// Answers `403` and why to every request its `RequestGate` refuses; a WebSocket upgrade (routed as
/// a `GET` first) is then not upgraded, and the reason is logged. With port 0 the gate is known
/// once the server listens; until then every request is refused.
private final class GateMiddleware: RouterMiddleware, @unchecked Sendable {
    typealias Context = BasicWebSocketRequestContext
    private let lock = NSLock()
    private var gate: RequestGate?

    init(gate: RequestGate?) {
        self.gate = gate
    }

    func open(_ gate: RequestGate) {
        lock.withLock { self.gate = gate }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let why = lock.withLock { gate }.map {
            $0.refusal(path: request.uri.path, host: request.head.authority, origin: request.headers[.origin], token: request.uri.queryParameters.get("token"))
        } ?? "the inspector is starting: try again"
        guard let why else { return try await next(request, context) }
        // A refused WebSocket handshake gets no body (NIO answers it 400): the reason goes to standard error.
        if request.headers[.upgrade] != nil { context.logger.warning("refused a WebSocket to \(request.uri.path): \(why)") }
        return InspectorServer.response(why, type: "text/plain; charset=utf-8", status: .forbidden)
    }
}
#endif
