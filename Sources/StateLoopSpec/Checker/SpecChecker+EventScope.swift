/// S37: `event`, the payload of the event an `on:` branch answers, exists only in that branch's
/// `guard:`, `set:` and `do:`. Everywhere else a spec's Swift runs for no particular event, so
/// `event` there is an error at its YAML line with the name that works: `trigger` (S111).
extension SpecChecker {
    func checkEventScope(_ spec: MachineSpec, into findings: inout Findings) {
        var outside: [(expression: Located<String>, place: String)] = []
        for state in findings.tree.nodes.map(\.spec) {
            outside += state.entry.flatMap(\.expressions).map { ($0, "an 'entry:' action") }
            outside += state.exit.flatMap(\.expressions).map { ($0, "an 'exit:' action") }
            outside += state.defaultActions.flatMap(\.expressions).map { ($0, "a default entry's 'do:'") }
            outside += state.always.compactMap(\.transition).flatMap(\.expressions).map { ($0, "an 'always:' branch") }
            outside += state.onDone.compactMap(\.transition).flatMap(\.expressions).map { ($0, "an 'onDone:' branch") }
            outside += state.after.flatMap(\.branches).compactMap(\.transition).flatMap(\.expressions).map { ($0, "an 'after:' branch") }
            outside += state.output.map(\.value).map { ($0, "'output:'") }
        }
        outside += spec.delays.map(\.expression).map { ($0, "a delay of 'delays:'") }
        outside += spec.effects.compactMap(\.request?.value).map { ($0, "an effect's 'request:'") }
        for (expression, place) in outside where SwiftFragment.namesBare("event", in: expression.value, isType: false, orAsBase: true) {
            findings.error(
                "'event' is not in scope in \(place), which runs for no particular event (S37)", at: expression.location,
                fixIt: "read the event of the step that runs it as 'trigger' (S111), e.g. '{ if case .assign(let who)? = trigger { who } else { \"\" } }()'")
        }
    }
}
