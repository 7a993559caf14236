// The app side of the inspector (Docs/Inspector.md I1-I29): generated machines attached to an
// inspector that the test plays (`InspectorServer`, a loopback WebSocket server), read back from
// the bytes that reached the socket.

import Foundation
import StateLoop
import StateLoopInspector
import StateLoopTestSupport
import Testing

@Suite struct InspectorTests {
    /// The messages of `instance` of `type`.
    static func of(_ messages: [[String: Any]], type: String, instance: String) -> [[String: Any]] {
        messages.filter { $0["type"] as? String == type && $0["instance"] as? String == instance }
    }

    static func hasBye(_ instance: String) -> ([[String: Any]]) -> Bool {
        { messages in !of(messages, type: "bye", instance: instance).isEmpty }
    }

    /// A Counter attached to a fresh inspector: three events, then stopped; every message sent.
    static func counterMessages() async throws -> [[String: Any]] {
        let server = try InspectorServer()
        defer { server.close() }
        let run = Counter.system().inspected(Counter.self, by: Inspector(url: server.url)).start { _ in }
        run.send(.increment)
        run.send(.decrement)
        run.send(.decrement)
        run.stop()
        return await server.messages(until: hasBye("Counter#1"))
    }

    @Test("I1: an instance says hello first, named after its machine and numbered")
    func i1Hello() async throws {
        let messages = try await Self.counterMessages()
        let hello = try #require(messages.first)
        let expected: NSDictionary = [
            "type": "hello", "protocol": 1, "instance": "Counter#1", "machine": "Counter",
            "spec": "Counter.machine.yml", "fingerprint": BranchFingerprint.of(Counter.transitions), "parent": NSNull(), "journalVersion": NSNull(),
        ]
        #expect(NSDictionary(dictionary: hello) == expected, "\(hello)")
        #expect(Self.of(messages, type: "hello", instance: "Counter#1").count == 1)
    }

    @Test("I2: seq 0 is the initial state, then one step per reduced event, in order")
    func i2Steps() async throws {
        let steps = Self.of(try await Self.counterMessages(), type: "step", instance: "Counter#1")
        #expect(steps.map { $0["seq"] as? Int } == [0, 1, 2, 3])
        #expect(steps[0]["event"] is NSNull)
        #expect((steps[0]["branches"] as? [Any])?.isEmpty == true)
        let times = steps.compactMap { $0["time"] as? Double }
        #expect(times.count == 4 && times == times.sorted() && times[0] == 0)
    }

    @Test("I3: each step lists the branches it took with their YAML lines")
    func i3Branches() async throws {
        let steps = Self.of(try await Self.counterMessages(), type: "step", instance: "Counter#1")
        let branches = steps.map { ($0["branches"] as? [[String: Int]] ?? []).map { [$0["id"]!, $0["line"]!] } }
        // Counter.machine.yml: increment at line 16; decrement's guarded branch at 18, its else at 19.
        #expect(branches == [[], [[0, 16]], [[1, 18]], [[2, 19]]])
        #expect(Counter.transitions[2].line == 19)
    }

    @Test("I5: the state and the event are the harness's value dumps")
    func i5Dumps() async throws {
        let steps = Self.of(try await Self.counterMessages(), type: "step", instance: "Counter#1")
        #expect(steps[1]["event"] as? String == ValueDump.line(of: Counter.Event.increment))
        #expect(steps[1]["state"] as? String == ValueDump.lines(of: Counter.State(mode: .counting, count: 1)).joined(separator: "\n"))
        #expect(steps[3]["state"] as? String == "Counter.State(\n  mode: .counting,\n  count: 0\n)")
    }

    @Test("I7: bye is an instance's last message")
    func i7Bye() async throws {
        let messages = try await Self.counterMessages()
        #expect(messages.last?["type"] as? String == "bye")
        #expect(messages.last?["instance"] as? String == "Counter#1")
    }
}

/// A Ledger (nesting, a parallel state, timers, one-shot runs, a Courier child) attached to an
/// inspector.
@Suite struct InspectorLedgerTests {
    let server: InspectorServer
    let clock = ManualClock()
    let run: SystemRun<Ledger.State, Ledger.Event>

    init() throws {
        server = try InspectorServer()
        run = Ledger.system(effects: Ledger.RecordingEffects(), clock: clock)
            .inspected(Ledger.self, by: Inspector(url: server.url))
            .start { _ in }
    }

    /// Every message sent once `instances` have all said bye: a child's messages may follow its
    /// parent's bye, when the inspector's thread takes both instances' in one pass.
    func finished(_ instances: [String] = ["Ledger#1"]) async -> [[String: Any]] {
        run.stop()
        defer { server.close() }
        return await server.messages(until: { messages in instances.allSatisfy { InspectorTests.hasBye($0)(messages) } })
    }

    /// The DOT text `stateloop diagram` writes for the Ledger fixture.
    static func ledgerDOT() throws -> String {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "StateLoopCodegenTests/Fixtures/Ledger.machine.yml")
        let output = FileManager.default.temporaryDirectory.appending(path: "inspector-ledger-\(UUID().uuidString).dot")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try runToEnd(builtExecutable("stateloop"), ["diagram", fixture.path, "--format", "dot", "--output", output.path])
        #expect(result.status == 0)
        return try String(contentsOf: output, encoding: .utf8)
    }

    @Test("I4: the configuration names every active state, outermost first, as the DOT output's ids")
    func i4Configuration() async throws {
        run.send(.open)
        run.send(.pause)
        let steps = InspectorTests.of(await finished(), type: "step", instance: "Ledger#1")
        let configurations = steps.map { $0["configuration"] as? [String] ?? [] }
        #expect(configurations == [
            ["closed"], ["active", "working", "books", "idle", "checks", "quiet"], ["active", "paused"],
        ])
        let dot = try Self.ledgerDOT()
        for name in Set(configurations.joined()) {
            #expect(dot.contains("\"\(name)\" [") || dot.contains("subgraph \"cluster_\(name)\""), "\(name): no node or cluster of the DOT output")
        }
    }

    @Test("I1, I6: a child says hello with its parent, and the parent tells when it started and stopped")
    func i6Children() async throws {
        run.send(.open)
        run.send(.audit)
        run.send(.tag(name: "x"))
        run.send(.close)
        let messages = await finished(["Ledger#1", "Courier#1"])
        let hello = try #require(InspectorTests.of(messages, type: "hello", instance: "Courier#1").first)
        #expect(hello["parent"] as? String == "Ledger#1")
        // Both persist: Ledger at version 2, Courier at 1 (I1).
        #expect(hello["journalVersion"] as? Int == 1)
        #expect(InspectorTests.of(messages, type: "hello", instance: "Ledger#1").first?["journalVersion"] as? Int == 2)
        let children = InspectorTests.of(messages, type: "child", instance: "Ledger#1")
        #expect(children.map { "\($0["phase"]!) \($0["child"]!) after \($0["seq"]!)" } == ["started Courier#1 after 2", "stopped Courier#1 after 4"])
        let courier = InspectorTests.of(messages, type: "step", instance: "Courier#1")
        #expect(courier.map { $0["event"] as? String ?? "-" } == ["-", ".ping"])
        #expect(!InspectorTests.of(messages, type: "bye", instance: "Courier#1").isEmpty)
    }

    @Test("I15: a one-shot run starts with the step that queued it, and nothing ends it")
    func i15OneShot() async throws {
        run.send(.open)
        run.send(.close)
        let runs = InspectorTests.of(await finished(), type: "run", instance: "Ledger#1")
        #expect(runs.map { "\($0["seq"]!) \($0["phase"]!) \($0["effect"]!) \($0["key"]!)" } == ["1 started notify .notify"])
    }

    @Test("I16: a timer is armed with its deadline, and fires or is cancelled")
    func i16Timers() async throws {
        run.send(.open)
        run.send(.deposit(amount: Money(cents: 5, currency: "EUR"), note: "a"))
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(250))
        _ = await server.messages { InspectorTests.of($0, type: "step", instance: "Ledger#1").count == 4 }
        run.send(.audit)
        run.send(.close)
        let messages = await finished()
        let timers = InspectorTests.of(messages, type: "timer", instance: "Ledger#1")
        #expect(timers.map { "\($0["seq"]!) \($0["phase"]!) \($0["name"]!)" } == [
            "2 armed posting after 0.25 seconds", "3 fired posting after 0.25 seconds",
            "4 armed auditing after 0.1 seconds", "5 cancelled auditing after 0.1 seconds",
        ])
        let steps = InspectorTests.of(messages, type: "step", instance: "Ledger#1")
        let armedAt = try #require(steps[2]["time"] as? Double)
        let deadline = try #require(timers.first?["deadline"] as? Double)
        #expect(abs(deadline - (armedAt + 250)) < 0.01)
    }
}

/// Runs of GitHubSearch's `loadNextPage`, read from consecutive states.
@Suite struct InspectorRunTests {
    @Test("I13, I14: a run starts when a step asks for it, and finishes with a result or is cancelled")
    func i13i14Runs() async throws {
        let server = try InspectorServer()
        defer { server.close() }
        let next = URL(string: "https://api.github.com/next")!
        let effects = GitHubSearch.RecordingEffects(loadNextPage: { url in
            if url == next { try? await Task.sleep(for: .seconds(60)) }
            return .loaded(repositories: [Repository(name: "swift")], nextURL: next)
        })
        let run = GitHubSearch.system(effects: effects).inspected(GitHubSearch.self, by: Inspector(url: server.url)).start { _ in }
        run.send(.searchChanged(search: "swift"))
        _ = await server.messages { InspectorTests.of($0, type: "step", instance: "GitHubSearch#1").count == 3 }
        run.send(.scrolledNearBottom)
        run.send(.searchChanged(search: "yaml"))
        _ = await server.messages { InspectorTests.of($0, type: "step", instance: "GitHubSearch#1").count == 6 }
        run.stop()
        let messages = await server.messages(until: InspectorTests.hasBye("GitHubSearch#1"))
        let first = ValueDump.line(of: GitHubSearch.Call.loadNextPage(GitHub.searchURL("swift")!))
        let second = ValueDump.line(of: GitHubSearch.Call.loadNextPage(next))
        let third = ValueDump.line(of: GitHubSearch.Call.loadNextPage(GitHub.searchURL("yaml")!))
        let runs = InspectorTests.of(messages, type: "run", instance: "GitHubSearch#1")
        #expect(runs.map { "\($0["seq"]!) \($0["phase"]!) \($0["effect"]!) \($0["key"]!)" } == [
            "1 started loadNextPage \(first)", "2 finished loadNextPage \(first)",
            "3 started loadNextPage \(second)", "4 cancelled loadNextPage \(second)", "4 started loadNextPage \(third)",
            "5 finished loadNextPage \(third)",
        ])
    }
}

/// The inspector never stands in the app's way.
@Suite struct InspectorAbsenceTests {
    @Test("I8: with nothing listening, the app runs on")
    func i8NothingListens() async throws {
        let inspector = Inspector(url: "ws://127.0.0.1:\(try InspectorServer.freePort())/app", retryInterval: .milliseconds(10))
        let seen = Counted()
        let run = Counter.system().inspected(Counter.self, by: inspector).start { state in seen.add(state.count) }
        for _ in 0..<1_000 { run.send(.increment) }
        run.stop()
        #expect(seen.values.count == 1_001)
        #expect(seen.values.last == 1_000)
    }

    @Test("I9: after a lost connection the inspector's thread connects again, and the instance says hello again")
    func i9Reconnects() async throws {
        let first = try InspectorServer()
        let run = Counter.system()
            .inspected(Counter.self, by: Inspector(url: first.url, retryInterval: .milliseconds(10)))
            .start { _ in }
        run.send(.increment)
        _ = await first.messages { InspectorTests.of($0, type: "step", instance: "Counter#1").count == 2 }
        first.close()
        let second = try InspectorServer(port: first.port)
        defer { second.close() }
        // Writes to the lost connection fail only once the peer has reset it: send until the
        // second inspector hears from the instance.
        var sent = 1
        let deadline = ContinuousClock.now + .seconds(20)
        while second.messages.isEmpty, ContinuousClock.now < deadline {
            run.send(.increment)
            sent += 1
            try await Task.sleep(for: .milliseconds(10))
        }
        run.send(.increment)
        sent += 1
        let messages = await second.messages { InspectorTests.of($0, type: "step", instance: "Counter#1").last?["seq"] as? Int == sent }
        #expect(messages.first?["type"] as? String == "hello")
        #expect(messages.first?["instance"] as? String == "Counter#1")
        #expect(InspectorTests.of(messages, type: "step", instance: "Counter#1").last?["seq"] as? Int == sent)
        run.stop()
    }

    @Test("I10, I11: a stalled reader blocks nothing; the oldest steps are dropped and counted")
    func i10i11StalledReader() async throws {
        let server = try InspectorServer(reading: false)
        defer { server.close() }
        let bufferSize = 16
        let run = Counter.system()
            .inspected(Counter.self, by: Inspector(url: server.url, bufferSize: bufferSize))
            .start { _ in }
        let events = 100_000
        let start = ContinuousClock.now
        for _ in 0..<events { run.send(.increment) }
        let elapsed = ContinuousClock.now - start
        // Far more than the socket's buffers hold: the reader stalls the inspector's thread, never the app.
        #expect(elapsed < .seconds(20))
        server.resume()
        run.stop()
        let messages = await server.messages(within: .seconds(60), until: InspectorTests.hasBye("Counter#1"))
        var lastSeq = -1
        var dropped = 0
        var droppedMessages = 0
        for message in messages where message["instance"] as? String == "Counter#1" {
            switch message["type"] as? String {
            case "dropped":
                dropped += message["count"] as? Int ?? 0
                droppedMessages += 1
            case "step":
                let seq = message["seq"] as? Int ?? -1
                // The seqs jump by exactly what was said dropped.
                #expect(seq == lastSeq + 1 + dropped)
                lastSeq = seq
                dropped = 0
            default: break
            }
        }
        #expect(droppedMessages > 0)
        #expect(lastSeq == events)
    }
}

/// A reducer that reads a global: the replay check catches it.
enum Flaky: StateMachine {
    struct State: Equatable, Sendable { var value = 0 }
    enum Event: Equatable, Sendable { case roll }
    enum StateName: Hashable, Sendable { case only }
    typealias Call = NoCall
    static var specFile: String { "Flaky.machine.yml" }
    /// How many times any thread reduced.
    static let rolls = Counted()

    static func reduce(_ state: inout State, _ event: Event, trace: inout TransitionTrace) {
        trace.take(0)
        rolls.add(1)
        state.value = rolls.values.count
    }
    static func runs(in state: State) -> [EffectRequest<NoCall>] { [] }
    static func result(_ event: Event, of call: NoCall) -> EffectResultKind? { nil }
    static func timers(in state: State) -> [ArmedTimer<StateName, Event>] { [] }
    static func copyBookkeeping(from source: State, to state: inout State) {}
    static let transitions = TransitionInfo.table("1:1 only --roll--> (stays)")
    static func isDone(_ state: State) -> Bool { false }
}

@Suite struct InspectorReplayTests {
    @Test("I20: replaying a step through the pure reducer that gives another state is a mismatch")
    func i20Mismatch() async throws {
        let server = try InspectorServer()
        defer { server.close() }
        let system = System<Flaky.State, Flaky.Event>(initial: .init(), reduce: { state, event in
            var trace = TransitionTrace()
            Flaky.reduce(&state, event, trace: &trace)
        }, feedbacks: [])
        let run = system.inspected(Flaky.self, by: Inspector(url: server.url)).start { _ in }
        run.send(.roll)
        run.stop()
        let messages = await server.messages(until: InspectorTests.hasBye("Flaky#1"))
        let mismatches = InspectorTests.of(messages, type: "mismatch", instance: "Flaky#1")
        #expect(mismatches.count == 1)
        #expect(mismatches.first?["seq"] as? Int == 1)
        let recorded = try #require(mismatches.first?["recorded"] as? String)
        let replayed = try #require(mismatches.first?["replayed"] as? String)
        #expect(recorded != replayed)
    }

    @Test("I20: a gap of dropped steps breaks the chain: the first step after it is not checked")
    func i20GapBreaksTheChain() async throws {
        let port = try InspectorServer.freePort()
        let system = System<Flaky.State, Flaky.Event>(initial: .init(), reduce: { state, event in
            var trace = TransitionTrace()
            Flaky.reduce(&state, event, trace: &trace)
        }, feedbacks: [])
        let inspector = Inspector(url: "ws://127.0.0.1:\(port)/app", bufferSize: 2, retryInterval: .milliseconds(10))
        let run = system.inspected(Flaky.self, by: inspector).start { _ in }
        // Nobody listens: the buffer keeps the last two steps, 4 and 5.
        for _ in 0..<5 { run.send(.roll) }
        let server = try InspectorServer(port: port)
        defer { server.close() }
        _ = await server.messages { InspectorTests.of($0, type: "step", instance: "Flaky#1").last?["seq"] as? Int == 5 }
        run.stop()
        let messages = await server.messages(until: InspectorTests.hasBye("Flaky#1"))
        #expect(InspectorTests.of(messages, type: "dropped", instance: "Flaky#1").map { $0["count"] as? Int } == [4])
        #expect(InspectorTests.of(messages, type: "step", instance: "Flaky#1").map { $0["seq"] as? Int } == [4, 5])
        #expect(InspectorTests.of(messages, type: "mismatch", instance: "Flaky#1").map { $0["seq"] as? Int } == [5])
    }
}

/// Values gathered from another thread.
final class Counted: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Int] = []
    func add(_ value: Int) { lock.withLock { stored.append(value) } }
    var values: [Int] { lock.withLock { stored } }
}

/// A secret in the context: `redact: true` (Vault.machine.yml).
@Suite struct InspectorRedactionTests {
    @Test("I22: a redacted field prints <redacted>, and its bytes never reach the socket")
    func i22Redaction() async throws {
        let server = try InspectorServer()
        defer { server.close() }
        let secret = "correct horse battery staple"
        let run = Vault.system().inspected(Vault.self, by: Inspector(url: server.url)).start { _ in }
        run.send(.configure(owner: "ada", password: secret))
        run.send(.unlock(password: "wrong"))
        run.send(.unlock(password: secret))
        run.stop()
        let messages = await server.messages(until: InspectorTests.hasBye("Vault#1"))
        let steps = InspectorTests.of(messages, type: "step", instance: "Vault#1")
        #expect(steps.count == 4)
        #expect(steps[1]["event"] as? String == #".configure(owner: "ada", password: <redacted>)"#)
        #expect(steps[1]["state"] as? String == "Vault.State(\n  mode: .locked,\n  owner: \"ada\",\n  password: <redacted>,\n  attempts: 0\n)")
        #expect(steps[3]["configuration"] as? [String] == ["open"])
        let bytes = server.payloadBytes
        #expect(!bytes.isEmpty)
        #expect(bytes.firstRange(of: Array(secret.utf8)) == nil)
        #expect(bytes.firstRange(of: Array("wrong".utf8)) == nil)
        #expect(Vault.redactedFields == ["password"])
    }
}
