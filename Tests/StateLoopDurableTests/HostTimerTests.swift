// Timers and pending sends of hosted instances as rows (Docs/Hosting.md H30-H39): one scheduler
// per host fires each row once its deadline comes by the host's clock, loading its instance when
// it is not in memory, and a delivery is reduced only while its timer is armed.

import Dispatch
import Foundation
import StateLoop
@testable import StateLoopDurable
import StateLoopTestSupport
import Testing

/// Alarms armed and disarmed by id (an alarm rings once, and its id leaves), pending posts
/// delivered once each, and `hold(id)`, whose reduction waits at its gate before it disarms alarm
/// `id` (a test holds the instance's drainer with it).
enum Bells: TestMachine {
    typealias Run = NoRun

    struct State: Equatable, Sendable, JournalCodable {
        /// The armed alarms: id and seconds.
        var alarms: [[Int64]] = []
        var rung: [Int] = []
        /// The pending posts: number and seconds.
        var posts: [[Int64]] = []
        var delivered: [Int] = []
        var sent = 0

        init() {}
        func encode(to writer: inout JournalWriter) {
            writer.write(alarms.flatMap { $0 })
            writer.write(rung)
            writer.write(posts.flatMap { $0 })
            writer.write(delivered)
            writer.write(sent)
        }
        init(from reader: inout JournalReader) throws(JournalDecodingError) {
            let alarms: [Int64] = try reader.read()
            self.alarms = stride(from: 0, to: alarms.count, by: 2).map { Array(alarms[$0..<$0 + 2]) }
            rung = try reader.read()
            let posts: [Int64] = try reader.read()
            self.posts = stride(from: 0, to: posts.count, by: 2).map { Array(posts[$0..<$0 + 2]) }
            delivered = try reader.read()
            sent = try reader.read()
        }
    }

    enum Event: Equatable, Sendable, JournalCodable {
        case arm(id: Int, seconds: Int64)
        case disarm(id: Int)
        case ring(id: Int)
        case post(seconds: Int64)
        case deliver(number: Int)
        case hold(id: Int)

        func encode(to writer: inout JournalWriter) {
            switch self {
            case let .arm(id, seconds): writer.writeVarint(0); writer.write(id); writer.write(seconds)
            case let .disarm(id): writer.writeVarint(1); writer.write(id)
            case let .ring(id): writer.writeVarint(2); writer.write(id)
            case let .post(seconds): writer.writeVarint(3); writer.write(seconds)
            case let .deliver(number): writer.writeVarint(4); writer.write(number)
            case let .hold(id): writer.writeVarint(5); writer.write(id)
            }
        }
        init(from reader: inout JournalReader) throws(JournalDecodingError) {
            switch try reader.readCase(below: 6) {
            case 0: self = .arm(id: try reader.read(), seconds: try reader.read())
            case 1: self = .disarm(id: try reader.read())
            case 2: self = .ring(id: try reader.read())
            case 3: self = .post(seconds: try reader.read())
            case 4: self = .deliver(number: try reader.read())
            default: self = .hold(id: try reader.read())
            }
        }
    }

    /// The gates `hold` waits at (each once), by id, and the ids whose hold has reached its gate.
    static let gates = Box<[Int: DispatchSemaphore]>([:])
    static let holding = Box<Set<Int>>([])

    static func reduce(_ state: inout State, _ event: Event) {
        switch event {
        case let .arm(id, seconds):
            if !state.alarms.contains(where: { $0[0] == Int64(id) }) { state.alarms.append([Int64(id), seconds]) }
        case let .disarm(id):
            state.alarms.removeAll { $0[0] == Int64(id) }
        case let .ring(id):
            state.alarms.removeAll { $0[0] == Int64(id) }
            state.rung.append(id)
        case let .post(seconds):
            state.posts.append([Int64(state.sent), seconds])
            state.sent += 1
        case let .deliver(number):
            state.posts.removeAll { $0[0] == Int64(number) }
            state.delivered.append(number)
        case let .hold(id):
            // Once: a replay of the journal reduces it again, and must not wait.
            if let gate = gates.update({ $0.removeValue(forKey: id) }) {
                holding.update { _ = $0.insert(id) }
                gate.wait()
            }
            state.alarms.removeAll { $0[0] == Int64(id) }
        }
    }

    static func timers(in state: State) -> [ArmedTimer<String, Event>] {
        state.alarms.map { ArmedTimer(state: "bells", index: Int($0[0]), delay: .seconds($0[1]), event: .ring(id: Int($0[0]))) }
    }

    static func sends(in state: State) -> [ArmedSend<Event>] {
        state.posts.map { ArmedSend(number: Int($0[0]), id: nil, delay: .seconds($0[1]), event: .post(seconds: $0[1]), delivery: .deliver(number: Int($0[0]))) }
    }
}

@Suite struct HostTimerTests {
    static let start: Int64 = 1_795_651_200_000_000_000

    static func host(_ store: any HostJournalStore, _ clock: ManualHostClock, timerWindow: Int = 10_000) -> MachineHost<Bells> {
        MachineHost<Bells>(store: store, initial: { _ in .init() }, options: HostOptions(clock: clock, timerWindow: timerWindow)).started()
    }

    /// The state `store`'s journal of `id` restores.
    static func state(_ id: String, in store: InMemoryJournalStore) -> Bells.State? {
        try? RestoredMachine<Bells>(id, from: store, initial: .init(), now: 0).state
    }

    /// The events journaled for `id`.
    static func events(_ id: String, in store: InMemoryJournalStore) -> [Bells.Event] {
        (try? journaledEvents(Bells.self, in: store, id: id)) ?? []
    }

    /// The timer rows of `id`, as the store keeps them.
    static func rows(_ id: String, in store: any HostJournalStore) async throws -> [HostTimer] {
        try await store.dueTimers(through: .max, after: nil, limit: 1_000).filter { $0.row.machine == id }.map(\.row.timer)
    }

    static func bytes(_ event: Bells.Event) -> [UInt8] {
        JournalSteps<Bells>.bytes(of: event)
    }

    @Test("H30: the scheduler delivers a row's event to its instance once its deadline has come by the host's clock, and not before, loading the instance when it is not in memory")
    func h30ADueRowIsDeliveredToItsInstance() async throws {
        let store = InMemoryJournalStore()
        let clock = ManualHostClock(start: Self.start)
        let host = Self.host(store, clock)
        _ = try await host.send(.arm(id: 1, seconds: 10), to: "a")
        _ = try await host.send(.arm(id: 2, seconds: 20), to: "b")
        clock.advance(by: .seconds(9))
        _ = await eventually { clock.sleeping > 0 ? true : nil }
        #expect(Self.state("a", in: store)?.rung == [])
        clock.advance(by: .seconds(1))
        #expect(await eventually { Self.state("a", in: store)?.rung == [1] ? true : nil } == true)
        host.stop()
        // "b" is in no host's memory when its deadline comes: the new host loads it for its timer.
        let later = Self.host(store, clock)
        defer { later.stop() }
        clock.advance(by: .seconds(10))
        #expect(await eventually { Self.state("b", in: store)?.rung == [2] ? true : nil } == true)
        #expect(try await Self.rows("b", in: store) == [])
    }

    @Test("H31: a delivery whose timer is no longer armed in the state it would follow is dropped and nothing is journaled: one disarmed before it came, and one queued behind the step that disarms it")
    func h31AStaleDeliveryIsDropped() async throws {
        let store = InMemoryJournalStore()
        let clock = ManualHostClock(start: Self.start)
        let host = Self.host(store, clock)
        defer { host.stop() }
        // Disarmed before it came: a row the window still held when its step deleted it.
        _ = try await host.send(.arm(id: 1, seconds: 10), to: "a")
        let row = try #require(try await Self.rows("a", in: store).first)
        _ = try await host.send(.disarm(id: 1), to: "a")
        clock.advance(by: .seconds(10))
        let retried = Box<Bool?>(nil)
        await host.deliverTimer(CheckedRow(row: TimerRow(machine: "a", timer: row), checksumMatches: true)) { retried.value = $0 }
        #expect(await eventually { retried.value } == false)
        #expect(Self.events("a", in: store) == [.arm(id: 1, seconds: 10), .disarm(id: 1)])

        // Queued behind the step that disarms it: "b"'s drainer is held inside the reduction of
        // `hold(3)` (which disarms alarm 3) when the delivery is taken, so it is taken (the last
        // step stepped still arms it) and must then be dropped when `hold` is journaled.
        _ = try await host.send(.arm(id: 3, seconds: 10), to: "b")
        let gate = DispatchSemaphore(value: 0)
        Bells.gates.update { $0[3] = gate }
        let instance = try #require(host.lock.withLock { host.instances["b"] })
        // Sent from a thread of its own, which becomes the drainer and waits at the gate there:
        // a wait on a thread of the cooperative pool (two on this machine) would starve every
        // test running beside this one.
        let held = Task {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Receipt<Bells>, any Error>) in
                host.admission.admit {
                    Thread { instance.accept(.hold(id: 3), Waiter(id: "b", continuation: continuation, ending: instance.ending, admission: host.admission, tally: host.tally)) }.start()
                }
            }
        }
        _ = await eventually { Bells.holding.value.contains(3) ? true : nil }
        clock.advance(by: .seconds(10))
        #expect(await eventually { instance.lock.withLock { instance.timersInQueue.count == 1 ? true : nil } } == true)
        gate.signal()
        _ = try await held.value
        _ = try await host.send(.arm(id: 4, seconds: 100), to: "b")
        #expect(Self.events("b", in: store) == [.arm(id: 3, seconds: 10), .hold(id: 3), .arm(id: 4, seconds: 100)])
        #expect(Self.state("b", in: store)?.rung == [])
    }

    @Test("H32: a timer keeps its deadline across restarts of the host and one that passed while it was down fires when it starts, once; due rows fire in deadline order, and one instance's rows due at one instant in the order they were armed")
    func h32TimersFireInOrderAndAfterDowntime() async throws {
        let store = InMemoryJournalStore()
        let clock = ManualHostClock(start: Self.start)
        var host = Self.host(store, clock)
        _ = try await host.send(.arm(id: 1, seconds: 30), to: "a")
        _ = try await host.send(.arm(id: 3, seconds: 10), to: "a")
        _ = try await host.send(.arm(id: 5, seconds: 20), to: "b")
        // Two posts of one step's time: one deadline, fired in the order they were armed (S134).
        _ = try await host.send(.post(seconds: 5), to: "c")
        _ = try await host.send(.post(seconds: 5), to: "c")
        clock.advance(by: .seconds(10))
        #expect(await eventually { Self.state("a", in: store)?.rung == [3] ? true : nil } == true)
        #expect(await eventually { Self.state("c", in: store)?.delivered == [0, 1] ? true : nil } == true)
        #expect(Self.state("b", in: store)?.rung == [])
        host.stop()
        clock.advance(by: .seconds(25))  // b's deadline (20 s) and a's (30 s) pass while it is down
        host = Self.host(store, clock)
        #expect(await eventually { Self.state("a", in: store)?.rung == [3, 1] && Self.state("b", in: store)?.rung == [5] ? true : nil } == true)
        host.stop()
        clock.advance(by: .seconds(1_000))
        host = Self.host(store, clock)
        _ = try await host.send(.arm(id: 9, seconds: 1), to: "a")
        host.stop()
        #expect(Self.events("a", in: store).filter { if case .ring = $0 { true } else { false } } == [.ring(id: 3), .ring(id: 1)])
        #expect(Self.events("b", in: store).filter { if case .ring = $0 { true } else { false } } == [.ring(id: 5)])
    }

    @Test("H33: a timer's row is deleted in the part of the transaction that journals its event, and never fires again")
    func h33ATimersRowGoesWithItsEvent() async throws {
        let store = GatedStore()
        let clock = ManualHostClock(start: Self.start)
        let host = Self.host(store, clock)
        _ = try await host.send(.arm(id: 1, seconds: 10), to: "a")
        clock.advance(by: .seconds(10))
        #expect(await eventually { Self.state("a", in: store.inner)?.rung == [1] ? true : nil } == true)
        let parts = store.batches.flatMap(\.parts).filter { part in
            part.records.contains { record in
                var version: Int?
                return (try? RecordEnvelope<Bells>.read(from: record.event, version: &version))??.event?.event == .ring(id: 1)
            }
        }
        #expect(parts.map(\.deletedTimers) == [[Self.bytes(.ring(id: 1))]])
        #expect(try await Self.rows("a", in: store) == [])
        host.stop()
        clock.advance(by: .seconds(100))
        let later = Self.host(store, clock)
        _ = try await later.send(.arm(id: 2, seconds: 50), to: "a")
        later.stop()
        #expect(Self.state("a", in: store.inner)?.rung == [1])
    }

    @Test("H34, H39: a timer whose event's commit failed fires again, after its instance's back-off, and is journaled once")
    func h34ATimerWhoseCommitFailedFiresAgain() async throws {
        let store = GatedStore()
        let clock = ManualHostClock(start: Self.start)
        let host = Self.host(store, clock)
        defer { host.stop() }
        _ = try await host.send(.arm(id: 1, seconds: 10), to: "a")
        let ring = Self.bytes(.ring(id: 1))
        store.refuseNext { $0.deletedTimers.contains(ring) }
        clock.advance(by: .seconds(10))
        // Refused: the instance stopped and left memory; its row stays.
        #expect(await eventually { host.lock.withLock { host.instances["a"] == nil } ? true : nil } == true)
        #expect(try await Self.rows("a", in: store).map(\.event) == [ring])
        #expect(Self.state("a", in: store.inner)?.rung == [])
        clock.advance(by: .seconds(1))
        #expect(await eventually { Self.state("a", in: store.inner)?.rung == [1] ? true : nil } == true)
        #expect(Self.events("a", in: store.inner).filter { $0 == .ring(id: 1) }.count == 1)
    }

    @Test("H35: the scheduler holds at most timerWindow rows, reading the earliest again from the store as they fire, and every row fires")
    func h35TheWindowIsBounded() async throws {
        let store = InMemoryJournalStore()
        let clock = ManualHostClock(start: Self.start)
        let host = Self.host(store, clock, timerWindow: 4)
        defer { host.stop() }
        for seconds in Int64(1)...30 { _ = try await host.send(.post(seconds: seconds), to: "p\(seconds % 3)") }
        var largest = host.scheduler.counts.window
        for second in 1...30 {
            clock.advance(by: .seconds(1))
            let delivered = await eventually { () -> Int? in
                largest = max(largest, host.scheduler.counts.window)
                let count = (0..<3).reduce(0) { $0 + (Self.state("p\($1)", in: store)?.delivered.count ?? 0) }
                return count == second ? count : nil
            }
            #expect(delivered == second, "second \(second)")
        }
        #expect(largest <= 4)
        #expect(largest > 0)
    }

    @Test("H36: the host's clock is a setting: set back, it delays every deadline by as much; set forward, it brings them due")
    func h36TheClockIsASetting() async throws {
        let store = InMemoryJournalStore()
        let clock = ManualHostClock(start: Self.start)
        let host = Self.host(store, clock)
        defer { host.stop() }
        _ = try await host.send(.arm(id: 1, seconds: 10), to: "a")
        clock.set(Self.start - 3_600_000_000_000)
        clock.advance(by: .seconds(10))
        _ = await eventually { clock.sleeping > 0 ? true : nil }
        #expect(Self.state("a", in: store)?.rung == [])
        clock.set(Self.start + 3_600_000_000_000)
        #expect(await eventually { Self.state("a", in: store)?.rung == [1] ? true : nil } == true)
    }

    @Test("H37, H38: a row whose checksum fails is not delivered; its instance is loaded as soon as the row is read, and the load writes its rows again from its journal, so a damaged or stray row is replaced and the timer fires on time")
    func h38ALoadRewritesItsRows() async throws {
        let path = try TemporaryFolder().file("journal.sqlite")
        let clock = ManualHostClock(start: Self.start)
        var store = try SQLiteJournalStore(path: path)
        var host = Self.host(store, clock)
        _ = try await host.send(.arm(id: 1, seconds: 10), to: "a")
        host.stop()
        let good = try await Self.rows("a", in: store)
        // The row put off by an hour behind the store's back, and a stray row of an event the
        // journal never armed, due in two: neither is due, and both are found when read.
        execute(path, """
            UPDATE host_timer SET deadline = deadline + 3600000000000 WHERE machine = 'a';
            INSERT INTO host_timer (machine, event, deadline, armed, crc) VALUES ('a', CAST('x' AS BLOB), \(Self.start + 7_200_000_000_000), 7, 0);
            """)
        store = try SQLiteJournalStore(path: path)
        host = Self.host(store, clock)
        defer { host.stop() }
        let rewritten = await eventually { () -> [CheckedRow<TimerRow>]? in
            let rows = (try? store.dueTimers(through: .max, after: nil, limit: 10)) ?? []
            return rows.count == 1 && rows[0].checksumMatches ? rows : nil
        }
        #expect(rewritten?.map(\.row.timer.event) == good.map(\.event))
        #expect(rewritten?.map(\.row.timer.deadline) == good.map(\.deadline))
        clock.advance(by: .seconds(9))
        _ = await eventually { clock.sleeping > 0 ? true : nil }
        #expect(try await host.state(of: "a")?.rung == [])
        clock.advance(by: .seconds(1))
        #expect(await eventually { (try? store.recover("a"))?.records.count == 2 ? true : nil } == true)
        #expect(try await host.state(of: "a")?.rung == [1])
    }

    @Test("H39: an instance whose load failed is not loaded again by the scheduler before its back-off (1 s, doubling); its rows stay, and its timer fires once it loads")
    func h39AFailingLoadBacksOff() async throws {
        let store = GatedStore()
        let clock = ManualHostClock(start: Self.start)
        var host = Self.host(store, clock)
        _ = try await host.send(.arm(id: 1, seconds: 10), to: "x")
        host.stop()
        store.failLoads(of: "x")
        clock.advance(by: .seconds(10))
        let before = store.loads(of: "x")
        host = Self.host(store, clock)
        defer { host.stop() }
        #expect(await eventually { store.loads(of: "x") == before + 1 ? true : nil } == true)
        _ = await eventually { clock.sleeping > 0 ? true : nil }
        clock.advance(by: .milliseconds(900))
        try await Task.sleep(for: .milliseconds(20))
        #expect(store.loads(of: "x") == before + 1)
        clock.advance(by: .milliseconds(100))
        #expect(await eventually { store.loads(of: "x") == before + 2 ? true : nil } == true)
        _ = await eventually { clock.sleeping > 0 ? true : nil }
        clock.advance(by: .milliseconds(1_900))
        try await Task.sleep(for: .milliseconds(20))
        #expect(store.loads(of: "x") == before + 2)
        store.failLoads(of: "x", false)
        clock.advance(by: .milliseconds(100))
        #expect(await eventually { Self.state("x", in: store.inner)?.rung == [1] ? true : nil } == true)
        #expect(try await Self.rows("x", in: store) == [])
    }
}
