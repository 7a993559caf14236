/// The central promise: in every state, every event that can arrive there is handled or ignored
/// out loud. An event `from: effects` can arrive only where an effect that emits it can run, so it
/// needs an answer only there; elsewhere the generated reducer ignores it.
extension SpecChecker {
    func checkCoverage(_ spec: MachineSpec, into findings: inout Findings) {
        // The state × event loop below works on event indices: it runs up to a million times, and
        // hashing names there would cost as much as the names are long.
        var eventIndex: [String: Int] = [:]
        for (index, event) in spec.events.enumerated() where eventIndex[event.name.value] == nil {
            eventIndex[event.name.value] = index
        }
        let machineIgnored = Set(spec.ignore.compactMap {
            eventIndex[findings.intended($0.value, known: findings.eventSet, among: findings.eventNames) ?? $0.value]
        })
        var handledSomewhere: Set<String> = []
        var emitted: Set<String> = []
        for effect in spec.effects { emitted.formUnion(effect.emits.map(\.value)) }
        // For each state, the effect results that can arrive there, with the `in:` entry that
        // lets them (the first effect in file order wins, for a stable note).
        var arrivingByState: [String: [Int: (effect: String, entry: SourceLocation)]] = [:]
        for effect in spec.effects {
            let emits = effect.emits.compactMap { eventIndex[$0.value] }
            for entry in effect.runningStates {
                for event in emits where arrivingByState[entry.value, default: [:]][event] == nil {
                    arrivingByState[entry.value, default: [:]][event] = (effect.name.value, entry.location)
                }
            }
        }

        for state in spec.states {
            // A misspelt event counts as the event it was meant to be (its typo is reported once,
            // by the reference check).
            var handled: [String: SourceLocation] = [:]
            for handler in state.on {
                guard let event = findings.intended(handler.event.value, known: findings.eventSet, among: findings.eventNames) else { continue }
                if handled[event] == nil { handled[event] = handler.event.location }
            }
            handledSomewhere.formUnion(handled.keys)
            var ignored: Set<Int> = []
            for name in state.ignore {
                if let index = eventIndex[findings.intended(name.value, known: findings.eventSet, among: findings.eventNames) ?? name.value] {
                    ignored.insert(index)
                }
                if let handler = handled[name.value] {
                    findings.error(
                        "event '\(name.value)' is both handled and ignored in state '\(state.name.value)'", at: name.location,
                        notes: [Diagnostic.Note("'\(name.value)' is handled here", at: handler)],
                        fixIt: "remove '\(name.value)' from 'ignore:', or its handler from 'on:'")
                }
            }
            var handledIndices: [Int: SourceLocation] = [:]
            for (name, location) in handled {
                if let index = eventIndex[name] { handledIndices[index] = location }
            }

            let arriving = arrivingByState[state.name.value] ?? [:]

            var missing: [String] = []
            var arrivingMissing: [(event: String, effect: String, entry: SourceLocation)] = []
            for (index, event) in spec.events.enumerated() {
                if event.source == .effects, arriving[index] == nil {
                    if let handler = handledIndices[index], emitted.contains(event.name.value) {
                        let name = event.name.value
                        findings.warning(
                            "state '\(state.name.value)' handles '\(name)', but no effect that emits it runs in '\(state.name.value)', so the handler never fires",
                            at: handler, fixIt: "add '\(state.name.value)' to the 'in:' of an effect that emits '\(name)', or remove the handler")
                    }
                    continue
                }
                guard handledIndices[index] == nil, !ignored.contains(index), !machineIgnored.contains(index) else { continue }
                missing.append(event.name.value)
                if let source = arriving[index] {
                    arrivingMissing.append((event.name.value, source.effect, source.entry))
                }
            }
            guard !missing.isEmpty else { continue }
            let (noun, pronoun) = missing.count == 1 ? ("event", "it") : ("events", "them")
            // Built only when reported (the list of diagnostics is bounded), and the names listed
            // are bounded too: a machine with thousands of events must not print them per state.
            findings.error(
                "state '\(state.name.value)' does not handle \(noun) \(Self.listed(missing.map { "'\($0)'" }))", at: state.name.location,
                notes: arrivingMissing.prefix(Self.maximumListedNames).map {
                    Diagnostic.Note("'\($0.event)' is a result of effect '\($0.effect)', which can run in state '\(state.name.value)'", at: $0.entry)
                },
                fixIt: "add `ignore: [\(Self.listed(missing))]` to state '\(state.name.value)' or handle \(pronoun) under `on:`")
        }

        for event in spec.events {
            let name = event.name.value
            if event.source == .effects, !emitted.contains(name) {
                findings.error(
                    "event '\(name)' is 'from: effects' but no effect emits it, so nothing can send it", at: event.name.location,
                    fixIt: "add '\(name)' to the 'emits:' of an effect, or remove 'from: effects'")
            } else if !handledSomewhere.contains(name), !spec.states.isEmpty {
                findings.warning(
                    "no state handles event '\(name)', so it never changes anything", at: event.name.location,
                    fixIt: "handle it under 'on:' in some state, or remove the event")
            }
        }
    }
}

extension SpecChecker {
    /// The most names one diagnostic lists (and notes it carries) about unhandled events.
    static let maximumListedNames = 20

    /// `names` joined by commas, the ones past `maximumListedNames` counted instead of listed.
    static func listed(_ names: [String]) -> String {
        let shown = names.prefix(maximumListedNames).joined(separator: ", ")
        return names.count > maximumListedNames ? shown + ", ... (\(names.count - maximumListedNames) more)" : shown
    }
}
