// What several test targets share to watch threads they do not run: a locked value, and a wait
// for a condition that another thread makes true.

import Foundation

/// A thread-safe holder for a value set after creation (e.g. a run handle a feedback needs).
/// Guarded by an `NSLock` rather than `Synchronization.Mutex`: ThreadSanitizer on Linux does not
/// see Mutex's futex (see `PlatformLock.swift` in the runtime).
public final class Box<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    public init(_ value: Value) { stored = value }
    public var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
    /// Applies `change` atomically and returns its result.
    @discardableResult
    public func update<R: Sendable>(_ change: @Sendable (inout Value) -> R) -> R { lock.withLock { change(&stored) } }
}

/// `value()` once it is non-`nil`, polling for up to about twenty seconds.
public func eventually<Value>(_ value: () -> Value?) async -> Value? {
    for _ in 0..<20_000 {
        if let found = value() { return found }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return value()
}
