/// The central promise: in every state, every event that can arrive there is handled or ignored
/// out loud. An event `from: effects` can arrive only where an effect that has it among its
/// results (`emits:`, `onError:`, `onDone:`; Docs/Effects.md E20, E31) can run, so it needs an
/// answer only there; elsewhere the generated reducer ignores it. Where a child machine runs, the
/// events its `forward:` sends on count as answered (E28); the events its `events:` maps are
/// results of its effect (E73).
extension SpecChecker {
    func checkCoverage(_ spec: MachineSpec, into findings: inout Findings) {
        let tree = findings.tree
        // The leaf × event loop below works on event indices: it runs up to a million times, and
        // hashing names there would cost as much as the names are long.
        var eventIndex: [String: Int] = [:]
        for (index, event) in spec.events.enumerated() where eventIndex[event.name.value] == nil {
            eventIndex[event.name.value] = index
        }
        // E70: an event the machine sends to its parent is used, though no state of its own handles it.
        var handledSomewhere = spec.eventsSentToParent(tree: tree)
        var emitted: Set<String> = []
        for effect in spec.effects { emitted.formUnion(effect.results.map(\.value)) }
        // Results of one-shot effects can arrive in any state (S19).
        let anywhere = Set(spec.effects.filter(\.isOneShot).flatMap(\.results).compactMap { eventIndex[$0.value] })
        // For each state, the effect results that can arrive there, with the place that lets them:
        // the `in:` entry, or the `onDone:` entry for a child's outcome (the first effect in file
        // order wins, for a stable note). And the events forwarded to a child that runs there.
        var arrivingByState: [String: [Int: (effect: String, entry: SourceLocation)]] = [:]
        var forwardedByState: [String: Set<Int>] = [:]
        // E31: the `onDone:` entries (effect, entry) whose event can arrive in each state.
        var outcomesByState: [String: [(outcome: Outcome, event: Int)]] = [:]
        for (effectPosition, effect) in spec.effects.enumerated() {
            var outcomes: [Int: SourceLocation] = [:]
            var outcomeEntries: [(outcome: Outcome, event: Int)] = []
            for (position, entry) in (effect.child?.onDone ?? []).enumerated() {
                guard let event = eventIndex[entry.to.value] else { continue }
                if outcomes[event] == nil { outcomes[event] = entry.from.location }
                outcomeEntries.append((Outcome(effect: effectPosition, entry: position), event))
            }
            // E73: a child's event mapped by `events:` is noted at its entry.
            for entry in effect.child?.events ?? [] {
                guard let event = eventIndex[entry.to.value], outcomes[event] == nil else { continue }
                outcomes[event] = entry.from.location
            }
            let results = effect.results.compactMap { eventIndex[$0.value] }
            let forwarded = (effect.child?.forward ?? []).compactMap { eventIndex[$0.from.value] }
            // A forwarded event changes the child, so it is not one that "never changes anything".
            if !effect.runningStates.isEmpty { handledSomewhere.formUnion(effect.child?.forward.map(\.from.value) ?? []) }
            for entry in effect.runningStates {
                for event in results where arrivingByState[entry.value, default: [:]][event] == nil {
                    arrivingByState[entry.value, default: [:]][event] = (effect.name.value, outcomes[event] ?? entry.location)
                }
                forwardedByState[entry.value, default: []].formUnion(forwarded)
                outcomesByState[entry.value, default: []].append(contentsOf: outcomeEntries)
            }
        }
        let groups = spec.groupsByName
        var outcomesSeen: Set<Outcome> = []
        var outcomesHandled: Set<Outcome> = []
        var outcomesUnanswered: Set<Outcome> = []

        // What each state (and, last, the machine) mentions: handled events with the handler's
        // location, and ignored events.
        func mentions(name: String, on: [EventHandler], ignore: [Located<String>]) -> (handled: [Int: SourceLocation], ignored: Set<Int>) {
            // A misspelt event counts as the event it was meant to be (its typo is reported once,
            // by the reference check).
            var handled: [String: SourceLocation] = [:]
            for handler in on {
                guard let event = findings.intended(handler.event.value, known: findings.eventSet, among: findings.eventNames) else { continue }
                if handled[event] == nil { handled[event] = handler.event.location }
            }
            handledSomewhere.formUnion(handled.keys)
            var ignored: Set<Int> = []
            for ignoredName in ignore {
                // A group ignores each of its events; a handler beside it comes first (S101).
                if let group = groups[ignoredName.value] {
                    ignored.formUnion(group.events.compactMap { eventIndex[$0.value] })
                    continue
                }
                if let index = eventIndex[findings.intended(ignoredName.value, known: findings.eventSet, among: findings.eventNames) ?? ignoredName.value] {
                    ignored.insert(index)
                }
                if let handler = handled[ignoredName.value] {
                    findings.error(
                        "event '\(ignoredName.value)' is both handled and ignored in \(name)", at: ignoredName.location,
                        notes: [Diagnostic.Note("'\(ignoredName.value)' is handled here", at: handler)],
                        fixIt: "remove '\(ignoredName.value)' from 'ignore:', or its handler from 'on:'")
                }
            }
            var handledIndices: [Int: SourceLocation] = [:]
            for (event, location) in handled {
                if let index = eventIndex[event] { handledIndices[index] = location }
            }
            return (handledIndices, ignored)
        }
        let machine = mentions(name: "the machine's own 'on:'", on: spec.on, ignore: spec.ignore)
        let byState = tree.nodes.map { mentions(name: "state '\($0.name)'", on: $0.spec.on, ignore: $0.spec.ignore) }

        for leaf in tree.leaves {
            let node = tree[leaf]
            let lineage = tree.lineage(of: leaf)
            var arriving: [Int: (effect: String, entry: SourceLocation)] = [:]
            var forwarded: Set<Int> = []
            for state in lineage.reversed() {
                arriving.merge(arrivingByState[tree[state].name] ?? [:]) { outer, _ in outer }
                forwarded.formUnion(forwardedByState[tree[state].name] ?? [])
            }
            func answered(_ index: Int) -> Bool {
                lineage.contains { byState[$0].handled[index] != nil || byState[$0].ignored.contains(index) }
                    || machine.handled[index] != nil || machine.ignored.contains(index) || forwarded.contains(index)
            }
            // E31: an outcome of a child running here is handled when the deciding mention (S10)
            // is a handler, not an `ignore:`.
            for state in lineage {
                for (outcome, index) in outcomesByState[tree[state].name] ?? [] {
                    outcomesSeen.insert(outcome)
                    let decider = lineage.first { byState[$0].handled[index] != nil || byState[$0].ignored.contains(index) }
                    if decider.map({ byState[$0].handled[index] != nil }) ?? (machine.handled[index] != nil) {
                        outcomesHandled.insert(outcome)
                    } else if !answered(index) {
                        outcomesUnanswered.insert(outcome)
                    }
                }
            }
            var missing: [String] = []
            var arrivingMissing: [(event: String, effect: String, entry: SourceLocation)] = []
            for (index, event) in spec.events.enumerated() {
                if event.source == .effects, arriving[index] == nil, !anywhere.contains(index) {
                    if let handler = byState[leaf].handled[index], emitted.contains(event.name.value) {
                        let name = event.name.value
                        findings.warning(
                            "state '\(node.name)' handles '\(name)', but no effect that emits it runs in '\(node.name)', so the handler never fires",
                            at: handler, fixIt: "add '\(node.name)' to the 'in:' of an effect that emits '\(name)', or remove the handler")
                    }
                    continue
                }
                guard !answered(index) else { continue }
                missing.append(event.name.value)
                if let source = arriving[index] {
                    arrivingMissing.append((event.name.value, source.effect, source.entry))
                }
            }
            guard !missing.isEmpty else { continue }
            let (noun, pronoun) = missing.count == 1 ? ("event", "it") : ("events", "them")
            // Built only when reported (the list of diagnostics is bounded), and the names listed
            // are bounded too: a machine with thousands of events must not print them per state.
            let ancestors = tree.ancestors(of: leaf).map { "'\(tree[$0].name)'" }
            let place = switch ancestors.count {
            case 0: "state '\(node.name)'"
            case 1: "state '\(node.name)' or to its ancestor \(ancestors[0])"
            default: "state '\(node.name)' or to one of its ancestors \(ancestors.joined(separator: ", "))"
            }
            let separator = ancestors.isEmpty ? "" : ","
            findings.error(
                "state '\(node.name)' does not handle \(noun) \(Self.listed(missing.map { "'\($0)'" }))", at: node.spec.name.location,
                notes: arrivingMissing.prefix(Self.maximumListedNames).map {
                    Diagnostic.Note("'\($0.event)' is a result of effect '\($0.effect)', which can run in state '\(node.name)'", at: $0.entry)
                },
                fixIt: "add `ignore: [\(Self.listed(missing))]` to \(place)\(separator) or handle \(pronoun) under `on:`")
        }

        for (position, effect) in spec.effects.enumerated() {
            for (entryPosition, entry) in (effect.child?.onDone ?? []).enumerated() {
                let outcome = Outcome(effect: position, entry: entryPosition)
                guard outcomesSeen.contains(outcome), !outcomesHandled.contains(outcome), !outcomesUnanswered.contains(outcome) else { continue }
                findings.warning(
                    "effect '\(effect.name.value)' reports final state '\(entry.from.value)' as '\(entry.to.value)', but every state where it runs ignores '\(entry.to.value)'",
                    at: entry.from.location,
                    fixIt: "handle '\(entry.to.value)' under 'on:' in a state where '\(effect.name.value)' runs; as it is, the machine never reacts to this way of ending")
            }
        }

        // S163: a `doneEvent:` is read by its parent's `onDone:`, whether or not a state handles it.
        let doneEvents = Set(findings.tree.nodes.compactMap { $0.spec.doneEvent?.value })
        for event in spec.events {
            let name = event.name.value
            if event.source == .effects, !emitted.contains(name) {
                findings.error(
                    "event '\(name)' is 'from: effects' but no effect emits it, so nothing can send it", at: event.name.location,
                    fixIt: "add '\(name)' to the 'emits:' of an effect, or remove 'from: effects'")
            } else if !handledSomewhere.contains(name), !doneEvents.contains(name), !spec.states.isEmpty {
                findings.warning(
                    "no state handles event '\(name)', so it never changes anything", at: event.name.location,
                    fixIt: "handle it under 'on:' in some state, or remove the event")
            }
        }
    }
}

extension SpecChecker {
    /// One entry of a child machine's `onDone:`: the effect's and the entry's positions.
    struct Outcome: Hashable {
        var effect: Int
        var entry: Int
    }

    /// The most names one diagnostic lists (and notes it carries) about unhandled events.
    static let maximumListedNames = 20

    /// `names` joined by commas, the ones past `maximumListedNames` counted instead of listed.
    static func listed(_ names: [String]) -> String {
        let shown = names.prefix(maximumListedNames).joined(separator: ", ")
        return names.count > maximumListedNames ? shown + ", ... (\(names.count - maximumListedNames) more)" : shown
    }
}
