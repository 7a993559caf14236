import Foundation

/// A clock whose time moves only when a test calls `advance(by:)`, so timer tests wait for no
/// real time. `waitForSleepers` lets a test wait until a timer is really armed before advancing.
final class ManualClock: Clock, @unchecked Sendable {
    /// A point on the clock's time line: the time advanced since the clock was made.
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    // Guarded by `lock`; @unchecked Sendable rests on that.
    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var nextID = 0
    private var sleepers: [Sleeper] = []
    private var cancelled: Set<Int> = []
    private var waiters: [(predicate: ([Instant]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []

    var now: Instant { lock.withLock { current } }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = lock.withLock { nextID += 1; return nextID }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                lock.lock()
                if cancelled.remove(id) != nil {
                    lock.unlock()
                    continuation.resume(throwing: CancellationError())
                } else if deadline <= current {
                    lock.unlock()
                    continuation.resume()
                } else {
                    sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    let ready = takeReadyWaiters()
                    lock.unlock()
                    ready.forEach { $0.resume() }
                }
            }
        } onCancel: {
            lock.lock()
            let sleeper = sleepers.firstIndex { $0.id == id }.map { sleepers.remove(at: $0) }
            if sleeper == nil { cancelled.insert(id) }
            let ready = takeReadyWaiters()
            lock.unlock()
            sleeper?.continuation.resume(throwing: CancellationError())
            ready.forEach { $0.resume() }
        }
    }

    /// Moves time forward and wakes every sleeper whose deadline has come, earliest first.
    func advance(by duration: Duration) {
        lock.lock()
        current = current.advanced(by: duration)
        let due = sleepers.filter { $0.deadline <= current }.sorted { $0.deadline < $1.deadline }
        sleepers.removeAll { $0.deadline <= current }
        let ready = takeReadyWaiters()
        lock.unlock()
        due.forEach { $0.continuation.resume() }
        ready.forEach { $0.resume() }
    }

    /// Returns once the deadlines of the sleeping tasks satisfy `predicate`.
    func waitForSleepers(_ predicate: @escaping ([Instant]) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if predicate(sleepers.map(\.deadline)) {
                lock.unlock()
                continuation.resume()
            } else {
                waiters.append((predicate, continuation))
                lock.unlock()
            }
        }
    }

    /// Returns once exactly one task sleeps, until `delay` from now.
    func waitForOneSleeper(wakingIn delay: Duration) async {
        let deadline = now.advanced(by: delay)
        await waitForSleepers { $0 == [deadline] }
    }

    /// Removes and returns the waiters whose predicate now holds. Call with `lock` held.
    private func takeReadyWaiters() -> [CheckedContinuation<Void, Never>] {
        let deadlines = sleepers.map(\.deadline)
        let ready = waiters.filter { $0.predicate(deadlines) }
        waiters.removeAll { $0.predicate(deadlines) }
        return ready.map(\.continuation)
    }
}
