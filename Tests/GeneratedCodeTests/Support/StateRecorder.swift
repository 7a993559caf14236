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

/// Reads `states` until one satisfies `predicate`; returns it (or `nil` if the system stopped).
func firstState<State>(in states: AsyncStream<State>, where predicate: (State) -> Bool) async -> State? {
    for await state in states where predicate(state) {
        return state
    }
    return nil
}
