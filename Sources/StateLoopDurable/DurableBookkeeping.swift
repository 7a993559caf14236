// DurableBookkeeping: what a durable system must know beyond the state to resume it - the one-shot
// runs queued and not known finished, and when each armed timer was armed and whether it fired.
//
// Invariants:
// - One `step` for every journaled event, the same while running (MachineJournal) and while
//   replaying (JournalRecovery), so a resumed system knows exactly what the running one knew.
// - A timer is named by the event it sends (the machine's `timers(in:)`; generated timer events
//   carry the entry count, so a re-entered state's timer is a new one); a pending send by the
//   event that delivers it (`sends(in:)`, numbered, so each send is a new one).

import Foundation
import StateLoop

/// The one-shot runs and timers of a durable machine, as of its last journaled step.
@usableFromInline
struct DurableBookkeeping<M: DurableMachine> {
    /// An armed timer: the event it sends, the wall-clock time of the step that armed it (ns since
    /// the Unix epoch), and whether its event was journaled (it fired) while its state kept it.
    @usableFromInline
    struct Timer {
        @usableFromInline var event: M.Event
        @usableFromInline var armedAt: Int64
        @usableFromInline var fired: Bool

        @inlinable
        init(event: M.Event, armedAt: Int64, fired: Bool) {
            self.event = event
            self.armedAt = armedAt
            self.fired = fired
        }
    }

    /// The armed timers, in `timers(in:)` order.
    @usableFromInline var timers: [Timer]
    /// The one-shot runs queued and not known finished, in key order.
    @usableFromInline var runs: [(key: Int, run: M.Run)]
    /// How many one-shot runs the state has ever queued.
    @usableFromInline var runsQueued: Int

    @inlinable
    init(timers: [Timer], runs: [(key: Int, run: M.Run)], runsQueued: Int) {
        self.timers = timers
        self.runs = runs
        self.runsQueued = runsQueued
    }

    /// The bookkeeping of a machine that starts in `state` at `wallTime`: its timers armed then,
    /// its queued runs not started.
    @inlinable
    init(starting state: M.State, at wallTime: Int64) {
        self.init(timers: [], runs: [], runsQueued: 0)
        update(to: state, at: wallTime)
    }

    /// `event`, sent by the one-shot run `run` (if any), was reduced at `wallTime` to `state`.
    @inlinable
    mutating func step(_ event: M.Event, run: Int?, to state: M.State, at wallTime: Int64) {
        if let run { finished(run) }
        // Its event journaled: the timer fired; a state that keeps it keeps it fired (D40).
        for index in timers.indices where timers[index].event == event { timers[index].fired = true }
        update(to: state, at: wallTime)
    }

    /// The one-shot run `run` is finished (its event, or a record that it returned nothing).
    @inlinable
    mutating func finished(_ run: Int) {
        runs.removeAll { $0.key == run }
    }

    /// Follows `state`: the timers it arms (a kept one keeps its arming, a new one is armed at
    /// `wallTime`) and the runs it queued.
    @inlinable
    mutating func update(to state: M.State, at wallTime: Int64) {
        // A pending send is a timer named by the event that delivers it (S133).
        let armed = M.timers(in: state).map(\.event) + M.sends(in: state).map(\.delivery)
        if !(armed.isEmpty && timers.isEmpty) {
            timers = armed.map { event in
                timers.first { $0.event == event } ?? Timer(event: event, armedAt: wallTime, fired: false)
            }
        }
        let (queued, latest) = M.pendingRuns(in: state)
        guard queued > runsQueued else { return }
        // The runs numbered `runsQueued ..< queued`, as the runs loop numbers them.
        let fresh = latest.suffix(queued - runsQueued)
        for (offset, run) in fresh.enumerated() { runs.append((queued - fresh.count + offset, run)) }
        runsQueued = queued
    }

    /// What the loops of the system restored in this bookkeeping's state resume with, at
    /// `wallTime`: each timer once (its elapsed time, or that it fired), the runs to run again.
    @inlinable
    func resumption(at wallTime: Int64) -> Resumption<M.Event> {
        let timers = TimerTable(timers.map { timer in
            (timer.event, timer.fired ? .fired : .elapsed(.nanoseconds(max(0, wallTime - timer.armedAt))))
        })
        return Resumption(timers: timers.take, runs: runs.map { ($0.key, $0.run) }, runsQueued: runsQueued)
    }
}

/// The restored timers, each answered once: a later arming with an equal event is a new timer.
@usableFromInline
final class TimerTable<Event: Equatable & Sendable>: @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    @usableFromInline var entries: [(Event, Resumption<Event>.Timer)]  // guarded by `lock`

    @inlinable
    init(_ entries: [(Event, Resumption<Event>.Timer)]) {
        self.entries = entries
    }

    @Sendable
    @inlinable
    func take(_ event: Event) -> Resumption<Event>.Timer? {
        lock.withLock {
            guard let index = entries.firstIndex(where: { $0.0 == event }) else { return nil }
            return entries.remove(at: index).1
        }
    }
}
