// `stateloop-demo durable --journal FILE --events N [--expected]`: the Till machine
// (Specs/Till.machine.yml) journaled in a SQLite file, driven through a fixed sequence of N
// events; killed at any moment and started again with the same arguments, it resumes from the
// journal (README "Surviving a crash"). The interface is fixed: it is how durability is checked
// from outside.
//
// Output, one line each, flushed at once:
// - `resumed K`: the journal held the first K events (0 for a new journal);
// - `acked K`: event K is durable (reported by the state after it, which is shown only once the
//   event is in the journal);
// - `final <digest>`: every event is durable and every one-shot run has run; `<digest>` is the
//   FNV-1a hash of the final state's journal bytes.
// With `--expected`, only `expected <digest>`: the digest of the pure reduction of all N events.
// With `--replay`, only the replay check of FILE (Docs/Durability.md D81, D87): `replay ok N
// records, S snapshots`, or the first mismatch and exit status 1.

import Foundation
import StateLoop
import StateLoopDurable
import StateLoopExamples
import Synchronization

enum DurableDemo {
    struct Arguments {
        var journal = ""
        var events = 0
        var expected = false
        var replay = false

        init(_ arguments: [String]) throws(UsageError) {
            var rest = arguments[...]
            while let argument = rest.popFirst() {
                switch argument {
                case "--journal": journal = rest.popFirst() ?? ""
                case "--events":
                    guard let count = rest.popFirst().flatMap(Int.init), count >= 0 else { throw UsageError("--events takes a count of events, 0 or more") }
                    events = count
                case "--expected": expected = true
                case "--replay": replay = true
                default: throw UsageError("unknown argument '\(argument)'")
                }
            }
            if journal.isEmpty && !expected { throw UsageError("--journal FILE is required") }
        }
    }

    struct UsageError: Error, CustomStringConvertible {
        let description: String
        init(_ message: String) { description = message }
    }

    /// Event `k` (from 1) of the fixed sequence: every tenth closes a batch, every third of the
    /// others is a debit.
    static func event(_ k: Int) -> Till.Event {
        if k % 10 == 0 { return .close(n: k) }
        if k % 3 == 0 { return .debit(n: k, amount: k % 7 + 1) }
        return .credit(n: k, amount: (k &* 7_919) % 1_000)
    }

    /// FNV-1a (64 bits) of the state's journal bytes: stable across processes (the encoding is
    /// canonical).
    static func digest(_ state: Till.State) -> String {
        var writer = JournalWriter()
        state.encode(to: &writer)
        return fnv1a(writer.bytes)
    }

    /// FNV-1a (64 bits) of `bytes`, as 16 hexadecimal digits.
    static func fnv1a(_ bytes: some Sequence<UInt8>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Writes `line` to standard output at once (one `write`, no buffer a kill could lose).
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func main(_ arguments: [String]) async -> Int32 {
        await main(
            "durable", usage: "usage: stateloop-demo durable --journal FILE --events N [--expected] | --journal FILE --replay",
            arguments, parse: Arguments.init
        ) { options in
            if options.expected {
                var state = Till.State.initial
                for k in stride(from: 1, through: options.events, by: 1) { Till.reduce(&state, event(k)) }
                say("expected \(digest(state))")
                return 0
            }
            if options.replay {
                let report = try Till.replayJournal(SQLiteJournalFile(path: options.journal), id: "till")
                say(report.description)
                return report.mismatch == nil ? 0 : 1
            }
            try await run(options)
            return 0
        }
    }

    /// A demo's `main`: `parse` reads its arguments (for ones it cannot run with, the error and
    /// `usage` go to standard error, status 64), then `run` runs it and gives its status (an error
    /// it throws goes to standard error, status 1).
    static func main<Options>(
        _ verb: String, usage: String, _ arguments: [String], parse: ([String]) throws(UsageError) -> Options,
        run: (Options) async throws -> Int32
    ) async -> Int32 {
        let options: Options
        do {
            options = try parse(arguments)
        } catch {
            FileHandle.standardError.write(Data("stateloop-demo \(verb): \(error)\n\(usage)\n".utf8))
            return 64
        }
        do {
            return try await run(options)
        } catch {
            FileHandle.standardError.write(Data("stateloop-demo \(verb): \(error)\n".utf8))
            return 1
        }
    }

    /// The `archive` runs write `archive <batch> key <key>` to FILE.runs; `audit` does nothing.
    final class Effects: Till.Effects {
        let log: FileHandle
        let path: String

        init(journal: String) throws {
            path = journal + ".runs"
            if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
            log = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try log.seekToEnd()
        }

        func audit(_ request: Int) async {}

        func archive(_ request: Int) async {
            log.write(Data("archive \(request) key \(OneShotRun.key ?? -1)\n".utf8))
        }

        /// The keys archived so far, by this process and the ones before it.
        func archivedKeys() -> Set<Int> {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            return Set(text.split(separator: "\n").compactMap { line in line.split(separator: " ").last.flatMap { Int($0) } })
        }
    }

    static func run(_ options: Arguments) async throws {
        let store = try SQLiteJournalStore(path: options.journal, durability: .processCrash)
        let effects = try Effects(journal: options.journal)
        let latest = Mutex<Till.State?>(nil)
        /// Set once the system has ended (its stop snapshot written): `.success` or the error.
        let ended = Mutex<Result<Void, any Error>?>(nil)
        let till = Till.durable(
            id: "till", store: store, initial: .initial,
            feedbacks: Till.feedbacks(effects, clock: ContinuousClock()),
            onState: { state in
                let previous = latest.withLock { latest in
                    defer { latest = state }
                    return latest
                }
                if let previous {
                    if state.posted != previous.posted { say("acked \(state.posted)") }
                } else {
                    say("resumed \(state.posted)")
                }
            },
            onStop: { error in ended.withLock { $0 = error.map { .failure($0) } ?? .success(()) } })
        try await till.recovered()
        let resumed = latest.withLock { $0?.posted } ?? 0
        for k in stride(from: resumed + 1, through: options.events, by: 1) { till.send(event(k)) }
        // Every event durable, and every one-shot run it queued run (by this process or one before).
        while true {
            if case .failure(let error) = ended.withLock({ $0 }) { throw error }
            let state = latest.withLock { $0 }
            if let state, state.posted >= options.events, Set(0..<Till.pendingRuns(in: state).queued).isSubset(of: effects.archivedKeys()) {
                till.stop()
                // Its last snapshot written, so that the next start reads no record.
                while ended.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(1)) }
                if case .failure(let error) = ended.withLock({ $0 }) { throw error }
                say("final \(digest(state))")
                return
            }
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}
