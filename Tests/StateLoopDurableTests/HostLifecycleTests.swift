// The host's life (Docs/Hosting.md H54-H57): run() claims the machine and lets sends in, a
// graceful shutdown drains every instance, and a cancelled run() stops at once.

import Foundation
import StateLoop
import StateLoopTestSupport
import Testing

@testable import StateLoopDurable

@Suite struct HostLifecycleTests {
    @Test("H54: run() claims the host's machine on the store: a second host of the same machine on the same SQLite file is refused with HostError.hostTaken naming the first's owner, runs nothing and refuses its sends with it, while the first goes on; once the first stopped, a new host runs")
    func h54ASecondHostIsRefused() async throws {
        let path = try TemporaryFolder().file("j.sqlite")
        let first = MachineHost<Ledger>(store: try SQLiteJournalStore(path: path), initial: { _ in [] }).started()
        _ = try await first.send(1, to: "a")
        let second = MachineHost<Ledger>(store: try SQLiteJournalStore(path: path), initial: { _ in [] })
        await #expect {
            try await second.run()
        } throws: { error in
            guard case .hostTaken("Ledger", let owner) = error as? HostError else { return false }
            return owner == first.owner && "\(error)".hasPrefix("another host runs the machine 'Ledger' on this journal (pid \(owner.pid)")
        }
        await #expect(throws: HostError.hostTaken("Ledger", by: first.owner)) { try await second.send(2, to: "b") }
        #expect(try await first.send(3, to: "a").state == [1, 3])
        await #expect(throws: HostError.alreadyRun) { try await first.run() }
        first.stop()
        let third = MachineHost<Ledger>(store: try SQLiteJournalStore(path: path), initial: { _ in [] }).started()
        defer { third.stop() }
        #expect(try await third.send(4, to: "a").state == [1, 3, 4])
        #expect(try SQLiteJournalStore(path: path).lastSequence(of: "b") == nil, "the refused host wrote")
    }

    @Test("H54: a send or a create made before run() waits for it: nothing is read or written until the host runs, then each goes on in the order it came")
    func h54SendsWaitForRun() async throws {
        let store = GatedStore()
        let host = MachineHost<Ledger>(store: store, initial: { _ in [] })
        let first = Task { try await host.send(1, to: "a") }
        try await Task.sleep(for: .milliseconds(20))
        let second = Task { try await host.send(2, to: "a") }
        let created = Task { try await host.create("c", initial: [9]) }
        try await Task.sleep(for: .milliseconds(100))
        #expect(store.batches.isEmpty, "a host that does not run wrote")
        #expect(store.loads(of: "a") == 0 && store.loads(of: "c") == 0, "a host that does not run read")
        let running = Task { try await host.run() }
        #expect(try await first.value.state == [1])
        #expect(try await second.value.state == [1, 2])
        try await created.value
        #expect(try await host.state(of: "c") == [9])
        host.shutdown()
        try await running.value
    }

    @Test("H55: at a graceful shutdown new sends throw shuttingDown; the events queued before it are reduced, committed and acknowledged; each instance then writes its snapshot and gives its id back; the host gives its machine back and run() returns")
    func h55AGracefulShutdownDrainsEveryInstance() async throws {
        let store = GatedStore()
        let host = MachineHost<Ledger>(store: store, initial: { _ in [] })
        let running = Task { try await host.run() }
        _ = try await host.send(1, to: "a")
        _ = try await host.send(1, to: "b")
        store.close()
        let queued = (2...6).map { k in Task { try await host.send(k, to: k.isMultiple(of: 2) ? "a" : "b") } }
        _ = await eventually { store.batches.count >= 5 ? true : nil }
        host.shutdown()
        await #expect(throws: HostError.shuttingDown) { try await host.send(7, to: "a") }
        await #expect(throws: HostError.shuttingDown) { try await host.create("new", initial: []) }
        store.open()
        for (k, send) in zip(2..., queued) {
            let receipt = try await send.value
            #expect(receipt.state.last == k, "the send of \(k) was not acknowledged")
        }
        try await running.value
        #expect(store.inner.recover("a") == JournalRecovery(snapshot: store.inner.recover("a").snapshot, records: []))
        #expect(store.inner.recover("a").snapshot?.sequence == 4, "a's closing snapshot was not written")
        #expect(store.inner.recover("b").snapshot?.sequence == 3, "b's closing snapshot was not written")
        let other = JournalOwner.next()
        #expect(try store.claim("a", for: other) == nil && store.claim("b", for: other) == nil, "an id was not given back")
        #expect(try store.claimHost(Ledger.journalName, for: other) == nil, "the machine was not given back")
        await #expect(throws: HostError.shuttingDown) { try await host.send(8, to: "a") }
    }

    @Test("H56: awake rows survive a graceful shutdown: the next start loads those instances again and reruns the one-shot run the shutdown cancelled, with its key")
    func h56AwakeRowsSurviveAShutdown() async throws {
        let store = InMemoryJournalStore()
        let charges = Box<[Int]>([])
        let never = Gate()
        defer { never.open() }
        let host = MachineHost<Payments>(
            store: store, initial: { _ in .init() },
            feedbacks: { _ in Payments.feedbacks(charge: { amount in charges.update { $0.append(amount) }; await never.wait() }, log: { _ in }) })
        let running = Task { try await host.run() }
        _ = try await host.send(.pay(5), to: "p")
        #expect(await eventually { charges.value == [5] ? true : nil } == true)
        host.shutdown()
        try await running.value
        #expect(store.hostedInstance("p")?.row.awake == true)

        let again = MachineHost<Payments>(
            store: store, initial: { _ in .init() },
            feedbacks: { _ in Payments.feedbacks(charge: { amount in charges.update { $0.append(amount) } }, log: { _ in }) }).started()
        defer { again.stop() }
        #expect(await eventually { charges.value == [5, 5] ? true : nil } == true, "the cancelled run did not run again")
        #expect(await eventually { store.hostedInstance("p")?.row.awake == false ? true : nil } == true)
        #expect(try await again.state(of: "p")?.charged == [5])
    }

    @Test("H57: cancelling run() stops the host at once: the transaction being committed finishes and its sends are acknowledged, the sends still waiting throw shuttingDown, no snapshot is written, and the ids and the machine are given back")
    func h57CancellingRunStopsAtOnce() async throws {
        let store = GatedStore()
        let loads = store.holdLoads(of: "waiting")
        let host = MachineHost<Ledger>(store: store, initial: { _ in [] })
        let running = Task { try await host.run() }
        _ = try await host.send(1, to: "a")
        store.close()
        let committing = Task { try await host.send(2, to: "a") }
        let waiting = Task { try await host.send(1, to: "waiting") }
        _ = await eventually { store.batches.count >= 3 && store.loads(of: "waiting") == 1 ? true : nil }
        // The transaction under way finishes while the stop waits for it.
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { store.open() }
        running.cancel()
        try await running.value
        #expect(try await committing.value.state == [1, 2])
        await #expect(throws: HostError.shuttingDown) { try await waiting.value }
        loads.open()
        #expect(store.inner.recover("a").snapshot?.sequence == 0, "a stop at once wrote a snapshot")
        #expect(store.inner.recover("a").records.count == 2)
        let other = JournalOwner.next()
        #expect(try store.claim("a", for: other) == nil, "an id was not given back")
        #expect(try store.claimHost(Ledger.journalName, for: other) == nil, "the machine was not given back")
    }

    @Test("H61: attach is applied to the system of each incarnation of each instance before it starts, and the host journals the same with it or without")
    func h61AttachIsAppliedToEachIncarnation() async throws {
        func journal(attached: Bool) async throws -> (journals: [[JournalRecord]], attached: [String], seen: [String]) {
            let store = InMemoryJournalStore()
            let calls = Box<[String]>([])
            let seen = Box<[String]>([])
            let options = HostOptions(clock: ManualHostClock(start: HostTimerTests.start))
            for round in 0..<2 {
                let host = MachineHost<Ledger>(
                    store: store, initial: { _ in [] }, options: options,
                    attach: { id, system in
                        guard attached else { return system }
                        calls.update { $0.append(id) }
                        return system.observingEvents { event, _ in seen.update { $0.append("\(id) \(event)") } }
                    }).started()
                for k in 1...3 { _ = try await host.send(round * 10 + k, to: k == 3 ? "b" : "a") }
                host.stop()
            }
            return (["a", "b"].map { store.recover($0).records }, calls.value.sorted(), seen.value)
        }
        let plain = try await journal(attached: false)
        let attached = try await journal(attached: true)
        #expect(attached.attached == ["a", "a", "b", "b"], "attach was not applied once per incarnation")
        #expect(attached.seen == ["a 1", "a 2", "b 3", "a 11", "a 12", "b 13"])
        #expect(attached.journals == plain.journals)
        #expect(plain.attached.isEmpty)
    }
}
