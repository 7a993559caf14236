// CallLog: the list of calls a generated `RecordingEffects` keeps (E44, E55).
//
// Invariants:
// - `values` holds every value appended, in the order the appends took the lock; nothing is ever
//   removed.

/// An append-only list of values that any thread may append to and read, in append order.
///
/// Generated `RecordingEffects` test doubles record every effect call in one, so that a test can
/// read `calls` while effects still run. The values sit behind the runtime's own lock.
public final class CallLog<Value: Sendable>: @unchecked Sendable {
    // `@unchecked Sendable`: `stored` is touched only under `lock`.
    private let lock = PlatformLock()
    private var stored: [Value] = []

    /// An empty log.
    public init() {}

    deinit {
        lock.deallocate()
    }

    /// Appends `value` after every value appended before.
    public func append(_ value: Value) {
        lock.lock()
        stored.append(value)
        lock.unlock()
    }

    /// Every value appended so far, oldest first.
    public var values: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
