/// The shapes of effects (Docs/Effects.md): the event a failure becomes (E16), `output:` only
/// where a machine ends (E22) or as a nested final state's `doneEvent:` (Docs/Statecharts.md
/// S160), child machines that exist and do not run themselves (E23), with
/// their `input:` (E24), `forward:` (E29), `onDone:` (E31) and `events:` (E72) matching the child's spec, named
/// delays that exist (E36), and `afterRestart:` only in a spec that persists (Docs/Durability.md
/// D44). Coverage of the results is `SpecChecker+Coverage`'s (E20, E28, E31).
extension SpecChecker {
    func checkEffects(_ spec: MachineSpec, into findings: inout Findings) {
        var events: [String: EventSpec] = [:]
        for event in spec.events where events[event.name.value] == nil {
            events[event.name.value] = event
        }
        for effect in spec.effects {
            if let onError = effect.onError {
                checkOnError(onError, of: effect, events: events, into: &findings)
            }
            if let child = effect.child {
                checkChild(child, of: effect, in: spec, events: events, into: &findings)
            }
            if let afterRestart = effect.afterRestart, spec.persist == nil {
                findings.error(
                    "'afterRestart:' of effect '\(effect.name.value)' needs a machine that persists: machine '\(spec.name.value)' never restarts",
                    at: afterRestart.location, fixIt: "add 'persist: true' to the spec, or remove 'afterRestart:' (Docs/Durability.md D44)")
            }
        }
        checkOutputs(events: events, into: &findings)
        checkDelays(spec, into: &findings)
    }

    /// E16: a failure fills only `error:` and `request:`.
    private func checkOnError(_ onError: Located<String>, of effect: EffectSpec, events: [String: EventSpec], into findings: inout Findings) {
        checkKnownEvents([onError], "effect '\(effect.name.value)' fails with", into: &findings)
        guard let event = events[onError.value] else { return }
        let unfilled = event.payload.map(\.name.value).filter { $0 != "error" && $0 != "request" }
        guard !unfilled.isEmpty else { return }
        findings.error(
            "a failure of effect '\(effect.name.value)' cannot fill \(Self.fields(unfilled)) of event '\(onError.value)'", at: onError.location,
            fixIt: "a failure fills only 'error: String' (its description) and 'request: T' (the request that failed); remove the other fields, or catch the error in the effect and return it as one of its 'emits:' events")
    }

    /// E22, S160: `output:` belongs to a top-level final state, or to a final state inside a
    /// composite that names its `doneEvent:`, whose fields the output must have (a history
    /// state's keys are checked with the hierarchy).
    private func checkOutputs(events: [String: EventSpec], into findings: inout Findings) {
        let tree = findings.tree
        for node in tree.nodes where !node.spec.isHistory {
            if let doneEvent = node.spec.doneEvent {
                checkDoneEvent(doneEvent, of: node.spec, nested: node.parent != nil, events: events, into: &findings)
            }
            guard let key = node.spec.key("output") else { continue }
            if !node.spec.isFinal {
                findings.error(
                    "'output:' belongs to a top-level final state; '\(node.name)' is not a final state", at: key.location,
                    fixIt: "remove 'output:', or make '\(node.name)' a top-level state with 'type: final'")
            } else if let parent = node.parent, node.spec.doneEvent == nil {
                findings.error(
                    "'output:' of final state '\(node.name)' inside '\(tree[parent].name)' needs 'doneEvent:': entering it does not finish the machine, its output is the event the 'onDone:' of '\(tree[parent].name)' reads (S160)",
                    at: key.location, fixIt: "add 'doneEvent: event', naming a declared event whose fields the output gives, or move 'output:' to a final state at the top level of 'states:'")
            }
        }
    }

    /// S160: `doneEvent:` names a declared event whose payload fields the final state's `output:`
    /// gives, on a final state inside a composite.
    private func checkDoneEvent(_ name: Located<String>, of state: StateSpec, nested: Bool, events: [String: EventSpec], into findings: inout Findings) {
        guard state.isFinal, nested else {
            return findings.error(
                "'doneEvent:' belongs to a final state inside a composite; '\(state.name.value)' is \(state.isFinal ? "a top-level final state, which finishes the machine" : "not a final state")",
                at: name.location, fixIt: state.isFinal ? "remove 'doneEvent:': a top-level final state reports through 'output:' (E22)" : "remove 'doneEvent:', or make '\(state.name.value)' a state with 'type: final' inside a composite")
        }
        guard let event = events[name.value] else {
            let candidates = Array(events.keys).sorted()
            let closest = findings.closest(to: name.value, among: candidates)
            return findings.error(
                "'doneEvent:' of '\(state.name.value)' names unknown event '\(name.value)'", at: name.location,
                fixIt: Self.suggestion(for: name.value, closest: closest, among: candidates, declare: "'events:'"))
        }
        let lacking = Self.names(event.payload.map(\.name), missingFrom: state.output.map(\.name))
        guard !lacking.isEmpty else {
            for field in event.payload {
                guard let given = state.output.first(where: { $0.name.value == field.name.value }), given.type.value != field.type.value else { continue }
                findings.error(
                    "output field '\(field.name.value)' of '\(state.name.value)' is '\(given.type.value)', but field '\(field.name.value)' of event '\(name.value)' is '\(field.type.value)'",
                    at: given.type.location, fixIt: "write 'type: \(field.type.value)', the type the event declares")
            }
            return
        }
        findings.error(
            "event '\(name.value)' has \(Self.fields(lacking)), which the output of final state '\(state.name.value)' lacks",
            at: name.location,
            fixIt: "add \(lacking.map { "'\($0): {type: T, value: expression}'" }.joined(separator: ", ")) to the 'output:' of '\(state.name.value)', or remove \(lacking.count == 1 ? "it" : "them") from '\(name.value)'")
    }

    /// E36: a named `after:` delay is declared under `delays:`, and every delay is used.
    private func checkDelays(_ spec: MachineSpec, into findings: inout Findings) {
        let names = spec.delays.map(\.field.value)
        let known = Set(names)
        var used: Set<String> = []
        for node in findings.tree.nodes {
            for timer in node.spec.after where timer.milliseconds == nil {
                checkKnown(
                    timer.delay, among: names, known: known,
                    "state '\(node.name)' waits for '\(timer.delay.value)', which is neither a duration nor a delay", declare: "'delays:'", into: &findings)
                // A misspelt delay counts as the one it was meant to be (reported once, above).
                if let intended = findings.intended(timer.delay.value, known: known, among: names) { used.insert(intended) }
            }
        }
        // A delay a `send:` waits for is used too (S126; checked in SpecChecker+Send).
        for case .send(let send) in spec.actions(tree: findings.tree) where send.milliseconds == nil {
            if let delay = send.delay, let intended = findings.intended(delay.value, known: known, among: names) { used.insert(intended) }
        }
        for delay in spec.delays where !used.contains(delay.field.value) {
            findings.warning(
                "delay '\(delay.field.value)' is not used by any 'after:' or 'send:'", at: delay.field.location,
                fixIt: "wait for it with 'after: {\(delay.field.value): state}', or remove it")
        }
    }

    // MARK: Child machines

    /// E23, E24, E29, E31, D21: the child exists, does not run its parent, persists when its
    /// parent does, and is given and answers what its spec says.
    private func checkChild(
        _ child: ChildMachine, of effect: EffectSpec, in spec: MachineSpec, events: [String: EventSpec], into findings: inout Findings
    ) {
        let effectName = effect.name.value
        for entry in child.forward {
            checkKnownEvents([entry.from], "'forward:' of effect '\(effectName)' sends", into: &findings)
        }
        checkListedOnce(child.forward.map(\.from), what: "event", list: "'forward:' of effect '\(effectName)'", into: &findings)
        for entry in child.onDone {
            checkKnownEvents([entry.to], "'onDone:' of effect '\(effectName)' maps '\(entry.from.value)' to", into: &findings)
        }
        for entry in child.events {
            checkKnownEvents([entry.to], "'events:' of effect '\(effectName)' maps '\(entry.from.value)' to", into: &findings)
        }
        let machine = child.machine
        let childSpec = machine.value == spec.name.value ? spec : library.specs[machine.value]
        guard let childSpec else {
            let candidates = library.specs.keys.filter { $0 != spec.name.value }.sorted()
            let closest = findings.closest(to: machine.value, among: candidates)
            findings.error(
                "effect '\(effectName)' runs machine '\(machine.value)', but no spec of this target declares 'machine: \(machine.value)'",
                at: machine.location,
                fixIt: closest.map { "did you mean '\($0)'?" }
                    ?? "add its spec to the target; for stateloop, name it on the command line, pass it with --child, or put it in this spec's folder")
            return
        }
        if let cycle = cycle(from: machine.value, backTo: spec) {
            findings.error(
                "machine '\(spec.name.value)' runs itself: \(cycle.joined(separator: " -> "))", at: machine.location,
                fixIt: "a machine cannot run a machine that runs it; remove one 'machine:' effect of the cycle")
        }
        if spec.persist != nil, childSpec.persist == nil {
            findings.error(
                "machine '\(spec.name.value)' persists, but effect '\(effectName)' runs machine '\(machine.value)', which does not: a child is restored with its parent",
                at: machine.location, fixIt: "add 'persist: true' to the spec of '\(machine.value)' (D21)")
        }
        checkInput(child, of: effectName, childSpec: childSpec, into: &findings)
        checkForward(child, childSpec: childSpec, events: events, into: &findings)
        checkOnDone(child, of: effectName, childSpec: childSpec, events: events, into: &findings)
        checkChildEvents(child, of: effectName, in: spec, childSpec: childSpec, events: events, into: &findings)
    }

    /// The shortest chain of `machine:` effects from `start` back to `root`'s machine, as names
    /// from `root` on (`Checkout -> Payment -> Checkout`); `nil` when there is none. Other machines
    /// come from the library; a cycle that does not pass through `root` is reported with its own
    /// machines.
    private func cycle(from start: String, backTo root: MachineSpec) -> [String]? {
        let rootName = root.name.value
        var previous: [String: String] = [:]
        var queue = [start]
        var seen: Set<String> = [start]
        var head = 0
        while head < queue.count {
            let name = queue[head]
            head += 1
            if name == rootName {
                var chain = [name]
                while let before = previous[chain[chain.count - 1]] { chain.append(before) }
                return [rootName] + chain.reversed()
            }
            for effect in library.specs[name]?.effects ?? [] {
                guard let next = effect.child?.machine.value, seen.insert(next).inserted else { continue }
                previous[next] = name
                queue.append(next)
            }
        }
        return nil
    }

    /// E24: every input field of the child once, and nothing else.
    private func checkInput(_ child: ChildMachine, of effectName: String, childSpec: MachineSpec, into findings: inout Findings) {
        let machine = childSpec.name.value
        let fields = childSpec.input.map(\.name.value)
        guard !fields.isEmpty else {
            if let key = child.inputKey {
                findings.error(
                    "machine '\(machine)' has no 'input:', so effect '\(effectName)' has nothing to give it", at: key.location,
                    fixIt: "remove 'input:', or declare 'input:' in the spec of '\(machine)'")
            }
            return
        }
        let known = Set(fields)
        var given: Set<String> = []
        for assignment in child.input {
            checkKnown(
                assignment.field, among: fields, known: known, "machine '\(machine)' has no input field '\(assignment.field.value)'",
                declare: "'input:' in the spec of '\(machine)'", into: &findings)
            // A misspelt field counts as the one it was meant to be (reported once, above).
            if let intended = findings.intended(assignment.field.value, known: known, among: fields) { given.insert(intended) }
        }
        let missing = fields.filter { !given.contains($0) }
        guard !missing.isEmpty else { return }
        let entries = missing.map { "\($0): expression" }.joined(separator: ", ")
        findings.error(
            "effect '\(effectName)' does not give \(Self.fields(missing, of: "input field")) of machine '\(machine)'",
            at: (child.inputKey ?? child.machine).location,
            fixIt: child.inputKey == nil ? "add 'input: {\(entries)}'" : "add '\(entries)' to 'input:'")
    }

    /// E29: each entry sends a parent event to an event of the child that anyone may send, whose
    /// fields the parent event has.
    private func checkForward(_ child: ChildMachine, childSpec: MachineSpec, events: [String: EventSpec], into findings: inout Findings) {
        let machine = childSpec.name.value
        let childEventNames = childSpec.events.map(\.name.value)
        var childEvents: [String: EventSpec] = [:]
        for event in childSpec.events where childEvents[event.name.value] == nil {
            childEvents[event.name.value] = event
        }
        for entry in child.forward {
            guard let childEvent = childEvents[entry.to.value] else {
                checkKnown(
                    entry.to, among: childEventNames, known: Set(childEvents.keys), "machine '\(machine)' has no event '\(entry.to.value)'",
                    declare: "'events:' in the spec of '\(machine)'", into: &findings)
                continue
            }
            if childEvent.source == .effects {
                findings.error(
                    "event '\(entry.to.value)' of machine '\(machine)' is 'from: effects', so only its effects may send it", at: entry.to.location,
                    fixIt: "forward '\(entry.from.value)' to an event of '\(machine)' without 'from: effects'")
                continue
            }
            guard let parentEvent = events[entry.from.value] else { continue }
            let lacking = Self.names(childEvent.payload.map(\.name), missingFrom: parentEvent.payload.map(\.name))
            guard !lacking.isEmpty else { continue }
            findings.error(
                "forwarding '\(entry.from.value)' as '\(entry.to.value)' needs \(Self.fields(lacking)), which event '\(entry.from.value)' does not have",
                at: entry.from.location,
                fixIt: "add \(lacking.map { "'\($0): T'" }.joined(separator: ", ")) to event '\(entry.from.value)': the payload is copied by field name")
        }
    }

    /// E31: `onDone:` maps every top-level final state of the child, and each mapped event's
    /// fields are in that state's `output:`.
    private func checkOnDone(
        _ child: ChildMachine, of effectName: String, childSpec: MachineSpec, events: [String: EventSpec], into findings: inout Findings
    ) {
        guard let onDoneKey = child.onDoneKey else { return }
        let machine = childSpec.name.value
        let finals = childSpec.states.filter(\.isFinal)
        guard !finals.isEmpty else {
            findings.error(
                "machine '\(machine)' never finishes: it has no top-level final state", at: onDoneKey.location,
                fixIt: "remove 'onDone:', or add a state with 'type: final' to the top level of '\(machine)'")
            return
        }
        let finalNames = finals.map(\.name.value)
        let known = Set(finalNames)
        var mapped: Set<String> = []
        for entry in child.onDone {
            if !known.contains(entry.from.value) {
                let closest = findings.closest(to: entry.from.value, among: finalNames)
                findings.error(
                    "'\(entry.from.value)' is not a top-level final state of machine '\(machine)'", at: entry.from.location,
                    fixIt: closest.map { "did you mean '\($0)'?" } ?? "map one of \(Self.listed(finalNames))")
                if let closest { mapped.insert(closest) }
                continue
            }
            mapped.insert(entry.from.value)
            guard let final = finals.first(where: { $0.name.value == entry.from.value }), let event = events[entry.to.value] else { continue }
            let lacking = Self.names(event.payload.map(\.name), missingFrom: final.output.map(\.name))
            guard !lacking.isEmpty else { continue }
            findings.error(
                "event '\(entry.to.value)' has \(Self.fields(lacking)), which the output of final state '\(entry.from.value)' of machine '\(machine)' lacks",
                at: entry.from.location,
                fixIt: "add \(lacking.map { "'\($0): {type: T, value: expression}'" }.joined(separator: ", ")) to the 'output:' of '\(entry.from.value)' in the spec of '\(machine)', or remove \(lacking.count == 1 ? "it" : "them") from '\(entry.to.value)'")
        }
        let missing = finalNames.filter { !mapped.contains($0) }
        guard !missing.isEmpty else { return }
        findings.error(
            "'onDone:' of effect '\(effectName)' does not map \(missing.count == 1 ? "final state" : "final states") \(Self.listed(missing.map { "'\($0)'" })) of machine '\(machine)'",
            at: onDoneKey.location,
            fixIt: "add \(missing.map { "'\($0): event'" }.joined(separator: ", ")) to 'onDone:': with 'onDone:', every way the child ends is reported")
    }

    /// The names of `fields` that `available` lacks: what copying a payload by field name misses.
    static func names(_ fields: [Located<String>], missingFrom available: [Located<String>]) -> [String] {
        let present = Set(available.map(\.value))
        return fields.map(\.value).filter { !present.contains($0) }
    }

    /// "field 'a'" or "fields 'a', 'b'".
    static func fields(_ names: [String], of kind: String = "field") -> String {
        "\(kind)\(names.count == 1 ? "" : "s") \(listed(names.map { "'\($0)'" }))"
    }
}
