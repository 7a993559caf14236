// A real clock that runs faster than wall time, so the demo shows timers (a traffic light's
// 5 seconds of green) firing for real in a fraction of the time. Tests use a manual clock instead.
import StateLoop

/// `ContinuousClock`, sped up: a sleep of `d` takes `d / speed` of real time.
public struct FastForwardClock: Clock {
    public typealias Duration = Swift.Duration

    /// A point in fast-forwarded time since the clock was made.
    public struct Instant: InstantProtocol {
        var offset: Duration

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let base = ContinuousClock()
    private let origin: ContinuousClock.Instant
    private let speed: Int

    /// A clock on which time passes `speed` times faster than on the wall.
    public init(speed: Int) {
        precondition(speed > 0, "speed must be positive")
        self.speed = speed
        self.origin = base.now
    }

    public var now: Instant { Instant(offset: (base.now - origin) * speed) }

    public var minimumResolution: Duration { base.minimumResolution * speed }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let remaining = now.duration(to: deadline)
        guard remaining > .zero else { return }
        try await base.sleep(for: remaining / speed)
    }
}
