// HostAdmission: the bound on a host's accepted events that are not yet durable (Docs/Hosting.md
// H10). A send takes a slot before its instance accepts it and gives it back once its sender is
// answered; a send that finds no slot waits, and the waiting sends are accepted in the order they
// came, each on the host's admission queue (never on the writer's thread, which gives slots back:
// an accepted send may reduce its event on the thread that accepts it, H13).
//
// Invariants:
// - `held` counts the slots taken and not given back; it never exceeds `limit`.
// - A send takes the fast path (accepted on its caller's thread) only while none waits and none
//   is being handed on, so no send overtakes one that came before it.
// - Until the host opens it (its `run()` started, H54), every send waits.

import DequeModule
import Foundation

@usableFromInline
final class HostAdmission: @unchecked Sendable {
    @usableFromInline let limit: Int
    @usableFromInline let lock = NSLock()
    // Guarded by `lock`.
    @usableFromInline var held = 0
    @usableFromInline var waiting = Deque<@Sendable () -> Void>()
    @usableFromInline var handingOn = 0
    @usableFromInline var isOpen = false
    @usableFromInline var openWaiters: [CheckedContinuation<Void, Never>] = []
    /// Where a send that waited is accepted, in the order the sends came.
    @usableFromInline let queue = DispatchQueue(label: "StateLoop host admission")

    @usableFromInline
    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `accept` once a slot is free: at once on this thread when none waits, else on the
    /// admission queue after the sends that came before it. `accept` must give the slot back
    /// (`release()`) once its sender is answered, or at once when it accepted nothing.
    @inlinable
    func admit(_ accept: @escaping @Sendable () -> Void) {
        lock.lock()
        if isOpen, waiting.isEmpty, handingOn == 0, held < limit {
            held += 1
            lock.unlock()
            accept()
        } else {
            waiting.append(accept)
            lock.unlock()
        }
    }

    /// A slot is given back: the longest-waiting send takes it, on the admission queue.
    @inlinable
    func release() {
        lock.lock()
        guard isOpen, let next = waiting.popFirst() else {
            held -= 1
            lock.unlock()
            return
        }
        handingOn += 1
        lock.unlock()
        queue.async { [self] in
            next()
            lock.withLock { handingOn -= 1 }
        }
    }

    /// Lets sends in (H54): those that waited are handed on in order, as slots allow. Opening twice
    /// is harmless.
    func open() {
        let (handed, waiters) = lock.withLock { () -> ([@Sendable () -> Void], [CheckedContinuation<Void, Never>]) in
            guard !isOpen else { return ([], []) }
            isOpen = true
            var handed: [@Sendable () -> Void] = []
            while held < limit, let next = waiting.popFirst() {
                held += 1
                handed.append(next)
            }
            handingOn += handed.count
            defer { openWaiters = [] }
            return (handed, openWaiters)
        }
        for waiter in waiters { waiter.resume() }
        guard !handed.isEmpty else { return }
        queue.async { [self] in
            for next in handed {
                next()
                lock.withLock { handingOn -= 1 }
            }
        }
    }

    /// Returns once the host let sends in.
    @usableFromInline
    func opened() async {
        await withCheckedContinuation { continuation in
            let open = lock.withLock { () -> Bool in
                if !isOpen { openWaiters.append(continuation) }
                return isOpen
            }
            if open { continuation.resume() }
        }
    }

    /// The accepted events not yet durable, and the sends waiting for a slot (H60).
    var queued: Int { lock.withLock { held + waiting.count } }

    /// The sends waiting for a slot.
    var waitingCount: Int { lock.withLock { waiting.count } }
}
