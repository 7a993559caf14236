import Foundation
import StateLoop
@testable import StateLoopDurable
import StateLoopTestSupport
import Testing

/// Resume after a simulated crash (a stop whose snapshot and later writes are lost): one-shot
/// runs and timers.
@Suite struct DurableResumeTests {
    @Test("D37: one-shot runs not known finished run again after a crash, once each, with their keys; finished ones (an event, or a record that they returned nothing) do not", arguments: StoreKind.allCases)
    func d37RunsRunAgainWithTheirKeys(kind: StoreKind) async throws {
        let open = try kind.opener()
        let crashing = ScriptedStore(try open())
        let started = Locked<[String]>([])
        let release = Gate()
        // Every run notes its key; charges of 20 and more never return before the crash.
        let feedbacks = Payments.feedbacks(
            charge: { amount in
                started.change { $0.append("charge \(amount) #\(OneShotRun.key ?? -1)") }
                if amount >= 20 { await release.wait() }
            },
            log: { line in started.change { $0.append("log \(line) #\(OneShotRun.key ?? -1)") } })
        do {
            let life = Life(Payments.self, store: crashing, initial: .init(), feedbacks: feedbacks)
            try await life.system.recovered()
            life.system.send(.pay(10))
            life.system.send(.note(1))
            life.system.send(.pay(20))
            life.system.send(.pay(30))
            try await life.wait { $0.charged == [10] }
            try await waitFor { started.current.count == 4 && (try? journaled(Payments.self, in: crashing).count) == 6 }
            crashing.crash()
        }
        #expect(started.current.sorted() == ["charge 10 #0", "charge 20 #2", "charge 30 #3", "log 1 #1"])
        // The second life: runs 2 and 3 again, once each, with the same keys; then they finish.
        started.change { $0 = [] }
        release.open()
        do {
            let life = Life(Payments.self, store: try open(), initial: .init(), feedbacks: feedbacks)
            try await life.wait { $0.charged.count == 3 }
            #expect(started.current.sorted() == ["charge 20 #2", "charge 30 #3"])
            #expect(life.last?.charged.sorted() == [10, 20, 30])
            life.system.stop()
            _ = try await life.waitForStop()
        }
        // The third life: nothing runs again.
        started.change { $0 = [] }
        let life = Life(Payments.self, store: try open(), initial: .init(), feedbacks: feedbacks)
        try await life.system.recovered()
        life.system.send(.pay(5))
        try await life.wait { $0.charged.count == 4 }
        #expect(started.current == ["charge 5 #4"])
    }

    @Test("D46: at a restart a run whose effect says afterRestart: drop is recorded finished and never runs, not even under a build that reruns everything; a rerun one runs again with its key", arguments: StoreKind.allCases)
    func d46DroppedRunsNeverRunAgain(kind: StoreKind) async throws {
        let open = try kind.opener()
        let crashing = ScriptedStore(try open())
        let started = Locked<[String]>([])
        let release = Gate()
        // Every run notes its key; runs of 20 and more never return before the crash.
        let feedbacks = Payments.feedbacks(
            charge: { amount in
                started.change { $0.append("charge \(amount) #\(OneShotRun.key ?? -1)") }
                if amount >= 20 { await release.wait() }
            },
            log: { line in
                started.change { $0.append("log \(line) #\(OneShotRun.key ?? -1)") }
                if line >= 20 { await release.wait() }
            })
        do {
            let life = Life(CarefulPayments.self, store: crashing, initial: .init(), feedbacks: feedbacks)
            try await life.system.recovered()
            life.system.send(.pay(10))
            life.system.send(.pay(20))
            life.system.send(.note(21))
            try await life.wait { $0.charged == [10] }
            try await waitFor { started.current.count == 3 && (try? journaled(CarefulPayments.self, in: crashing).count) == 4 }
            crashing.crash()
        }
        #expect(started.current.sorted() == ["charge 10 #0", "charge 20 #1", "log 21 #2"])
        func finishedWithoutEvent(in store: any JournalStore) throws -> [Int] {
            try journaled(CarefulPayments.self, in: store).compactMap { envelope in
                guard case .runReturnedNothing(let run, _) = envelope else { return nil }
                return run
            }
        }
        // The second life: the charge (run 1) is recorded finished before anything runs, the log
        // (run 2) runs again with its key.
        started.change { $0 = [] }
        release.open()
        do {
            let store = try open()
            let life = Life(CarefulPayments.self, store: store, initial: .init(), feedbacks: feedbacks)
            try await life.system.recovered()
            try await waitFor { (try? finishedWithoutEvent(in: store)) == [1, 2] }
            life.system.send(.pay(5))
            try await life.wait { $0.charged.count == 2 }
            life.system.stop()
            _ = try await life.waitForStop()
            #expect(life.last?.charged == [10, 5])
        }
        #expect(started.current.sorted() == ["charge 5 #3", "log 21 #2"])
        // The third life, of a machine that reruns every run: the dropped charge stays dropped.
        started.change { $0 = [] }
        let life = Life(Payments.self, store: try open(), initial: .init(), feedbacks: feedbacks)
        try await life.system.recovered()
        life.system.send(.pay(6))
        try await life.wait { $0.charged.count == 3 }
        life.system.stop()
        _ = try await life.waitForStop()
        #expect(life.last?.charged == [10, 5, 6])
        #expect(started.current == ["charge 6 #4"])
    }

    /// Arms the timer of `machine` (a `start`), lets `before` pass, crashes, lets `down` pass,
    /// and resumes it on a fresh manual clock: returns the resumed life and its clock.
    func resumeTimer<M: TimerMachine>(
        _ machine: M.Type, kind: StoreKind, before: Duration, down: Duration, afterStart: (Life<M>, ManualClock) async throws -> Void = { _, _ in }
    ) async throws -> (Life<M>, ManualClock, any JournalStore) {
        let open = try kind.opener()
        let crashing = ScriptedStore(try open())
        let wall = TestWallClock()
        do {
            let clock = ManualClock()
            let life = Life(M.self, store: crashing, initial: .init(), feedbacks: M.feedbacks(clock: clock), options: DurableOptions(wallClock: wall.clock))
            try await life.system.recovered()
            life.system.send(.start)
            await clock.waitForSleepers(count: 1)
            clock.advance(by: before)
            wall.advance(by: before)
            try await afterStart(life, clock)
            crashing.crash()
        }
        wall.advance(by: down)
        let clock = ManualClock()
        let store = try open()
        let life = Life(M.self, store: store, initial: .init(), feedbacks: M.feedbacks(clock: clock), options: DurableOptions(wallClock: wall.clock))
        try await life.system.recovered()
        return (life, clock, store)
    }

    @Test("D38: a timer armed before a restart keeps its wall-clock deadline: it waits for the rest of its delay", arguments: StoreKind.allCases)
    func d38TimerKeepsItsDeadline(kind: StoreKind) async throws {
        let (life, clock, store) = try await resumeTimer(Kettle.self, kind: kind, before: .seconds(4), down: .seconds(2))
        // 10 s after the start, 6 s of which passed before the restart: it fires 4 s after it.
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(3_990))
        try await Task.sleep(for: .milliseconds(50))
        #expect(life.last?.fired == 0)
        clock.advance(by: .milliseconds(10))
        try await life.wait { $0.fired == 1 }
        #expect(try journaledEvents(Kettle.self, in: store) == [.start, .timer(entry: 1)])
    }

    @Test("D39: a timer whose deadline passed while the app was down fires at once after the restart, once", arguments: StoreKind.allCases)
    func d39OverdueTimerFiresOnce(kind: StoreKind) async throws {
        let (life, clock, store) = try await resumeTimer(Kettle.self, kind: kind, before: .seconds(4), down: .seconds(60))
        try await life.wait { $0.fired == 1 }
        clock.advance(by: .seconds(3_600))
        life.system.send(.stop)
        try await life.wait { !$0.active }
        #expect(life.last?.fired == 1)
        #expect(try journaledEvents(Kettle.self, in: store) == [.start, .timer(entry: 1), .stop])
    }

    @Test("D40: a timer that fired is never fired again after a restart, even while the state keeps its request", arguments: StoreKind.allCases)
    func d40FiredTimerNeverAgain(kind: StoreKind) async throws {
        let (life, clock, store) = try await resumeTimer(Metronome.self, kind: kind, before: .seconds(5), down: .seconds(60)) { life, _ in
            try await life.wait { $0.fired == 1 }
        }
        #expect(life.last == TimerState(active: true, entries: 1, fired: 1))
        clock.advance(by: .seconds(3_600))
        // A new entry arms a new timer, which fires.
        life.system.send(.start)
        await clock.waitForOneSleeper(wakingIn: .seconds(5))
        clock.advance(by: .seconds(5))
        try await life.wait { $0.fired == 2 }
        #expect(try journaledEvents(Metronome.self, in: store) == [.start, .timer(entry: 1), .start, .timer(entry: 2)])
        // From a snapshot too (written at the stop): the timer stays fired.
        life.system.stop()
        _ = try await life.waitForStop()
        let resumed = Life(Metronome.self, store: store, initial: .init(), feedbacks: Metronome.feedbacks(clock: clock))
        try await resumed.system.recovered()
        clock.advance(by: .seconds(3_600))
        resumed.system.send(.stop)
        try await resumed.wait { !$0.active }
        #expect(resumed.last?.fired == 2)
    }
}

extension DurableResumeTests {
    @Test("D39: on the system clock too, a timer whose deadline passed while the app was down fires at once after the restart")
    func d39OverdueTimerOnTheSystemClock() async throws {
        let store = InMemoryJournalStore()
        let wall = TestWallClock()
        do {
            let life = Life(Boiler.self, store: store, initial: .init(), feedbacks: Boiler.feedbacks(clock: ContinuousClock()), options: DurableOptions(wallClock: wall.clock))
            try await life.system.recovered()
            life.system.send(.start)
            try await life.wait { $0.active }
        }
        // Stopped (a snapshot at the stop keeps the timer's arming); its hour passed meanwhile.
        // Armed afresh, it would fire an hour after the restart, long after the test gave up.
        wall.advance(by: .seconds(3_601))
        let life = Life(Boiler.self, store: store, initial: .init(), feedbacks: Boiler.feedbacks(clock: ContinuousClock()), options: DurableOptions(wallClock: wall.clock))
        try await life.wait { $0.fired == 1 }
    }
}
