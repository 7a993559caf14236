// EffectChanges: the runs and timers a step started and ended, derived from the states before and
// after it (effects are queries of the state, I13-I16), as the test harness derives them (T5).

import StateLoop

enum EffectChanges<Machine: StateMachine> {
    /// The `run` and `timer` messages of step `seq`, from `before` (`nil` for the initial state)
    /// to `after`, `event` being the step's event.
    ///
    /// - A run asked for after the step and not before started; one asked for before and not
    ///   after finished if `event` is one of its results, else it was cancelled (I13, I14). A
    ///   one-shot run starts with the step that queued it; no state change ends it, and when it
    ///   ends is not in the state, so it has no end message (I15).
    /// - A timer armed after the step and not before was armed, with its deadline; one armed
    ///   before and not after fired if `event` is its event, else it was cancelled (I16).
    static func messages(
        instance: String, seq: Int, time: Double, from before: Machine.State?, to after: Machine.State, event: Machine.Event?,
        redacting fields: Set<String> = Machine.redactedFields
    ) -> [InspectorMessage] {
        var messages: [InspectorMessage] = []
        let oldRuns = before.map(Machine.runs(in:)) ?? []
        let newRuns = Machine.runs(in: after)
        for run in oldRuns where !run.isOneShot && !newRuns.contains(run) {
            // An event a child sends its parent (E76) does not end its run.
            let finished = event.map { Machine.result($0, of: run.call).map { $0 != .message } ?? false } ?? false
            let (effect, key) = InspectorDump.call(run.call, redacting: fields)
            messages.append(.run(instance: instance, seq: seq, phase: finished ? "finished" : "cancelled", effect: effect, key: key))
        }
        for run in newRuns where run.isOneShot || !oldRuns.contains(run) {
            let (effect, key) = InspectorDump.call(run.call, redacting: fields)
            messages.append(.run(instance: instance, seq: seq, phase: "started", effect: effect, key: key))
        }
        let oldTimers = before.map(Machine.timers(in:)) ?? []
        let newTimers = Machine.timers(in: after)
        for timer in oldTimers where !newTimers.contains(timer) {
            let phase = event == timer.event ? "fired" : "cancelled"
            messages.append(.timer(instance: instance, seq: seq, phase: phase, name: name(of: timer), deadline: time))
        }
        for timer in newTimers where !oldTimers.contains(timer) {
            let deadline = time + Double(timer.delay.components.seconds) * 1000 + Double(timer.delay.components.attoseconds) / 1e15
            messages.append(.timer(instance: instance, seq: seq, phase: "armed", name: name(of: timer), deadline: deadline))
        }
        return messages
    }

    /// `failed after 5.0 seconds`: the state that armed it and its delay.
    private static func name(of timer: ArmedTimer<Machine.StateName, Machine.Event>) -> String {
        "\(timer.state) after \(timer.delay)"
    }
}
