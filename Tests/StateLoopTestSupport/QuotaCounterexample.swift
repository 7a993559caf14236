// The planted-bug fixture Quota (Tests/StateLoopCodegenTests/Fixtures/Quota.machine.yml), as
// exploration reports it: what the library's tests and `stateloop explore`'s expect alike.

/// The shortest run that breaks Quota's `withinQuota`, as `MachineTest.explore` prints it to
/// paste (Docs/Testing.md V14): three uses of a quota of two.
public let quotaThreeUses = """
    let test = MachineTest(Quota.self, state: .initial)
    test.checksState = false
    test.send(.use)
    test.send(.use)
    test.send(.use)
    test.finish()
    """
