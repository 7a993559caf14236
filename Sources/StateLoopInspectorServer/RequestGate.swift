// RequestGate: who may talk to the inspector (Docs/Inspector.md I66-I68). Every page open in the
// developer's browser can reach 127.0.0.1, so each request shows where it comes from (`Host`,
// `Origin`, which a browser sets and no script forges) and the run's token; the server answers
// only its own page and native clients.

/// What a request must show to be let in: a `Host` that is the server's own address (I67), no
/// `Origin` but the page's own (I66), and, on the routes that read what the apps sent, the run's
/// token (I68).
public struct RequestGate: Sendable {
    /// The names the page may be opened at, each with the port: `127.0.0.1:4567`, `localhost:4567`.
    public let authorities: Set<String>
    /// The run's secret, which the printed address carries (`?token=`).
    public let token: String

    /// The routes that need the token: all that read what the apps sent. `/` is the page itself,
    /// which holds nothing, and `/app` is kept from browsers by `Origin` (I66).
    static let tokenRoutes: Set<String> = ["/page", "/diagram", "/export", "/stats"]

    /// The gate of a server listening on `host` (the loopback address or `--host`'s) at `port`.
    public init(host: String, port: Int, token: String) {
        authorities = Set([host, "127.0.0.1", "localhost"].map { "\($0):\(port)" })
        self.token = token
    }

    /// A fresh token: 128 random bits, in hex.
    public static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let word = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - word.count) + word
        }.joined()
    }

    /// Why a request for `path` with these `Host` and `Origin` headers and `token` query parameter
    /// is refused, or nil when it may pass.
    public func refusal(path: String, host: String?, origin: String?, token given: String?) -> String? {
        let expected = authorities.sorted().joined(separator: " or ")
        guard let host, authorities.contains(host.lowercased()) else {
            return "Host \(host ?? "(none)") is not the inspector's address (\(expected)): open the page at the address stateloop inspect printed (I67)"
        }
        if let origin, !authorities.contains(where: { "http://" + $0 == origin.lowercased() }) {
            return "Origin \(origin) is not the inspector's page (http://\(expected)): only the page stateloop inspect serves, and apps (which send no Origin), may connect (I66)"
        }
        if Self.tokenRoutes.contains(path), !Self.same(given ?? "", token) {
            return "\(path) needs this run's token: open the address stateloop inspect printed, http://\(host)/?token=… (I68)"
        }
        return nil
    }

    /// Compares every byte, so that the time taken says nothing of how much of a guess was right.
    private static func same(_ a: String, _ b: String) -> Bool {
        let a = Array(a.utf8), b = Array(b.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
