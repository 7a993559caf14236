// EffectStart: how an effect's task starts - on the draining thread until its first suspension
// (`Task.immediate`, E54), or on the global executor - and the switch that tests use to force
// the second.
//
// Invariants:
// - A run's task starts only while its instance's drain role is held, so `stop()` (which waits
//   for the role) can promise that no run starts after it returns.
// - The start mode is read once per instance, when it starts; a child takes its parent's.

/// Starts `operation` in a new unstructured task: with `immediately`, where `Task.immediate`
/// exists (Swift 6.2 runtimes: Linux, and Apple platforms from the 26 releases), on the calling
/// thread until its first suspension; otherwise on the global executor, as `Task {}` does.
/// (A `RequestRun` starts its task itself, with a closure literal that needs no wrapping.)
@inlinable
func startTask(
    immediately: Bool, _ operation: sending @escaping @Sendable () async -> Void
) -> Task<Void, Never> {
    #if compiler(>=6.2)
    if immediately, #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
        return Task.immediate(operation: operation)
    }
    #endif
    return Task(operation: operation)
}

/// The start mode of the effects of every system instance started in this task (E54).
///
/// Read once per instance, when it starts; its child systems inherit the instance's mode.
/// Internal: the runtime's tests run each test in both modes (`@testable import`).
@usableFromInline
enum EffectStart {
    /// `true` forces every effect run to start in an ordinary task, even where `Task.immediate`
    /// exists.
    @TaskLocal static var forcesTasks = false

    /// Whether the instance being started now starts its effects immediately.
    @usableFromInline
    static func immediately() -> Bool {
        !forcesTasks
    }
}
