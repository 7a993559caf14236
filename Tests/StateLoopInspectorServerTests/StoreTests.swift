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

    @Test("I33: an instance keeps its hello and the last --keep messages; pages are told of the gap")
    func i33Bounded() async throws {
        let store = InspectorStore(limit: 3)
        let (id, live) = await store.subscribe()
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

        // The page that was there all along saw every message, and a note at each drop.
        await store.unsubscribe(id)
        var seen: [String] = []
        for await json in live { seen.append(json) }
        let types = try objects(seen).map { $0["type"] as! String }
        #expect(types == ["hello", "step", "step", "step", "dropped", "step", "dropped", "step", "hello"])
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
