// JournalOwner: who runs a machine id (Docs/Durability.md D117, D118). A durable system takes its
// id in the store before it recovers it and gives it back when it ends, so a second process (or a
// second system of this process) is refused before it shows a state or starts an effect.
//
// Invariants:
// - An owner is a process (its id and the time it started, so that a reused pid is not taken for
//   the process that died) and one durable system in it (a number drawn at its start).
// - An owner whose process is no longer running holds nothing: a killed process's ids are taken
//   over at the next start, without anyone releasing them.

import Foundation

/// One durable system of one process: what a store keeps beside a machine id it runs (D117).
public struct JournalOwner: Sendable, Equatable, CustomStringConvertible {
    /// The process's id.
    public var pid: Int32
    /// When the process started, as the system tells it (on Linux, clock ticks since boot from
    /// `/proc/<pid>/stat`); 0 where this build cannot tell, and then only `pid` is compared.
    public var started: Int64
    /// The durable system in that process: a number drawn when it starts.
    public var system: Int64

    /// The owner `system` of process `pid`, started at `started`.
    public init(pid: Int32, started: Int64, system: Int64) {
        self.pid = pid
        self.started = started
        self.system = system
    }

    /// A new owner: this process, and a system number drawn at random.
    public static func next() -> JournalOwner {
        JournalOwner(pid: ProcessInfo.processInfo.processIdentifier, started: thisProcessStarted, system: .random(in: 1 ... .max))
    }

    /// Whether the process this owner names is still running: this process is (if `started` is
    /// its own start); another one is when it exists, is not a zombie, and started at `started`.
    public var isRunning: Bool {
        if pid == ProcessInfo.processInfo.processIdentifier { return started == Self.thisProcessStarted }
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let status = Self.status(of: pid) else { return started == 0 }
        return !status.zombie && (started == 0 || status.started == started)
    }

    /// `pid N`, as messages name it.
    public var description: String { "pid \(pid)" }

    private static let thisProcessStarted: Int64 = status(of: ProcessInfo.processInfo.processIdentifier)?.started ?? 0

    /// A process's state and start time, from `/proc/<pid>/stat` (Linux); `nil` where there is none.
    private static func status(of pid: Int32) -> (zombie: Bool, started: Int64)? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let name = stat.range(of: ")", options: .backwards)
        else { return nil }
        // After the name (which may hold spaces): the state (field 3), ..., the start time (field 22).
        let fields = stat[name.upperBound...].split(separator: " ")
        guard fields.count > 19, let started = Int64(fields[19]) else { return nil }
        return (fields[0] == "Z", started)
    }
}
