// A host's failures (Docs/Hosting.md H6, H10, H23, H62): an instance that cannot go on fails alone,
// the host bounds what it has accepted and not yet made durable, and every error says what to do.

import Foundation
import StateLoop
@testable import StateLoopDurable
import StateLoopTestSupport
import Testing

@Suite struct HostFailureTests {
    /// The error a refused part of `GatedStore` gives its instance's senders.
    static let full = JournalError.database(code: 13, message: "database or disk is full")

    /// The slots `host` has handed out and the sends waiting for one (H10).
    static func admitted<M>(_ host: MachineHost<M>) -> [Int] {
        host.admission.lock.withLock { [host.admission.held, host.admission.waiting.count] }
    }

    @Test("H23, H22: an instance whose part is refused stops: each send whose event it reduced throws notDurable with its last durable event and the store's error, those queued behind are not written, no state after that event is shown, and the next send recovers it from its journal while other instances go on")
    func h23AFailedInstanceStopsAlone() async throws {
        let store = GatedStore()
        let shown = Box<[[Int]]>([])
        let host = MachineHost<Ledger>(store: store, initial: { _ in [] }, onState: { id, state in
            if id == "a" { shown.update { $0.append(state) } }
        }).started()
        defer { host.stop() }
        _ = try await host.send(1, to: "a")
        _ = try await host.send(1, to: "b")
        store.refuseNext { $0.machine == "a" && !$0.records.isEmpty }
        store.close()
        let refused = Task { try await host.send(2, to: "a") }
        #expect(await eventually { store.batches.last?.parts.contains { $0.machine == "a" } == true ? true : nil } == true)
        // Reduced while the refused part waits for its commit: queued behind it, on its chain.
        let behind = Task { try await host.send(3, to: "a") }
        let other = Task { try await host.send(2, to: "b") }
        try await Task.sleep(for: .milliseconds(50))
        store.open()
        let expected = HostError.notDurable("a", durableThrough: 1, reason: "\(Self.full)")
        await #expect(throws: expected) { try await refused.value }
        await #expect(throws: expected) { try await behind.value }
        #expect(try await other.value.sequence == 2)
        #expect(store.inner.recover("a").records.map(\.sequence) == [1], "a part behind the refused one was written")
        #expect(await eventually { host.lock.withLock { host.instances["a"] } == nil ? true : nil } == true, "the failed instance stayed in memory")

        let recovered = try await host.send(4, to: "a")
        #expect(recovered.sequence == 2 && recovered.state == [1, 4])
        #expect(await eventually { shown.value.last == [1, 4] ? true : nil } == true)
        #expect(!shown.value.contains { $0.starts(with: [1, 2]) }, "a state whose event is not durable was shown: \(shown.value)")
    }

    @Test("H6: a load that takes long, an effect that never returns and a refused part, each of another instance, delay none of an instance's sends")
    func h6InstancesAreIndependent() async throws {
        let store = GatedStore()
        let slowLoad = store.holdLoads(of: "slow")
        let never = Gate()
        defer { never.open(); slowLoad.open() }
        let host = MachineHost<Search>(
            store: store, initial: { _ in .init() },
            feedbacks: { id in
                Search.feedbacks(load: { query in
                    if id == "stuck" { await never.wait() }
                    return query
                })
            }).started()
        defer { host.stop() }
        _ = try await host.send(.search(1), to: "stuck")
        store.refuseNext { $0.machine == "bad" && !$0.records.isEmpty }
        let slowReturned = Box(false)
        let slow = Task {
            defer { slowReturned.value = true }
            return try await host.send(.search(1), to: "slow")
        }
        let bad = Task { try await host.send(.search(1), to: "bad") }
        #expect(await eventually { store.loads(of: "slow") == 1 ? true : nil } == true)
        var last: Int64 = 0
        for query in 1...20 {
            // Each search's result is journaled too, between the sends.
            let receipt = try await host.send(.search(query), to: "ok")
            #expect(receipt.sequence > last && receipt.state.query == query)
            last = receipt.sequence
        }
        #expect(try await host.send(.search(2), to: "stuck").state.query == 2, "an instance whose effect runs was delayed")
        await #expect(throws: HostError.notDurable("bad", durableThrough: 0, reason: "\(Self.full)")) { try await bad.value }
        #expect(!slowReturned.value, "the held load did not hold its instance")
        slowLoad.open()
        #expect(try await slow.value.sequence == 1)
    }

    @Test("H10: at most maxQueuedEvents accepted events are not yet durable; a send beyond that waits for room, and the waiting sends are accepted in the order they came")
    func h10AcceptedEventsAreBounded() async throws {
        let store = GatedStore()
        let host = MachineHost<Ledger>(store: store, initial: { _ in [] }, options: HostOptions(maxQueuedEvents: 3)).started()
        defer { host.stop() }
        _ = try await host.send(0, to: "a")
        _ = try await host.send(0, to: "b")
        // A sender is answered, then its slot given back.
        #expect(await eventually { Self.admitted(host) == [0, 0] ? true : nil } == true)
        store.close()
        var sends: [(event: Int, send: Task<Receipt<Ledger>, any Error>)] = []
        for event in 1...8 {
            sends.append((event, Task { try await host.send(event, to: event.isMultiple(of: 2) ? "a" : "b") }))
            // One at a time, so the order they came in is known.
            #expect(await eventually { Self.admitted(host) == [min(event, 3), max(0, event - 3)] ? true : nil } == true, "after send \(event): \(Self.admitted(host))")
        }
        try await Task.sleep(for: .milliseconds(50))
        #expect(Self.admitted(host) == [3, 5], "a send was accepted past the bound")
        store.open()
        for (event, send) in sends {
            let receipt = try await send.value
            #expect(receipt.sequence == Int64(1 + (event + 1) / 2), "event \(event) was accepted out of order")
        }
        #expect(try await host.state(of: "a") == [0, 2, 4, 6, 8])
        #expect(try await host.state(of: "b") == [0, 1, 3, 5, 7])
        #expect(await eventually { Self.admitted(host) == [0, 0] ? true : nil } == true)
    }

    @Test("H10: a send that waited for room and whose instance cannot take it gives its room back: the bound is never used up by failed sends")
    func h10FailedSendsGiveTheirRoomBack() async throws {
        let store = GatedStore()
        let host = MachineHost<Ledger>(store: store, initial: { $0 == "known" ? [] : nil }, options: HostOptions(maxQueuedEvents: 1)).started()
        defer { host.stop() }
        for _ in 1...5 {
            await #expect(throws: HostError.unknownInstance("stranger")) { try await host.send(1, to: "stranger") }
        }
        #expect(await eventually { Self.admitted(host) == [0, 0] ? true : nil } == true)
        #expect(try await host.send(1, to: "known").sequence == 1)
        host.stop()
        await #expect(throws: HostError.shuttingDown) { try await host.send(2, to: "known") }
        #expect(await eventually { Self.admitted(host) == [0, 0] ? true : nil } == true)
    }

    @Test("H62: each HostError's description says what happened, to which instance, what was and was not done, and what to do, in the sentence Docs/Hosting.md gives")
    func h62EveryErrorSaysWhatToDo() throws {
        let owner = JournalOwner(pid: 4242, started: 1, system: 1)
        let disk = JournalError.database(code: 10, message: "disk I/O error")
        let sentences: [(HostError, String)] = [
            (.invalidID("a/b"), "'a/b' cannot be a hosted instance id: '/' names child machines; use another character; nothing was read or written"),
            (.invalidID(""), "'' cannot be a hosted instance id: it is empty; give every instance a non-empty id; nothing was read or written"),
            (.unknownInstance("order-9"), "no instance 'order-9': it has no journal and `initial` gave no state for it; create it with `create(_:initial:)`; nothing was written"),
            (.instanceExists("order-7"), "instance 'order-7' already has a journal: send it events instead of creating it; nothing was written"),
            (.finished("order-7"), "instance 'order-7' finished: it takes no more events; its journal stays, and nothing was journaled"),
            (.notDurable("order-7", durableThrough: 11, reason: "\(Self.full)"),
             "instance 'order-7': its events after 11 are not durable (journal database error 13: database or disk is full), and no state after event 11 was shown; the next send recovers it from its journal"),
            (.notDurable("order-7", durableThrough: nil, reason: "the instance stopped before the event was reduced"),
             "instance 'order-7': the event is not durable (the instance stopped before the event was reduced); the next send recovers the instance from its journal"),
            (.claimed("order-7", by: owner), "instance 'order-7' is run by another process (pid 4242): send to that process, or stop it first; nothing was written"),
            (.loadFailed("order-7", reason: "\(disk)"),
             "instance 'order-7' could not be loaded (journal database error 10: disk I/O error); its journal was left as it is, and the next send (or, for a timer, the scheduler after its back-off) tries again"),
            (.shuttingDown, "the host is stopping or stopped: start a host to send to its instances; nothing was written"),
            (.hostTaken("Order", by: owner), "another host runs the machine 'Order' on this journal (pid 4242): stop it first, or send to it; nothing was read or written"),
            (.alreadyRun, "this host runs or ran already: a host runs once; make a new host to run again; nothing was read or written"),
            (.notHosted("till-1"), "'till-1' has a journal written outside a host: run it with `durable(id:)`, or take it with `adopt(_:)`; nothing was written"),
        ]
        let doc = try String(contentsOf: ReadmeTour.repositoryRoot.appending(path: "Docs/Hosting.md"), encoding: .utf8)
        for (error, sentence) in sentences {
            #expect(error.description == sentence)
            #expect(doc.contains("\"\(sentence)\""), "Docs/Hosting.md H62 does not give: \(sentence)")
        }
    }

    @Test("H75: a step whose state would run a child machine is refused with HostError.childMachine (nothing of it journaled or shown, the instance ended, the next send recovers it), and so is the load of a journal whose state runs one")
    func h75AChildMachineIsRefusedUntilH52() async throws {
        let store = InMemoryJournalStore()
        let shown = Box<[Office.State]>([])
        let host = MachineHost<Office>(
            store: store, initial: { _ in .init() }, feedbacks: { _ in Office.feedbacks },
            onState: { _, state in shown.update { $0.append(state) } }).started()
        _ = try await host.send(.tallied(1), to: "o")
        await #expect(throws: HostError.childMachine("o", effect: "tally")) { try await host.send(.start(7), to: "o") }
        #expect(store.lastSequence(of: "o") == 1, "the refused step was journaled")
        #expect(!shown.value.contains { $0.job != nil }, "the refused state was shown")
        #expect(try await host.send(.tallied(2), to: "o").state.totals == [1, 2])

        // A journal a durable system wrote, whose state runs the child: not loaded.
        let life = Life(Office.self, id: "d", store: store, initial: .init(), feedbacks: Office.feedbacks)
        try await life.system.recovered()
        life.system.send(.start(3))
        try await life.wait { $0.job == 3 }
        life.system.stop()
        _ = try await life.waitForStop()
        await #expect(throws: HostError.childMachine("d", effect: "tally")) { try await host.adopt("d") }
        #expect(store.hostedInstance("d") == nil)
        host.stop()
    }
}
