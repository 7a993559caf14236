// WebSocketClient: the smallest RFC 6455 client the inspector thread needs: connect over TCP, the
// opening handshake, masked text frames out, a close frame; nothing is read after the handshake.
//
// Invariants:
// - Only the inspector's own thread calls it; every call may block (connect, send), which is why
//   no draining thread ever does.
// - A failed write closes the socket: the caller sees `isOpen == false` and connects again later.
// - Writes never raise SIGPIPE (MSG_NOSIGNAL on Linux, SO_NOSIGPIPE on Darwin): an inspector that
//   goes away must not kill the app (I8).

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where the inspector listens: `ws://HOST:PORT/PATH`, with an IPv4 host.
struct InspectorAddress: Equatable, Sendable {
    var host: String
    var port: UInt16
    var path: String

    /// `nil` unless `url` is `ws://HOST[:PORT][/PATH]` (port 80 when left out, path `/`).
    init?(url: String) {
        guard url.hasPrefix("ws://") else { return nil }
        let rest = url.dropFirst("ws://".count)
        let authority = rest.prefix { $0 != "/" }
        let path = rest.dropFirst(authority.count)
        let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
        guard let host = parts.first, !host.isEmpty, parts.count <= 2 else { return nil }
        var port: UInt16 = 80
        if parts.count == 2 {
            guard let given = UInt16(parts[1]) else { return nil }
            port = given
        }
        self.host = host == "localhost" ? "127.0.0.1" : String(host)
        self.port = port
        self.path = path.isEmpty ? "/" : String(path)
    }
}

/// A WebSocket connection to the inspector, client side (RFC 6455).
final class WebSocketClient {
    private var socket: Int32 = -1
    /// One frame's bytes, reused from frame to frame.
    private var frame: [UInt8] = []

    var isOpen: Bool { socket >= 0 }

    /// Connects and makes the opening handshake; `false` (and closed) when either fails.
    func open(_ address: InspectorAddress) -> Bool {
        close()
        var inet = in_addr()
        guard inet_pton(AF_INET, address.host, &inet) == 1 else { return false }
        #if canImport(Darwin)
        let fd = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #else
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard fd >= 0 else { return false }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = address.port.bigEndian
        socketAddress.sin_addr = inet
        let connected = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            _ = systemClose(fd)
            return false
        }
        socket = fd
        guard handshake(address) else {
            close()
            return false
        }
        return true
    }

    /// Sends `text` as one masked text frame; `false` (and closed) when the write fails.
    func send(text: String) -> Bool {
        var text = text
        return text.withUTF8 { writeFrame(opcode: 0x1, payload: $0) }
    }

    /// Sends a close frame (status 1000, normal closure) and closes the socket.
    func sendCloseAndClose() {
        if isOpen {
            let status: [UInt8] = [0x03, 0xE8]
            _ = status.withUnsafeBufferPointer { writeFrame(opcode: 0x8, payload: $0) }
        }
        close()
    }

    func close() {
        if socket >= 0 { _ = systemClose(socket) }
        socket = -1
    }

    /// GET with `Upgrade: websocket`; the answer must be `101`. (The `Sec-WebSocket-Accept` hash
    /// is not checked: the peer is the developer's own inspector on a loopback port.)
    private func handshake(_ address: InspectorAddress) -> Bool {
        var key = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in key.indices { key[index] = generator.next() }
        let request = "GET \(address.path) HTTP/1.1\r\n"
            + "Host: \(address.host):\(address.port)\r\n"
            + "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(base64(key))\r\nSec-WebSocket-Version: 13\r\n\r\n"
        guard writeAll(Array(request.utf8)[...]) else { return false }
        // Reads byte by byte up to the blank line, so that no frame after it is swallowed.
        var response = [UInt8]()
        var byte: UInt8 = 0
        while response.count < 8192 {
            guard recv(socket, &byte, 1, 0) == 1 else { return false }
            response.append(byte)
            if response.count >= 4, response.suffix(4).elementsEqual([13, 10, 13, 10]) { break }
        }
        let statusLine = String(decoding: response.prefix { $0 != 13 }, as: UTF8.self)
        return statusLine.split(separator: " ").dropFirst().first == "101"
    }

    /// One frame, FIN set, masked with a fresh key as a client must (RFC 6455 §5.3).
    private func writeFrame(opcode: UInt8, payload: UnsafeBufferPointer<UInt8>) -> Bool {
        guard isOpen else { return false }
        frame.removeAll(keepingCapacity: true)
        frame.append(0x80 | opcode)
        let count = payload.count
        if count < 126 {
            frame.append(0x80 | UInt8(count))
        } else if count <= 0xFFFF {
            frame.append(0x80 | 126)
            frame.append(UInt8(count >> 8))
            frame.append(UInt8(count & 0xFF))
        } else {
            frame.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8((UInt64(count) >> UInt64(shift)) & 0xFF)) }
        }
        var generator = SystemRandomNumberGenerator()
        let mask: UInt32 = generator.next()
        let maskBytes = [UInt8(mask >> 24), UInt8((mask >> 16) & 0xFF), UInt8((mask >> 8) & 0xFF), UInt8(mask & 0xFF)]
        frame.append(contentsOf: maskBytes)
        for (index, byte) in payload.enumerated() { frame.append(byte ^ maskBytes[index & 3]) }
        if writeAll(frame[...]) { return true }
        close()
        return false
    }

    private func writeAll(_ bytes: ArraySlice<UInt8>) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                #if canImport(Darwin)
                Darwin.send(socket, buffer.baseAddress! + sent, buffer.count - sent, 0)
                #else
                Glibc.send(socket, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
                #endif
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            sent += written
        }
        return true
    }

    private func systemClose(_ fd: Int32) -> Int32 {
        #if canImport(Darwin)
        Darwin.close(fd)
        #else
        Glibc.close(fd)
        #endif
    }
}

/// `bytes` in base64 (RFC 4648), for the handshake's key.
func base64(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var out = [UInt8]()
    var index = 0
    while index < bytes.count {
        let chunk = bytes[index..<min(index + 3, bytes.count)]
        var value = 0
        for byte in chunk { value = value << 8 | Int(byte) }
        value <<= 8 * (3 - chunk.count)
        for position in 0..<4 {
            out.append(position <= chunk.count ? alphabet[(value >> (18 - 6 * position)) & 63] : UInt8(ascii: "="))
        }
        index += 3
    }
    return String(decoding: out, as: UTF8.self)
}
