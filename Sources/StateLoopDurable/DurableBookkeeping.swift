// DurableBookkeeping: what a durable system must know beyond the state to resume it - the one-shot
// runs queued and not known finished, when each armed timer was armed and whether it fired, and
// which journal each child machine runs with (D101-D105).
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

    /// A child machine the state runs: its effect, its request (not journaled: the state gives
    /// it), the sequence number of the step since which the request is this one (its journal's
    /// name, D101), and whether its output is journaled (then it is not started again, D104).
    @usableFromInline
    struct Child {
        @usableFromInline var effect: String
        @usableFromInline var request: any Equatable & Sendable
        @usableFromInline var since: Int64
        @usableFromInline var reported: Bool

        @inlinable
        init(effect: String, request: any Equatable & Sendable, since: Int64, reported: Bool) {
            self.effect = effect
            self.request = request
            self.since = since
            self.reported = reported
        }
    }

    /// The armed timers, in `timers(in:)` order.
    @usableFromInline var timers: [Timer]
    /// The one-shot runs queued and not known finished, in key order.
    @usableFromInline var runs: [(key: Int, run: M.Run)]
    /// How many one-shot runs the state has ever queued.
    @usableFromInline var runsQueued: Int
    /// The sequence number of the last event record (0 before any): the step whose state the
    /// loops see, which names a child's journal and a forwarded event (D101, D105).
    @usableFromInline var step: Int64
    /// The child machines the state runs, in `childRequests(in:)` order.
    @usableFromInline var children: [Child]
    /// The last event a parent forwarded to this machine (a child) that its journal holds (D105).
    @usableFromInline var forwarded: ForwardedFrom?

    @inlinable
    init(
        timers: [Timer], runs: [(key: Int, run: M.Run)], runsQueued: Int, step: Int64, children: [Child],
        forwarded: ForwardedFrom?
    ) {
        self.timers = timers
        self.runs = runs
        self.runsQueued = runsQueued
        self.step = step
        self.children = children
        self.forwarded = forwarded
    }

    /// The bookkeeping of a machine that starts in `state` at `wallTime`: its timers armed then,
    /// its queued runs not started, its children named by step 0.
    @inlinable
    init(starting state: M.State, at wallTime: Int64) {
        self.init(timers: [], runs: [], runsQueued: 0, step: 0, children: [], forwarded: nil)
        update(to: state, at: wallTime)
    }

    /// `event`, from `origin`, was reduced at `wallTime` to `state`, and journaled as the record
    /// numbered `sequence`.
    @inlinable
    mutating func step(_ event: M.Event, origin: EventOrigin, to state: M.State, at wallTime: Int64, sequence: Int64) {
        var untracked = TimerChanges<M.Event>.untracked
        step(event, origin: origin, to: state, at: wallTime, sequence: sequence, changes: &untracked)
    }

    /// ``step(_:origin:to:at:sequence:)``, adding to `changes` the timers the step fired, disarmed
    /// and armed (H26, H27).
    @inlinable
    mutating func step(
        _ event: M.Event, origin: EventOrigin, to state: M.State, at wallTime: Int64, sequence: Int64,
        changes: inout TimerChanges<M.Event>
    ) {
        switch origin {
        case .local(let run): if let run { finished(run) }
        case .childOutput(let effect):
            // Its output journaled: that child is not started again (D104).
            if let index = children.firstIndex(where: { $0.effect == effect }) { children[index].reported = true }
        case .forwarded(let from): forwarded = from
        }
        // Its event journaled: the timer fired; a state that keeps it keeps it fired (D40), and
        // its row goes (H33).
        for index in timers.indices where timers[index].event == event {
            if !timers[index].fired { changes.removed(event) }
            timers[index].fired = true
        }
        step = sequence
        update(to: state, at: wallTime, changes: &changes)
    }

    /// The one-shot run `run` is finished (its event, or a record that it returned nothing).
    @inlinable
    mutating func finished(_ run: Int) {
        runs.removeAll { $0.key == run }
    }

    /// Follows `state`: the timers it arms (a kept one keeps its arming, a new one is armed at
    /// `wallTime`), the runs it queued, and its children (an equal request keeps its child, any
    /// other is a new child, named by this step, D101).
    @inlinable
    mutating func update(to state: M.State, at wallTime: Int64) {
        var untracked = TimerChanges<M.Event>.untracked
        update(to: state, at: wallTime, changes: &untracked)
    }

    /// ``update(to:at:)``, adding to `changes` the timers it disarmed and armed.
    @inlinable
    mutating func update(to state: M.State, at wallTime: Int64, changes: inout TimerChanges<M.Event>) {
        let requested = M.childRequests(in: state)
        if !(requested.isEmpty && children.isEmpty) {
            children = requested.map { child in
                children.first { $0.effect == child.effect && equalRequests($0.request, child.request) }
                    ?? Child(effect: child.effect, request: child.request, since: step, reported: false)
            }
        }
        let armed = Self.armed(in: state)
        if !(armed.isEmpty && timers.isEmpty) {
            // The armed events keep the order of the timers they keep, so a cursor finds each in
            // one pass; only a new one (or one out of order) is searched for in the whole list.
            // A search per timer made each step cost the square of the pending sends (D123).
            var cursor = timers.startIndex
            // Which of the timers before the step are kept, when the changes are tracked.
            var kept = changes.isTracked ? [Bool](repeating: false, count: timers.count) : []
            let next = armed.map { event, delay in
                let index: Int
                if cursor < timers.endIndex, timers[cursor].event == event {
                    index = cursor
                } else if let found = timers.firstIndex(where: { $0.event == event }) {
                    index = found
                } else {
                    changes.armed(event, at: wallTime, delay: delay)
                    return Timer(event: event, armedAt: wallTime, fired: false)
                }
                cursor = index + 1
                if changes.isTracked { kept[index] = true }
                return timers[index]
            }
            if changes.isTracked {
                for (index, timer) in timers.enumerated() where !kept[index] && !timer.fired { changes.removed(timer.event) }
            }
            timers = next
        }
        let (queued, latest) = M.pendingRuns(in: state)
        guard queued > runsQueued else { return }
        // The runs numbered `runsQueued ..< queued`, as the runs loop numbers them.
        let fresh = latest.suffix(queued - runsQueued)
        for (offset, run) in fresh.enumerated() { runs.append((queued - fresh.count + offset, run)) }
        runsQueued = queued
    }

    /// The timers `state` arms, each with its delay: its `after:` timers, then its pending sends,
    /// each named by the event that delivers it (S133).
    @inlinable
    static func armed(in state: M.State) -> [(event: M.Event, delay: Duration)] {
        M.timers(in: state).map { ($0.event, $0.delay) } + M.sends(in: state).map { ($0.delivery, $0.delay) }
    }

    /// The timers armed and not fired, with the delays `state` gives them (this bookkeeping's
    /// state): an instance's timer rows as its journal says (H26, H38).
    @inlinable
    func armedTimers(in state: M.State) -> [TimerChanges<M.Event>.Armed] {
        let armed = Self.armed(in: state)
        return timers.enumerated().compactMap { index, timer in
            guard !timer.fired else { return nil }
            // The timers follow the state's order (update(to:at:)); a search only for one that does not.
            let delay = index < armed.count && armed[index].event == timer.event
                ? armed[index].delay : armed.first { $0.event == timer.event }?.delay
            return delay.map { .init(event: timer.event, armedAt: timer.armedAt, delay: $0) }
        }
    }

    /// What the loops of the system restored in this bookkeeping's state resume with, at
    /// `wallTime`: each timer once (its elapsed time, or that it fired), the runs to run again, and
    /// `children`, the journals of its child machines.
    @inlinable
    func resumption(at wallTime: Int64, children: any ChildJournals) -> Resumption<M.Event> {
        let timers = TimerTable(timers.map { timer in
            (timer.event, timer.fired ? .fired : .elapsed(.nanoseconds(max(0, wallTime - timer.armedAt))))
        })
        return Resumption(timers: timers.take, runs: runs.map { ($0.key, $0.run) }, runsQueued: runsQueued, children: children)
    }
}

/// The timers a step armed, and the armed timers it fired or disarmed: the changes of its
/// instance's timer rows (Docs/Hosting.md H26, H27). Untracked (a `DurableSystem`'s, which keeps
/// no rows), it records nothing and costs nothing.
@usableFromInline
struct TimerChanges<Event> {
    /// A timer armed at a step's wall-clock time with its delay.
    @usableFromInline
    struct Armed {
        @usableFromInline var event: Event
        @usableFromInline var armedAt: Int64
        @usableFromInline var delay: Duration

        @inlinable
        init(event: Event, armedAt: Int64, delay: Duration) {
            self.event = event
            self.armedAt = armedAt
            self.delay = delay
        }
    }

    @usableFromInline let isTracked: Bool
    /// The events of the timers whose rows go, in the order they went.
    @usableFromInline var removedEvents: [Event] = []
    /// The timers armed, in the order they were.
    @usableFromInline var armedTimers: [Armed] = []

    @inlinable
    init(isTracked: Bool) {
        self.isTracked = isTracked
    }

    @usableFromInline static var untracked: Self { Self(isTracked: false) }

    @inlinable
    mutating func removed(_ event: Event) {
        if isTracked { removedEvents.append(event) }
    }

    @inlinable
    mutating func armed(_ event: Event, at wallTime: Int64, delay: Duration) {
        if isTracked { armedTimers.append(Armed(event: event, armedAt: wallTime, delay: delay)) }
    }
}

/// Whether two requests of a child machine are equal (of one type, and `==`).
@inlinable
func equalRequests(_ first: any Equatable & Sendable, _ second: any Equatable & Sendable) -> Bool {
    func equal<Request: Equatable>(_ first: Request) -> Bool { (second as? Request) == first }
    return equal(first)
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
