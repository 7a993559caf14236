/// Names must be Swift identifiers that the generated code can use as they are (or backticked),
/// and must not clash with names the generator declares or derives (`GeneratedNames`).
extension SpecChecker {
    func checkNames(_ spec: MachineSpec, into findings: inout Findings) {
        checkName(spec.name, kind: "machine", into: &findings)
        if GeneratedNames.qualifyingModules.contains(spec.name.value) || spec.imports.contains(where: { $0.value == spec.name.value }) {
            findings.error(
                "machine '\(spec.name.value)' would shadow the module '\(spec.name.value)' that the generated code imports",
                at: spec.name.location, fixIt: "rename the machine, e.g. '\(spec.name.value)Machine'")
        }
        if GeneratedNames.nestedTypes.contains(spec.name.value) {
            findings.error(
                "machine '\(spec.name.value)' would clash with the type '\(spec.name.value)' generated inside it",
                at: spec.name.location, fixIt: "rename the machine, e.g. '\(spec.name.value)Machine'")
        }
        for module in spec.imports {
            let parts = module.value.split(separator: ".", omittingEmptySubsequences: false)
            if !parts.allSatisfy({ SwiftName.isIdentifier(String($0)) }) {
                findings.error(
                    "'\(module.value)' is not a module name", at: module.location,
                    fixIt: "write module names as Swift identifiers, such as Foundation or MyPackage.Module")
            }
        }
        for field in spec.context {
            checkName(field.name, kind: "context field", into: &findings)
            if let clash = GeneratedNames.reservedFields[field.name.value] {
                findings.error(
                    "context field '\(field.name.value)' would clash with \(clash)",
                    at: field.name.location, fixIt: "rename the field, e.g. '\(field.name.value)Value'")
            } else if SwiftName.keywords.contains(field.name.value), SwiftName.isIdentifier(field.name.value),
                      !SwiftName.unusable.contains(field.name.value) {
                // Declarations get backticks, but the spec's own expressions name fields bare.
                findings.warning(
                    "context field '\(field.name.value)' is a Swift keyword, so expressions must write it as `\(field.name.value)`",
                    at: field.name.location, fixIt: "rename the field, e.g. '\(field.name.value)Count', or write `\(field.name.value)` in guard:, set: and request expressions")
            }
        }
        for event in spec.events {
            checkName(event.name, kind: "event", into: &findings)
            for field in event.payload {
                checkName(field.name, kind: "payload field", into: &findings)
            }
        }
        for node in findings.tree.nodes {
            checkName(node.spec.name, kind: "state", into: &findings)
        }
        for effect in spec.effects {
            checkName(effect.name, kind: "effect", into: &findings)
        }
        // E21, E22, E35: input fields become `Input`'s properties, output fields the labels of an
        // `Output` case, delays generated members.
        for field in spec.input {
            checkName(field.name, kind: "input field", into: &findings)
        }
        for node in findings.tree.nodes {
            for field in node.spec.output {
                checkName(field.name, kind: "output field", into: &findings)
            }
        }
        for delay in spec.delays {
            checkName(delay.field, kind: "delay", into: &findings)
        }
        checkDerivedNames(spec, into: &findings)
        checkMachineNameUses(spec, into: &findings)
    }

    /// Inside the generated namespace the machine's name means the machine, so a machine named
    /// like a type the spec's own Swift names (`Int`, `String`, `URL`) would turn every such use
    /// into the machine. Only bare uses count: `M.Mode` names the machine on purpose, and `Foo.M`,
    /// `"M"` name something else (Docs/Statecharts.md S83).
    private func checkMachineNameUses(_ spec: MachineSpec, into findings: inout Findings) {
        let name = spec.name.value
        // A name already refused (a module, a nested type) gets one error, not a second.
        guard SwiftName.isIdentifier(name),
              !findings.diagnostics.items.contains(where: { $0.severity == .error && $0.location == spec.name.location }) else { return }
        let fragments = findings.embeddedSwift
        for (fragment, isType) in fragments.types.map({ ($0, true) }) + fragments.expressions.map({ ($0, false) })
        where SwiftFragment.namesBare(name, in: fragment.value, isType: isType) {
            findings.error(
                "machine '\(name)' would hide the type '\(name)' that the spec's Swift names: inside the generated code, '\(name)' is the machine",
                at: spec.name.location, notes: [Diagnostic.Note("'\(name)' is named here", at: fragment.location)],
                fixIt: "rename the machine, e.g. '\(name)Machine'")
            return
        }
    }

    /// Type names derived from spec names (`LoadNextPageResult`, `SearchChangedPayload`) must not
    /// clash with each other or with the names declared beside them (`Event.Timer`, event cases).
    private func checkDerivedNames(_ spec: MachineSpec, into findings: inout Findings) {
        // The machine's namespace: one `<Effect>Result` per effect. The fixed nested types never
        // end in `Result`, so only effects can collide, e.g. `load` and `Load`.
        var machineScope: [String: (what: String, at: SourceLocation)] = [:]
        for effect in spec.effects {
            claim(
                GeneratedNames.resultType(ofEffect: effect.name.value), for: "effect '\(effect.name.value)'",
                at: effect.name.location, in: &machineScope, into: &findings)
        }
        // `Event`: its cases, `Timer` when a state has `after:`, one `<Event>Payload` per payload.
        var eventScope: [String: (what: String, at: SourceLocation)] = [:]
        for event in spec.events where eventScope[event.name.value] == nil {
            eventScope[event.name.value] = ("event '\(event.name.value)'", event.name.location)
        }
        // `Mode`: its cases (the top-level states), one enum or struct per composite, parallel
        // state and region, named in UpperCamelCase (`Mode.Active`), and `allCases`.
        var modeScope: [String: (what: String, at: SourceLocation)] = ["AllCases": ("'CaseIterable'", spec.name.location)]
        let tree = findings.tree
        for root in tree.roots where !tree[root].spec.isHistory {
            claim(tree[root].name, for: "state '\(tree[root].name)'", verb: "is", at: tree[root].spec.name.location, in: &modeScope, into: &findings)
        }
        for node in tree.nodes where node.isComposite {
            let type = GeneratedNames.modeType(ofState: node.name)
            if let why = GeneratedNames.reservedModeTypes[type] {
                findings.error(
                    "state '\(node.name)' generates the Swift type '\(GeneratedNames.mode).\(type)', which \(why)",
                    at: node.spec.name.location, fixIt: "rename the state, e.g. '\(node.name)State'")
                continue
            }
            claim(
                GeneratedNames.modeType(ofState: node.name), for: "state '\(node.name)'",
                at: node.spec.name.location, in: &modeScope, into: &findings)
        }
        // S92: `Mode` and its nested types print through `description`, which a case or region
        // of that name would redeclare.
        for node in tree.nodes where node.name == GeneratedNames.description && !node.spec.isHistory {
            findings.error(
                "state '\(node.name)' would redeclare 'description', through which 'Mode' prints the active states (S92)",
                at: node.spec.name.location, fixIt: "rename the state, e.g. 'describing'")
        }
        // E64: so do `Event`, `Call` and `Run`, whose cases are the events and the effects.
        for event in spec.events where event.name.value == GeneratedNames.description {
            findings.error(
                "event 'description' would redeclare 'description', through which 'Event' prints an event (E64)",
                at: event.name.location, fixIt: "rename the event, e.g. 'describe'")
        }
        for effect in spec.effects where effect.name.value == GeneratedNames.description {
            findings.error(
                "effect 'description' would redeclare 'description', through which 'Call' prints a call (E64)",
                at: effect.name.location, fixIt: "rename the effect, e.g. 'describe'")
        }
        if let timer = tree.nodes.lazy.flatMap(\.spec.after).first {
            claim(GeneratedNames.timer, for: "the `after:` timers", verb: "generate", at: timer.delay.location, in: &eventScope, into: &findings)
        }
        // S127: `Event.Send`, what `pendingSends` holds.
        if let send = spec.actions(tree: tree).lazy.compactMap({ action -> SendAction? in if case .send(let send) = action { send } else { nil } }).first {
            claim(GeneratedNames.sendTypeName, for: "the pending sends", verb: "generate", at: send.location, in: &eventScope, into: &findings)
        }
        for event in spec.events where !event.payload.isEmpty {
            claim(
                GeneratedNames.payloadType(ofEvent: event.name.value), for: "the payload of event '\(event.name.value)'",
                at: event.name.location, in: &eventScope, into: &findings)
        }
        // E56: a child machine is named from inside the parent's namespace, where a result type
        // of the same name would hide it.
        for effect in spec.effects {
            guard let machine = effect.child?.machine,
                  let other = spec.effects.first(where: {
                      $0.child == nil && !$0.results.isEmpty && GeneratedNames.resultType(ofEffect: $0.name.value) == machine.value
                  })
            else { continue }
            findings.error(
                "effect '\(effect.name.value)' runs machine '\(machine.value)', which the type '\(machine.value)' of effect '\(other.name.value)' would hide inside '\(spec.name.value)'",
                at: machine.location, notes: [Diagnostic.Note("effect '\(other.name.value)' is declared here", at: other.name.location)],
                fixIt: "rename the machine, or the effect '\(other.name.value)'")
        }
    }

    /// Records that the generated code declares `name` for `what`; a name already taken in `scope`
    /// is an error at `location`, with a note at the first use.
    private func claim(
        _ name: String, for what: String, verb: String = "generates", at location: SourceLocation,
        in scope: inout [String: (what: String, at: SourceLocation)], into findings: inout Findings
    ) {
        guard let first = scope[name] else {
            scope[name] = (what, location)
            return
        }
        findings.error(
            "\(what) \(verb) the Swift name '\(name)', which \(first.what) already uses",
            at: location, notes: [Diagnostic.Note("\(first.what) is declared here", at: first.at)],
            fixIt: "rename one of them")
    }

    /// Identifier rules, names Swift cannot take, and the `_` prefix kept for generated code.
    private func checkName(_ name: Located<String>, kind: String, into findings: inout Findings) {
        let text = name.value
        if kind == "event", text.contains("."), text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy({ SwiftName.isIdentifier(String($0)) }) {
            // SCXML's `turn.on`: an event is a case of `Event`, and a dot has no place in a case
            // name; what dots buy in SCXML (ignoring `turn.*` at once) is what `groups:` gives (S103).
            findings.error(
                "'\(text)' is not a valid event name: an event becomes a case of 'Event', and a case name has no '.'",
                at: name.location,
                fixIt: "rename it, e.g. '\(Self.identifier(from: text, kind: kind))'; to ignore such events together, list them in a group under 'groups:' and name the group in 'ignore:'")
        } else if !SwiftName.isIdentifier(text) {
            findings.error(
                "'\(text)' is not a valid \(kind) name; names are ASCII letters, digits and '_' and do not start with a digit",
                at: name.location, fixIt: "rename it, e.g. '\(Self.identifier(from: text, kind: kind))'")
        } else if SwiftName.unusable.contains(text) {
            findings.error(
                "'\(text)' cannot be \(Self.article(kind)) \(kind) name: Swift does not accept it there, even in backticks",
                at: name.location, fixIt: "rename it, e.g. '\(text)\(SwiftName.upperCamel(Self.shortKind(kind)))'")
        } else if text.hasPrefix("_") {
            findings.error(
                "'\(text)' starts with '_', which is reserved for generated code", at: name.location,
                fixIt: "rename it, e.g. '\(Self.identifier(from: text, kind: kind))'")
        }
    }

    /// "an" before a vowel, "a" otherwise.
    private static func article(_ word: String) -> String {
        "aeiou".contains(word.first ?? "x") ? "an" : "a"
    }

    /// "field" for "context field", "state" for "state": the word used to build suggestions.
    private static func shortKind(_ kind: String) -> String {
        String(kind.split(separator: " ").last ?? "name")
    }

    /// A valid identifier close to `text`: words joined in camel case, a kind prefix before a digit.
    static func identifier(from text: String, kind: String) -> String {
        let words = text.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }.map(String.init)
        var name = words.enumerated().map { $0.offset == 0 ? $0.element : SwiftName.upperCamel($0.element) }.joined()
        if name.isEmpty { return kind == "machine" ? "Machine" : shortKind(kind) }
        if name.first!.isNumber { name = shortKind(kind) + name }
        return kind == "machine" ? SwiftName.upperCamel(name) : name
    }
}
