// LeaseKeeper: renews a host's lease on a store whose claims are leases (Docs/Postgres.md G41),
// and tells the host when the lease is gone or was not renewed in time (G42).
//
// Invariants:
// - It runs on a thread of its own, and each renewal on another: neither Swift Concurrency's few
//   threads nor a dispatch queue's, which the host's work and a networked store's waits may hold
//   all of; a renewal that hangs is given up at its deadline without waiting for it.
// - The deadline is two thirds of the lease after the last renewal that succeeded was sent, by the
//   monotonic clock: the host has stopped a third of the lease before the server would give the
//   lease to another, however far the wall clocks are apart.
// - It tells `lost` once, and never after `stop()`.

import Foundation
import StateLoop

final class LeaseKeeper: @unchecked Sendable {
    private let lease: Duration
    private let renew: @Sendable () throws(JournalError) -> Bool
    private let lost: @Sendable (String) -> Void
    private let condition = NSCondition()
    private var stopped = false  // guarded by `condition`

    /// A keeper of a lease of `lease`, last granted by a claim sent at `renewed`.
    init(
        lease: Duration, renewed: ContinuousClock.Instant, renew: @escaping @Sendable () throws(JournalError) -> Bool,
        lost: @escaping @Sendable (_ reason: String) -> Void
    ) {
        self.lease = lease
        self.renew = renew
        self.lost = lost
        Thread { [self] in keep(since: renewed) }.start()
    }

    /// Stops renewing; the keeper tells nothing more.
    func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
    }

    private func keep(since renewed: ContinuousClock.Instant) {
        var renewed = renewed
        var pause = lease / 3
        while !waitStopped(for: pause) {
            let sent = ContinuousClock.now
            let deadline = renewed + lease * 2 / 3
            let answer = renewal(before: deadline)
            if condition.withLock({ stopped }) { return }
            switch answer {
            case .success(true)?:
                renewed = sent
                pause = lease / 3
            case .success(false)?:
                return lost("another process holds it now")
            case .failure? where ContinuousClock.now < deadline:
                // Tried again soon, while the lease lasts.
                pause = lease / 12
            case .failure(let error)?:
                return lost("it could not be renewed in time: \(error)")
            case nil:
                return lost("it could not be renewed within two thirds of the lease")
            }
        }
    }

    /// Waits `pause`, or until stopped; whether it was stopped.
    private func waitStopped(for pause: Duration) -> Bool {
        let until = Date().addingTimeInterval(Double(pause.components.seconds) + Double(pause.components.attoseconds) / 1e18)
        return condition.withLock {
            while !stopped, condition.wait(until: until) {}
            return stopped
        }
    }

    /// A renewal's answer, made on a thread of its own, or `nil` when `deadline` came first (the
    /// renewal is left to end alone).
    private func renewal(before deadline: ContinuousClock.Instant) -> Result<Bool, JournalError>? {
        let answer = Answer()
        let done = DispatchSemaphore(value: 0)
        Thread { [renew] in
            let result: Result<Bool, JournalError>
            do throws(JournalError) { result = .success(try renew()) } catch { result = .failure(error) }
            answer.set(result)
            done.signal()
        }.start()
        let left = max(.zero, deadline - ContinuousClock.now)
        let nanoseconds = left.components.seconds * 1_000_000_000 + left.components.attoseconds / 1_000_000_000
        guard done.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success else { return nil }
        return answer.get()
    }

    /// A renewal's result, handed from its thread to the keeper's.
    private final class Answer: @unchecked Sendable {
        private let lock = NSLock()
        private var result: Result<Bool, JournalError>?

        func set(_ result: Result<Bool, JournalError>) { lock.withLock { self.result = result } }
        func get() -> Result<Bool, JournalError>? { lock.withLock { result } }
    }
}
