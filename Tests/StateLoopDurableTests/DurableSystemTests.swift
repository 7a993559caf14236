import Foundation
import StateLoop
@testable import StateLoopDurable
import Testing

/// The journal in the runtime (write-ahead, snapshots) and recovery, on both stores.
@Suite struct DurableSystemTests {
    @Test("D30: each reduced event is appended before the observer and any feedback see the state after it", arguments: StoreKind.allCases)
    func d30WriteAhead(kind: StoreKind) async throws {
        let log = Locked<[String]>([])
        let store = ScriptedStore(try kind.make(), log: log)
        // A feedback whose query notes every state it is shown.
        let seen: Feedback<Search.State, Search.Event> = .react(
            request: { state in
                log.change { $0.append("loop \(state.results.count)") }
                return nil as Int?
            },
            effect: { _ in .loaded(0) })
        let life = Life(Search.self, store: store, initial: .init(), feedbacks: [seen], log: log)
        try await life.system.recovered()
        for result in 1...3 { life.system.send(.loaded(result)) }
        try await life.wait { $0.results.count == 3 }
        #expect(log.current == [
            "snapshot 0", "state 0", "loop 0",
            "append 1", "state 1", "loop 1",
            "append 2", "state 2", "loop 2",
            "append 3", "state 3", "loop 3",
        ])
    }

    @Test("D31: a stale event, dropped, is not journaled", arguments: StoreKind.allCases)
    func d31StaleNotJournaled(kind: StoreKind) async throws {
        let store = try kind.make()
        let firstStarted = Gate()
        let secondSent = Gate()
        let firstSent = Gate()
        // The run for query 1 answers only once query 2 replaced it, so its event is stale; the
        // run for query 2 answers after it, so the stale event was queued (and dropped) first.
        let load: Feedback<Search.State, Search.Event> = .react(request: { $0.query }, run: { query, send in
            if query == 1 {
                firstStarted.open()
                await secondSent.wait()
                send(.loaded(100))
                firstSent.open()
            } else {
                await firstSent.wait()
                send(.loaded(200))
            }
        })
        let life = Life(Search.self, store: store, initial: .init(), feedbacks: [load])
        try await life.system.recovered()
        life.system.send(.search(1))
        // Query 2 only once the run for query 1 started: sent at once, it may replace query 1
        // before any loop saw it, and no run for query 1 would ever start.
        await firstStarted.wait()
        life.system.send(.search(2))
        secondSent.open()
        try await life.wait { $0.results == [200] }
        #expect(try journaledEvents(Search.self, in: store) == [.search(1), .search(2), .loaded(200)])
    }
}

extension DurableSystemTests {
    @Test("D32: a record holds its kind, the spec's journalVersion, the wall-clock time of its step, the one-shot run that sent the event, and the event")
    func d32RecordEnvelope() async throws {
        let store = InMemoryJournalStore()
        let wall = TestWallClock()
        let life = Life(
            Payments.self, store: store, initial: .init(),
            feedbacks: Payments.feedbacks(charge: { _ in }, log: { _ in }),
            options: DurableOptions(wallClock: wall.clock))
        try await life.system.recovered()
        let start = wall.now
        life.system.send(.pay(5))
        try await waitFor { (try? journaled(Payments.self, in: store).count) == 2 }
        wall.advance(by: .seconds(3))
        life.system.send(.note(7))
        try await waitFor { (try? journaled(Payments.self, in: store).count) == 4 }
        let envelopes = try journaled(Payments.self, in: store)
        #expect(envelopes[0] == .event(.pay(5), wallTime: start, run: nil))
        #expect(envelopes[1] == .event(.charged(5), wallTime: start, run: 0))
        #expect(envelopes[2] == .event(.note(7), wallTime: start + 3_000_000_000, run: nil))
        #expect(envelopes[3] == .runReturnedNothing(run: 1, wallTime: start + 3_000_000_000))
        // The bytes: kind 0, version 1, the time (zigzag varint), run 0 + 1, then the event.
        let record = try #require(store.recover("m").records.dropFirst().first)
        var expected = JournalWriter()
        expected.writeVarint(0)
        expected.writeVarint(1 << 1)
        expected.writeSigned(start)
        expected.writeVarint(1)
        expected.write(Payments.Event.charged(5))
        #expect(record.event == expected.bytes)
        #expect(record.stateAfter.isEmpty)
    }

    @Test("D33: an append that fails stops the system with the error, and the state after that event is never shown", arguments: StoreKind.allCases)
    func d33FailedAppendStops(kind: StoreKind) async throws {
        let store = ScriptedStore(try kind.make())
        let life = Life(Search.self, store: store, initial: .init(), feedbacks: [])
        try await life.system.recovered()
        life.system.send(.loaded(1))
        try await life.wait { $0.results == [1] }
        store.failAppends()
        life.system.send(.loaded(2))
        let error = try await life.waitForStop()
        #expect(error as? InjectedFailure == InjectedFailure())
        life.system.send(.loaded(3))
        #expect(life.states.current.map(\.results) == [[], [1]])
        #expect(try journaledEvents(Search.self, in: store.base) == [.loaded(1)])
    }

    @Test("D34: a snapshot is written for the initial state, every N records, and at the stop", arguments: StoreKind.allCases)
    func d34Snapshots(kind: StoreKind) async throws {
        let store = ScriptedStore(try kind.make())
        let life = Life(Search.self, store: store, initial: .init(), feedbacks: [], options: DurableOptions(snapshotEvery: 3))
        try await life.system.recovered()
        for result in 1...7 { life.system.send(.loaded(result)) }
        try await life.wait { $0.results.count == 7 }
        life.system.stop()
        #expect(try await life.waitForStop() == nil)
        #expect(store.log.current.filter { $0.hasPrefix("snapshot") } == ["snapshot 0", "snapshot 3", "snapshot 6", "snapshot 7"])
        let recovery = try store.recover("m")
        #expect(recovery.snapshot?.sequence == 7 && recovery.records.isEmpty)
    }

    @Test("D35: recovery gives the pure reduction of the journaled events, from the latest snapshot or from the start alike", arguments: StoreKind.allCases)
    func d35RecoveryIsThePureReduction(kind: StoreKind) async throws {
        var generator = SystemRandomNumberGenerator()
        let events = (0..<200).map { _ in Int.random(in: 0..<1_000, using: &generator) }.map { value in
            value % 3 == 0 ? Search.Event.search(value) : .loaded(value)
        }
        let expected = reduction(Search.self, events, from: .init())
        // The same events into two machines of one store: one snapshots every 7 records, the
        // other only at the start; both "crash" (no snapshot at the stop).
        let open = try kind.opener()
        let crashing = ScriptedStore(try open())
        var lives: [Life<Search>] = []
        for (id, every) in [("often", 7), ("never", 1_000_000)] {
            let life = Life(Search.self, id: id, store: crashing, initial: .init(), feedbacks: [], options: DurableOptions(snapshotEvery: every))
            try await life.system.recovered()
            for event in events { life.system.send(event) }
            try await life.wait { $0 == expected }
            lives.append(life)
        }
        crashing.crash()
        lives = []
        let store = try open()
        #expect(try store.recover("often").snapshot?.sequence == 196)
        #expect(try store.recover("never").snapshot?.sequence == 0)
        for id in ["often", "never"] {
            let life = Life(Search.self, id: id, store: store, initial: .init(), feedbacks: [])
            try await life.system.recovered()
            #expect(life.states.current == [expected], "\(id)")
        }
    }

    @Test("D36: events sent while the journal is read wait, and are reduced in order after the restored state", arguments: StoreKind.allCases)
    func d36EventsWaitForRecovery(kind: StoreKind) async throws {
        let open = try kind.opener()
        do {
            let life = Life(Search.self, store: try open(), initial: .init(), feedbacks: [])
            try await life.system.recovered()
            for result in 1...3 { life.system.send(.loaded(result)) }
            try await life.wait { $0.results.count == 3 }
        }
        let store = ScriptedStore(try open())
        store.holdRecovery()
        let life = Life(Search.self, store: store, initial: .init(), feedbacks: [])
        for result in 4...6 { life.system.send(.loaded(result)) }
        #expect(life.states.current.isEmpty)
        store.releaseRecovery()
        for result in 7...8 { life.system.send(.loaded(result)) }
        try await life.wait { $0.results.count == 8 }
        #expect(life.states.current.map(\.results.count) == Array(3...8))
        #expect(life.last?.results == Array(1...8))
    }

    @Test("D41: a query effect whose answer was not journaled runs again: the restored state asks for it", arguments: StoreKind.allCases)
    func d41QueryEffectsRestart(kind: StoreKind) async throws {
        let open = try kind.opener()
        let crashing = ScriptedStore(try open())
        let loads = Locked<[Int]>([])
        do {
            let life = Life(Search.self, store: crashing, initial: .init(), feedbacks: Search.feedbacks(load: { query in
                loads.change { $0.append(query) }
                try? await Task.sleep(for: .seconds(3_600))  // the app dies first
                return query
            }))
            try await life.system.recovered()
            life.system.send(.search(4))
            try await waitFor { loads.current == [4] }
            crashing.crash()
        }
        let life = Life(Search.self, store: try open(), initial: .init(), feedbacks: Search.feedbacks(load: { query in
            loads.change { $0.append(query) }
            return query * 10
        }))
        try await life.wait { $0.results == [40] }
        #expect(loads.current == [4, 4])
    }

    @Test("D42: a journal that cannot be read (damaged, or of another journalVersion) stops the start with the entry's number and is left untouched", arguments: StoreKind.allCases)
    func d42UnreadableJournal(kind: StoreKind) async throws {
        let store = try kind.make()
        var otherVersion = JournalWriter()
        otherVersion.writeVarint(0)
        otherVersion.write(2)
        try store.writeSnapshot(JournalSnapshot(sequence: 0, state: SnapshotEnvelope<Search>(state: .init(), wallTime: 0, book: .init(starting: .init(), at: 0)).bytes), of: "damaged")
        try store.append([JournalRecord(sequence: 1, event: [0, 2, 0, 0, 9], stateAfter: [])], to: "damaged")
        try store.append([JournalRecord(sequence: 1, event: otherVersion.bytes, stateAfter: [])], to: "newer")
        let cases: [(String, DurableError)] = [
            ("damaged", .damaged(machine: "damaged", sequence: 1, .invalid(offset: 4, reason: "case 9 of a type with 2 cases"))),
            ("newer", .otherVersion(machine: "newer", sequence: 1, found: 2, expected: 1)),
        ]
        for (id, expected) in cases {
            let life = Life(Search.self, id: id, store: store, initial: .init(), feedbacks: [])
            await #expect(throws: expected) { try await life.system.recovered() }
            #expect(try await life.waitForStop() as? DurableError == expected)
            #expect(life.states.current.isEmpty)
            #expect(try store.lastSequence(of: id) == 1)
        }
        #expect(DurableError.otherVersion(machine: "newer", sequence: 1, found: 2, expected: 1).description.contains("version 2 of the spec, and this is version 1"))
    }
}
