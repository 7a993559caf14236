/// Every name in the spec refers to something declared: targets and the initial state to
/// states, handlers and ignore lists to events, `set:` to context fields, effects to states and
/// events. Lists do not repeat a name.
extension SpecChecker {
    func checkReferences(_ spec: MachineSpec, into findings: inout Findings) {
        let states = findings.stateNames
        let events = findings.eventNames
        if let targets = spec.initialTargets {
            checkInitialList(targets, of: nil, into: &findings)
        } else if !states.isEmpty {
            checkKnown(spec.initial, among: states, known: findings.stateSet, "initial state '\(spec.initial.value)' is not a state", declare: "'states:'", into: &findings)
        }
        checkGroups(spec, into: &findings)
        let groups = spec.groupsByName
        checkIgnored(spec.ignore, groups: groups, "the machine ignores", into: &findings)
        checkListedOnce(spec.ignore, what: "event", list: "the machine's 'ignore:'", into: &findings)
        for handler in spec.on {
            checkKnown(handler.event, among: events, known: findings.eventSet, "the machine handles '\(handler.event.value)', which is not an event", declare: "'events:'", into: &findings)
            checkTargets(handler.branches, states: states, spec: spec, into: &findings)
        }
        for node in findings.tree.nodes {
            let state = node.spec
            for handler in state.on {
                checkKnown(handler.event, among: events, known: findings.eventSet, "state '\(state.name.value)' handles '\(handler.event.value)', which is not an event", declare: "'events:'", into: &findings)
            }
            checkTargets(state.branches, states: states, spec: spec, into: &findings)
            checkFields(of: state.entry + state.exit + state.defaultActions, spec: spec, into: &findings)
            if let target = state.historyTarget {
                checkKnown(target, among: states, known: findings.stateSet, "target '\(target.value)' is not a state", declare: "'states:'", into: &findings)
            }
            checkIgnored(state.ignore, groups: groups, "state '\(state.name.value)' ignores", into: &findings)
            checkListedOnce(state.ignore, what: "event", list: "'ignore:' of state '\(state.name.value)'", into: &findings)
        }
        for effect in spec.effects {
            for state in effect.runningStates where findings.tree.index[state.value].map({ findings.tree[$0].spec.isHistory }) == true {
                findings.error(
                    "effect '\(effect.name.value)' runs in history state '\(state.value)', which is never active", at: state.location,
                    fixIt: "name the history state's parent instead")
            }
            for state in effect.runningStates {
                checkKnown(state, among: states, known: findings.stateSet, "effect '\(effect.name.value)' runs in '\(state.value)', which is not a state", declare: "'states:'", into: &findings)
            }
            checkListedOnce(effect.runningStates, what: "state", list: "'in:' of effect '\(effect.name.value)'", into: &findings)
            checkKnownEvents(effect.emits, "effect '\(effect.name.value)' emits", into: &findings)
            checkListedOnce(effect.emits, what: "event", list: "'emits:' of effect '\(effect.name.value)'", into: &findings)
        }
    }

    private func checkTargets(_ branches: [Branch], states: [String], spec: MachineSpec, into findings: inout Findings) {
        for case .transition(let transition) in branches {
            if let target = transition.target {
                checkKnown(target, among: states, known: findings.stateSet, "target '\(target.value)' is not a state", declare: "'states:'", into: &findings)
            }
            checkFields(transition.assignments, into: &findings)
            checkFields(of: transition.actions, spec: spec, into: &findings)
        }
    }

    /// The fields the actions assign, those inside conditionals and loops included: a `set:`'s, and
    /// a `foreach:`'s `item:` and `index:`, the index an `Int` (S172).
    private func checkFields(of actions: [Action], spec: MachineSpec, into findings: inout Findings) {
        for action in actions.flatMap(\.flattened) {
            switch action {
            case .set(let assignments, _):
                checkFields(assignments, into: &findings)
            case .foreach(let loop):
                for (field, key) in [(loop.item, "item"), loop.index.map { ($0, "index") }].compactMap({ $0 }) {
                    checkKnown(
                        field, among: findings.fieldNames, known: findings.fieldSet,
                        "'\(key):' of 'foreach:' names '\(field.value)', which is not a context field", declare: "'context:'", into: &findings)
                }
                if let index = loop.index, let type = spec.context.first(where: { $0.name.value == index.value })?.type,
                   !["Int", "Int?"].contains(type.value) {
                    findings.error(
                        "'index:' of 'foreach:' names '\(index.value)', a '\(type.value)'; an index is an 'Int' or an 'Int?'", at: index.location,
                        fixIt: "declare '\(index.value)' with 'type: Int', or name an 'Int' field")
                }
            default:
                break
            }
        }
    }

    private func checkFields(_ assignments: [Assignment], into findings: inout Findings) {
        for assignment in assignments {
            checkKnown(
                assignment.field, among: findings.fieldNames, known: findings.fieldSet,
                "'set:' assigns '\(assignment.field.value)', which is not a context field", declare: "'context:'", into: &findings)
        }
    }

    /// A group has events, each declared and listed once, and a name no event has (S100, S102).
    private func checkGroups(_ spec: MachineSpec, into findings: inout Findings) {
        for group in spec.groups {
            let name = group.name.value
            if findings.eventSet.contains(name) {
                findings.error(
                    "group '\(name)' has the name of an event, so 'ignore: [\(name)]' could mean either", at: group.name.location,
                    fixIt: "rename the group, e.g. '\(name)Events'")
            }
            if group.events.isEmpty {
                findings.error("group '\(name)' has no events", at: group.name.location, fixIt: "list its events, '\(name): [event, ...]', or remove it")
            }
            checkKnownEvents(group.events, "group '\(name)' lists", into: &findings)
            checkListedOnce(group.events, what: "event", list: "group '\(name)'", into: &findings)
        }
    }

    /// An `ignore:` list names events and groups (S100).
    private func checkIgnored(_ names: [Located<String>], groups: [String: EventGroup], _ subject: @autoclosure () -> String, into findings: inout Findings) {
        let candidates = groups.isEmpty ? findings.eventNames : findings.eventNames + groups.keys.sorted()
        let what = groups.isEmpty ? "an event" : "an event or a group"
        for name in names where groups[name.value] == nil {
            checkKnown(name, among: candidates, known: findings.eventSet, "\(subject()) '\(name.value)', which is not \(what)", declare: "'events:'", into: &findings)
        }
    }

    func checkKnownEvents(_ names: [Located<String>], _ subject: @autoclosure () -> String, into findings: inout Findings) {
        for name in names {
            checkKnown(name, among: findings.eventNames, known: findings.eventSet, "\(subject()) '\(name.value)', which is not an event", declare: "'events:'", into: &findings)
        }
    }

    /// Reports `name` when it is not one of `candidates`, suggesting the closest one.
    /// `message` is built only when reported: it often quotes the name of the state the entry is
    /// in, and a state can have any number of entries.
    func checkKnown(
        _ name: Located<String>, among candidates: [String], known: Set<String>, _ message: @autoclosure () -> String,
        declare place: String, into findings: inout Findings
    ) {
        guard !known.contains(name.value) else { return }
        let closest = findings.closest(to: name.value, among: candidates)
        findings.error(message(), at: name.location, fixIt: Self.suggestion(for: name.value, closest: closest, among: candidates, declare: place))
    }

    /// "did you mean 'x'?", or the names to choose from and where to declare a new one.
    static func suggestion(for name: String, closest: String?, among candidates: [String], declare place: String) -> String {
        if let closest {
            return "did you mean '\(closest)'?"
        }
        if candidates.isEmpty { return "declare '\(name)' under \(place)" }
        let shown = candidates.prefix(8).joined(separator: ", ") + (candidates.count > 8 ? ", ..." : "")
        return "use one of \(shown), or declare '\(name)' under \(place)"
    }

    func checkListedOnce(_ names: [Located<String>], what: String, list: @autoclosure () -> String, into findings: inout Findings) {
        var seen: [String: SourceLocation] = [:]
        for name in names {
            if let first = seen[name.value] {
                findings.error(
                    "\(what) '\(name.value)' is listed twice in \(list())", at: name.location,
                    notes: [Diagnostic.Note("'\(name.value)' is first listed here", at: first)], fixIt: "remove one of them")
            } else {
                seen[name.value] = name.location
            }
        }
    }
}
