// OneShotRuns: the one-shot runs of one system instance, which no state change cancels.
//
// Invariants:
// - After `cancelAll()` no run starts and every running one is cancelled; `whenIdle`'s closure is
//   called at most once, when no run is running (at once if none is), and never after
//   `cancelAll()`.

/// The runs that ``Feedback/runs(pending:effect:)`` started in one system instance.
///
/// Unlike a request's effect, a one-shot run is not tied to a state: it runs until its effect
/// returns. The instance cancels them all when it stops (``cancelAll()``), and when it finishes
/// it waits for them (``whenIdle(_:)``) before it ends.
///
/// `@unchecked Sendable` because every mutable field is touched only under `lock`. Runs start
/// on the draining thread and end on their own tasks, so the lock is needed here.
@usableFromInline
final class OneShotRuns: @unchecked Sendable {
    /// A running run; `task` is `nil` for the moment between registering the run and creating
    /// its task.
    private struct Entry {
        var task: Task<Void, Never>?
    }

    private let lock = PlatformLock()
    // Guarded by `lock`.
    private var running: [Int: Entry] = [:]
    private var nextID = 0
    private var isCancelled = false
    private var onIdle: (@Sendable () -> Void)?

    @usableFromInline
    init() {}

    deinit {
        lock.deallocate()
    }

    /// Starts `operation` in a task of its own, unless the runs were cancelled; `immediately`:
    /// on the calling thread until its first suspension (see `startTask`).
    @usableFromInline
    func start(immediately: Bool, _ operation: @escaping @Sendable () async -> Void) {
        lock.lock()
        if isCancelled {
            lock.unlock()
            return
        }
        let id = nextID
        nextID += 1
        // Registered before its task exists, so that a `whenIdle` cannot miss it.
        running[id] = Entry()
        lock.unlock()
        let task = startTask(immediately: immediately) { [self] in
            // Cancelled before it began (the system stopped): the effect is not called at all.
            if !Task.isCancelled { await operation() }
            finished(id)
        }
        lock.lock()
        // The task may have finished already; then there is nothing to keep.
        running[id]?.task = task
        let cancel = isCancelled
        lock.unlock()
        if cancel { task.cancel() }
    }

    /// Calls `done` once no run is running: at once if none is, else when the last one returns.
    @usableFromInline
    func whenIdle(_ done: @escaping @Sendable () -> Void) {
        lock.lock()
        guard running.isEmpty else {
            onIdle = done
            lock.unlock()
            return
        }
        lock.unlock()
        done()
    }

    /// Cancels every running run and starts no new one; a pending `whenIdle` is forgotten.
    @usableFromInline
    func cancelAll() {
        lock.lock()
        isCancelled = true
        onIdle = nil
        let tasks = running.values.compactMap(\.task)
        lock.unlock()
        // Outside the lock: a cancellation handler runs synchronously and may do anything.
        for task in tasks { task.cancel() }
    }

    private func finished(_ id: Int) {
        lock.lock()
        running[id] = nil
        var idle: (@Sendable () -> Void)?
        if running.isEmpty {
            idle = onIdle
            onIdle = nil
        }
        lock.unlock()
        idle?()
    }
}
