// ManualClock: the one manual `Clock` of the test targets - time moves only when a test calls
// `advance(by:)`, so timer tests wait for no real time.

import Foundation

/// A clock whose time stands still until `advance(by:)`; sleepers wake when their deadline is
/// reached, or throw `CancellationError` when their task is cancelled.
///
/// `waitForSleepers(count:)`, `waitForSleepers(_:)` and `waitForOneSleeper(wakingIn:)` let a test
/// wait until an effect or timer has really started sleeping before it advances time, so no test
/// needs a real delay to line things up.
///
/// The state is guarded by an `NSLock` rather than `Synchronization.Mutex`: ThreadSanitizer on
/// Linux reports false races on `Mutex` (see `PlatformLock.swift` in the runtime), and `Mutex`
/// would need macOS 15. Continuations are always resumed after the lock is released.
public final class ManualClock: Clock, @unchecked Sendable {
    /// A point on the clock's time line: the time advanced since the clock was made.
    public struct Instant: InstantProtocol {
        public var offset: Duration

        public init(offset: Duration) { self.offset = offset }

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Waiter {
        let predicate: @Sendable ([Instant]) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    // Everything below is guarded by `lock`; `@unchecked Sendable` rests on that.
    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var nextID: UInt64 = 0
    private var sleepers: [Sleeper] = []
    /// Sleeps whose task was cancelled before they registered: they throw instead of registering.
    private var cancelledEarly: Set<UInt64> = []
    private var waiters: [Waiter] = []

    public init() {}

    public var now: Instant { lock.withLock { current } }
    public var minimumResolution: Duration { .zero }

    /// How many tasks are sleeping on this clock right now.
    public var sleeperCount: Int { lock.withLock { sleepers.count } }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = lock.withLock {
            nextID += 1
            return nextID
        }
        // A cancellation that lands after the sleep was woken leaves its id in `cancelledEarly`;
        // the handler cannot run once `withTaskCancellationHandler` has returned, so drop it here.
        defer { lock.withLock { _ = cancelledEarly.remove(id) } }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case cancel, wake, sleep([CheckedContinuation<Void, Never>]) }
                let outcome = lock.withLock { () -> Outcome in
                    // The handler ran first (the task was cancelled before this sleep registered).
                    if cancelledEarly.remove(id) != nil { return .cancel }
                    if deadline <= current { return .wake }
                    sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return .sleep(takeReadyWaiters())
                }
                switch outcome {
                case .cancel: continuation.resume(throwing: CancellationError())
                case .wake: continuation.resume()
                case .sleep(let ready): for waiter in ready { waiter.resume() }
                }
            }
        } onCancel: {
            let (sleeper, ready) = lock.withLock { () -> (Sleeper?, [CheckedContinuation<Void, Never>]) in
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else {
                    // Not registered yet (or already woken): the operation sees this and throws.
                    cancelledEarly.insert(id)
                    return (nil, [])
                }
                return (sleepers.remove(at: index), takeReadyWaiters())
            }
            sleeper?.continuation.resume(throwing: CancellationError())
            for waiter in ready { waiter.resume() }
        }
    }

    /// Moves time forward and wakes every sleeper whose deadline has come, earliest first.
    public func advance(by duration: Duration) {
        let (due, ready) = lock.withLock { () -> ([Sleeper], [CheckedContinuation<Void, Never>]) in
            current = current.advanced(by: duration)
            let now = current
            let due = sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            sleepers.removeAll { $0.deadline <= now }
            return (due, takeReadyWaiters())
        }
        for sleeper in due { sleeper.continuation.resume() }
        for waiter in ready { waiter.resume() }
    }

    /// Returns once at least `count` tasks are sleeping on this clock.
    public func waitForSleepers(count: Int) async {
        await waitForSleepers { $0.count >= count }
    }

    /// Returns once the deadlines of the sleeping tasks, in the order they started sleeping,
    /// satisfy `predicate`. The predicate runs with the clock's lock held: keep it a plain check.
    public func waitForSleepers(_ predicate: @escaping @Sendable ([Instant]) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = lock.withLock { () -> Bool in
                if predicate(sleepers.map(\.deadline)) { return true }
                waiters.append(Waiter(predicate: predicate, continuation: continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Returns once exactly one task sleeps, until `delay` from now.
    public func waitForOneSleeper(wakingIn delay: Duration) async {
        let deadline = now.advanced(by: delay)
        await waitForSleepers { $0 == [deadline] }
    }

    /// Removes and returns the waiters whose predicate now holds. Call with `lock` held.
    private func takeReadyWaiters() -> [CheckedContinuation<Void, Never>] {
        let deadlines = sleepers.map(\.deadline)
        var ready: [CheckedContinuation<Void, Never>] = []
        waiters.removeAll { waiter in
            guard waiter.predicate(deadlines) else { return false }
            ready.append(waiter.continuation)
            return true
        }
        return ready
    }
}
