// SystemJournal: what a durable system (StateLoopDurable) hooks into a running instance - the
// write-ahead of every reduced event, and what the loops of a resumed instance take from the
// journal (Docs/Durability.md D30-D49). SPI: only StateLoopDurable builds these.
//
// Invariants:
// - `record` runs on the draining thread, after the stale check and the reducer, before the event
//   hook, the observer and every loop see the state; when it answers `refused`, nobody sees the
//   state and the instance stops; when it answers `pending` (a host's group commit, Docs/Hosting.md
//   H20), the state is shown once the journal says it is durable (`SystemRun.durable(_:)`), and
//   only events from outside are reduced meanwhile.
// - A resumed instance's timer loops and its one-shot runs loop take their part of `resume` once,
//   when they first see the restored state; later armings and runs are new.

/// What the write-ahead made of one reduced event's record.
@usableFromInline
package enum RecordOutcome: Sendable {
    /// Durable now: the state is shown at once (a `DurableSystem`, D30).
    case durable
    /// Durable once the journal commits it: the state is held until
    /// ``SystemRun/durable(_:)`` says so (a hosted instance, H12, H20).
    case pending
    /// Not durable, and never will be: the instance stops without showing the state (D33).
    case refused
}

/// The write-ahead hook of one instance and what its loops resume with.
@usableFromInline
package struct SystemJournal<State: Sendable, Event: Sendable>: Sendable {
    /// A one-shot run returned without an event (and was not cancelled): it is finished.
    /// Called on the run's task.
    @usableFromInline package var runReturnedNothing: @Sendable (_ run: Int) -> Void
    /// What the loops of a restored instance resume with.
    @usableFromInline package var resume: Resumption<Event>

    /// Makes one reduced event durable, handed the event, the effect run that sent it (its token
    /// tells where it came from: a one-shot run's carries its number, a host's send its sender,
    /// ``SentToken``) and the state after it. Called on the draining thread before anyone sees
    /// that state; answers whether the record is durable, will be, or could not be made durable
    /// (the instance then stops without showing the state).
    @usableFromInline let recordOfRun: @Sendable (Event, EffectRun?, State) -> RecordOutcome

    @usableFromInline
    package init(
        record: @escaping @Sendable (_ event: Event, _ origin: EventOrigin, _ stateAfter: State) -> RecordOutcome,
        runReturnedNothing: @escaping @Sendable (_ run: Int) -> Void,
        resume: Resumption<Event>
    ) {
        recordOfRun = { event, run, state in record(event, EventOrigin(run), state) }
        self.runReturnedNothing = runReturnedNothing
        self.resume = resume
    }

    /// The hook of a host's instance, whose record is handed the event's token itself: a
    /// ``SentToken`` names the send it answers (`EventOrigin(run)` gives where it came from).
    @usableFromInline
    package init(
        recordRun: @escaping @Sendable (_ event: Event, _ run: EffectRun?, _ stateAfter: State) -> RecordOutcome,
        runReturnedNothing: @escaping @Sendable (_ run: Int) -> Void,
        resume: Resumption<Event>
    ) {
        recordOfRun = recordRun
        self.runReturnedNothing = runReturnedNothing
        self.resume = resume
    }
}

/// The token of an event a host sent from outside (Docs/Hosting.md H5, H12): it carries the
/// sender's `waiter` to the record, is never stale, and, unlike an effect's token, does not wait
/// behind held states (H20). Released with its queued event when the instance drops it.
@usableFromInline
package final class SentToken: EffectRun, @unchecked Sendable {
    @usableFromInline package let waiter: any Sendable

    @inlinable
    package init(waiter: any Sendable) {
        self.waiter = waiter
        super.init()
    }

    /// Makes the event stale: it is dropped unreduced when it is dequeued, as a cancelled run's
    /// event is (a host's timer delivery whose timer a step before it fired or disarmed, H31).
    /// On the draining thread only, as every change of `isCurrent`.
    @inlinable
    package func makeStale() {
        isCurrent = false
    }
}

/// What the loops of a restored instance take from the journal: how long each armed timer has
/// already run (or that it fired), and the one-shot runs to run again.
///
/// `@unchecked Sendable`: `runs`, the one mutable field, is touched only under `lock`.
@usableFromInline
package final class Resumption<Event: Sendable>: @unchecked Sendable {
    /// A timer armed before the restart.
    @usableFromInline package enum Timer: Sendable {
        /// Armed this long ago (by the wall clock): it waits for the rest of its delay, and fires at
        /// once when the delay has passed.
        case elapsed(Duration)
        /// Its event is in the journal: it does not fire again.
        case fired
    }

    /// The key of a one-shot run and the run, as `DurableMachine.pendingRuns` gave it.
    @usableFromInline package typealias Run = (key: Int, run: any Sendable)

    private let timers: @Sendable (Event) -> Timer?
    private let lock = PlatformLock()
    /// Guarded by `lock`; taken once.
    private var runs: [Run]?
    /// How many one-shot runs the restored state has ever queued: the runs loop starts none
    /// numbered below it (those are in `runs`, or finished).
    @usableFromInline package let runsQueued: Int
    /// The journals of the instance's child machines (D100).
    @usableFromInline package let children: (any ChildJournals)?
    /// Whether the instance's timers and pending sends are its host's (rows the host's scheduler
    /// fires, Docs/Hosting.md H29): its timer feedbacks then arm nothing.
    @usableFromInline package let hostsTimers: Bool

    /// - Parameters:
    ///   - timers: The timer that sends an event (`nil`: not armed before the restart); each
    ///     answer is taken once.
    ///   - runs: The one-shot runs queued and not known finished, in key order.
    ///   - runsQueued: How many one-shot runs the restored state has ever queued.
    ///   - children: The journals of the instance's child machines.
    ///   - hostsTimers: Whether a host fires the instance's timers (its timer feedbacks arm nothing).
    @usableFromInline
    package init(
        timers: @escaping @Sendable (Event) -> Timer?, runs: [Run], runsQueued: Int, children: (any ChildJournals)? = nil,
        hostsTimers: Bool = false
    ) {
        self.timers = timers
        self.runs = runs
        self.runsQueued = runsQueued
        self.children = children
        self.hostsTimers = hostsTimers
    }

    deinit { lock.deallocate() }

    /// The timer that sends `event`, as it was before the restart (asked by a timer loop when it
    /// arms).
    @usableFromInline
    func timer(sending event: Event) -> Timer? {
        timers(event)
    }

    /// The runs to run again: the first caller takes them, later ones get none.
    @usableFromInline
    func takeRuns() -> [Run] {
        lock.lock()
        defer { lock.unlock() }
        return runs.take() ?? []
    }
}

/// The one-shot run being performed: its key, for an effect that must be idempotent.
///
/// A one-shot run (``Feedback/runs(pending:effect:)``) is numbered by the state that queued it
/// (the `queued` count before it), so its number is the same in every process that runs it. A
/// durable system runs again, after a restart, every run whose event was not journaled: at least
/// once, never exactly once, so an effect with outside consequences (a payment) passes
/// `OneShotRun.key` to the service as its idempotency key.
public enum OneShotRun {
    /// The number of the one-shot run this task performs; `nil` outside one.
    @TaskLocal public static var key: Int?
}
