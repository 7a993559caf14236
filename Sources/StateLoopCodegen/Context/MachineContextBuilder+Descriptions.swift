import StateLoopSpec

// How the active states print (Docs/Statecharts.md S90-S92). Swift's own description of an enum
// names every nested value by its module and type (`App.PhotoSync.Mode.Syncing(library:
// App.PhotoSync.Mode.Library.watching, ...)`); `Mode` and its nested types describe themselves as
// the spec names them instead: `syncing(library: watching, transfer: checking)`. `print`, string
// interpolation and every value that holds a mode (`State`) read it. `Event`, `Forwarded`, `Call`
// and `Run` print as `holdStock(42)` too, in an array as well (`runs=[saveSession(1)]`), where
// Swift would name each element `App.Player.Run.saveSession(1)`.

extension MachineContextBuilder {
    /// `extension Machine.Mode: Swift.CustomStringConvertible { ... }`, one per type nested in
    /// `Mode`, and those of `Event`, `Forwarded`, `Call` and `Run`, after the machine's enum.
    func descriptionLines() -> [String] {
        let tree = semantics.tree
        let machine = SwiftName.escaped(spec.name.value)
        let mode = "\(machine).\(GeneratedNames.mode)"
        let p = access.prefix
        // The names of states, events, fields and effects are identifiers (the checks refuse
        // anything else), so they stand in a string literal as they are.
        /// `case .name: "name"`; a composite's content follows its name, in parentheses (a region
        /// struct prints its own).
        func caseLine(_ position: Int) -> String {
            let node = tree[position]
            guard node.isComposite else { return "        case .\(caseName(position)): \"\(node.name)\"" }
            let content = node.spec.kind == .parallel ? "\\(_c)" : "(\\(_c))"
            return "        case .\(caseName(position))(let _c): \"\(node.name)\(content)\""
        }
        func describe(_ type: String, doc: String, body: [String]) -> [String] {
            [
                "",
                "/// \(doc)",
                "extension \(type): Swift.CustomStringConvertible {",
                "    \(p)var description: Swift.String {",
            ] + body + ["    }", "}"]
        }
        let roots = tree.roots.filter { !tree[$0].spec.isHistory }
        var lines = describe(
            mode, doc: "The active states as the spec names them: `working(transfer: sending, checksum: hashing)` (S90).",
            body: ["        switch self {"] + roots.map(caseLine) + ["        }"])
        for (position, node) in tree.nodes.enumerated() where node.isComposite {
            let type = "\(mode).\(GeneratedNames.modeType(ofState: node.name))"
            if node.spec.kind == .parallel {
                let regions = tree.regions(of: position).map { "\(tree[$0].name): \\(\(caseName($0)))" }
                lines += describe(
                    type, doc: "The regions of `\(node.name)`: `(region: state, ...)` (S91).",
                    body: ["        \"(" + regions.joined(separator: ", ") + ")\""])
            } else {
                let children = node.children.filter { !tree[$0].spec.isHistory }
                lines += describe(
                    type, doc: "The active child of `\(node.name)` as the spec names it (S90).",
                    body: ["        switch self {"] + children.map(caseLine) + ["        }"])
            }
        }
        var events = ["        switch self {"]
        for event in spec.events {
            let (name, pattern) = (event.name.value, "        case .\(SwiftName.escaped(event.name.value))")
            guard !event.payload.isEmpty else { events.append("\(pattern): \"\(name)\""); continue }
            let bindings = event.payload.indices.map { "let _\($0)" }
            let fields = event.payload.enumerated().map { "\($1.name.value): \\(Swift.String(reflecting: _\($0)))" }
            events.append("\(pattern)(\(bindings.joined(separator: ", "))): \"\(name)(\(fields.joined(separator: ", ")))\"")
        }
        if hasTimers {
            events.append("        case .\(GeneratedNames.timerCase)(let _t): \"\(GeneratedNames.timerCase)(\\(_t))\"")
        }
        if flags.sends {
            events.append("        case .\(GeneratedNames.sendCase)(let _n): \"\(GeneratedNames.sendCase)(\\(_n))\"")
        }
        lines += describe(
            "\(machine).\(GeneratedNames.event)", doc: "An event as the spec names it: `loaded(repositories: [...], nextURL: nil)` (E64).",
            body: events + ["        }"])
        let forwarding = spec.effects.filter { !($0.child?.forward.isEmpty ?? true) }
        if !forwarding.isEmpty {
            lines += describe(
                "\(machine).\(GeneratedNames.forwarded)", doc: "A forwarded event by the effect that runs the child: `pay(abort)` (E64).",
                body: ["        switch self {"] + forwarding.map { effect in
                    "        case .\(SwiftName.escaped(effect.name.value))(let _e): \"\(effect.name.value)(\\(_e))\""
                } + ["        }"])
        }
        if !spec.effects.isEmpty {
            lines += describe(
                "\(machine).\(GeneratedNames.call)", doc: "A call as the spec names its effect: `holdStock(42)` (E64).",
                body: effectCases(spec.effects))
        }
        let oneShots = spec.effects.filter(\.isOneShot)
        if !oneShots.isEmpty {
            lines += describe(
                "\(machine).\(GeneratedNames.run)", doc: "A queued run as the spec names its effect: `saveSession(1)` (E64).",
                body: effectCases(oneShots))
        }
        return lines
    }

    /// A `switch` with the effect's name and its request as `debugPrint` shows it; a child's
    /// input by its fields, `pay(amount: 42)`.
    private func effectCases(_ effects: [EffectSpec]) -> [String] {
        var lines = ["        switch self {"]
        for effect in effects {
            let (name, pattern) = (effect.name.value, "        case .\(SwiftName.escaped(effect.name.value))")
            if let child = effect.child, let input = children[child.machine.value]?.input, !input.isEmpty {
                let fields = input.map { "\($0.name.value): \\(Swift.String(reflecting: _r.\(SwiftName.escaped($0.name.value))))" }
                lines.append("\(pattern)(let _r): \"\(name)(\(fields.joined(separator: ", ")))\"")
            } else if requestParameterType(effect) != nil {
                lines.append("\(pattern)(let _r): \"\(name)(\\(Swift.String(reflecting: _r)))\"")
            } else {
                lines.append("\(pattern): \"\(name)\"")
            }
        }
        return lines + ["        }"]
    }
}
