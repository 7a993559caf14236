// `stateloop-demo host --journal FILE --instances N --events M [--expected]`: N tabs
// (Specs/Tab.machine.yml) in one MachineHost, journaled in a SQLite file (or, built with the
// Postgres trait, `--store postgres://… [--schema S] [--lease SECONDS]`: a PostgreSQL schema that
// several such processes share, one running the tabs and the others standing by, Docs/Postgres.md
// G40), driven through a fixed
// sequence of M numbered events spread over them; killed at any moment and started again with the
// same arguments, it resumes each tab after the last of its events its journal holds
// (Docs/Hosting.md H70-H72). The interface is fixed: it is how a host's durability is checked
// from outside.
//
// Output, one line each, flushed at once:
// - `acked <id> <k>`: event k of the sequence, sent to tab <id>, is durable (its send returned);
// - `final <digest>`: every event is durable, and every tab's reminders (pending sends) and its
//   settling timer have fired; `<digest>` is the FNV-1a hash, over the tabs in order `tab-0` …
//   `tab-<N-1>`, of each one's id, context fields and whether it is settled.
// With `--expected`, only `expected <digest>`: the digest of the pure reduction, running nothing.

import Foundation
import StateLoop
import StateLoopDurable
import StateLoopExamples
#if Postgres
import StateLoopPostgres
#endif
import Synchronization

enum HostDemo {
    struct Arguments {
        var journal = ""
        var store = ""
        var schema = "stateloop"
        var lease = 10.0
        var instances = 0
        var events = 0
        var expected = false

        init(_ arguments: [String]) throws(DurableDemo.UsageError) {
            var rest = arguments[...]
            func count(_ name: String, least: Int) throws(DurableDemo.UsageError) -> Int {
                guard let count = rest.popFirst().flatMap(Int.init), count >= least else {
                    throw DurableDemo.UsageError("\(name) takes a count, \(least) or more")
                }
                return count
            }
            while let argument = rest.popFirst() {
                switch argument {
                case "--journal": journal = rest.popFirst() ?? ""
                case "--store": store = rest.popFirst() ?? ""
                case "--schema": schema = rest.popFirst() ?? ""
                case "--lease":
                    guard let seconds = rest.popFirst().flatMap(Double.init), seconds >= 0.3 else {
                        throw DurableDemo.UsageError("--lease takes a number of seconds, 0.3 or more")
                    }
                    lease = seconds
                case "--instances": instances = try count("--instances", least: 1)
                case "--events": events = try count("--events", least: 0)
                case "--expected": expected = true
                default: throw DurableDemo.UsageError("unknown argument '\(argument)'")
                }
            }
            if instances == 0 { throw DurableDemo.UsageError("--instances N is required") }
            if journal.isEmpty == store.isEmpty && !expected { throw DurableDemo.UsageError("one of --journal FILE and --store URL is required") }
        }
    }

    /// The id of tab `index`.
    static func id(_ index: Int) -> String { "tab-\(index)" }

    /// The tab event `k` (from 1) goes to: a fixed pseudo-random spread over `instances`.
    static func tab(of k: Int, instances: Int) -> Int {
        Int((UInt64(k) &* 0x9E37_79B9_7F4A_7C15) >> 33) % instances
    }

    /// Event `k` of the fixed sequence: every fifth is a round, the others orders.
    static func event(_ k: Int) -> Tab.Event {
        k % 5 == 0 ? .round(n: k) : .order(n: k, amount: (k &* 7_919) % 100 + 1)
    }

    /// The events of each tab, in order.
    static func plan(_ options: Arguments) -> [[Int]] {
        var plan = [[Int]](repeating: [], count: options.instances)
        for k in stride(from: 1, through: options.events, by: 1) { plan[tab(of: k, instances: options.instances)].append(k) }
        return plan
    }

    /// Whether `state` is where tab's `events` end: each reduced, each round's reminder come,
    /// and the tab settled by its timer.
    static func isDone(_ state: Tab.State, _ events: [Int]) -> Bool {
        state.posted == (events.last ?? 0) && state.reminders == state.rounds && (events.isEmpty || state.isIn(.settled))
    }

    /// The digest of the tabs' states, in tab order (H70).
    static func digest(_ states: [Tab.State]) -> String {
        var bytes: [UInt8] = []
        for (index, state) in states.enumerated() {
            bytes += Array(id(index).utf8) + [0]
            for field in [state.posted, state.total, state.rounds, state.reminders, state.checksum] {
                withUnsafeBytes(of: Int64(field).littleEndian) { bytes += $0 }
            }
            bytes.append(state.isIn(.settled) ? 1 : 0)
        }
        return DurableDemo.fnv1a(bytes)
    }

    /// The pure reduction of a tab's `events`, then of the deliveries of its pending sends and of
    /// its timers, as the host fires them once nothing else comes.
    static func reduced(_ events: [Int]) -> Tab.State {
        var state = Tab.State.initial
        for k in events { Tab.reduce(&state, event(k)) }
        while let send = Tab.sends(in: state).first { Tab.reduce(&state, send.delivery) }
        if !events.isEmpty { for timer in Tab.timers(in: state) { Tab.reduce(&state, timer.event) } }
        return state
    }

    static func main(_ arguments: [String]) async -> Int32 {
        await DurableDemo.main(
            "host", usage: "usage: stateloop-demo host (--journal FILE | --store postgres://… [--schema S] [--lease SECONDS]) --instances N --events M [--expected]",
            arguments, parse: Arguments.init
        ) { options in
            if options.expected {
                DurableDemo.say("expected \(digest(plan(options).map(reduced)))")
            } else {
                try await run(options)
            }
            return 0
        }
    }

    static func run(_ options: Arguments) async throws {
        let plan = plan(options)
        let index = Dictionary(uniqueKeysWithValues: (0..<options.instances).map { (id($0), $0) })
        /// Each tab's last durable state: its journal's at the start, then each one the host shows.
        let latest = Latest(count: options.instances)
        let host = MachineHost<Tab>(
            store: try store(options),
            initial: { _ in .initial },
            onState: { id, state in
                guard let tab = index[id] else { return }
                latest.states.withLock { $0[tab] = state }
            })
        let running = Task { try await host.run() }
        defer { host.stop() }
        // A standby reads the tabs' states once it runs them: they are the last owner's then.
        try await host.ready()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for tab in 0..<options.instances where !plan[tab].isEmpty {
                group.addTask {
                    let restored = try await host.state(of: id(tab)) ?? .initial
                    // A state the host showed meanwhile is as new as the journal's, or newer.
                    latest.states.withLock { if $0[tab] == nil { $0[tab] = restored } }
                    for k in plan[tab] where k > restored.posted {
                        _ = try await host.send(event(k), to: id(tab))
                        DurableDemo.say("acked \(id(tab)) \(k)")
                    }
                }
            }
            try await group.waitForAll()
        }
        // Every reminder and every settling timer fired (by this process or one before).
        while true {
            let states = latest.states.withLock { $0 }
            if zip(states, plan).allSatisfy({ state, events in events.isEmpty || state.map { isDone($0, events) } == true }) {
                host.shutdown()
                try await running.value
                DurableDemo.say("final \(digest(states.map { $0 ?? .initial }))")
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// The store the arguments name.
    static func store(_ options: Arguments) throws -> any HostJournalStore {
        if !options.journal.isEmpty { return try SQLiteJournalStore(path: options.journal, durability: .processCrash) }
        #if Postgres
        return try PostgresJournalStore(url: options.store, schema: options.schema, leaseDuration: .milliseconds(Int(options.lease * 1_000)))
        #else
        throw DurableDemo.UsageError("--store needs the PostgreSQL store: build with --traits Postgres")
        #endif
    }

    /// The tabs' last durable states, shared by the host's `onState` and the senders.
    final class Latest: Sendable {
        let states: Mutex<[Tab.State?]>

        init(count: Int) {
            states = Mutex([Tab.State?](repeating: nil, count: count))
        }
    }
}
