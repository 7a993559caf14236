// Idle instances leave memory (Docs/Hosting.md H40-H47, H49-H51): an instance that is not pinned
// and reduced no event for the idle timeout, or the least recently used past the limit, is
// snapshotted, released and dropped; the next event loads it from that snapshot.

import Foundation
import StateLoop
@testable import StateLoopDurable
import StateLoopTestSupport
import Testing

@Suite struct HostPassivationTests {
    static let start = HostTimerTests.start

    static func options(
        _ clock: ManualHostClock, snapshotEvery: Int = 1_000, limit: Int = 10_000, queryEffects: HostOptions.QueryEffects = .pin
    ) -> HostOptions {
        HostOptions(snapshotEvery: snapshotEvery, clock: clock, idleTimeout: .seconds(120), maxInstancesInMemory: limit, queryEffects: queryEffects)
    }

    /// The ids `host` holds in memory.
    static func inMemory<M>(_ host: MachineHost<M>) -> Set<String> {
        host.lock.withLock { Set(host.instances.keys) }
    }

    /// Waits until `host` holds exactly `ids` in memory.
    static func holds<M>(_ host: MachineHost<M>, _ ids: Set<String>) async -> Bool {
        await eventually { inMemory(host) == ids ? true : nil } == true
    }

    /// Moves `clock` on by a second every 10 ms until `host` holds exactly `ids` in memory (at
    /// most 2,000 times), as time passes for the host's own sweep.
    static func holds<M>(_ host: MachineHost<M>, _ ids: Set<String>, passing clock: ManualHostClock) async throws -> Bool {
        for _ in 0..<2_000 where inMemory(host) != ids {
            clock.advance(by: .seconds(1))
            try await Task.sleep(for: .milliseconds(10))
        }
        return inMemory(host) == ids
    }

    @Test("H41, H11: an instance that reduced no event for idleTimeout is passivated, one that did is not, and nothing of a passivated instance stays in the host's memory; the host's own sweep does it as its clock passes")
    func h41AnIdleInstanceIsPassivated() async throws {
        let store = InMemoryJournalStore()
        let clock = ManualHostClock(start: Self.start)
        let host = MachineHost<Ledger>(store: store, initial: { _ in [] }, options: Self.options(clock)).started()
        defer { host.stop() }
        _ = try await host.send(1, to: "a")
        clock.advance(by: .seconds(60))
        _ = try await host.send(2, to: "b")
        clock.advance(by: .seconds(59))
        host.sweep()
        #expect(Self.inMemory(host) == ["a", "b"], "passivated before its idle timeout")
        clock.advance(by: .seconds(1))
        host.sweep()
        #expect(await Self.holds(host, ["b"]))
        // Nothing of "a" is left: no instance, and so no queue, waiter or state of it.
        #expect(host.lock.withLock { host.instances["a"] } == nil)
        #expect(try await host.state(of: "a") == [1])
        // Without a call: the host's sweep runs as its clock passes.
        #expect(try await Self.holds(host, [], passing: clock))
        #expect(try await host.send(3, to: "a").state == [1, 3])
    }

    @Test("H42, H44: a passivation writes in one part its snapshot, its instance row and the release of its claim; the next load recovers from that snapshot with no record replayed; a passivation with no record since the latest snapshot writes none")
    func h42APassivationWritesItsSnapshotRowAndRelease() async throws {
        let store = GatedStore()
        let clock = ManualHostClock(start: Self.start)
        // A snapshot is due every second record: records 1 and 2 write one, 3 does not.
        let host = MachineHost<Ledger>(store: store, initial: { _ in [] }, options: Self.options(clock, snapshotEvery: 2)).started()
        defer { host.stop() }
        for event in 1...3 { _ = try await host.send(event, to: "a") }
        let other = JournalOwner.next()
        #expect(store.inner.claim("a", for: other) == host.owner, "the host holds the id while the instance is in memory")
        clock.advance(by: .seconds(120))
        host.sweep()
        #expect(await Self.holds(host, []))
        let part = try #require(store.batches.last?.parts.last)
        #expect(part.machine == "a" && part.records.isEmpty)
        #expect(part.snapshot?.sequence == 3)
        #expect(part.instance == HostedInstanceRow(host: Ledger.journalName, awake: false, finished: false))
        #expect(part.releasedBy == host.owner)
        let recovery = store.inner.recover("a")
        #expect(recovery.snapshot?.sequence == 3 && recovery.records.isEmpty && recovery.lastSequence == 3)
        #expect(store.inner.claim("a", for: other) == nil, "the id was released")
        store.inner.release("a", by: other)

        // The 5th record makes a snapshot due and joins it: the next passivation has none to write.
        let loads = store.loads(of: "a")
        #expect(try await host.send(4, to: "a").state == [1, 2, 3, 4])
        #expect(store.loads(of: "a") == loads + 1)
        _ = try await host.send(5, to: "a")
        clock.advance(by: .seconds(120))
        host.sweep()
        #expect(await Self.holds(host, []))
        let second = try #require(store.batches.last?.parts.last)
        #expect(second.snapshot == nil && second.releasedBy == host.owner)
        #expect(store.inner.recover("a").snapshot?.sequence == 5)
    }

    @Test("H40, H51: an instance with a commit pending, a one-shot run not known finished, or a state whose query effect runs is pinned: no idle time passivates it, and its run is not cancelled; once the commit and the run are done it is passivated; timers pin nothing")
    func h40APinnedInstanceStays() async throws {
        let clock = ManualHostClock(start: Self.start)
        // A commit pending.
        let gated = GatedStore()
        let ledger = MachineHost<Ledger>(store: gated, initial: { _ in [] }, options: Self.options(clock)).started()
        defer { ledger.stop() }
        _ = try await ledger.send(1, to: "a")
        gated.close()
        let pending = Task { try await ledger.send(2, to: "a") }
        _ = await eventually { gated.batches.count >= 3 ? true : nil }
        clock.advance(by: .seconds(200))
        ledger.sweep()
        #expect(Self.inMemory(ledger) == ["a"])
        gated.open()
        #expect(try await pending.value.sequence == 2)

        // A one-shot run not known finished: not cancelled by any passivation (H51).
        let charging = Gate()
        let payments = MachineHost<Payments>(
            store: InMemoryJournalStore(), initial: { _ in .init() },
            feedbacks: { _ in Payments.feedbacks(charge: { _ in await charging.wait() }, log: { _ in }) },
            options: Self.options(clock)).started()
        defer { payments.stop() }
        _ = try await payments.send(.pay(5), to: "p")

        // A query effect that runs (and never answers, while pinned).
        let searching = Gate()
        let search = MachineHost<Search>(
            store: InMemoryJournalStore(), initial: { _ in .init() },
            feedbacks: { _ in Search.feedbacks(load: { query in await searching.wait(); return query }) },
            options: Self.options(clock)).started()
        defer { search.stop() }
        _ = try await search.send(.search(7), to: "s")

        // An armed timer, due in an hour: it pins nothing.
        let bells = MachineHost<Bells>(store: InMemoryJournalStore(), initial: { _ in .init() }, options: Self.options(clock)).started()
        defer { bells.stop() }
        _ = try await bells.send(.arm(id: 1, seconds: 3_600), to: "b")

        clock.advance(by: .seconds(200))
        for host in [ledger.sweep, payments.sweep, search.sweep, bells.sweep] { host() }
        #expect(await Self.holds(ledger, []))
        #expect(await Self.holds(bells, []))
        #expect(Self.inMemory(payments) == ["p"])
        #expect(Self.inMemory(search) == ["s"])

        charging.open()
        #expect(await eventually { (try? payments.store.recover("p").records.count) == 2 ? true : nil } == true)
        searching.open()
        _ = await eventually { Self.inMemory(search) == ["s"] && search.lock.withLock({ search.instances["s"]?.durableState?.query }) == nil ? true : nil }
        clock.advance(by: .seconds(120))
        payments.sweep()
        search.sweep()
        #expect(await Self.holds(payments, []))
        #expect(await Self.holds(search, []))
        #expect(try await payments.state(of: "p")?.charged == [5])
        #expect(try await search.state(of: "s")?.results == [7])
    }

    @Test("H43: the sends made while an instance passivates wait for its passivation to commit, then go, in their order, to a new incarnation recovered from it")
    func h43SendsDuringAPassivationGoToTheNextIncarnation() async throws {
        let store = GatedStore()
        let clock = ManualHostClock(start: Self.start)
        let host = MachineHost<Ledger>(store: store, initial: { _ in [] }, options: Self.options(clock)).started()
        defer { host.stop() }
        _ = try await host.send(1, to: "a")
        let first = try #require(host.lock.withLock { host.instances["a"] })
        store.close()
        clock.advance(by: .seconds(120))
        host.sweep()
        func waiting() -> Int? {
            first.lock.withLock {
                guard case .passivating(let waiting) = first.phase else { return nil }
                return waiting.count
            }
        }
        #expect(waiting() == 0)
        let second = Task { try await host.send(2, to: "a") }
        _ = await eventually { waiting() == 1 ? true : nil }
        let third = Task { try await host.send(3, to: "a") }
        #expect(await eventually { waiting() == 2 ? true : nil } == true)
        let loads = store.loads(of: "a")
        #expect(store.loads(of: "a") == loads, "loaded before the passivation committed")
        store.open()
        #expect(try await second.value.sequence == 2)
        #expect(try await third.value.state == [1, 2, 3])
        #expect(store.loads(of: "a") == loads + 1)
        let next = try #require(host.lock.withLock { host.instances["a"] })
        #expect(next !== first)
    }

    @Test("H45: past maxInstancesInMemory, the least recently used instances that are not pinned are passivated until the host is back at the limit; a pinned one stays however old")
    func h45TheLeastRecentlyUsedLeavePastTheLimit() async throws {
        let clock = ManualHostClock(start: Self.start)
        let host = MachineHost<Ledger>(store: InMemoryJournalStore(), initial: { _ in [] }, options: Self.options(clock, limit: 2)).started()
        defer { host.stop() }
        for id in ["a", "b", "c"] {
            _ = try await host.send(1, to: id)
            clock.advance(by: .seconds(1))
        }
        _ = try await host.send(2, to: "a")  // "b" is now the least recently used
        #expect(await Self.holds(host, ["a", "c"]), "\(Self.inMemory(host))")

        let charging = Gate()
        defer { charging.open() }
        let payments = MachineHost<Payments>(
            store: InMemoryJournalStore(), initial: { _ in .init() },
            feedbacks: { _ in Payments.feedbacks(charge: { _ in await charging.wait() }, log: { _ in }) },
            options: Self.options(clock, limit: 1)).started()
        defer { payments.stop() }
        _ = try await payments.send(.pay(1), to: "old")
        clock.advance(by: .seconds(1))
        _ = try await payments.send(.note(1), to: "new")
        // Pinned until its log run returns, "new" goes at the first sweep after: one each second
        // of the host's clock, or each load.
        #expect(try await Self.holds(payments, ["old"], passing: clock))
    }

    @Test("H45: past a limit of 100 or more, the least recently used leave until a hundredth under it, so that the next loads need no sweep")
    func h45PastTheLimitTheHostGoesAHundredthUnder() async throws {
        let clock = ManualHostClock(start: Self.start)
        let host = MachineHost<Ledger>(store: InMemoryJournalStore(), initial: { _ in [] }, options: Self.options(clock, limit: 200)).started()
        defer { host.stop() }
        for index in 0..<201 {
            _ = try await host.send(1, to: "i\(index)")
            clock.advance(by: .milliseconds(1))
        }
        #expect(await eventually { Self.inMemory(host).count == 198 ? true : nil } == true, "\(Self.inMemory(host).count) in memory")
        #expect(!Self.inMemory(host).contains("i0") && !Self.inMemory(host).contains("i2") && Self.inMemory(host).contains("i3"))
    }

    @Test("H47: an instance woken by its timer is passivated again after idleTimeout, and loaded again by its next timer")
    func h47ATimerWakesAnInstanceForAStep() async throws {
        let store = InMemoryJournalStore()
        let clock = ManualHostClock(start: Self.start)
        let host = MachineHost<Bells>(store: store, initial: { _ in .init() }, options: Self.options(clock)).started()
        defer { host.stop() }
        _ = try await host.send(.arm(id: 1, seconds: 3_600), to: "b")
        _ = try await host.send(.arm(id: 2, seconds: 7_200), to: "b")
        clock.advance(by: .seconds(120))
        host.sweep()
        #expect(await Self.holds(host, []))
        clock.advance(by: .seconds(3_480))
        #expect(await eventually { HostTimerTests.state("b", in: store)?.rung == [1] ? true : nil } == true)
        #expect(await Self.holds(host, ["b"]))
        clock.advance(by: .seconds(120))
        host.sweep()
        #expect(await Self.holds(host, []))
        clock.advance(by: .seconds(3_480))
        #expect(await eventually { HostTimerTests.state("b", in: store)?.rung == [1, 2] ? true : nil } == true)
    }

    @Test("H50, H49: with queryEffects .restartOnLoad, an instance whose query effect runs is passivated: the effect is cancelled, its late result is not journaled, and the next incarnation's feedbacks start it again from the restored state")
    func h50AQueryEffectRestartsOnLoad() async throws {
        let store = InMemoryJournalStore()
        let clock = ManualHostClock(start: Self.start)
        let starts = Box(0)
        let cancelled = Box(0)
        let incarnations = Box(0)
        let host = MachineHost<Search>(
            store: store, initial: { _ in .init() },
            feedbacks: { _ in
                incarnations.update { $0 += 1 }
                return Search.feedbacks(load: { query in
                    starts.update { $0 += 1 }
                    await withTaskCancellationHandler {
                        while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
                    } onCancel: {
                        cancelled.update { $0 += 1 }
                    }
                    return query
                })
            },
            options: Self.options(clock, queryEffects: .restartOnLoad)).started()
        defer { host.stop() }
        _ = try await host.send(.search(7), to: "s")
        #expect(await eventually { starts.value == 1 ? true : nil } == true)
        clock.advance(by: .seconds(120))
        host.sweep()
        #expect(await Self.holds(host, []))
        #expect(await eventually { cancelled.value == 1 ? true : nil } == true)
        try await Task.sleep(for: .milliseconds(50))
        #expect(store.recover("s").lastSequence == 1, "a cancelled effect's result was journaled")
        // The same query again: the restored state asks for the effect, and the event keeps it.
        _ = try await host.send(.search(7), to: "s")
        #expect(await eventually { starts.value == 2 ? true : nil } == true)
        #expect(incarnations.value == 2)
    }

    @Test("H48: an instance's row says it is awake from the step whose state pins it (a one-shot run not known finished, a query effect) until the step whose state no longer does; a host that starts loads every awake instance and no other, so a run its stop cut off runs again without a send")
    func h48AwakeInstancesAreLoadedAtStart() async throws {
        let store = GatedStore()
        let clock = ManualHostClock(start: Self.start)
        func awake(_ id: String) -> Bool? { (try? store.hostedInstance(id))?.row.awake }
        let charges = Box<[Int]>([])
        let never = Gate()
        defer { never.open() }
        var host = MachineHost<Payments>(
            store: store, initial: { _ in .init() },
            feedbacks: { _ in Payments.feedbacks(charge: { amount in charges.update { $0.append(amount) }; await never.wait() }, log: { _ in }) },
            options: Self.options(clock)).started()
        _ = try await host.send(.note(1), to: "quiet")
        _ = try await host.send(.pay(5), to: "p")
        #expect(await eventually { charges.value == [5] ? true : nil } == true)
        #expect(awake("p") == true)
        #expect(await eventually { awake("quiet") == false && (try? store.recover("quiet").records.count) == 2 ? true : nil } == true,
                "a log run that returned leaves its instance asleep")
        host.stop()

        let quietLoads = store.loads(of: "quiet")
        host = MachineHost<Payments>(
            store: store, initial: { _ in .init() },
            feedbacks: { _ in Payments.feedbacks(charge: { amount in charges.update { $0.append(amount) } }, log: { _ in }) },
            options: Self.options(clock)).started()
        defer { host.stop() }
        #expect(await eventually { (try? store.recover("p").records.last).map { _ in charges.value == [5, 5] } == true ? true : nil } == true)
        #expect(await eventually { awake("p") == false ? true : nil } == true)
        #expect(try await host.state(of: "p")?.charged == [5])
        #expect(store.loads(of: "quiet") == quietLoads, "an instance that is not awake was loaded at the start")

        // A query effect that runs keeps its instance awake; its result lets it sleep.
        let answering = Gate()
        let search = MachineHost<Search>(
            store: store, initial: { _ in .init() },
            feedbacks: { _ in Search.feedbacks(load: { query in await answering.wait(); return query }) },
            options: Self.options(clock)).started()
        defer { search.stop() }
        _ = try await search.send(.search(3), to: "s")
        #expect(awake("s") == true)
        answering.open()
        #expect(await eventually { awake("s") == false ? true : nil } == true)
    }

    @Test("H46: a finished instance stays in memory while a one-shot run has not returned, then leaves it, its claim given back; its row, written with the finishing step, says it finished whatever its runs' ends journal, so a later send throws finished without loading it")
    func h46AFinishedInstanceLeavesMemoryOnceItsRunsReturned() async throws {
        let store = GatedStore()
        let logging = Gate()
        defer { logging.open() }
        let host = MachineHost<ClosingPayments>(
            store: store, initial: { _ in .init() },
            feedbacks: { _ in Payments.feedbacks(charge: { _ in }, log: { _ in await logging.wait() }) },
            options: Self.options(ManualHostClock(start: Self.start))).started()
        defer { host.stop() }
        let finishedRow = HostedInstanceRow(host: ClosingPayments.journalName, awake: false, finished: true)
        _ = try await host.send(.note(1), to: "a")
        _ = try await host.send(.note(2), to: "a")
        #expect(try store.hostedInstance("a")?.row == finishedRow)
        try await Task.sleep(for: .milliseconds(100))
        #expect(Self.inMemory(host) == ["a"], "it left memory before its log runs returned")
        await #expect(throws: HostError.finished("a")) { try await host.send(.note(3), to: "a") }

        logging.open()
        #expect(await Self.holds(host, []))
        // Both runs' ends are journaled (D37); the last one leaves no run, and the row stays.
        #expect(await eventually { store.inner.lastSequence(of: "a") == 4 ? true : nil } == true)
        #expect(try store.hostedInstance("a")?.row == finishedRow)
        let other = JournalOwner.next()
        #expect(await eventually { store.inner.claim("a", for: other) == nil ? true : nil } == true, "its claim was not given back")
        store.inner.release("a", by: other)
        let loads = store.loads(of: "a")
        await #expect(throws: HostError.finished("a")) { try await host.send(.note(4), to: "a") }
        #expect(store.loads(of: "a") == loads, "a finished instance was loaded")
        #expect(Self.inMemory(host) == [])
    }
}

/// Payments that finishes at its second queued run, with its runs still to return.
enum ClosingPayments: TestMachine {
    typealias Run = Payments.Run
    typealias State = Payments.State
    typealias Event = Payments.Event

    static func reduce(_ state: inout State, _ event: Event) { Payments.reduce(&state, event) }
    static func pendingRuns(in state: State) -> (queued: Int, runs: [Run]) { Payments.pendingRuns(in: state) }
    static func isDone(_ state: State) -> Bool { state.queued >= 2 }
}
