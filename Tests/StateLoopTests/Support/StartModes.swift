// StartModes: every runtime test runs twice, once with effect runs started immediately on the
// draining thread (E54, where `Task.immediate` exists) and once with ordinary tasks.

@testable import StateLoop
import Testing

/// A suite trait that runs each test of the suite once per start mode of effect runs.
///
/// The mode is the runtime's task-local `EffectStart.forcesTasks`, read when a system starts, so
/// it holds for every system the test starts in its own task (and, through `onOwnThread`, on the
/// threads it starts).
struct BothStartModes: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // Only around test cases: a suite's own scope would run its tests twice over.
        guard testCase != nil else { return try await function() }
        for forcesTasks in [false, true] {
            try await EffectStart.$forcesTasks.withValue(forcesTasks) { try await function() }
        }
    }
}

extension Trait where Self == BothStartModes {
    /// Runs each test of the suite with effects started immediately, then in tasks.
    static var bothStartModes: Self { BothStartModes() }
}

/// The start mode of the current test, for threads that a test starts itself.
var currentForcesTasks: Bool { EffectStart.forcesTasks }

/// Runs `body` with the given start mode (on a thread outside any task).
func withStartMode(forcesTasks: Bool, _ body: () -> Void) {
    EffectStart.$forcesTasks.withValue(forcesTasks) { body() }
}
