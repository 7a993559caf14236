// Fixtures: a small test machine, thread-safe recorders, and helpers to line up threads.

import Dispatch
import Foundation
import StateLoop
import StateLoopTestSupport

/// The state of the test machine: a counter, one optional request, a set of requests, and what
/// effects reported back.
struct Model: Equatable, Sendable {
    var count = 0
    var query: Int?
    var queries: Set<Int> = []
    var loaded: [Int] = []
    var errors: [String] = []
    var progress: [Int] = []
}

/// The events of the test machine.
enum Action: Equatable, Sendable {
    case increment
    case query(Int?)
    case queries(Set<Int>)
    case loaded(Int)
    case failed(String)
    case progress(Int)
}

/// The test machine's reducer: plain data changes, no effects.
@Sendable func reduceModel(_ state: inout Model, _ action: Action) {
    switch action {
    case .increment: state.count += 1
    case .query(let query): state.query = query
    case .queries(let queries): state.queries = queries
    case .loaded(let value): state.loaded.append(value)
    case .failed(let message): state.errors.append(message)
    case .progress(let value): state.progress.append(value)
    }
}

// Recorder and Box guard their value with an `NSLock` rather than `Synchronization.Mutex`:
// ThreadSanitizer on Linux does not see Mutex's futex and reports appends from concurrent
// effects as races (see `PlatformLock.swift` in the runtime). `@unchecked Sendable` rests on it.

/// A thread-safe, append-only list that tests read after the fact.
final class Recorder<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var elements: [Element] = []

    func append(_ element: Element) { lock.withLock { elements.append(element) } }
    var all: [Element] { lock.withLock { elements } }

    /// The elements once `condition` holds for them (appended from other threads), polling with
    /// yields for up to about ten seconds.
    func eventually(_ condition: ([Element]) -> Bool) async -> [Element] {
        for _ in 0..<10_000 {
            let now = all
            if condition(now) { return now }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return all
    }
}

/// What an effect reports about its own life, so tests can wait for it instead of sleeping.
enum Lifecycle: Hashable, Sendable {
    case started(Int)
    case cancelled(Int)
}

/// A stream of effect lifecycle reports, consumed by one test.
final class EffectProbe: Sendable {
    let reports: AsyncStream<Lifecycle>
    private let continuation: AsyncStream<Lifecycle>.Continuation

    init() { (reports, continuation) = AsyncStream.makeStream(of: Lifecycle.self) }

    func report(_ lifecycle: Lifecycle) { continuation.yield(lifecycle) }

    /// An effect that reports its start, runs until cancelled, then reports the cancellation.
    func runUntilCancelled(_ request: Int) async -> Action {
        report(.started(request))
        await untilCancelled()
        report(.cancelled(request))
        return .loaded(request)
    }
}

/// Suspends until the current task is cancelled: the body of an effect that "runs for a long
/// time" without any real delay.
func untilCancelled() async {
    try? await ManualClock().sleep(for: .seconds(1))
}

extension AsyncStream {
    /// The next `count` elements.
    func next(_ count: Int) async -> [Element] {
        var iterator = makeAsyncIterator()
        var elements: [Element] = []
        while elements.count < count, let element = await iterator.next() { elements.append(element) }
        return elements
    }
}

extension AsyncSequence where Self: Sendable {
    /// Waits for the first element that satisfies `predicate`.
    func firstMatch(_ predicate: @Sendable (Element) -> Bool) async rethrows -> Element? {
        for try await element in self where predicate(element) { return element }
        return nil
    }
}

/// Runs `body` on a thread of its own, outside the cooperative pool, so it may block (on a
/// semaphore) while effects run on the pool.
/// The thread keeps the test's start mode of effect runs (see StartModes.swift).
func onOwnThread(_ body: @escaping @Sendable () -> Void) async {
    let forcesTasks = currentForcesTasks
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let thread = Thread {
            withStartMode(forcesTasks: forcesTasks, body)
            continuation.resume()
        }
        thread.start()
    }
}

/// An async sequence whose first element is `event`, produced after `before` returns, and which
/// then calls `afterFirst` (at that point the runtime has queued the first element) and ends.
func oneEventThen(
    _ event: Action, before: @escaping @Sendable () async -> Void = {},
    afterFirst: @escaping @Sendable () -> Void
) -> AsyncThrowingStream<Action, any Error> {
    let sent = Box(false)
    return AsyncThrowingStream(unfolding: {
        if !sent.value {
            sent.value = true
            await before()
            return event
        }
        afterFirst()
        return nil
    })
}
