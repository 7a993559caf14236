// "Export as a test": the steps of an instance as a MachineTest snippet (I40-I43).

import Foundation
import StateLoop

/// Writes the steps of one machine instance as Swift that drives `MachineTest` (Docs/Testing.md)
/// from `.initial` through the last selected step: the steps before the selection unchecked
/// (`checksState = false`, T14), each selected step as `send`, `answer` + `receive`, or
/// `advance` + `receive` with its state changes as assignments, and the runs and timers still
/// going at the end let go (`skipPendingRuns()`, `skipTimers()`), so that the snippet passes
/// as it is, pasted into a test that imports the machine's module and `StateLoopTesting`.
///
/// How a step is written (I41): the event of a timer that `fired` with the step (I16) is
/// received after `advance(by:)` moves the harness's clock to the timer's deadline (the `armed`
/// message's deadline less the time of the step that armed it); the event of a run that
/// `finished` with the step (I14) is its answer, then received; any other event is sent. Each
/// top-level field of the state dump whose text changed is one assignment `$0.field = text`.
public struct TestExport {
    public var machine: String
    public var instance: String
    /// The instance's steps and runs and timers, in order (no hello).
    public var messages: [InspectorMessage]

    public init(machine: String, instance: String, messages: [InspectorMessage]) {
        self.machine = machine
        self.instance = instance
        self.messages = messages
    }

    /// The snippet for steps `from...to` (seq numbers, 1 or more).
    public func snippet(from: Int, to: Int) throws(InspectorError) -> String {
        guard from >= 1, from <= to else { throw .cannotExport("choose steps 1 or later, the first no later than the last (asked for \(from) to \(to))") }
        let steps = messages.filter { $0.type == "step" }
        guard let first = steps.first, first.seq == 0 else {
            throw .cannotExport("the first messages of \(instance) were dropped, so its initial state is unknown; export a machine the inspector saw from its start")
        }
        for (index, step) in steps.enumerated() where step.seq != index {
            throw .cannotExport("step \(index) of \(instance) is missing (the buffer dropped messages); export steps before it")
        }
        guard to < steps.count else { throw .cannotExport("\(instance) has no step \(to) (its last is \(steps.count - 1))") }

        var lines = [
            "// \(instance), steps \(from)...\(to), exported by stateloop inspect.",
            "let test = MachineTest(\(machine).self, state: .initial)",
        ]
        var clock = Clock()
        clock.note(messages.filter { $0.seq == 0 && $0.type != "step" }, at: 0, time: first.number("time") ?? 0)
        for seq in 1...to {
            let step = steps[seq]
            if seq == 1 && from > 1 { lines.append("test.checksState = false") }
            if seq == from && from > 1 { lines.append("test.checksState = true") }
            let after = messages.filter { $0.seq == seq && $0.type != "step" }
            lines += try self.lines(of: step, previous: steps[seq - 1], after: after, clock: &clock, checked: seq >= from)
            clock.note(after, at: seq, time: step.number("time") ?? 0)
        }
        let pending = clock.pendingRuns(through: to, in: messages)
        if pending { lines.append("test.skipPendingRuns()") }
        if clock.hasArmedTimers { lines.append("test.skipTimers()") }
        lines.append("test.finish()")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The calls of one step: how its event came, and what changed.
    private func lines(of step: InspectorMessage, previous: InspectorMessage, after: [InspectorMessage], clock: inout Clock, checked: Bool) throws(InspectorError) -> [String] {
        let seq = step.seq ?? 0
        guard let event = step["event"] else { throw .cannotExport("step \(seq) has no event") }
        try Self.checkNotRedacted(event, "the event of step \(seq)")
        var lines: [String] = []
        let call: String
        if let fired = after.first(where: { $0.type == "timer" && $0["phase"] == "fired" }), let name = fired["name"] {
            let wait = clock.advance(toDeadlineOf: name)
            if wait > 0 { lines.append("test.advance(by: .milliseconds(\(wait)))") }
            call = "test.receive(\(TimerEvent.arguments(of: event) ?? event))"
        } else if let answered = after.first(where: { $0.type == "run" && $0["phase"] == "finished" }), let key = answered["key"] {
            try Self.checkNotRedacted(key, "the run answered by step \(seq)")
            lines.append("test.answer(\(key), with: \(event))")
            call = "test.receive(\(event))"
        } else {
            call = "test.send(\(event))"
        }
        guard checked else { return lines + [call] }
        let changes = try StateDump.changes(from: previous.stateLines ?? [], to: step.stateLines ?? [], step: seq)
        if changes.isEmpty { return lines + [call] }
        lines.append(call + " {")
        for change in changes {
            try Self.checkNotRedacted(change.value, "field \(change.field) of step \(seq)")
            lines.append("    $0.\(change.field) = " + change.value.replacingOccurrences(of: "\n", with: "\n    "))
        }
        lines.append("}")
        return lines
    }

    /// A redacted value (I11 of the app side) never left the app, so no test can state it.
    private static func checkNotRedacted(_ text: String, _ what: String) throws(InspectorError) {
        if text.contains(ValueDump.redacted) {
            throw .cannotExport("\(what) is redacted (`redact: true` in the spec), so the inspector never saw it; export steps that do not show it")
        }
    }

    /// The harness's clock, which moves only by `advance(by:)`, and the timers armed on it.
    private struct Clock {
        var now = 0
        /// Armed timers: their deadline on the harness's clock, by name.
        var timers: [String: Int] = [:]

        /// Arms and disarms the timers the messages after step `seq` (at `time`) report.
        mutating func note(_ messages: [InspectorMessage], at seq: Int, time: Double) {
            for message in messages where message.type == "timer" {
                guard let name = message["name"] else { continue }
                switch message["phase"] {
                case "armed": timers[name] = now + Int(((message.number("deadline") ?? time) - time).rounded())
                default: timers.removeValue(forKey: name)
                }
            }
        }

        /// Moves to the deadline of the timer `name`, which fired, and says by how much.
        mutating func advance(toDeadlineOf name: String) -> Int {
            guard let deadline = timers[name] else { return 0 }
            let wait = max(0, deadline - now)
            now += wait
            return wait
        }

        var hasArmedTimers: Bool { !timers.isEmpty }

        /// True when a run started at or before step `to` has not been cancelled or finished by then.
        func pendingRuns(through to: Int, in messages: [InspectorMessage]) -> Bool {
            var open: [String: Int] = [:]
            for message in messages where message.type == "run" && (message.seq ?? 0) <= to {
                let key = message["key"] ?? ""
                open[key, default: 0] += message["phase"] == "started" ? 1 : -1
            }
            return open.values.contains { $0 > 0 }
        }
    }
}

/// The top-level fields of a state dump (`ValueDump.lines(of:)`: `State(`, a field a line at two
/// spaces, continuation lines deeper, `)`).
enum StateDump {
    struct Change: Equatable {
        var field: String
        var value: String
    }

    /// Each field by name with its text, in order.
    static func fields(_ lines: [String]) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        // A one-line dump (`State(mode: .a)`) has no fields to read line by line.
        for line in lines.dropFirst().dropLast() {
            if line.hasPrefix("  ") && !line.hasPrefix("   "), let colon = line.range(of: ": ") {
                let name = String(line[line.index(line.startIndex, offsetBy: 2)..<colon.lowerBound])
                fields.append((name, String(line[colon.upperBound...])))
            } else if !fields.isEmpty {
                // A continuation of a multi-line value, one level less deep in the snippet.
                fields[fields.count - 1].value += "\n" + String(line.dropFirst(2))
            }
        }
        return fields.map { field in
            var value = field.value
            if value.hasSuffix(",") { value.removeLast() }
            return (field.name, value)
        }
    }

    /// The fields of `new` whose text differs from `old`'s, in `new`'s order.
    static func changes(from old: [String], to new: [String], step: Int) throws(InspectorError) -> [Change] {
        let before = Dictionary(fields(old), uniquingKeysWith: { first, _ in first })
        let after = fields(new)
        if after.isEmpty && new != old {
            throw .cannotExport("the state of step \(step) is not a dump of a struct with one field a line")
        }
        return after.filter { before[$0.name] != $0.value }.map { Change(field: $0.name, value: $0.value) }
    }
}
