/// A child's events to its parent (Docs/Effects.md E70–E77): on the child's side, each
/// `send: {event: e, to: parent}` names one of its own events with exactly its payload; on the
/// parent's side, `events:` of a `machine:` effect maps events the child really sends to the
/// parent's own, whose fields the child's event has. Their coverage is `SpecChecker+Coverage`'s
/// (the mapped events are the effect's results, E73).
extension SpecChecker {
    /// E70: a send to the parent names a declared event anyone may send, with its payload.
    func checkSendsToParent(_ spec: MachineSpec, into findings: inout Findings) {
        let events = Dictionary(spec.events.map { ($0.name.value, $0) }, uniquingKeysWith: { first, _ in first })
        for case .sendToParent(let event, let payload, let location) in spec.actions(tree: findings.tree) {
            checkEventToSelf("send", event, payload, at: location, events: events, reserved: ["event", "to"], into: &findings)
        }
    }

    /// E72, E77: each entry of `events:` maps an event the child sends to its parent to a parent
    /// event whose fields the child's event has, once; a parent that persists maps none.
    func checkChildEvents(_ child: ChildMachine, of effectName: String, in spec: MachineSpec, childSpec: MachineSpec, events: [String: EventSpec], into findings: inout Findings) {
        guard let eventsKey = child.eventsKey else { return }
        let machine = childSpec.name.value
        if spec.persist != nil {
            findings.error(
                "machine '\(spec.name.value)' persists, so effect '\(effectName)' cannot take the events its child '\(machine)' sends yet: the journal has no record of them (Docs/Durability.md D110)",
                at: eventsKey.location,
                fixIt: "remove 'events:', and report what the parent needs through the child's 'output:' and 'onDone:'")
        }
        checkListedOnce(child.events.map(\.from), what: "event", list: "'events:' of effect '\(effectName)'", into: &findings)
        let childEventNames = childSpec.events.map(\.name.value)
        var childEvents: [String: EventSpec] = [:]
        for event in childSpec.events where childEvents[event.name.value] == nil {
            childEvents[event.name.value] = event
        }
        let sent = childSpec.eventsSentToParent(tree: StateTree(childSpec.states))
        for entry in child.events {
            guard let childEvent = childEvents[entry.from.value] else {
                checkKnown(
                    entry.from, among: childEventNames, known: Set(childEvents.keys), "machine '\(machine)' has no event '\(entry.from.value)'",
                    declare: "'events:' in the spec of '\(machine)'", into: &findings)
                continue
            }
            if !sent.contains(entry.from.value) {
                findings.error(
                    "machine '\(machine)' never sends '\(entry.from.value)' to its parent, so effect '\(effectName)' would never get it", at: entry.from.location,
                    fixIt: sent.isEmpty
                        ? "add an action '{send: {event: \(entry.from.value), to: parent}}' to the spec of '\(machine)', or remove the entry"
                        : "map one of \(Self.listed(sent.sorted().map { "'\($0)'" })), or add an action '{send: {event: \(entry.from.value), to: parent}}' to the spec of '\(machine)'")
                continue
            }
            guard let parentEvent = events[entry.to.value] else { continue }
            let lacking = Self.names(parentEvent.payload.map(\.name), missingFrom: childEvent.payload.map(\.name))
            guard !lacking.isEmpty else { continue }
            findings.error(
                "event '\(entry.to.value)' has \(Self.fields(lacking)), which event '\(entry.from.value)' of machine '\(machine)' lacks",
                at: entry.from.location,
                fixIt: "add \(lacking.map { "'\($0): T'" }.joined(separator: ", ")) to event '\(entry.from.value)' of '\(machine)', or remove \(lacking.count == 1 ? "it" : "them") from '\(entry.to.value)': the payload is copied by field name")
        }
    }
}

extension MachineSpec {
    /// The events a `send: {event: e, to: parent}` of the machine names (E70).
    public func eventsSentToParent(tree: StateTree) -> Set<String> {
        Set(actions(tree: tree).compactMap { action in
            if case .sendToParent(let event, _, _) = action { event.value } else { nil }
        })
    }
}
