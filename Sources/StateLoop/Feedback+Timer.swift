// Feedback+Timer: a timer encoded in state, as one more query-triggered effect.
//
// Two ways to wait, one behaviour. On the system clocks (ContinuousClock off Apple platforms,
// SuspendingClock everywhere Dispatch exists) each timer feedback of an instance, `timer` or
// `timers`, keeps one Dispatch timer source for all its armings (TimerWait.swift): a cancelled
// `clock.sleep(until:)` there keeps its sleep until the old deadline passes (~730 bytes per
// arming), so a timer re-armed often, or a send replaced by id often, would grow without bound.
// On any other clock (a test's manual clock) each arming sleeps in a task of its own with
// `clock.sleep(until:)`, which such a clock releases when the task is cancelled.
//
// Invariants:
// - A timer is a query-triggered effect: armed while its request is non-`nil`, re-armed by a new
//   request, cancelled by `nil` or the stop; it sends its event at most once per arming, tagged with
//   the arming's token (a replaced arming's event is stale).
// - Its deadline is read from the clock when the request is observed, on the draining thread.
// - In an instance restored from a journal (StateLoopDurable), the arming of the restored state
//   keeps its wall-clock deadline, and one that fired before the restart never fires (D38-D40).
// - In an instance whose host fires its timers from rows (Docs/Hosting.md H29), a timer feedback
//   arms nothing: no Dispatch source, no task.

extension Feedback {
    /// A timer as an effect: while `request` is non-`nil`, sends `event(request)` once, `delay`
    /// after the request appeared, as measured by `clock`.
    ///
    /// The deadline is read from `clock` when the request is observed: synchronously, as the
    /// state that carries it is delivered to this feedback, before any later event is reduced.
    /// The timer then waits until that deadline, so a task that starts late (a busy thread pool)
    /// does not make the timer late, and a manual clock may be advanced as soon as `send`
    /// returns.
    ///
    /// A different request value restarts the timer from zero; an equal one keeps it running;
    /// `nil` cancels it. Tests pass a manual clock and advance it instead of waiting.
    ///
    /// A delay of zero or less fires at once (still as an event after the step that armed the
    /// timer). A delay of 2⁶² seconds or more, `.seconds(Int64.max)` included, is "never": the
    /// timer stays armed (an equal request keeps it, a new one replaces it) but never fires and
    /// holds no wait.
    @inlinable
    public static func timer<Request: Equatable & Sendable, C: Clock>(
        request: @escaping @Sendable (State) -> Request?,
        clock: C,
        delay: @escaping @Sendable (Request) -> C.Duration,
        event: @escaping @Sendable (Request) -> Event
    ) -> Feedback {
        if TimerWait.serves(C.self) {
            // `C.Duration` is `Duration` on both system clocks.
            return unlessHosted(waitingTimer(request: request, delay: { delay($0) as! Duration }, event: event))
        }
        return unlessHosted(single(request: request, starting: { request, resume in
            // Now: the request is being observed. Restored (D38-D40): what is left of the delay,
            // or nothing for a timer that fired before the restart.
            guard let left = TimerDeadline.left(of: delay(request), sending: event(request), resume),
                let deadline = TimerDeadline.deadline(on: clock, after: left)
            else {
                return { _ in }  // Never: the run stays current and sends nothing.
            }
            return { send in
                do {
                    try await clock.sleep(until: deadline, tolerance: nil)
                } catch {
                    return  // Cancelled: the request changed or went away.
                }
                if !Task.isCancelled { send(event(request)) }
            }
        }))
    }

    /// One timer per element of the requested set: the pending sends of a machine (S133). An
    /// element that appears is armed, its deadline read from `clock` when its run starts (on the
    /// draining thread, as the state that carries it is observed, where effects start
    /// immediately, E54; else as soon as its task runs), and sends `event(element)` once that
    /// deadline passes; an element that leaves the set is cancelled, its event dropped. In an
    /// instance restored from a journal each element keeps its wall-clock deadline, and one that
    /// fired before the restart never fires (D38-D40), as a ``timer(request:clock:delay:event:)``
    /// does. On a system clock every element waits on the feedback's one `TimerWait`, and one
    /// that leaves the set leaves it at once (E59); on another clock each sleeps in a task of its
    /// own with `clock.sleep(until:)`.
    @inlinable
    public static func timers<Request: Hashable & Sendable, C: Clock>(
        requests: @escaping @Sendable (State) -> Set<Request>,
        clock: C,
        delay: @escaping @Sendable (Request) -> C.Duration,
        event: @escaping @Sendable (Request) -> Event
    ) -> Feedback {
        if TimerWait.serves(C.self) {
            return unlessHosted(waitingTimers(requests: requests, delay: { delay($0) as! Duration }, event: event))
        }
        return unlessHosted(Feedback { launcher in
            let resume = launcher.resume
            let loop = RequestSetLoop(
                requests: requests,
                start: { launcher.launch($0, { request, send in
                    // Restored: what is left of its delay, or nothing for one whose event is in the journal.
                    guard let left = TimerDeadline.left(of: delay(request), sending: event(request), resume),
                        let deadline = TimerDeadline.deadline(on: clock, after: left)
                    else { return }  // Never: it stays armed and sends nothing.
                    do {
                        try await clock.sleep(until: deadline, tolerance: nil)
                    } catch {
                        return  // Cancelled: the element left the set.
                    }
                    if !Task.isCancelled { send(event(request)) }
                }) })
            return FeedbackLoop(observe: loop.observe, stop: loop.stop)
        })
    }

    /// `timers`, unless the instance's host fires its timers (H29): then a loop that arms nothing.
    @inlinable
    static func unlessHosted(_ timers: Feedback) -> Feedback {
        Feedback { launcher in
            launcher.resume?.hostsTimers == true ? FeedbackLoop(observe: { _ in }, stop: {}) : timers.makeLoop(launcher)
        }
    }

    /// The timers of a set on a system clock: one ``TimerWait`` per running feedback for every
    /// element, each armed as it appears and disarmed as it leaves.
    @inlinable
    static func waitingTimers<Request: Hashable & Sendable>(
        requests: @escaping @Sendable (State) -> Set<Request>,
        delay: @escaping @Sendable (Request) -> Duration,
        event: @escaping @Sendable (Request) -> Event
    ) -> Feedback {
        Feedback { launcher in
            let wait = TimerWait()
            let deliver = launcher.deliver
            let resume = launcher.resume
            let loop = RequestSetLoop(
                requests: requests,
                start: { request in
                    let arming = TimerArming(wait: wait)
                    let token = arming.token
                    // Restored: what is left of its delay, or never for one whose event is in the journal (D40).
                    let left = TimerDeadline.left(of: delay(request), sending: event(request), resume) ?? TimerDeadline.never
                    wait.arm(token, after: left) { deliver(event(request), token) }
                    return arming
                })
            return FeedbackLoop(observe: loop.observe, stop: {
                loop.stop()
                wait.cancel()
            })
        }
    }

    /// The timer on a system clock: one ``TimerWait`` per running feedback, re-armed in place.
    @inlinable
    static func waitingTimer<Request: Equatable & Sendable>(
        request: @escaping @Sendable (State) -> Request?,
        delay: @escaping @Sendable (Request) -> Duration,
        event: @escaping @Sendable (Request) -> Event
    ) -> Feedback {
        Feedback { launcher in
            let wait = TimerWait()
            let deliver = launcher.deliver
            let resume = launcher.resume
            let loop = RequestLoop<State, Request, TimerArming>(
                request: request,
                start: { request in
                    let arming = TimerArming(wait: wait)
                    let token = arming.token
                    // A timer that fired before the restart stays armed and never fires (D40).
                    let left = TimerDeadline.left(of: delay(request), sending: event(request), resume) ?? TimerDeadline.never
                    wait.arm(token, after: left) { deliver(event(request), token) }
                    return arming
                })
            return FeedbackLoop(observe: loop.observe, stop: {
                loop.stop()
                wait.cancel()
            })
        }
    }
}

/// Deadlines of the timers that sleep with `clock.sleep(until:)` (and, for `never`, of a host's
/// timer rows, which StateLoopDurable writes).
@usableFromInline
package enum TimerDeadline {
    /// Delays of this length or more never fire (2⁶² s, about 146 billion years): far beyond any
    /// run, and short enough that a system clock's instant plus it still fits its sleep.
    @usableFromInline
    package static let never = Duration.seconds(Int64(1) << 62)

    /// What is left of `delay` for a timer that sends `event` when it is armed: all of it in a
    /// fresh instance or for a new arming; in a restored one, `delay` less the wall-clock time
    /// since the step that armed it (D38, D39: zero or less fires at once), or `nil` for a timer
    /// whose event is in the journal (D40). A clock whose `Duration` is not `Duration` (none
    /// that StateLoop or the standard library ships) restarts its timers from zero.
    @inlinable
    static func left<D, Event>(of delay: D, sending event: @autoclosure () -> Event, _ resume: Resumption<Event>?) -> D? {
        guard let resume, let before = resume.timer(sending: event()) else { return delay }
        switch before {
        case .fired:
            return nil
        case .elapsed(let elapsed):
            guard let duration = delay as? Duration, duration < never else { return delay }
            return (duration - elapsed) as? D ?? delay
        }
    }

    /// `clock.now` advanced by `delay`, or `nil` for "never". Delays measured in `Duration`
    /// below zero count as zero, and from ``never`` on are never; other duration types are
    /// the clock's own business.
    @inlinable
    static func deadline<C: Clock>(on clock: C, after delay: C.Duration) -> C.Instant? {
        if let duration = delay as? Duration {
            if duration >= never { return nil }
            if duration < .zero { return clock.now }
        }
        return clock.now.advanced(by: delay)
    }
}

/// One arming of a ``TimerWait``: the token its event carries (stale once the arming is
/// replaced or cancelled, like an effect run's) and the wait to disarm.
@usableFromInline
final class TimerArming: SetMemberRun {
    @usableFromInline let token = EffectRun()
    @usableFromInline let wait: TimerWait
    /// The mark of the last set that kept it, in a ``RequestSetLoop`` (the pending sends, S133).
    @usableFromInline @exclusivity(unchecked) var keptAt = 0

    @inlinable
    init(wait: TimerWait) {
        self.wait = wait
    }

    @inlinable
    func cancel() {
        token.cancel()
        wait.disarm(token)
    }
}
