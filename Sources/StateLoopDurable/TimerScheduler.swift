// TimerScheduler: the one scheduler of a MachineHost (Docs/Hosting.md H30-H39, the design's "The
// scheduler") - it holds a window of the earliest timer rows, refilled from the store's deadline
// index as they fire, sleeps on the host's clock until the earliest is due, and hands each due row
// to the host, which delivers its event to its instance (loading it when it is not in memory) and
// checks that the timer is still armed (H31).
//
//   store's due index ──refill (after the cursor)──► window (the earliest rows) ──due──► deliver
//   writer: each commit's armed and deleted rows ──► window, when they fall at or before the cursor
//   a delivery that could not be taken (its instance failed to load or commit) ──► retries, backed off (H39)
//
// Invariants (under `lock`):
// - The cursor: every row of the store whose key is at or before it is in the window, being
//   delivered, waiting in `retries`, or deleted; a refill reads only after it. `exhausted`: no row
//   of the store is after it, so each committed row joins the window.
// - A commit that completes while a refill reads is applied after the refill merged what it read,
//   so that no row falls between what the read saw and the cursor it moved.
// - The window holds at most `window` rows (H35); rows pushed past it leave, and the cursor goes
//   back to the latest row kept, so that the store gives them again.
// - A row is never lost: a delivery that could not be taken comes back, with its instance's
//   back-off. One given twice is harmless: the instance drops a timer that is not armed (H31).
// - A row read whose checksum fails is handed on at once, whatever its deadline (H37).

import Foundation
import HeapModule

@usableFromInline
final class TimerScheduler: @unchecked Sendable {
    /// Hands a due row to the host; returns once its instance took it (loaded, or failed to load),
    /// and calls `ended` once its delivery ended: `retry` when its instance could not take it and
    /// the row must be tried again after a back-off (H39).
    typealias Deliver = @Sendable (_ row: CheckedRow<TimerRow>, _ ended: @escaping @Sendable (_ retry: Bool) -> Void) async -> Void

    struct Settings {
        /// The most rows the window holds (H35).
        var window: Int
        /// The most deliveries waiting for their instance to load at once (H11).
        var concurrentDeliveries: Int
        /// The first back-off of an instance that could not take a delivery, and the longest (H39).
        var firstBackoff: Int64 = 1_000_000_000
        var longestBackoff: Int64 = 60_000_000_000
    }

    /// A row's place among the rows of its instance: its event.
    private struct RowID: Hashable {
        let machine: String
        let event: [UInt8]

        init(machine: String, event: [UInt8]) {
            self.machine = machine
            self.event = event
        }

        init(_ row: TimerRow) {
            self.init(machine: row.machine, event: row.timer.event)
        }

        init(_ key: TimerRow.Key) {
            self.init(machine: key.machine, event: key.event)
        }
    }

    /// A row waiting for its instance's back-off.
    private struct Retry: Comparable {
        let until: Int64
        let row: CheckedRow<TimerRow>

        static func < (lhs: Retry, rhs: Retry) -> Bool {
            lhs.until != rhs.until ? lhs.until < rhs.until : lhs.row.row.key < rhs.row.row.key
        }

        static func == (lhs: Retry, rhs: Retry) -> Bool {
            lhs.until == rhs.until && lhs.row == rhs.row
        }
    }

    /// What one committed part changed of its instance's rows.
    private struct Change {
        let machine: String
        let deleted: [[UInt8]]
        let armed: [HostTimer]
    }

    private let store: any HostJournalStore
    private let clock: any HostClock
    private let settings: Settings
    private let lock = NSLock()
    // Guarded by `lock`.
    /// The window's keys, earliest first (entries whose row left or moved are skipped).
    private var heap = Heap<TimerRow.Key>()
    /// The window's rows.
    private var live: [RowID: CheckedRow<TimerRow>] = [:]
    private var cursor: TimerRow.Key?
    private var exhausted = false
    private var refilling = false
    /// When a refill that failed may be tried again.
    private var refillAfter: Int64 = .min
    private var changedWhileRefilling: [Change] = []
    private var delivering: [RowID: TimerRow.Key] = [:]
    private var retries = Heap<Retry>()
    private var backoff: [String: (until: Int64, delay: Int64)] = [:]
    private var waitingForTurn: [CheckedContinuation<Void, Never>] = []
    private var sleeper: Task<Void, any Error>?
    private var sleepingUntil: Int64 = .max
    private var loop: Task<Void, Never>?
    private var stopped = false

    init(store: any HostJournalStore, clock: any HostClock, settings: Settings) {
        self.store = store
        self.clock = clock
        self.settings = Settings(
            window: max(1, settings.window), concurrentDeliveries: max(1, settings.concurrentDeliveries),
            firstBackoff: settings.firstBackoff, longestBackoff: settings.longestBackoff)
    }

    /// Starts firing due rows through `deliver`.
    func start(deliver: @escaping Deliver) {
        lock.withLock {
            guard !stopped, loop == nil else { return }
            loop = Task { [self] in await run(deliver) }
        }
    }

    /// Fires nothing more; deliveries under way end as their instances take them.
    func stop() {
        let (loop, sleeper) = lock.withLock { () -> (Task<Void, Never>?, Task<Void, any Error>?) in
            stopped = true
            defer { waitingForTurn = [] }
            for waiter in waitingForTurn { waiter.resume() }
            return (self.loop, self.sleeper)
        }
        sleeper?.cancel()
        loop?.cancel()
    }

    /// How many rows the window holds, and how many wait for a back-off (H35's test).
    var counts: (window: Int, retries: Int) {
        lock.withLock { (live.count, retries.count) }
    }

    // MARK: Commits (the writer's thread)

    /// The parts of `batch` that committed (all but `failed`) changed these rows: each row armed
    /// at or before the cursor joins the window, and each deleted one leaves it. Never blocks.
    func committed(_ batch: HostBatch, failed: [String: JournalError]) {
        var changes: [Change] = []
        for part in batch.parts where failed[part.machine] == nil && !(part.deletedTimers.isEmpty && part.armedTimers.isEmpty) {
            changes.append(Change(machine: part.machine, deleted: part.deletedTimers, armed: part.armedTimers))
        }
        guard !changes.isEmpty else { return }
        let wake = lock.withLock { () -> Task<Void, any Error>? in
            if refilling {
                changedWhileRefilling += changes
                return nil
            }
            let earliest = changes.reduce(Int64.max) { min($0, applyLocked($1)) }
            return earliest < sleepingUntil ? sleeper : nil
        }
        wake?.cancel()
    }

    /// Applies one part's changes; returns the earliest deadline it brought into the window.
    private func applyLocked(_ change: Change) -> Int64 {
        for event in change.deleted { live[RowID(machine: change.machine, event: event)] = nil }
        var earliest = Int64.max
        for timer in change.armed {
            let row = TimerRow(machine: change.machine, timer: timer)
            let key = row.key
            if exhausted {
                if cursor.map({ key > $0 }) ?? true { cursor = key }
            } else {
                guard let cursor, key <= cursor else { continue }  // a refill reads it
            }
            insertLocked(CheckedRow(row: row, checksumMatches: true))
            earliest = min(earliest, key.deadline)
        }
        trimLocked()
        return earliest
    }

    private func insertLocked(_ row: CheckedRow<TimerRow>) {
        live[RowID(row.row)] = row
        heap.insert(row.row.key)
        // A row armed again leaves its old key in the heap, skipped when it comes up; rebuilt
        // once such keys are as many as the rows, the heap stays within twice the window.
        if heap.count > 2 * live.count + 64 { heap = Heap(live.values.map(\.row.key)) }
    }

    /// Keeps at most `window` rows: the latest leave, and the cursor goes back to the latest kept.
    private func trimLocked() {
        guard live.count > settings.window else { return }
        while live.count > settings.window, let key = heap.popMax() {
            let id = RowID(key)
            if live[id]?.row.key == key { live[id] = nil }
        }
        while let key = heap.max, live[RowID(key)]?.row.key != key { _ = heap.popMax() }
        cursor = heap.max
        exhausted = false
    }

    // MARK: The loop

    private func run(_ deliver: @escaping Deliver) async {
        while let next = await nextDue() {
            await takeTurn()
            Task { [self] in
                await deliver(next) { [self] retry in ended(next, retry: retry) }
                giveTurn()
            }
        }
    }

    /// What the loop does next.
    private enum Next {
        case deliver(CheckedRow<TimerRow>)
        case sleep(Task<Void, any Error>)
        case again
        case stop
    }

    /// The next row due, once it is: refills the window when it runs low, and sleeps on the clock
    /// until the earliest row or retry is due or a commit brings an earlier one. `nil` once stopped.
    private func nextDue() async -> CheckedRow<TimerRow>? {
        while true {
            if shouldRefill() { await refill() }
            switch lock.withLock({ nextLocked() }) {
            case .stop: return nil
            case .deliver(let row): return row
            case .again: continue
            case .sleep(let task):
                _ = try? await task.value
                lock.withLock {
                    sleeper = nil
                    sleepingUntil = .max
                }
            }
        }
    }

    /// The earliest due row or retry (a row of an instance that backs off waits in `retries`), or
    /// a sleep until one is due or the window is to be refilled.
    private func nextLocked() -> Next {
        guard !stopped else { return .stop }
        let now = clock.now()
        while let key = heap.min, live[RowID(key)]?.row.key != key { _ = heap.popMin() }
        let windowDue = heap.min?.deadline ?? .max
        let retryDue = retries.min?.until ?? .max
        if retryDue <= now, retryDue <= windowDue, let retry = retries.popMin() {
            delivering[RowID(retry.row.row)] = retry.row.row.key
            return .deliver(retry.row)
        }
        if windowDue <= now, let key = heap.popMin(), let row = live.removeValue(forKey: RowID(key)) {
            if let until = backoff[key.machine]?.until, until > now {
                retries.insert(Retry(until: until, row: row))
                return .again
            }
            delivering[RowID(row.row)] = key
            return .deliver(row)
        }
        var until = min(windowDue, retryDue)
        if needsRefillLocked { until = min(until, max(refillAfter, now)) }
        sleepingUntil = until
        let clock = clock
        let task = Task { try await clock.sleep(until: until) }
        sleeper = task
        return .sleep(task)
    }

    /// Whether the window runs low while the store holds rows after it.
    private var needsRefillLocked: Bool {
        !exhausted && !refilling && live.count <= settings.window / 2 && retries.count < settings.window
    }

    private func shouldRefill() -> Bool {
        lock.withLock { !stopped && needsRefillLocked && clock.now() >= refillAfter }
    }

    /// Reads the rows after the cursor into the window, then applies what commits changed meanwhile.
    private func refill() async {
        let (after, limit) = lock.withLock { () -> (TimerRow.Key?, Int) in
            refilling = true
            return (cursor, settings.window - live.count)
        }
        let read: Result<[CheckedRow<TimerRow>], JournalError>
        do throws(JournalError) {
            read = .success(try await store.dueTimers(through: .max, after: after, limit: limit))
        } catch {
            read = .failure(error)
        }
        lock.withLock {
            refilling = false
            switch read {
            case .success(let rows):
                for row in rows where delivering[RowID(row.row)] != row.row.key {
                    // A row whose checksum fails goes to its instance at once, whatever its
                    // deadline says: the instance writes its rows again (H37, H38).
                    if row.checksumMatches { insertLocked(row) } else { retries.insert(Retry(until: .min, row: row)) }
                }
                if let last = rows.last?.row.key { cursor = last }
                exhausted = rows.count < limit
                refillAfter = .min
            case .failure:
                // The store failed: try again in a second; what the window holds still fires.
                refillAfter = clock.now() &+ settings.firstBackoff
            }
            for change in changedWhileRefilling { _ = applyLocked(change) }
            changedWhileRefilling = []
        }
    }

    /// A delivery ended: a row its instance could not take waits for the instance's back-off,
    /// which doubles each time, up to the longest (H39); one taken clears it.
    private func ended(_ row: CheckedRow<TimerRow>, retry: Bool) {
        let wake = lock.withLock { () -> Task<Void, any Error>? in
            let id = RowID(row.row)
            if delivering[id] == row.row.key { delivering[id] = nil }
            guard retry else {
                backoff[row.row.machine] = nil
                return nil
            }
            let now = clock.now()
            // Rows of one attempt that failed together share its back-off; the next attempt's
            // failure doubles it.
            let until: Int64
            let delay: Int64
            if let previous = backoff[row.row.machine], previous.until > now {
                (until, delay) = previous
            } else {
                delay = backoff[row.row.machine].map { min($0.delay * 2, settings.longestBackoff) } ?? settings.firstBackoff
                until = now &+ delay
            }
            backoff[row.row.machine] = (until, delay)
            retries.insert(Retry(until: until, row: row))
            return until < sleepingUntil ? sleeper : nil
        }
        wake?.cancel()
    }

    // MARK: Turns (at most `concurrentDeliveries` waiting for their instance)

    private func takeTurn() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = lock.withLock { () -> Bool in
                if stopped || activeDeliveries < settings.concurrentDeliveries {
                    activeDeliveries += 1
                    return true
                }
                waitingForTurn.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    private func giveTurn() {
        let next = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            guard !waitingForTurn.isEmpty else {
                activeDeliveries -= 1
                return nil
            }
            return waitingForTurn.removeFirst()
        }
        next?.resume()
    }

    private var activeDeliveries = 0  // guarded by `lock`
}
