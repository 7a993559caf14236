// TestClock: a manual Clock for tests - time moves only when a test calls `advance(by:)`.

import Synchronization

/// A clock whose time stands still until `advance(by:)`; sleepers wake when their deadline is
/// reached, or throw `CancellationError` when their task is cancelled.
///
/// `waitForSleepers(count:)` lets a test wait until an effect has really started sleeping
/// before it advances time, so no test needs a real delay to line things up.
final class TestClock: Clock {
    /// A point on the test clock's time line, as an offset from its start.
    struct Instant: InstantProtocol {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Shared {
        var now = Instant(offset: .zero)
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
        /// Sleepers whose task was cancelled before they registered.
        var cancelledEarly: Set<UInt64> = []
        var countWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let shared = Mutex(Shared())

    var now: Instant { shared.withLock { $0.now } }
    var minimumResolution: Duration { .zero }

    /// How many tasks are sleeping on this clock right now.
    var sleeperCount: Int { shared.withLock { $0.sleepers.count } }

    func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = shared.withLock { shared in
            shared.nextID += 1
            return shared.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case wake, cancel, wait([CheckedContinuation<Void, Never>]) }
                let outcome = shared.withLock { shared -> Outcome in
                    if shared.cancelledEarly.remove(id) != nil { return .cancel }
                    if deadline <= shared.now { return .wake }
                    shared.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    let count = shared.sleepers.count
                    let ready = shared.countWaiters.filter { $0.count <= count }.map(\.continuation)
                    shared.countWaiters.removeAll { $0.count <= count }
                    return .wait(ready)
                }
                switch outcome {
                case .wake: continuation.resume()
                case .cancel: continuation.resume(throwing: CancellationError())
                case .wait(let ready): for waiter in ready { waiter.resume() }
                }
            }
        } onCancel: {
            let sleeper = shared.withLock { shared -> Sleeper? in
                if let index = shared.sleepers.firstIndex(where: { $0.id == id }) {
                    return shared.sleepers.remove(at: index)
                }
                shared.cancelledEarly.insert(id)
                return nil
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward and wakes every sleeper whose deadline has come, earliest first.
    func advance(by duration: Duration) {
        let due = shared.withLock { shared -> [Sleeper] in
            shared.now = shared.now.advanced(by: duration)
            let now = shared.now
            let due = shared.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            shared.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Returns once at least `count` tasks are sleeping on this clock.
    func waitForSleepers(count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = shared.withLock { shared -> Bool in
                if shared.sleepers.count >= count { return true }
                shared.countWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}

/// Suspends until the current task is cancelled: the body of an effect that "runs for a long
/// time" without any real delay.
func untilCancelled() async {
    try? await TestClock().sleep(for: .seconds(1))
}
