import Foundation

/// Collects the states a running system delivers (from whatever thread reduced the event), so
/// that a test can read them afterwards.
final class StateRecorder<State: Sendable>: @unchecked Sendable {
    // Guarded by `lock`; @unchecked Sendable rests on that.
    private let lock = NSLock()
    private var recorded: [State] = []

    /// Records one state.
    func record(_ state: State) { lock.withLock { recorded.append(state) } }

    /// Every state so far, in order.
    var states: [State] { lock.withLock { recorded } }
}

/// Reads `values` (states or observed events) until one satisfies `predicate`; returns it, or
/// `nil` if the sequence finished first (the system stopped).
func firstState<Value>(in values: AsyncStream<Value>, where predicate: (Value) -> Bool) async -> Value? {
    for await value in values where predicate(value) {
        return value
    }
    return nil
}
