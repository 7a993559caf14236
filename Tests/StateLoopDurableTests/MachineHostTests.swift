// MachineHost (Docs/Hosting.md H1-H14): many instances of one durable machine, each by id, their
// steps group-committed; a send returns once its event is durable.

import Dispatch
import Foundation
import StateLoop
@testable import StateLoopDurable
import StateLoopTestSupport
import Testing

/// Every event appended to the state; -1 finishes it.
enum Ledger: TestMachine {
    typealias Run = NoRun
    typealias State = [Int]
    typealias Event = Int

    static func reduce(_ state: inout [Int], _ event: Int) { state.append(event) }
    static func isDone(_ state: [Int]) -> Bool { state.last == -1 }
}

/// A store whose commits can be held at a gate, and whose parts and loads can be made to fail,
/// delegating everything else to an in-memory store.
final class GatedStore: HostJournalStore, @unchecked Sendable {
    let inner: InMemoryJournalStore
    private let lock = NSLock()
    private var gate: DispatchSemaphore?
    /// The parts refused (each once it matched), and the ids whose loads fail.
    private var refusing: (@Sendable (HostBatchPart) -> Bool)?
    private var failingLoads: Set<String> = []
    private var loadCounts: [String: Int] = [:]
    private var heldLoads: [String: Gate] = [:]

    init(_ inner: InMemoryJournalStore = InMemoryJournalStore()) {
        self.inner = inner
    }

    /// The next part for which `matches` holds is refused with a database error.
    func refuseNext(_ matches: @escaping @Sendable (HostBatchPart) -> Bool) { lock.withLock { refusing = matches } }
    /// Loads of `id` fail with a database error (`false`: they read again).
    func failLoads(of id: String, _ failing: Bool = true) {
        lock.withLock {
            if failing { failingLoads.insert(id) } else { failingLoads.remove(id) }
        }
    }
    /// How many times `id` was loaded.
    func loads(of id: String) -> Int { lock.withLock { loadCounts[id, default: 0] } }
    /// Loads of `id` wait (on their task, not blocking a thread) until the gate returned opens.
    func holdLoads(of id: String) -> Gate {
        let gate = Gate()
        lock.withLock { heldLoads[id] = gate }
        return gate
    }

    /// Commits wait from now until `open()`.
    func close() { lock.withLock { gate = DispatchSemaphore(value: 0) } }
    func open() {
        let held = lock.withLock { () -> DispatchSemaphore? in defer { gate = nil }; return gate }
        held?.signal()
    }

    /// Every batch committed, in order.
    var batches: [HostBatch] { lock.withLock { committed } }
    private var committed: [HostBatch] = []

    func commit(_ batch: HostBatch) -> [String: JournalError] {
        lock.withLock { committed.append(batch) }
        if let gate = lock.withLock({ gate }) {
            gate.wait()
            gate.signal()
        }
        let refused = lock.withLock { () -> String? in
            guard let refusing, let part = batch.parts.first(where: refusing) else { return nil }
            self.refusing = nil
            return part.machine
        }
        guard let refused else { return inner.commit(batch) }
        let error = JournalError.database(code: 13, message: "database or disk is full")
        var failed = inner.commit(HostBatch(parts: batch.parts.filter { $0.machine != refused }))
        failed[refused] = error
        return failed
    }

    func append(_ records: [JournalRecord], to machine: String) throws(JournalError) { try inner.append(records, to: machine) }
    func writeSnapshot(_ snapshot: JournalSnapshot, of machine: String) throws(JournalError) { inner.writeSnapshot(snapshot, of: machine) }
    func recover(_ machine: String) throws(JournalError) -> JournalRecovery { inner.recover(machine) }
    func lastSequence(of machine: String) throws(JournalError) -> Int64? { inner.lastSequence(of: machine) }
    func claim(_ machine: String, for owner: JournalOwner) throws(JournalError) -> JournalOwner? { inner.claim(machine, for: owner) }
    func release(_ machine: String, by owner: JournalOwner) throws(JournalError) { inner.release(machine, by: owner) }
    func dueTimers(through deadline: Int64, after cursor: TimerRow.Key?, limit: Int) throws(JournalError) -> [CheckedRow<TimerRow>] {
        inner.dueTimers(through: deadline, after: cursor, limit: limit)
    }
    func hostedInstance(_ machine: String) throws(JournalError) -> CheckedRow<HostedInstanceRow>? { inner.hostedInstance(machine) }
    func load(_ machine: String) async throws(JournalError) -> JournalRecovery {
        let (fails, held) = lock.withLock { () -> (Bool, Gate?) in
            loadCounts[machine, default: 0] += 1
            return (failingLoads.contains(machine), heldLoads[machine])
        }
        await held?.wait()
        if fails { throw .database(code: 10, message: "disk I/O error") }
        return inner.load(machine)
    }
    func instances(_ kind: HostedInstanceKind, after machine: String?, limit: Int) throws(JournalError) -> [String] {
        inner.instances(kind, after: machine, limit: limit)
    }
    func claimHost(_ host: String, for owner: JournalOwner) throws(JournalError) -> JournalOwner? { inner.claimHost(host, for: owner) }
    func releaseHost(_ host: String, by owner: JournalOwner) throws(JournalError) { inner.releaseHost(host, by: owner) }
    func isIndexed(_ host: String) throws(JournalError) -> Bool { inner.isIndexed(host) }
    func markIndexed(_ host: String, by owner: JournalOwner) throws(JournalError) { inner.markIndexed(host, by: owner) }
    func host(of machine: String) throws(JournalError) -> String? { inner.host(of: machine) }
}

/// The wall clock of a differential test: the same time for every step of both sides.
let fixedClock = WallClock { 1_700_000_000_000_000_000 }

@Suite struct MachineHostTests {
    @Test("H1: an id that is empty or holds '/' is refused with HostError.invalidID before anything is read or written")
    func h1InvalidIDsAreRefused() async throws {
        let store = InMemoryJournalStore()
        let host = MachineHost<Ledger>(store: store, initial: { _ in [] }).started()
        defer { host.stop() }
        for id in ["", "a/b", "/"] {
            await #expect(throws: HostError.invalidID(id)) { try await host.send(1, to: id) }
            await #expect(throws: HostError.invalidID(id)) { try await host.state(of: id) }
        }
        #expect(store.instances(.unhosted, after: nil, limit: 10) == [])
    }

    @Test("H3, H12: a send to an id without a journal creates it from initial (its snapshot 0 and instance row committed first) and returns once its record committed, with its sequence number and state; without an initial state it throws unknownInstance and writes nothing")
    func h3ASendCreatesTheInstance() async throws {
        for kind in StoreKind.allCases {
            let store = try kind.make()
            let host = MachineHost<Ledger>(store: store, initial: { $0 == "known" ? [0] : nil }).started()
            let receipt = try await host.send(5, to: "known")
            #expect(receipt.sequence == 1 && receipt.state == [0, 5])
            let recovery = try store.recover("known")
            #expect(recovery.snapshot?.sequence == 0 && recovery.records.map(\.sequence) == [1])
            #expect(try await store.hostedInstance("known")?.row == HostedInstanceRow(host: "Ledger", awake: false, finished: false))
            await #expect(throws: HostError.unknownInstance("stranger")) { try await host.send(1, to: "stranger") }
            #expect(try store.lastSequence(of: "stranger") == nil)
            host.stop()
        }
    }

    @Test("H4: create(_:initial:) writes the new instance's row and snapshot 0 and returns once they committed; for an id with a journal it throws instanceExists and writes nothing")
    func h4CreateMakesAnInstance() async throws {
        let store = InMemoryJournalStore()
        let host = MachineHost<Ledger>(store: store, initial: { _ in nil }).started()
        try await host.create("a", initial: [9])
        #expect(store.recover("a").snapshot?.sequence == 0)
        #expect(store.hostedInstance("a") != nil)
        await #expect(throws: HostError.instanceExists("a")) { try await host.create("a", initial: [1]) }
        let receipt = try await host.send(3, to: "a")
        #expect(receipt.sequence == 1 && receipt.state == [9, 3])
        host.stop()
        let again = MachineHost<Ledger>(store: store, initial: { _ in nil }).started()
        await #expect(throws: HostError.instanceExists("a")) { try await again.create("a", initial: [1]) }
        #expect(store.lastSequence(of: "a") == 1)
        again.stop()
    }

    @Test("H5, H2: the events of one instance are reduced one at a time in the order accepted, each receipt the state after its event; instances are independent; a new host recovers each instance and goes on after its last event")
    func h5EventsOfAnInstanceAreReducedInOrder() async throws {
        let store = try StoreKind.sqlite.make()
        let host = MachineHost<Ledger>(store: store, initial: { _ in [] }, options: HostOptions(commitBatchSize: 16)).started()
        let receipts = try await withThrowingTaskGroup(of: (String, Int, Receipt<Ledger>).self) { group in
            for event in 1...200 {
                let id = "i\(event % 4)"
                group.addTask { (id, event, try await host.send(event, to: id)) }
            }
            var all: [(String, Int, Receipt<Ledger>)] = []
            for try await receipt in group { all.append(receipt) }
            return all
        }
        for id in ["i0", "i1", "i2", "i3"] {
            let mine = receipts.filter { $0.0 == id }.sorted { $0.2.sequence < $1.2.sequence }
            #expect(mine.map(\.2.sequence) == Array(1...50))
            let order = mine.map(\.1)
            for (index, receipt) in mine.enumerated() {
                #expect(receipt.2.state == Array(order.prefix(index + 1)), "\(id): the state after event \(receipt.1)")
            }
        }
        host.stop()
        let again = MachineHost<Ledger>(store: store, initial: { _ in [] }).started()
        let next = try await again.send(1_000, to: "i2")
        #expect(next.sequence == 51 && next.state.count == 51 && next.state.last == 1_000)
        again.stop()
    }

    @Test("H7: state(of:) gives an instance in memory's state after its last durable event, one not in memory's state as its journal restores it without loading it (nothing claimed or written), and nil for an id never created")
    func h7StateOfAnInstance() async throws {
        let store = InMemoryJournalStore()
        let host = MachineHost<Ledger>(store: store, initial: { _ in [] }).started()
        _ = try await host.send(1, to: "a")
        _ = try await host.send(2, to: "a")
        #expect(try await host.state(of: "a") == [1, 2])
        host.stop()
        let reader = MachineHost<Ledger>(store: store, initial: { _ in [] }).started()
        #expect(try await reader.state(of: "a") == [1, 2])
        #expect(try await reader.state(of: "never") == nil)
        // Not claimed: another owner of this process may take it.
        let other = JournalOwner.next()
        #expect(store.claim("a", for: other) == nil)
        store.release("a", by: other)
        #expect(store.lastSequence(of: "never") == nil)
        reader.stop()
    }

    @Test("H12: until the transaction that holds an event's record has committed, its send does not return and nobody sees the state after it")
    func h12SendReturnsOnlyOnceDurable() async throws {
        let store = GatedStore()
        let shown = Box<[[Int]]>([])
        let host = MachineHost<Ledger>(store: store, initial: { _ in [] }, onState: { _, state in shown.update { $0.append(state) } }).started()
        _ = try await host.send(1, to: "a")
        store.close()
        let returned = Box(false)
        let send = Task {
            defer { returned.value = true }
            return try await host.send(2, to: "a")
        }
        try await Task.sleep(for: .milliseconds(200))
        #expect(!returned.value, "the send returned before its commit")
        #expect(!shown.value.contains([1, 2]), "a state was shown before its commit")
        #expect(try await host.state(of: "a") == [1])
        store.open()
        let receipt = try await send.value
        #expect(receipt.sequence == 2 && receipt.state == [1, 2])
        _ = await eventually { shown.value.last == [1, 2] ? true : nil }
        #expect(shown.value == [[], [1], [1, 2]])
        host.stop()
    }

    @Test("H53: an instance whose journal cannot be read fails alone with HostError.loadFailed, its journal left as it was, while another instance's sends commit")
    func h53AnUnreadableInstanceFailsAlone() async throws {
        let store = InMemoryJournalStore()
        store.writeSnapshot(JournalSnapshot(sequence: 0, state: [0xFF, 0xFF]), of: "bad")
        // A hosted instance's (H68: a journal without a row is a durable system's).
        _ = store.commit(HostBatch(parts: [HostBatchPart(machine: "bad", instance: HostedInstanceRow(host: Ledger.journalName, awake: false, finished: false))]))
        let host = MachineHost<Ledger>(store: store, initial: { _ in [] }).started()
        await #expect {
            try await host.send(1, to: "bad")
        } throws: { error in
            guard case .loadFailed("bad", let reason) = error as? HostError else { return false }
            return !reason.isEmpty
        }
        #expect(try await host.send(2, to: "good").sequence == 1)
        #expect(store.recover("bad") == JournalRecovery(snapshot: JournalSnapshot(sequence: 0, state: [0xFF, 0xFF]), records: []))
        host.stop()
    }

    @Test("A stopped host refuses sends with shuttingDown and gives its instances' ids back; stopping it twice is harmless; a host released after it stopped, or never run, holds nothing")
    func aStoppedHostRefusesSendsAndFreesItsIDs() async throws {
        let store = InMemoryJournalStore()
        let host = MachineHost<Ledger>(store: store, initial: { _ in [] }).started()
        _ = try await host.send(1, to: "a")
        host.stop()
        host.stop()
        await #expect(throws: HostError.shuttingDown) { try await host.send(2, to: "a") }
        let other = JournalOwner.next()
        #expect(store.claim("a", for: other) == nil, "the stopped host still holds the id")
        store.release("a", by: other)
        do {
            let released = MachineHost<Ledger>(store: store, initial: { _ in [] }).started()
            _ = try await released.send(2, to: "a")
            released.stop()
            _ = MachineHost<Ledger>(store: store, initial: { _ in [] })
        }
        #expect(store.claim("a", for: other) == nil, "a released host still holds the id")
        #expect(store.claimHost(Ledger.journalName, for: other) == nil, "a released host still holds its machine")
        #expect(store.lastSequence(of: "a") == 2)
    }

    @Test("H9: cancelling the task that awaits a send does not withdraw its event: the send returns once the event is durable")
    func h9ACancelledSendStillCompletes() async throws {
        let store = GatedStore()
        let host = MachineHost<Ledger>(store: store, initial: { _ in [] }).started()
        _ = try await host.send(1, to: "a")
        store.close()
        let send = Task { try await host.send(2, to: "a") }
        try await Task.sleep(for: .milliseconds(50))
        send.cancel()
        store.open()
        let receipt = try await send.value
        #expect(receipt.sequence == 2 && receipt.state == [1, 2])
        #expect(try store.lastSequence(of: "a") == 2)
        host.stop()
    }

    @Test("H16: a hosted instance's journal is journaled as a durable system's: the replay check of its SQLite file passes")
    func h16AHostedJournalReplays() async throws {
        let path = try TemporaryFolder().file("journal.sqlite")
        let store = try SQLiteJournalStore(path: path)
        let host = MachineHost<Ledger>(store: store, initial: { _ in [] }, options: HostOptions(snapshotEvery: 4)).started()
        for event in 1...10 { _ = try await host.send(event, to: "a") }
        host.stop()
        let report = try Ledger.replayJournal(SQLiteJournalFile(path: path), id: "a")
        #expect(report.mismatch == nil && report.records == 10 && report.snapshots == 3)
    }

    @Test("H25: a snapshot due after snapshotEvery records is written in the transaction, and the part, that holds the record that made it due")
    func h25ADueSnapshotJoinsItsRecord() async throws {
        let store = GatedStore()
        let host = MachineHost<Ledger>(store: store, initial: { _ in [] }, options: HostOptions(snapshotEvery: 3)).started()
        for event in 1...7 { _ = try await host.send(event, to: "a") }
        host.stop()
        let parts = store.batches.flatMap(\.parts).filter { $0.machine == "a" }
        let snapshots = parts.compactMap { part in part.snapshot.map { ($0.sequence, part.records.map(\.sequence)) } }
        #expect(snapshots.map(\.0) == [0, 3, 6])
        #expect(snapshots.dropFirst().allSatisfy { $0.1 == [$0.0] }, "\(snapshots)")
    }

    @Test("H8: a send to a finished instance throws HostError.finished and journals nothing, in memory or loaded again")
    func h8ASendToAFinishedInstanceThrows() async throws {
        let store = InMemoryJournalStore()
        let host = MachineHost<Ledger>(store: store, initial: { _ in [] }).started()
        _ = try await host.send(-1, to: "a")
        _ = await eventually { store.hostedInstance("a")?.row.finished == true ? true : nil }
        await #expect(throws: HostError.finished("a")) { try await host.send(3, to: "a") }
        host.stop()
        let again = MachineHost<Ledger>(store: store, initial: { _ in [] }).started()
        await #expect(throws: HostError.finished("a")) { try await again.send(4, to: "a") }
        #expect(store.lastSequence(of: "a") == 1)
        again.stop()
    }

    @Test("H14, H21: a hosted instance journals, record for record, what a DurableSystem of the same machine journals when sent the same events, whatever the batch size and longest wait")
    func h14AHostedInstanceJournalsWhatADurableSystemDoes() async throws {
        var random = SeededGenerator(seed: 14)
        let events = (0..<120).map { _ in Int.random(in: 0..<1_000, using: &random) }
        let reference = InMemoryJournalStore()
        let shown = Box(0)
        let system = Ledger.durable(
            id: "m", store: reference, initial: [], feedbacks: [], options: DurableOptions(snapshotEvery: 7, wallClock: fixedClock),
            onState: { _ in shown.update { $0 += 1 } })
        try await system.recovered()
        for event in events { system.send(event) }
        _ = await eventually { shown.value == events.count + 1 ? true : nil }
        let expected = reference.recover("m")
        system.stop()
        for (batch, delay) in [(1, Duration.zero), (7, .zero), (1_000, .milliseconds(5))] {
            let store = InMemoryJournalStore()
            let host = MachineHost<Ledger>(
                store: store, initial: { _ in [] },
                options: HostOptions(commitBatchSize: batch, commitMaxDelay: delay, snapshotEvery: 7, clock: ManualHostClock(start: fixedClock.now()))).started()
            for event in events { _ = try await host.send(event, to: "m") }
            #expect(store.recover("m") == expected, "batch \(batch), wait \(delay)")
            host.stop()
        }
    }
}

extension MachineHostTests {
    @Test("H14: with effects, a hosted instance starts the same one-shot runs in the same order and journals the same records (their events and what returned nothing) as a durable system sent the same events, each send awaited until its run answered, at batch sizes 1 and 1,000")
    func h14AHostedInstanceRunsWhatADurableSystemRuns() async throws {
        var random = SeededGenerator(seed: 41)
        let events: [Payments.Event] = (0..<40).map { _ in
            let amount = Int.random(in: 1..<100, using: &random)
            return Bool.random(using: &random) ? .pay(amount) : .note(amount)
        }
        /// Each event's record, then its run's: its `charged` or its "returned nothing".
        func settled(_ store: InMemoryJournalStore, through index: Int) async -> Bool {
            await eventually { store.lastSequence(of: "p") == Int64(2 * (index + 1)) ? true : nil } == true
        }
        @Sendable func feedbacks(_ runs: Box<[String]>) -> [Feedback<Payments.State, Payments.Event>] {
            Payments.feedbacks(
                charge: { amount in runs.update { $0.append("charge \(amount)") } },
                log: { line in runs.update { $0.append("log \(line)") } })
        }
        let reference = InMemoryJournalStore()
        let referenceRuns = Box<[String]>([])
        let system = Payments.durable(
            id: "p", store: reference, initial: .init(), feedbacks: feedbacks(referenceRuns), options: DurableOptions(wallClock: fixedClock))
        try await system.recovered()
        for (index, event) in events.enumerated() {
            system.send(event)
            #expect(await settled(reference, through: index))
        }
        let expected = reference.recover("p")
        system.stop()
        for (batch, delay) in [(1, Duration.zero), (1_000, .milliseconds(5))] {
            let store = InMemoryJournalStore()
            let runs = Box<[String]>([])
            let host = MachineHost<Payments>(
                store: store, initial: { _ in .init() }, feedbacks: { _ in feedbacks(runs) },
                options: HostOptions(commitBatchSize: batch, commitMaxDelay: delay, clock: ManualHostClock(start: fixedClock.now()))).started()
            for (index, event) in events.enumerated() {
                _ = try await host.send(event, to: "p")
                #expect(await settled(store, through: index), "batch \(batch): event \(index)'s run did not answer")
            }
            #expect(runs.value == referenceRuns.value, "batch \(batch)")
            #expect(store.recover("p") == expected, "batch \(batch), wait \(delay)")
            host.stop()
        }
    }
}

extension MachineHost {
    /// The host, running (`run()` on a task of its own) until it is stopped or shut down (H54).
    func started() -> MachineHost<M> {
        Task { try? await run() }
        return self
    }
}
