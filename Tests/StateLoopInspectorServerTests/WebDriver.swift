import Foundation

/// Headless Chromium driven through chromedriver's WebDriver HTTP API (W3C WebDriver): Debian's
/// `chromium` and `chromium-driver`, which `Scripts/deps.sh` installs.
final class WebDriver: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible { let description: String }

    private let driver = Process()
    private let base: URL
    private var session = ""

    static let chromium = "/usr/bin/chromium"
    static let chromedriver = "/usr/bin/chromedriver"

    /// Starts chromedriver on a free port and a headless browser with a window of `width`×`height`.
    init(width: Int = 1400, height: Int = 1000) async throws {
        for path in [Self.chromium, Self.chromedriver] where !FileManager.default.isExecutableFile(atPath: path) {
            throw Failure(description: "\(path) is missing: the browser tests need Debian's chromium and chromium-driver (bash Scripts/deps.sh installs them)")
        }
        let port = try Self.freePort()
        driver.executableURL = URL(fileURLWithPath: Self.chromedriver)
        driver.arguments = ["--port=\(port)"]
        driver.standardOutput = FileHandle.nullDevice
        driver.standardError = FileHandle.nullDevice
        try driver.run()
        base = URL(string: "http://127.0.0.1:\(port)")!
        // chromedriver answers /status once it listens.
        var problem: (any Error)? = nil
        for attempt in 0..<100 {
            do {
                _ = try await request("GET", "/status")
                problem = nil
                break
            } catch {
                problem = error
                if attempt < 99 { try await Task.sleep(for: .milliseconds(100)) }
            }
        }
        if let problem { throw Failure(description: "chromedriver did not start on port \(port): \(problem)") }
        let created = try await request("POST", "/session", [
            "capabilities": ["alwaysMatch": [
                "browserName": "chrome",
                "goog:chromeOptions": [
                    "binary": Self.chromium,
                    "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=\(width),\(height)"],
                ],
            ]],
        ])
        guard let id = (created as? [String: Any])?["sessionId"] as? String else {
            throw Failure(description: "chromedriver made no session: \(String(describing: created))")
        }
        session = id
    }

    func quit() async {
        _ = try? await request("DELETE", "/session/\(session)")
        // chromedriver does not stop on SIGTERM.
        kill(driver.processIdentifier, SIGKILL)
        driver.waitUntilExit()
    }

    func open(_ url: URL) async throws {
        _ = try await request("POST", "/session/\(session)/url", ["url": url.absoluteString])
    }

    /// Runs `script` (a function body: `return …`) in the page and returns its value.
    @discardableResult
    func run(_ script: String, _ arguments: [Any] = []) async throws -> Any? {
        try await request("POST", "/session/\(session)/execute/sync", ["script": script, "args": arguments])
    }

    /// Waits up to `seconds` for `script` to return true: a deadline, not a figure; in a loaded
    /// CI run (`stress --cpu 4` beside the parallel suites) a diagram drawn by `dot` took over 20 s.
    func wait(_ what: String, seconds: Double = 60, until script: String) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try await run(script) as? Bool == true { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw Failure(description: "waited \(seconds) s for \(what)")
    }

    /// A real click (the browser's own mouse event) on the first element `css` selects.
    func click(_ css: String) async throws {
        let found = try await request("POST", "/session/\(session)/element", ["using": "css selector", "value": css])
        guard let element = (found as? [String: Any])?.values.first as? String else {
            throw Failure(description: "no element \(css)")
        }
        _ = try await request("POST", "/session/\(session)/element/\(element)/click", [:])
    }

    /// The page as a PNG.
    func screenshot(to file: URL) async throws {
        guard let base64 = try await request("GET", "/session/\(session)/screenshot") as? String, let png = Data(base64Encoded: base64) else {
            throw Failure(description: "no screenshot")
        }
        try png.write(to: file)
    }

    /// One WebDriver command: its `value`, or its error.
    private func request(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> Any? {
        let payload = try body.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data()
        let (status, data) = try RawHTTP.exchange(port: base.port!, method: method, path: path, headers: ["Content-Type": "application/json"], body: payload)
        let json = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? [String: Any]
        let value = json?["value"]
        guard status == 200 else {
            throw Failure(description: "\(method) \(path): \(String(decoding: data, as: UTF8.self).prefix(600))")
        }
        return value is NSNull ? nil : value
    }

    /// Runs `body` with a new browser session, which ends afterwards however `body` ends; a failure
    /// first saves a screenshot to `failureShot`, when given.
    static func session(failureShot: URL? = nil, _ body: (WebDriver) async throws -> Void) async throws {
        let page = try await WebDriver()
        do {
            try await body(page)
        } catch {
            if let failureShot { try? await page.screenshot(to: failureShot) }
            await page.quit()
            throw error
        }
        await page.quit()
    }

    /// A TCP port no one listens on now.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw Failure(description: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
