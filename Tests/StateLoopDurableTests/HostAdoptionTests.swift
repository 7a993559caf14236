// A host and the journals durable systems wrote (Docs/Hosting.md H66-H68): a hosted id is the
// host's alone, the first run of a host adopts its machine's unhosted ids, and after it an id a
// durable system wrote since is taken only by `adopt(_:)`.

import Foundation
import StateLoop
import StateLoopTestSupport
import Testing

@testable import StateLoopDurable

@Suite struct HostAdoptionTests {
    /// Journals `events` to `id` through a durable system of `M` on `store`, then stops it.
    static func journal<M: DurableMachine>(_ machine: M.Type, _ id: String, _ events: [M.Event], on store: any JournalStore, initial: M.State, last: M.State) async throws where M.State: Equatable {
        let life = Life(machine, id: id, store: store, initial: initial, feedbacks: [])
        try await life.system.recovered()
        for event in events { life.system.send(event) }
        try await life.wait { $0 == last }
        life.system.stop()
        #expect(try await life.waitForStop() == nil)
    }

    @Test("H66: a durable system started on a hosted instance's id is refused with DurableError.hostedMachine before it recovers anything", arguments: StoreKind.allCases)
    func h66ADurableSystemIsRefusedAHostedID(kind: StoreKind) async throws {
        let store = try kind.make()
        let host = MachineHost<Tally>(store: store, initial: { _ in 0 }).started()
        _ = try await host.send(5, to: "m")
        host.stop()
        let life = Life(Tally.self, id: "m", store: store, initial: 0, feedbacks: [])
        let error = try await life.waitForStop()
        #expect(error as? DurableError == .hostedMachine(machine: "m", host: Tally.journalName))
        #expect("\(error!)" == "instance 'm' is run by a MachineHost of '\(Tally.journalName)'; send it events through the host")
        #expect(life.states.current.isEmpty, "the refused system showed a state")
        #expect(try store.lastSequence(of: "m") == 1)
    }

    @Test("H67: the first run of a host adopts every id whose latest snapshot names its machine and that has no instance row (recovered once, its row written), leaves another machine's ids, and marks the store as indexed; a later run adopts nothing", arguments: StoreKind.allCases)
    func h67TheFirstRunAdoptsUnhostedInstances(kind: StoreKind) async throws {
        let store = try kind.make()
        try await Self.journal(Tally.self, "a", [2, 3], on: store, initial: 0, last: 5)
        try await Self.journal(Tally.self, "b", [7], on: store, initial: 0, last: 7)
        try await Self.journal(Ledger.self, "other", [1], on: store, initial: [], last: [1])
        #expect(try await store.isIndexed(Tally.journalName) == false)
        let host = MachineHost<Tally>(store: store, initial: { _ in 0 }).started()
        #expect(try await host.send(10, to: "a").state == 15)
        #expect(try await store.hostedInstance("a")?.row.host == Tally.journalName)
        #expect(try await store.hostedInstance("b")?.row.host == Tally.journalName, "b was not adopted")
        #expect(try await store.hostedInstance("other") == nil, "another machine's id was adopted")
        #expect(try await store.isIndexed(Tally.journalName))
        #expect(try await host.state(of: "b") == 7)
        host.stop()
        // Indexed, even once the host gave its machine back.
        #expect(try await store.isIndexed(Tally.journalName))
        #expect(try store.lastSequence(of: "other") == 1 && store.recover("other").snapshot?.sequence == 1, "another machine's journal was written")
        try await Self.journal(Tally.self, "c", [1], on: store, initial: 0, last: 1)
        let again = MachineHost<Tally>(store: store, initial: { _ in 0 }).started()
        #expect(try await again.send(1, to: "a").state == 16)
        #expect(try await store.hostedInstance("c") == nil, "a later run adopted")
        again.stop()
    }

    @Test("H68: once the store is indexed, a send to an id a durable system wrote since throws HostError.notHosted and writes nothing; adopt(_:) takes it (recovered once, its row written) and its sends go on from its journal")
    func h68AnIDWrittenSinceIsAdoptedOnlyOnRequest() async throws {
        let store = InMemoryJournalStore()
        let host = MachineHost<Tally>(store: store, initial: { _ in 0 }).started()
        _ = try await host.send(1, to: "hosted")
        try await Self.journal(Tally.self, "late", [4], on: store, initial: 0, last: 4)
        await #expect(throws: HostError.notHosted("late")) { try await host.send(1, to: "late") }
        #expect(store.lastSequence(of: "late") == 1 && store.hostedInstance("late") == nil)
        #expect("\(HostError.notHosted("late"))" == "'late' has a journal written outside a host: run it with `durable(id:)`, or take it with `adopt(_:)`; nothing was written")
        try await host.adopt("late")
        #expect(store.hostedInstance("late")?.row.host == Tally.journalName)
        let receipt = try await host.send(1, to: "late")
        #expect(receipt.sequence == 2 && receipt.state == 5)
        try await host.adopt("late")
        await #expect(throws: HostError.unknownInstance("never")) { try await host.adopt("never") }
        host.stop()
    }
}
