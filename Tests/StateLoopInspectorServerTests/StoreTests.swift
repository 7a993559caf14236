import Foundation
import Testing
@testable import StateLoopInspectorServer

/// The messages of one instance, as JSON lines an app sends.
func messages(_ objects: [[String: Any]]) throws -> [InspectorMessage] {
    try objects.map { try InspectorMessage(object: $0) }
}

func hello(_ instance: String, machine: String = "Door", parent: String? = nil) -> [String: Any] {
    ["type": "hello", "protocol": 1, "instance": instance, "machine": machine, "spec": "\(machine).machine.yml",
     "parent": parent ?? NSNull(), "journalVersion": NSNull()]
}

func step(_ instance: String, _ seq: Int, event: String?, state: String, time: Double = 0) -> [String: Any] {
    ["type": "step", "instance": instance, "seq": seq, "time": time, "event": event ?? NSNull(), "branches": [], "state": state,
     "configuration": []]
}

/// The objects of the JSON texts a page receives.
func objects(_ texts: [String]) throws -> [[String: Any]] {
    try texts.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
}

@Suite struct StoreTests {
    @Test("I32: each step carries the harness's diff from the step before; the first its whole state")
    func i32Diffs() async throws {
        let store = InspectorStore()
        for message in try messages([
            hello("Door#1"),
            step("Door#1", 0, event: nil, state: "Door.State(\n  mode: .closed,\n  opens: 0\n)"),
            step("Door#1", 1, event: ".open", state: "Door.State(\n  mode: .opened,\n  opens: 1\n)"),
            step("Door#1", 2, event: ".knock", state: "Door.State(\n  mode: .opened,\n  opens: 1\n)"),
        ]) { await store.receive(message) }
        let steps = try objects(await store.history()).filter { $0["type"] as? String == "step" }
        #expect(steps.map { $0["diff"] as? [String] } == [
            ["  Door.State(", "    mode: .closed,", "    opens: 0", "  )"],
            ["  Door.State(", "−   mode: .closed,", "−   opens: 0", "+   mode: .opened,", "+   opens: 1", "  )"],
            [],
        ])
    }

    @Test("I33: an instance keeps its hello and the last --keep messages; a page that comes later is told of the gap")
    func i33Bounded() async throws {
        let store = InspectorStore(limit: 3)
        let (id, _) = await store.subscribe()
        await store.receive(try InspectorMessage(object: hello("Door#1")))
        for seq in 0..<5 {
            await store.receive(try InspectorMessage(object: step("Door#1", seq, event: seq == 0 ? nil : ".open", state: "S(\n  n: \(seq)\n)")))
        }
        await store.receive(try InspectorMessage(object: hello("Door#2")))
        #expect(await store.count == 5)

        // A page that comes now: each hello first, the gap where it is, the rest in arrival order.
        let later = try objects(await store.history())
        #expect(later.map { "\($0["type"]!) \($0["instance"]!) \($0["seq"] ?? $0["count"] ?? "")" } == [
            "hello Door#1 ", "dropped Door#1 2", "step Door#1 2", "step Door#1 3", "step Door#1 4", "hello Door#2 ",
        ])
        #expect(later[1]["by"] as? String == "inspector")
        // A step after a gap has nothing to compare with: its diff is its whole state.
        #expect(later[2]["diff"] as? [String] != nil)

        // The page that was there all along saw every message, and no note: it has what was dropped.
        let types = try objects(try #require(await store.take(id))).map { $0["type"] as! String }
        #expect(types == ["hello", "step", "step", "step", "step", "step", "hello"])
        await store.unsubscribe(id)
    }

    @Test("I62: a message is kept in the same time however many the store keeps already")
    func i62ConstantTime() async throws {
        // Past its bound, each message drops the oldest; before I62 each also copied all that were kept.
        let limit = 10_000, more = 500
        func text(_ seq: Int) -> String {
            #"{"type":"step","instance":"Door#1","seq":\#(seq),"event":".open","state":"S","branches":[],"configuration":[]}"#
        }
        func seconds(keeping kept: Int) async throws -> Double {
            let store = InspectorStore(limit: limit)
            for seq in 0..<kept { try await store.receive(text: text(seq)) }
            let start = ContinuousClock.now
            for seq in kept..<kept + more { try await store.receive(text: text(seq)) }
            let elapsed = ContinuousClock.now - start
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        }
        // The best of two of each, against a loaded machine's noise.
        var empty = Double.infinity, full = Double.infinity
        for _ in 0..<2 {
            empty = min(empty, try await seconds(keeping: 0))
            full = min(full, try await seconds(keeping: limit))
        }
        #expect(full < 3 * empty, "\(more) messages took \(full) s into a full store, \(empty) s into an empty one")
    }

    @Test("I62: a step goes to pages as the app's text with its diff written after it, the app's own diff replaced")
    func i62TheAppsText() async throws {
        let store = InspectorStore()
        let (id, _) = await store.subscribe()
        let text = #"{"type":"step","instance":"Door#1","seq":0,"event":null,"state":"S(\n  n: 0\n)","branches":[],"configuration":[],"extra":{"b":1,"a":2}}"#
        try await store.receive(text: text + "\n")
        try await store.receive(text: #"{"type":"step","instance":"Door#1","seq":1,"event":".open","state":"S(\n  n: 1\n)","diff":["x"]}"#)
        let sent = try #require(await store.take(id))
        #expect(sent[0] == String(text.dropLast()) + #","diff":["  S(","    n: 0","  )"]}"#)
        #expect(try objects(sent).map { $0["diff"] as? [String] } == [["  S(", "    n: 0", "  )"], ["  S(", "−   n: 0", "+   n: 1", "  )"]])
        await store.unsubscribe(id)
    }

    @Test("I63: a page takes all the messages that came for it at once, in order, and one frame is a JSON array of them")
    func i63Batches() async throws {
        let store = InspectorStore()
        await store.receive(try InspectorMessage(object: hello("Door#1")))
        let (id, history) = await store.subscribe()
        #expect(try objects(history).map { $0["type"] as! String } == ["hello"])
        for seq in 0..<3 { await store.receive(try InspectorMessage(object: step("Door#1", seq, event: nil, state: "S"))) }
        let batch = try #require(await store.take(id))
        let frame = try #require(JSONSerialization.jsonObject(with: Data(InspectorStore.frame(batch).utf8)) as? [[String: Any]])
        #expect(frame.map { $0["seq"] as? Int } == [0, 1, 2])
        #expect(await store.take(id) == [])
        await store.unsubscribe(id)
        #expect(await store.take(id) == nil)
    }

    @Test("I64: a page that does not take its messages keeps at most pageLimit; it is told how many went, and gets every hello")
    func i64PageBound() async throws {
        let store = InspectorStore(limit: 100, pageLimit: 3)
        let (id, _) = await store.subscribe()
        await store.receive(try InspectorMessage(object: hello("Door#1")))
        for seq in 0..<4 { await store.receive(try InspectorMessage(object: step("Door#1", seq, event: nil, state: "S"))) }
        await store.receive(try InspectorMessage(object: hello("Door#2")))
        let batch = try objects(try #require(await store.take(id)))
        #expect(batch.map { "\($0["type"]!) \($0["instance"]!) \($0["seq"] ?? $0["count"] ?? "")" } == [
            "hello Door#1 ", "dropped Door#1 2", "step Door#1 2", "step Door#1 3", "hello Door#2 ",
        ])
        #expect(batch[1]["by"] as? String == "inspector")
        // The store itself kept them all.
        #expect(await store.count == 6)
        await store.unsubscribe(id)
    }

    @Test("I33: a frame that is not a message is refused with what the app must send")
    func i33BadFrames() async throws {
        let store = InspectorStore()
        await #expect(throws: InspectorError.badMessage("not a JSON object: [1, 2]")) { try await store.receive(text: "[1, 2]") }
        await #expect(throws: InspectorError.badMessage("a step message without an \"instance\"")) {
            try await store.receive(text: #"{"type":"step","seq":0}"#)
        }
        #expect(await store.count == 0)
    }
}

@Suite struct OwnershipTests {
    static var vault: [String: Any] { hello("Vault#1", machine: "Vault") }

    func text(_ object: [String: Any]) throws -> String { try InspectorMessage(object: object).json }

    @Test("I69: a connection cannot take an instance another live connection owns; once that one ends, it can")
    func i69OneOwner() async throws {
        let store = InspectorStore()
        let owner = await store.connect(), stranger = await store.connect()
        try await store.receive(text: text(Self.vault), from: owner)
        try await store.receive(text: text(step("Vault#1", 0, event: nil, state: "Vault.State(\n  secret: <redacted>\n)")), from: owner)
        for intruder in [Self.vault.merging(["spec": "Evil.machine.yml"]) { $1 }, step("Vault#1", 1, event: ".open", state: "Vault.State(\n  secret: \"fake\"\n)")] {
            await #expect(throws: InspectorError.taken("Vault#1")) { try await store.receive(text: try text(intruder), from: stranger) }
        }
        let kept = try await store.messages(of: "Vault#1")
        #expect(kept.hello["spec"] == "Vault.machine.yml" && kept.messages.map(\.seq) == [0])

        // The owner's connection ends: the app reconnects and says hello again (I9), on a new one.
        await store.disconnect(owner)
        try await store.receive(text: text(Self.vault), from: stranger)
        #expect(try await store.messages(of: "Vault#1").messages.map(\.seq) == [0])
        #expect(InspectorError.taken("Vault#1").description.contains("another connection attached Vault#1 first"))
    }

    @Test("I69: an instance read from a journal belongs to the inspector: no connection takes it")
    func i69JournalInstances() async throws {
        let store = InspectorStore()
        await store.receive(try InspectorMessage(object: hello("till", machine: "Till")))
        let app = await store.connect()
        await #expect(throws: InspectorError.taken("till")) { try await store.receive(text: try text(hello("till", machine: "Till")), from: app) }
    }
}
