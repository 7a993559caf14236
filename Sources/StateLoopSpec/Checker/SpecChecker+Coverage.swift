/// The central promise: in every state, every event that can arrive there is handled or ignored
/// out loud. An event `from: effects` can arrive only where an effect that emits it can run, so it
/// needs an answer only there; elsewhere the generated reducer ignores it.
extension SpecChecker {
    func checkCoverage(_ spec: MachineSpec, into findings: inout Findings) {
        let tree = findings.tree
        // The leaf × event loop below works on event indices: it runs up to a million times, and
        // hashing names there would cost as much as the names are long.
        var eventIndex: [String: Int] = [:]
        for (index, event) in spec.events.enumerated() where eventIndex[event.name.value] == nil {
            eventIndex[event.name.value] = index
        }
        var handledSomewhere: Set<String> = []
        var emitted: Set<String> = []
        for effect in spec.effects { emitted.formUnion(effect.results.map(\.value)) }
        // Results of one-shot effects can arrive in any state (S19).
        let anywhere = Set(spec.effects.filter(\.isOneShot).flatMap(\.results).compactMap { eventIndex[$0.value] })
        // For each state, the effect results that can arrive there, with the `in:` entry that
        // lets them (the first effect in file order wins, for a stable note).
        var arrivingByState: [String: [Int: (effect: String, entry: SourceLocation)]] = [:]
        for effect in spec.effects {
            let emits = effect.results.compactMap { eventIndex[$0.value] }
            for entry in effect.runningStates {
                for event in emits where arrivingByState[entry.value, default: [:]][event] == nil {
                    arrivingByState[entry.value, default: [:]][event] = (effect.name.value, entry.location)
                }
            }
        }

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
            for state in lineage.reversed() {
                arriving.merge(arrivingByState[tree[state].name] ?? [:]) { outer, _ in outer }
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
                let answered = lineage.contains { byState[$0].handled[index] != nil || byState[$0].ignored.contains(index) }
                    || machine.handled[index] != nil || machine.ignored.contains(index)
                guard !answered else { continue }
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
