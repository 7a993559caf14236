// InspectorServer: a loopback WebSocket server in the test, playing `stateloop inspect`'s `/app`
// endpoint: it answers the handshake and reads the app's frames (RFC 6455), one connection after
// another, so that the inspector tests read exactly what reaches the socket.

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

final class InspectorServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var texts: [String] = []
    private var bytes: [UInt8] = []
    private var connectionCount = 0
    private var connection: Int32 = -1
    private var reading = true

    /// Listens on 127.0.0.1:`port` (0: a free port); `reading: false` accepts and answers the
    /// handshake but reads no frame until `resume()`.
    init(port: UInt16 = 0, reading: Bool = true) throws {
        self.reading = reading
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 4) == 0 else {
            Self.closeSocket(fd)
            throw ServerError.cannotListen(port)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        self.port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    enum ServerError: Error { case cannotListen(UInt16) }

    /// A port nothing listens on: bound, then closed.
    static func freePort() throws -> UInt16 {
        let server = try InspectorServer()
        server.close()
        return server.port
    }

    var url: String { "ws://127.0.0.1:\(port)/app" }

    /// Stops listening and drops the connection being read, as an inspector that quits does.
    /// (The accepting thread closes the sockets as it ends: closed here, their numbers could be
    /// reused by the next server's while that thread still accepts on them.)
    func close() {
        shutdown(listener, Int32(SHUT_RDWR))
        lock.withLock {
            if connection >= 0 { shutdown(connection, Int32(SHUT_RDWR)) }
        }
    }

    func resume() {
        lock.withLock { reading = true }
    }

    /// How many connections the app made so far.
    var connections: Int { lock.withLock { connectionCount } }

    /// Every byte the app sent after the handshakes, unmasked: where a secret must not be.
    var payloadBytes: [UInt8] { lock.withLock { bytes } }

    /// Every message so far, parsed.
    var messages: [[String: Any]] {
        lock.withLock { texts }.map { text in
            (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? ["unparsed": text]
        }
    }

    /// The messages once `done` holds for them, or after `timeout` whatever came. (It sleeps in
    /// the task: a blocked thread of the shared pool would hold up the effects and timers of the
    /// systems under test.)
    func messages(within timeout: Duration = .seconds(20), until done: ([[String: Any]]) -> Bool) async -> [[String: Any]] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let current = messages
            if done(current) { return current }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return messages
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                Self.closeSocket(listener)
                return
            }
            lock.withLock {
                connectionCount += 1
                self.connection = connection
            }
            serve(connection)
            lock.withLock { self.connection = -1 }
            Self.closeSocket(connection)
        }
    }

    private func serve(_ connection: Int32) {
        var request: [UInt8] = []
        while !(request.count >= 4 && request.suffix(4).elementsEqual([13, 10, 13, 10])) {
            guard let byte = read(connection, count: 1) else { return }
            request += byte
        }
        let response = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"
        _ = Array(response.utf8).withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
        while true {
            while !lock.withLock({ reading }) { Thread.sleep(forTimeInterval: 0.005) }
            guard let header = read(connection, count: 2) else { return }
            let opcode = header[0] & 0x0F
            var length = Int(header[1] & 0x7F)
            if length == 126 {
                guard let extended = read(connection, count: 2) else { return }
                length = Int(extended[0]) << 8 | Int(extended[1])
            } else if length == 127 {
                guard let extended = read(connection, count: 8) else { return }
                length = extended.reduce(0) { $0 << 8 | Int($1) }
            }
            guard header[1] & 0x80 != 0, let mask = read(connection, count: 4), let masked = read(connection, count: length) else { return }
            let payload = masked.enumerated().map { $0.element ^ mask[$0.offset & 3] }
            if opcode == 0x8 { return }
            lock.withLock {
                bytes += payload
                if opcode == 0x1 { texts.append(String(decoding: payload, as: UTF8.self)) }
            }
        }
    }

    private static func closeSocket(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(fd)
        #else
        _ = Darwin.close(fd)
        #endif
    }

    private func read(_ connection: Int32, count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress! + got, count - got, 0) }
            guard n > 0 else { return nil }
            got += n
        }
        return buffer
    }
}
