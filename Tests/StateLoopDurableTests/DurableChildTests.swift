import Foundation
import StateLoop
@testable import StateLoopDurable
import StateLoopTestSupport
import Testing

/// Child machines of a durable parent (Docs/Durability.md D100-D107), on the hand-written Office
/// and its Abacus child (ChildMachines.swift); crashes are simulated by a store whose writes fail
/// from a chosen append on, then a new life on the same SQLite file or memory.
@Suite struct DurableChildTests {
    @Test("D100: a child of a durable parent journals in the parent's store under '<parent id>/<effect>@<step>', each event before its state is shown, from a first snapshot of its initial state; outside a durable system it runs unjournaled", arguments: StoreKind.allCases)
    func d100ChildJournalsInTheParentsStore(kind: StoreKind) async throws {
        let store = try kind.make()
        let wall = TestWallClock()
        let life = Life(Office.self, id: "office", store: store, initial: .init(), feedbacks: Office.feedbacks,
                        options: DurableOptions(wallClock: wall.clock))
        try await life.system.recovered()
        life.system.send(.start(7))
        life.system.send(.add(2))
        try await waitFor { (try? tally("office/tally@1", in: store))?.count == 2 }
        #expect(try store.recover("office/tally@1").snapshot?.sequence == 0)
        #expect(try journaled(Abacus.self, in: store, id: "office/tally@1") == [
            .forwarded(.add, wallTime: wall.now, from: ForwardedFrom(parentStep: 2, index: 0)),
            .forwarded(.add, wallTime: wall.now, from: ForwardedFrom(parentStep: 2, index: 1)),
        ])
        life.system.send(.finish)
        try await life.wait { $0.totals == [2] }
        #expect(try journaled(Office.self, in: store, id: "office").last == .childOutput(.tallied(2), wallTime: wall.now, effect: "tally"))

        // The same feedbacks in a plain system: the child runs, nothing is journaled.
        let states = Locked<[Office.State]>([])
        let run = System(initial: Office.State(), reduce: Office.reduce, feedbacks: Office.feedbacks)
            .start(onState: { state in states.change { $0.append(state) } })
        run.send(.start(1))
        run.send(.add(3))
        run.send(.finish)
        try await waitFor { states.current.last?.totals == [3] }
        run.stop()
    }

    @Test("D101: an equal request keeps its child and its journal; a changed request or a new one after none is a new child, named by the step that asked for it, and a stopped child's journal is never opened again", arguments: StoreKind.allCases)
    func d101ChildIDsFollowTheRequest(kind: StoreKind) async throws {
        let store = try kind.make()
        let life = Life(Office.self, id: "office", store: store, initial: .init(), feedbacks: Office.feedbacks)
        try await life.system.recovered()
        for event: Office.Event in [.start(7), .add(1), .start(7), .add(1)] { life.system.send(event) }  // steps 1-4
        try await waitFor { (try? tally("office/tally@1", in: store))?.count == 2 }
        life.system.send(.cancel)  // 5
        life.system.send(.start(7))  // 6: the same job again, a new child
        life.system.send(.add(1))  // 7
        try await waitFor { (try? tally("office/tally@6", in: store))?.count == 1 }
        life.system.send(.start(8))  // 8: another job
        life.system.send(.add(4))  // 9
        try await waitFor { (try? tally("office/tally@8", in: store))?.count == 4 }
        #expect(try tally("office/tally@1", in: store).count == 2)
        #expect(try tally("office/tally@6", in: store).count == 1)
        #expect(try store.lastSequence(of: "office/tally@3") == nil)
    }

    @Test("D102: a restarted parent whose restored state runs a child resumes the child from its own journal, not from its initial state", arguments: StoreKind.allCases)
    func d102ChildResumesWithItsParent(kind: StoreKind) async throws {
        let open = try kind.opener()
        do {
            let crashing = ScriptedStore(try open())
            let life = Life(Office.self, id: "office", store: crashing, initial: .init(), feedbacks: Office.feedbacks)
            try await life.system.recovered()
            life.system.send(.start(7))
            life.system.send(.add(2))
            try await waitFor { (try? tally("office/tally@1", in: crashing))?.count == 2 }
            crashing.crash()
        }
        let store = try open()
        let life = Life(Office.self, id: "office", store: store, initial: .init(), feedbacks: Office.feedbacks)
        try await life.system.recovered()
        life.system.send(.add(1))
        life.system.send(.finish)
        try await life.wait { !$0.totals.isEmpty }
        #expect(life.last?.totals == [3])
    }

    @Test("D103: a crash between a parent's record and its child's writes restarts consistently: a child the durable state started resumes (fresh if it wrote nothing), one it stopped stays stopped and a later request starts a new one", arguments: StoreKind.allCases)
    func d103CrashBetweenParentAndChild(kind: StoreKind) async throws {
        let open = try kind.opener()
        // The parent's start is durable; the child wrote nothing, not even its first snapshot.
        do {
            let crashing = CrashingStore(try open())
            let life = Life(Office.self, id: "office", store: crashing, initial: .init(), feedbacks: Office.feedbacks)
            try await life.system.recovered()
            crashing.crash(after: 1, appendsTo: "office")
            life.system.send(.start(7))
            _ = try await life.waitForStop()
        }
        #expect(try open().lastSequence(of: "office/tally@1") == nil)
        do {
            let crashing = CrashingStore(try open())
            let life = Life(Office.self, id: "office", store: crashing, initial: .init(), feedbacks: Office.feedbacks)
            try await life.system.recovered()
            life.system.send(.add(2))  // step 2, to the child started at step 1
            try await waitFor { (try? tally("office/tally@1", in: crashing))?.count == 2 }
            // The parent's cancel is durable; the child's last snapshot is lost.
            crashing.crash(after: 1, appendsTo: "office")
            life.system.send(.cancel)
            _ = try await life.waitForStop()
        }
        let store = try open()
        let life = Life(Office.self, id: "office", store: store, initial: .init(), feedbacks: Office.feedbacks)
        try await life.system.recovered()
        life.system.send(.start(7))  // step 4: a new child
        life.system.send(.add(1))
        life.system.send(.finish)
        try await life.wait { !$0.totals.isEmpty }
        #expect(life.last?.totals == [1])
        #expect(try tally("office/tally@1", in: store).count == 2)
        #expect(try tally("office/tally@4", in: store) == Abacus.State(count: 1, done: true))
    }

    @Test("D104: a child's output is journaled in the parent as that child's: a crash after the child ended and before the parent journaled it delivers it once after the restart, and a child whose output is journaled is not started again while its request stays")
    func d104OutputNeitherLostNorDuplicated() async throws {
        let path = try TemporaryFolder().file("journal.sqlite")
        let open = { try SQLiteJournalStore(path: path) }
        do {
            let crashing = CrashingStore(try open())
            let life = Life(Office.self, id: "office", store: crashing, initial: .init(), feedbacks: Office.feedbacks)
            try await life.system.recovered()
            life.system.send(.start(7))
            life.system.send(.add(2))
            try await waitFor { (try? tally("office/tally@1", in: crashing))?.count == 2 }
            // The child's `finish` is durable; the parent's record of its output is lost.
            crashing.crash(after: 1, appendsTo: "office/tally@1")
            life.system.send(.finish)
            _ = try await life.waitForStop()
            #expect(try tally("office/tally@1", in: crashing).done)
            #expect(life.last?.totals == [])
        }
        for _ in 0..<2 {
            let store = try open()
            let life = Life(Office.self, id: "office", store: store, initial: .init(), feedbacks: Office.feedbacks)
            try await life.wait { $0.totals == [2] }
            // A later event is reduced after anything the restart delivers: no second output.
            life.system.send(.add(0))
            try await waitFor { life.states.current.count >= 2 }
            #expect(life.last?.totals == [2])
            life.system.stop()
            _ = try await life.waitForStop()
        }
        let outputs = try history(Office.self, of: "office", in: path).compactMap { envelope -> String? in
            if case let .childOutput(event, _, effect) = envelope { "\(effect): \(event)" } else { nil }
        }
        #expect(outputs == ["tally: tallied(2)"])
    }

    @Test("D105: an event a parent forwarded is journaled by the child with the parent's step and its place; after a restart the child gets those of the restored step its journal lacks, none twice", arguments: [0, 1, 2])
    func d105ForwardedEventsNeitherLostNorDuplicated(childRecordsBeforeTheCrash: Int) async throws {
        let path = try TemporaryFolder().file("journal.sqlite")
        let open = { try SQLiteJournalStore(path: path) }
        do {
            let crashing = CrashingStore(try open())
            let life = Life(Office.self, id: "office", store: crashing, initial: .init(), feedbacks: Office.feedbacks)
            try await life.system.recovered()
            life.system.send(.start(7))
            try await waitFor { (try? open().lastSequence(of: "office/tally@1")) == 0 }
            if childRecordsBeforeTheCrash == 0 {
                crashing.crash(after: 1, appendsTo: "office")
            } else {
                crashing.crash(after: childRecordsBeforeTheCrash, appendsTo: "office/tally@1")
            }
            life.system.send(.add(2))  // step 2 forwards two `add`s
            life.system.send(.add(5))  // never durable
            _ = try await life.waitForStop()
        }
        #expect(try tally("office/tally@1", in: try open()).count == childRecordsBeforeTheCrash)
        let store = try open()
        let life = Life(Office.self, id: "office", store: store, initial: .init(), feedbacks: Office.feedbacks)
        try await life.system.recovered()
        life.system.send(.finish)
        try await life.wait { !$0.totals.isEmpty }
        #expect(life.last?.totals == [2])
        #expect(try history(Abacus.self, of: "office/tally@1", in: path).compactMap { envelope -> ForwardedFrom? in
            if case .forwarded(_, _, let from) = envelope { from } else { nil }
        } == [.init(parentStep: 2, index: 0), .init(parentStep: 2, index: 1), .init(parentStep: 3, index: 0)])
    }

    @Test("D106: replayJournal replays a parent's children with its records and compares them with its snapshots: children that would start at other steps are reported, a snapshot's child the machine does not run cannot be read; the child's journal replays under its own id")
    func d106ReplayChecksTheChildren() async throws {
        let path = try TemporaryFolder().file("journal.sqlite")
        do {
            let life = Life(Office.self, id: "office", store: try SQLiteJournalStore(path: path), initial: .init(),
                            feedbacks: Office.feedbacks, options: DurableOptions(snapshotEvery: 2))
            try await life.system.recovered()
            for event: Office.Event in [.start(7), .add(2), .add(1), .finish] { life.system.send(event) }
            try await life.wait { $0.totals == [3] }
            life.system.send(.cancel)
            life.system.send(.start(9))
            try await waitFor { (try? SQLiteJournalFile(path: path).machineIDs()) == ["office", "office/tally@1", "office/tally@7"] }
            life.system.stop()
            _ = try await life.waitForStop()
        }
        let file = try SQLiteJournalFile(path: path)
        let report = try Office.replayJournal(file, id: "office")
        #expect(report.mismatch == nil, "\(report)")
        #expect(report.records == 7)
        // Two forwarded `add`s, one more, the `finish`; snapshots 0, 2 and 4.
        #expect(try Abacus.replayJournal(file, id: "office/tally@1") == JournalReplayReport(records: 4, snapshots: 3, mismatch: nil))
        let restarting = try Restarting.replayJournal(file, id: "office")
        #expect(restarting.mismatch?.sequence == 2)
        #expect(restarting.description.hasPrefix("replay mismatch at snapshot 2: the one-shot runs, timers or children differ"))
        #expect {
            try Renamed.replayJournal(file, id: "office")
        } throws: { error in
            "\(error)".hasPrefix("journal of 'office': entry 2 cannot be read") && "\(error)".contains("children [\"tally\"] saved with a state that runs [\"tallies\"]")
        }
    }

    @Test("D107: a durable child that the parent's childRequests(in:) does not list, or whose journal fails, stops the parent with the error")
    func d107ChildFailuresStopTheParent() async throws {
        let life = Life(Forgetful.self, id: "office", store: InMemoryJournalStore(), initial: .init(), feedbacks: Office.feedbacks)
        try await life.system.recovered()
        life.system.send(.start(1))
        let error = try await life.waitForStop()
        #expect(error as? DurableError == .undeclaredChild(machine: "office", effect: "tally"))
        #expect("\(error!)".contains("childRequests(in:)"))

        let failing = CrashingStore(InMemoryJournalStore())
        let parent = Life(Office.self, id: "office", store: failing, initial: .init(), feedbacks: Office.feedbacks)
        try await parent.system.recovered()
        parent.system.send(.start(1))
        try await waitFor { (try? failing.lastSequence(of: "office/tally@1")) == 0 }
        failing.failAppends(to: "office/tally@1")
        parent.system.send(.add(1))
        #expect(try await parent.waitForStop() is InjectedFailure)
    }
}

/// Office whose child's request changes with every forwarding step: replaying Office's journal
/// with it starts children at other steps.
enum Restarting: TestMachine {
    typealias Run = NoRun
    typealias State = Office.State
    typealias Event = Office.Event

    /// A later build of Office: it reads Office's journals (D120).
    static var journalName: String { "Office" }

    static func reduce(_ state: inout State, _ event: Event) { Office.reduce(&state, event) }
    static func childRequests(in state: State) -> [(effect: String, request: any Equatable & Sendable)] {
        state.job.map { [("tally", "\($0)/\(state.forwarded.count)")] } ?? []
    }
}

/// Office whose child is named differently: Office's snapshots name a child it does not run.
enum Renamed: TestMachine {
    typealias Run = NoRun
    typealias State = Office.State
    typealias Event = Office.Event

    /// A later build of Office: it reads Office's journals (D120).
    static var journalName: String { "Office" }

    static func reduce(_ state: inout State, _ event: Event) { Office.reduce(&state, event) }
    static func childRequests(in state: State) -> [(effect: String, request: any Equatable & Sendable)] {
        Office.childRequests(in: state).map { ("tallies", $0.request) }
    }
}

/// The state of Abacus `id` as a restart would restore it.
func tally(_ id: String, in store: any JournalStore) throws -> Abacus.State {
    try RestoredMachine<Abacus>(id, from: store, initial: .init(), now: 0).state
}

/// Every record of machine `id` of the SQLite file at `path` (from the first, whatever snapshot
/// came later).
func history<M: DurableMachine>(_: M.Type, of id: String, in path: String) throws -> [RecordEnvelope<M>] {
    try SQLiteJournalFile(path: path).history(of: id).records.compactMap { record in
        var version: Int?
        return try RecordEnvelope<M>.read(from: record.event, version: &version)
    }
}

/// A store whose writes all fail ("the process died") once a given machine has had a given number
/// of appends more, or whose appends to one machine fail.
final class CrashingStore: JournalStore, @unchecked Sendable {
    let base: any JournalStore
    private let plan = Locked<(machine: String, left: Int)?>(nil)
    private let crashed = Locked(false)
    private let failing = Locked<String?>(nil)

    init(_ base: any JournalStore) { self.base = base }

    /// Every later append to `machine` fails (its disk is full, say); the others go through.
    func failAppends(to machine: String) { failing.change { $0 = machine } }

    /// Crashes once `machine` has had `count` more appends (at once for 0).
    func crash(after count: Int, appendsTo machine: String) {
        if count == 0 { crashed.change { $0 = true } } else { plan.change { $0 = (machine, count) } }
    }

    func append(_ records: [JournalRecord], to machine: String) throws {
        if crashed.current || failing.current == machine { throw InjectedFailure() }
        try base.append(records, to: machine)
        plan.change { plan in
            guard let current = plan, current.machine == machine else { return }
            plan = current.left == 1 ? nil : (machine, current.left - 1)
            if current.left == 1 { crashed.change { $0 = true } }
        }
    }

    func writeSnapshot(_ snapshot: JournalSnapshot, of machine: String) throws {
        if crashed.current { throw InjectedFailure() }
        try base.writeSnapshot(snapshot, of: machine)
    }

    func recover(_ machine: String) throws -> JournalRecovery { try base.recover(machine) }
    func lastSequence(of machine: String) throws -> Int64? { try base.lastSequence(of: machine) }

    // A dead process holds nothing (D117): a "crashed" store still gives the id back.
    func claim(_ machine: String, for owner: JournalOwner) throws -> JournalOwner? { try base.claim(machine, for: owner) }
    func release(_ machine: String, by owner: JournalOwner) throws { try base.release(machine, by: owner) }
}
