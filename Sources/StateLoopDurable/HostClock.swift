// HostClock: the clock of a MachineHost (Docs/Hosting.md H36) - the wall-clock time its records
// are stamped with and its timer rows fall due by (D38), and a wait until a time of it. A setting,
// so that a test's `ManualHostClock` fires timers without waiting.
//
// Invariants:
// - `now()` is nanoseconds since 1970-01-01 00:00 UTC, the unit of a timer row's deadline.
// - `sleep(until:)` returns once `now()` has reached the deadline, or throws `CancellationError`
//   when its task is cancelled; the system clock checks the time again at least once a second, so
//   a wall clock set back delays a deadline by as much and one set forward brings it due.

import Foundation

/// The wall-clock time of a host, and a wait until a time of it (H36).
public protocol HostClock: Sendable {
    /// Now, in nanoseconds since 1970-01-01 00:00 UTC.
    func now() -> Int64
    /// Returns once `now()` is at or past `deadline`; throws `CancellationError` when the
    /// calling task is cancelled first.
    func sleep(until deadline: Int64) async throws
}

extension HostClock where Self == SystemHostClock {
    /// The system's real-time clock.
    public static var system: SystemHostClock { SystemHostClock() }
}

/// The system's real-time clock (`CLOCK_REALTIME`), as `WallClock.system` reads it.
public struct SystemHostClock: HostClock {
    /// The longest it sleeps before it reads the wall clock again: a clock set forward brings a
    /// deadline due within it.
    static let recheck: Int64 = 1_000_000_000

    public init() {}

    public func now() -> Int64 {
        WallClock.system.now()
    }

    public func sleep(until deadline: Int64) async throws {
        while true {
            let left = deadline &- now()
            guard left > 0 else { return }
            try await Task.sleep(nanoseconds: UInt64(min(left, Self.recheck)))
        }
    }
}

/// A clock that moves only when told (`advance(by:)`, `set(_:)`): a test's host fires timers
/// without waiting, and the sleepers whose deadline a move reaches return.
public final class ManualHostClock: HostClock, @unchecked Sendable {
    private struct Sleeper {
        let deadline: Int64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = NSLock()
    // Guarded by `lock`.
    private var time: Int64
    private var sleepers: [Int: Sleeper] = [:]
    private var nextSleeper = 0

    /// A clock that reads `start` (nanoseconds since the Unix epoch) until it is moved.
    public init(start: Int64 = 1_795_651_200_000_000_000) {
        time = start
    }

    public func now() -> Int64 {
        lock.withLock { time }
    }

    /// Moves the clock forward by `duration` and wakes the sleepers it brings due.
    public func advance(by duration: Duration) {
        let nanoseconds = duration.hostNanoseconds
        move { $0 &+ nanoseconds }
    }

    /// Sets the clock to `time` (earlier or later), and wakes the sleepers it brings due.
    public func set(_ time: Int64) {
        move { _ in time }
    }

    /// How many tasks sleep on the clock (a test waits for the host's scheduler to be asleep).
    public var sleeping: Int {
        lock.withLock { sleepers.count }
    }

    public func sleep(until deadline: Int64) async throws {
        let number = lock.withLock { () -> Int in
            nextSleeper += 1
            return nextSleeper
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let due = lock.withLock { () -> Bool in
                    if Task.isCancelled || time >= deadline { return true }
                    sleepers[number] = Sleeper(deadline: deadline, continuation: continuation)
                    return false
                }
                if due {
                    if Task.isCancelled { continuation.resume(throwing: CancellationError()) } else { continuation.resume() }
                }
            }
        } onCancel: {
            lock.withLock { sleepers.removeValue(forKey: number) }?.continuation.resume(throwing: CancellationError())
        }
    }

    private func move(_ change: (Int64) -> Int64) {
        let woken = lock.withLock { () -> [Sleeper] in
            time = change(time)
            let due = sleepers.filter { $0.value.deadline <= time }
            for key in due.keys { sleepers[key] = nil }
            return Array(due.values)
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }
}

extension Duration {
    /// The duration in nanoseconds, the unit of a host's clock; `Int64.max` for one too long for it.
    var hostNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (sum, pastMax) = nanoseconds.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflow || pastMax ? .max : sum
    }
}
