// CallLog: the calls a generated `RecordingEffects` has seen (placeholder until the runtime branch lands).

/// Values appended from any thread, read in order.
public final class CallLog<Value: Sendable>: @unchecked Sendable {
    private let lock = PlatformLock()
    private var stored: [Value] = []

    public init() {}

    deinit { lock.deallocate() }

    /// Appends `value`.
    public func append(_ value: Value) {
        lock.lock()
        stored.append(value)
        lock.unlock()
    }

    /// Every value appended so far, in order.
    public var values: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
