// The inspector as an attacker's page sees it (Docs/Inspector.md I66-I68): requests written on a
// raw socket to 127.0.0.1, with the `Origin` and `Host` a browser would send for another site.
import Foundation
import StateLoopTestSupport
import Testing
@testable import StateLoopInspectorServer

@Suite(.enabled(if: serverBuilt, "runs the server: build with --traits Inspector")) struct SecurityTests {
    /// `GET path` on `inspector`'s port with `headers`: its status and what the server said.
    func get(_ inspector: RunningInspector, _ path: String, _ headers: [String: String] = [:]) throws -> (status: Int, text: String) {
        let (status, body) = try RawHTTP.exchange(port: inspector.port, path: path, headers: headers)
        return (status, String(decoding: body, as: UTF8.self))
    }

    @Test("I66: an upgrade of /app or /page from another site's page or a file:// document is refused; the app's, without Origin, and the page's own are let in")
    func i66Origin() throws {
        let inspector = try RunningInspector(builtExecutable("stateloop-inspect"), ["--port", "0"])
        let token = "?token=" + inspector.token
        for path in ["/app", "/page" + token] {
            for origin in ["http://evil.example", "null", "http://127.0.0.1:\(inspector.port + 1)", "https://127.0.0.1:\(inspector.port)"] {
                // A handshake refused: no WebSocket (NIO answers 400; the server says why on standard error).
                #expect(try get(inspector, path, RawHTTP.upgrade.merging(["Origin": origin]) { $1 }).status == 400, "\(path) from \(origin)")
            }
            for origin in ["http://127.0.0.1:\(inspector.port)", "http://localhost:\(inspector.port)"] {
                #expect(try get(inspector, path, RawHTTP.upgrade.merging(["Origin": origin]) { $1 }).status == 101, "\(path) from \(origin)")
            }
        }
        #expect(try get(inspector, "/app", RawHTTP.upgrade).status == 101)
        // A plain GET says why.
        let said = try get(inspector, "/stats?token=" + inspector.token, ["Origin": "null"])
        #expect(said.status == 403 && said.text.contains("Origin null is not the inspector's page"), "\(said)")
    }

    @Test("I67: a request whose Host is not the inspector's own is refused on every route")
    func i67Host() throws {
        let inspector = try RunningInspector(builtExecutable("stateloop-inspect"), ["--port", "0", "Specs/Counter.machine.yml"])
        let token = "token=" + inspector.token
        let routes = ["/", "/diagram?instance=Counter%231&\(token)", "/export?instance=Door%231&from=1&to=1&\(token)", "/stats?\(token)"]
        for host in ["evil.example:\(inspector.port)", "evil.example", "127.0.0.1.evil.example:\(inspector.port)", "127.0.0.1:\(inspector.port + 1)"] {
            for path in routes {
                let refused = try get(inspector, path, ["Host": host])
                #expect(refused.status == 403, "\(path) for \(host)")
                #expect(refused.text.contains("Host \(host) is not the inspector's address"), "\(refused.text)")
            }
            for path in ["/app", "/page?\(token)"] {
                #expect(try get(inspector, path, RawHTTP.upgrade.merging(["Host": host]) { $1 }).status == 400, "\(path) for \(host)")
            }
        }
        for host in ["127.0.0.1:\(inspector.port)", "localhost:\(inspector.port)"] {
            #expect(try get(inspector, "/stats?\(token)", ["Host": host]).status == 200, "\(host)")
        }
    }

    @Test("I68: /page, /diagram, /export and /stats need the run's token, which the printed address carries")
    func i68Token() throws {
        let inspector = try RunningInspector(builtExecutable("stateloop-inspect"), ["--port", "0", "Specs/Counter.machine.yml"])
        let other = try RunningInspector(builtExecutable("stateloop-inspect"), ["--port", "0"])
        #expect(inspector.token != other.token)
        for (path, upgrade) in [("/page", true), ("/diagram?instance=Counter%231", false), ("/export?instance=Door%231&from=1&to=1", false), ("/stats", false)] {
            let headers = upgrade ? RawHTTP.upgrade : [:]
            for query in ["", "token=", "token=" + other.token] {
                let separator = path.contains("?") ? "&" : "?"
                let refused = try get(inspector, path + (query.isEmpty ? "" : separator + query), headers)
                #expect(refused.status == (upgrade ? 400 : 403), "\(path) \(query)")
                #expect(upgrade || refused.text.contains("open the address stateloop inspect printed"), "\(refused.text)")
            }
            let separator = path.contains("?") ? "&" : "?"
            let passed = try get(inspector, path + separator + "token=" + inspector.token, headers).status
            #expect(upgrade ? passed == 101 : passed != 403, "\(path): \(passed)")
        }
        #expect(try get(inspector, "/").status == 200)
    }
}
