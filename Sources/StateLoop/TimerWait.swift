// TimerWait: the wait of one timer feedback of one instance on a system clock - a Dispatch timer
// source, re-armed by replacing its deadline, so that memory stays flat however often the timer
// is re-armed. (A cancelled `clock.sleep(until:)` keeps its sleep until the old deadline passes
// on Linux: ~730 bytes per arming, 713 MB for a million re-arms of a 60 s timer.)
//
// Invariants:
// - At most one armed deadline and at most one Dispatch source per timer feedback and instance;
//   `cancel()` releases the source, and nothing fires after it.

#if canImport(Dispatch)
import Dispatch
#endif

/// The wait of one timer feedback of one running instance: at most one armed deadline and, once
/// armed for the first time, one Dispatch timer source, until ``cancel()``.
///
/// Arming replaces the armed deadline, and reschedules the same source only if the new deadline
/// is earlier than its next wake; a source that wakes before the armed deadline (it was re-armed
/// later) sleeps again until it. Disarming only forgets the deadline (the source may still wake
/// at the old one and then does nothing). When the source wakes at or after the armed deadline, the arming's `fire` runs once, on a Dispatch
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
        let token: EffectRun
        let fire: @Sendable () -> Void
    }

    private let lock = PlatformLock()
    // Guarded by `lock`.
    private var source: DispatchSourceTimer?
    private var armed: Armed?
    /// When the source wakes next, if it is scheduled.
    private var scheduled: DispatchTime?
    private var isCancelled = false

    @usableFromInline
    init() {}

    deinit {
        cancel()
        lock.deallocate()
    }

    /// Arms the wait for `delay` from now, replacing any armed deadline; `fire` runs once when
    /// it passes. A delay of ``TimerDeadline/never`` or more never fires.
    @usableFromInline
    func arm(_ token: EffectRun, after delay: Duration, fire: @escaping @Sendable () -> Void) {
        let deadline = Self.deadline(after: delay)
        lock.lock()
        defer { lock.unlock() }
        guard !isCancelled, let deadline else {
            armed = nil
            return
        }
        armed = Armed(deadline: deadline, token: token, fire: fire)
        // A later deadline than the source's next wake waits for that wake, which reschedules;
        // rescheduling a Dispatch timer costs a trip to its manager thread.
        if let scheduled, scheduled <= deadline { return }
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
        TimerWait.live.add(1)
    }

    /// Forgets the deadline armed with `token`, if it is still the armed one.
    @usableFromInline
    func disarm(_ token: EffectRun) {
        lock.lock()
        if armed?.token === token { armed = nil }
        lock.unlock()
    }

    /// Disarms for good and releases the source. Called when the instance stops.
    @usableFromInline
    func cancel() {
        lock.lock()
        isCancelled = true
        armed = nil
        let source = self.source.take()
        lock.unlock()
        if let source {
            source.cancel()
            TimerWait.live.add(-1)
        }
    }

    /// The source woke: fires the armed deadline if it has passed, or sleeps again until it (it
    /// was re-armed to a later deadline meanwhile); with nothing armed, it stays asleep.
    private func wake() {
        lock.lock()
        scheduled = nil
        guard let armed, let source else {
            lock.unlock()
            return
        }
        if DispatchTime.now() < armed.deadline {
            scheduled = armed.deadline
            source.schedule(deadline: armed.deadline, repeating: .never, leeway: .nanoseconds(0))
            lock.unlock()
            return
        }
        self.armed = nil
        lock.unlock()
        armed.fire()
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

    /// How many timer sources are alive in the process: one per timer feedback of a running
    /// instance that has been armed. Internal, for the tests (`@testable import`).
    static let live = LiveCount()
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
