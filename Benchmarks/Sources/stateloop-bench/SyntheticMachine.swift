// SyntheticMachine: the large, realistic machine the generator benchmarks run on, written both as
// a spec and as the Swift a careful person would write by hand for the same transitions.

/// A machine of `states` × `events` in which every event is handled or ignored in every state,
/// with the mix real specs have: plain transitions, `set:` from the payload, guarded lists with an
/// `ignore` else branch, and `ignore:` lists. One rule decides each (state, event) pair, so the
/// spec and the hand-written Swift describe exactly the same transitions.
struct SyntheticMachine {
    let states: Int
    let events: Int

    /// What state `state` does on event `event`.
    enum Handling {
        /// `{target: t}`.
        case plain(target: Int)
        /// `{target: t, set: ...}` from the event's payload (an internal transition when it has none).
        case assign(target: Int)
        /// `- {guard: ..., target: t, set: ...}` then `- ignore`.
        case guarded(target: Int)
        /// Listed in the state's `ignore:`.
        case ignored
    }

    /// Payloads cycle through `{by: Int}`, `{text: String}` and none.
    enum Payload { case number, text, none }

    func payload(_ event: Int) -> Payload { Self.payload(event) }

    static func payload(_ event: Int) -> Payload {
        switch event % 3 {
        case 0: .number
        case 1: .text
        default: .none
        }
    }

    /// The `events:` entries of a spec with `count` events (shared with `SyntheticHierarchy`).
    static func specEvents(_ count: Int) -> [String] {
        (0..<count).map { event in
            switch payload(event) {
            case .number: "  e\(event): {by: Int}"
            case .text: "  e\(event): {text: String}"
            case .none: "  e\(event): {}"
            }
        }
    }

    /// The hand-written `Event` cases of the same events.
    static func swiftEventCases(_ count: Int) -> [String] {
        (0..<count).map { event in
            switch payload(event) {
            case .number: "        case e\(event)(by: Int)"
            case .text: "        case e\(event)(text: String)"
            case .none: "        case e\(event)"
            }
        }
    }

    func handling(state: Int, event: Int) -> Handling {
        let target = (state + event + 1) % states
        // Event 0 always moves to the next state, so every state is reachable (no warnings).
        if event == 0 { return .plain(target: target) }
        switch (state &* 31 &+ event &* 17) % 10 {
        case 0, 1, 2: return .plain(target: target)
        case 3, 4: return .assign(target: target)
        case 5, 6: return .guarded(target: target)
        default: return .ignored
        }
    }

    /// The number of (state, event) pairs: one reducer case each.
    var pairs: Int { states * events }

    /// The number of branches: one per pair, and the `ignore` after each guard. The generated
    /// reducer records each as it takes it (`_trace.take(id)`, issue 11).
    var branches: Int {
        pairs + (0..<states).reduce(0) { count, state in
            count + (0..<events).filter { event in
                if case .guarded = handling(state: state, event: event) { true } else { false }
            }.count
        }
    }

    // MARK: - The spec

    /// The `.machine.yml` text.
    var yaml: String {
        var lines = [
            "# A synthetic machine for the generator benchmarks: \(states) states x \(events) events.",
            "machine: Synthetic",
            "",
            "context:",
            "  count: {type: Int, default: \"0\"}",
            "  name:  {type: String, default: '\"\"'}",
            "  flag:  {type: Bool, default: \"false\"}",
            "",
            "events:",
        ]
        lines += Self.specEvents(events)
        lines += ["", "initial: s0", "states:"]
        for state in 0..<states {
            lines.append("  s\(state):")
            lines.append("    on:")
            var ignored: [String] = []
            for event in 0..<events {
                switch handling(state: state, event: event) {
                case .plain(let target):
                    lines.append("      e\(event): {target: s\(target)}")
                case .assign(let target):
                    switch payload(event) {
                    case .number: lines.append("      e\(event): {target: s\(target), set: {count: count + event.by}}")
                    case .text: lines.append("      e\(event): {target: s\(target), set: {name: event.text, flag: \"true\"}}")
                    case .none: lines.append("      e\(event): {set: {count: count + 1, flag: \"!flag\"}}")
                    }
                case .guarded(let target):
                    lines.append("      e\(event):")
                    lines.append("        - {guard: \"count < 100 && flag\", target: s\(target), set: {count: count * 2}}")
                    lines.append("        - ignore")
                case .ignored:
                    ignored.append("e\(event)")
                }
            }
            if !ignored.isEmpty {
                lines.append("    ignore: [\(ignored.joined(separator: ", "))]")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - The hand-written equivalent

    /// A nested `switch state.mode { case .s0: switch event { ... } }` with the same guards and
    /// assignments inline, and the same declarations the generated file has for the reducer
    /// (`Mode`, `State`, `Event` with the same conformances), so both files do the same work.
    var handwrittenSwift: String {
        var lines = [
            "import StateLoop",
            "",
            "public enum Handwritten {",
            "    public enum Mode: Hashable, Sendable, CaseIterable {",
            "        case " + (0..<states).map { "s\($0)" }.joined(separator: ", "),
            "    }",
            "",
            "    public struct State: Equatable, Sendable {",
            "        public internal(set) var mode: Mode",
            "        public var count: Int",
            "        public var name: String",
            "        public var flag: Bool",
            "",
            "        public static var initial: State { State(mode: .s0, count: 0, name: \"\", flag: false) }",
            "    }",
            "",
            "    public enum Event: Equatable, Sendable {",
        ]
        lines += Self.swiftEventCases(events)
        lines += [
            "    }",
            "",
            "    public static func reduce(_ state: inout State, _ event: Event) {",
            "        switch state.mode {",
        ]
        for state in 0..<states {
            lines.append("        case .s\(state):")
            lines.append("            switch event {")
            for event in 0..<events {
                switch handling(state: state, event: event) {
                case .plain(let target):
                    lines.append("            case .e\(event): state.mode = .s\(target)")
                case .assign(let target):
                    switch payload(event) {
                    case .number:
                        lines.append("            case .e\(event)(let by):")
                        lines.append("                state.count = state.count + by")
                        lines.append("                state.mode = .s\(target)")
                    case .text:
                        lines.append("            case .e\(event)(let text):")
                        lines.append("                state.name = text")
                        lines.append("                state.flag = true")
                        lines.append("                state.mode = .s\(target)")
                    case .none:
                        lines.append("            case .e\(event):")
                        lines.append("                state.count = state.count + 1")
                        lines.append("                state.flag = !state.flag")
                    }
                case .guarded(let target):
                    lines.append("            case .e\(event):")
                    lines.append("                if state.count < 100 && state.flag {")
                    lines.append("                    state.count = state.count * 2")
                    lines.append("                    state.mode = .s\(target)")
                    lines.append("                }")
                case .ignored:
                    lines.append("            case .e\(event): break")
                }
            }
            lines.append("            }")
        }
        lines += ["        }", "    }", "}"]
        return lines.joined(separator: "\n") + "\n"
    }
}
