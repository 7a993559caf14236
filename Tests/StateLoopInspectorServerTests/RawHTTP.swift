// HTTP/1.1 written byte by byte on a socket to 127.0.0.1: with any `Host` and `Origin`, as an
// attacker's page has its browser send them (URLSession picks its own `Host`), and to chromedriver,
// whose headers FoundationNetworking on Linux fails on (no space after the colon).

import Foundation

enum RawHTTP {
    /// One request on a connection of its own: the status and the body (none after a `101`, the
    /// WebSocket's frames then following). `Host` is `127.0.0.1:port` unless `headers` say otherwise.
    static func exchange(
        port: Int, method: String = "GET", path: String, headers: [String: String] = [:], body: Data = Data()
    ) throws -> (status: Int, body: Data) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "no socket") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { throw Failure(description: "cannot connect to 127.0.0.1:\(port)") }
        var fields = ["Host": "127.0.0.1:\(port)", "Content-Length": "\(body.count)", "Connection": "close"]
        fields.merge(headers) { $1 }
        let head = "\(method) \(path) HTTP/1.1\r\n" + fields.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)\r\n" }.joined() + "\r\n"
        let request = Data(head.utf8) + body
        try request.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = send(fd, bytes.baseAddress! + offset, bytes.count - offset, 0)
                guard written > 0 else { throw Failure(description: "cannot send to 127.0.0.1:\(port)") }
                offset += written
            }
        }
        // The head, then as many bytes as its Content-Length says (none after a 101).
        var answer = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        func complete() -> Bool {
            guard let split = answer.firstRange(of: Data("\r\n\r\n".utf8)) else { return false }
            let head = String(decoding: answer[..<split.lowerBound], as: UTF8.self).lowercased()
            if head.hasPrefix("http/1.1 101") { return true }
            guard let length = head.firstMatch(of: /content-length:\s*([0-9]+)/).flatMap({ Int($0.1) }) else { return false }
            return answer.count - split.upperBound >= length
        }
        while !complete() {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            answer.append(contentsOf: buffer[0..<count])
        }
        guard let split = answer.firstRange(of: Data("\r\n\r\n".utf8)),
              let statusLine = String(data: answer[..<split.lowerBound], encoding: .utf8)?.split(separator: " "),
              statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Failure(description: "\(method) \(path): no HTTP answer from 127.0.0.1:\(port)")
        }
        return (status, status == 101 ? Data() : Data(answer[split.upperBound...]))
    }

    /// The headers of a WebSocket upgrade (RFC 6455 §4.1), to add to a `GET`'s.
    static let upgrade = [
        "Upgrade": "websocket", "Connection": "Upgrade",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13",
    ]

    struct Failure: Error, CustomStringConvertible { let description: String }
}
