// TimerWait: the waits of one timer feedback of one instance on a system clock - one Dispatch
// timer source for all of its armings, scheduled at the earliest armed deadline, so that memory
// stays flat however often a timer is re-armed or a send replaced. (A cancelled
// `clock.sleep(until:)` keeps its sleep until the old deadline passes on Linux: ~730 bytes per
// arming, 713 MB for a million re-arms of a 60 s timer, 148 MB for 200,000 debounced sends.)
//
// Invariants:
// - At most one Dispatch source per timer feedback and instance; `cancel()` releases it, and
//   nothing fires after it.
// - `armed` holds exactly the armings not yet fired, disarmed or cancelled; `queue` holds every
//   one of them (by deadline, then arming order) and at most as many dead entries again as live
//   ones plus a few, so what a disarmed arming leaves behind is dropped long before its deadline.

#if canImport(Dispatch)
import Dispatch
#endif
import HeapModule

/// The waits of one timer feedback of one running instance: its armed deadlines and, once armed
/// for the first time, one Dispatch timer source, until ``cancel()``.
///
/// An arming is keyed by its token. The source is rescheduled only when a new deadline is
/// earlier than its next wake; a source that wakes early (its arming was disarmed) sleeps again
/// until the earliest armed deadline. Disarming forgets the arming at once. When the source
/// wakes, every arming whose deadline has passed fires once, earliest first, on a Dispatch
/// thread; its event carries the arming's token, so an arming replaced meanwhile is dropped as
/// stale in the queue.
///
/// `@unchecked Sendable`: the fields are guarded by `lock`.
@usableFromInline
final class TimerWait: @unchecked Sendable {
    /// Whether timers on clocks of type `C` wait here rather than in `clock.sleep(until:)`:
    /// `SuspendingClock` where Dispatch exists (Dispatch time does not advance while the machine
    /// sleeps, like it), and `ContinuousClock` off Apple platforms (on Linux the two differ only
    /// across a suspend of the machine).
    @inlinable
    static func serves<C: Clock>(_ clock: C.Type) -> Bool {
        #if canImport(Dispatch)
        #if canImport(Darwin)
        return C.self == SuspendingClock.self
        #else
        return C.self == SuspendingClock.self || C.self == ContinuousClock.self
        #endif
        #else
        return false
        #endif
    }

    #if canImport(Dispatch)
    private struct Armed {
        let deadline: DispatchTime
        /// How many armings came before it on this wait: the order of armings due together, and
        /// what tells a queue entry of this arming from one of an earlier token at the same address.
        let order: Int
        let fire: @Sendable () -> Void
    }

    /// An arming in the queue: its deadline, its order and its token's identity.
    private struct Entry: Comparable {
        let deadline: DispatchTime
        let order: Int
        let token: ObjectIdentifier

        static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.deadline, lhs.order) < (rhs.deadline, rhs.order)
        }

        static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.order == rhs.order
        }
    }

    private let lock = PlatformLock()
    // Guarded by `lock`.
    private var source: DispatchSourceTimer?
    private var armed: [ObjectIdentifier: Armed] = [:]
    private var queue = Heap<Entry>()
    private var armings = 0
    /// When the source wakes next, if it is scheduled.
    private var scheduled: DispatchTime?
    private var isCancelled = false
    /// The test's counters this wait reports to, bound where it was made.
    private let counts = TimerWait.counts

    @usableFromInline
    init() {}

    deinit {
        cancel()
        lock.deallocate()
    }

    /// Arms the wait for `delay` from now under `token`; `fire` runs once when it passes. A delay
    /// of ``TimerDeadline/never`` or more never fires and holds nothing.
    @usableFromInline
    func arm(_ token: EffectRun, after delay: Duration, fire: @escaping @Sendable () -> Void) {
        let deadline = Self.deadline(after: delay)
        lock.lock()
        defer { lock.unlock() }
        guard !isCancelled, let deadline else { return }
        let id = ObjectIdentifier(token)
        armings += 1
        if armed.updateValue(Armed(deadline: deadline, order: armings, fire: fire), forKey: id) == nil { counts?.armings.add(1) }
        queue.insert(Entry(deadline: deadline, order: armings, token: id))
        // A later deadline than the source's next wake waits for that wake, which reschedules;
        // rescheduling a Dispatch timer costs a trip to its manager thread.
        if let scheduled, scheduled <= deadline { return }
        schedule(deadline)
    }

    /// Forgets the arming of `token`, if it has not fired.
    @usableFromInline
    func disarm(_ token: EffectRun) {
        lock.lock()
        if armed.removeValue(forKey: ObjectIdentifier(token)) != nil {
            counts?.armings.add(-1)
            // The queue keeps its dead entries until they come up; past twice the live ones it is
            // rebuilt from them, so memory follows what is armed, not what was.
            if queue.count > 2 * armed.count + 16 {
                queue = Heap(armed.map { Entry(deadline: $0.value.deadline, order: $0.value.order, token: $0.key) })
            }
        }
        lock.unlock()
    }

    /// Disarms everything for good and releases the source. Called when the instance stops.
    @usableFromInline
    func cancel() {
        lock.lock()
        isCancelled = true
        counts?.armings.add(-armed.count)
        armed = [:]
        queue = Heap()
        let source = self.source.take()
        lock.unlock()
        if let source {
            source.cancel()
            counts?.sources.add(-1)
        }
    }

    /// Schedules the source (made at the first arming) to wake at `deadline`. Called with `lock` held.
    private func schedule(_ deadline: DispatchTime) {
        scheduled = deadline
        if let source {
            source.schedule(deadline: deadline, repeating: .never, leeway: .nanoseconds(0))
            return
        }
        let source = DispatchSource.makeTimerSource(queue: .global())
        source.setEventHandler { [weak self] in self?.wake() }
        self.source = source
        source.schedule(deadline: deadline, repeating: .never, leeway: .nanoseconds(0))
        source.activate()
        counts?.sources.add(1)
    }

    /// The source woke: fires every arming whose deadline has passed, earliest first, and sleeps
    /// again until the next one; with nothing armed, it stays asleep.
    private func wake() {
        lock.lock()
        scheduled = nil
        let now = DispatchTime.now()
        var due: [@Sendable () -> Void] = []
        while let first = queue.min {
            guard let arming = armed[first.token], arming.order == first.order else {
                _ = queue.popMin()  // disarmed: a dead entry
                continue
            }
            if now < first.deadline {
                if source != nil { schedule(first.deadline) }
                break
            }
            _ = queue.popMin()
            armed[first.token] = nil
            counts?.armings.add(-1)
            due.append(arming.fire)
        }
        lock.unlock()
        for fire in due { fire() }
    }

    /// Now plus `delay`: at once for zero or less, `nil` (never) from ``TimerDeadline/never`` on,
    /// and Dispatch's "forever" for delays of 100 years or more (beyond its nanosecond range).
    private static func deadline(after delay: Duration) -> DispatchTime? {
        if delay >= TimerDeadline.never { return nil }
        if delay <= .zero { return .now() }
        if delay >= .seconds(100 * 365 * 86_400) { return .distantFuture }
        let (seconds, attoseconds) = delay.components
        return .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
    #else
    @usableFromInline init() {}
    @usableFromInline func arm(_ token: EffectRun, after delay: Duration, fire: @escaping @Sendable () -> Void) {}
    @usableFromInline func disarm(_ token: EffectRun) {}
    @usableFromInline func cancel() {}
    #endif

    /// What a test counts of the waits made while it binds `$counts` (a task-local, so that
    /// the waits of other tests running at the same time count elsewhere): the Dispatch sources
    /// alive, one per armed timer feedback of a running instance, and the armings waiting, not
    /// yet fired, disarmed or cancelled. Internal, for the tests (`@testable import`).
    struct Counts: Sendable {
        let sources = LiveCount()
        let armings = LiveCount()
    }

    @TaskLocal static var counts: Counts?
}

/// A counter any thread may change.
final class LiveCount: @unchecked Sendable {
    private let lock = PlatformLock()
    private var count = 0  // guarded by `lock`

    deinit { lock.deallocate() }

    func add(_ delta: Int) {
        lock.lock()
        count += delta
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
