import Foundation
@testable import StateLoopSpec
import Testing
@testable import StateLoopDiagram

/// Spec text that would break DOT or Mermaid syntax if pasted in as it is. The spec checks
/// reject most of these names, but the renderers must not depend on that: they are also used on
/// specs with errors, and guards and assignments are free Swift text anyway.
@Suite struct EscapingTests {
    /// State names: each a way to end a quoted string, an ID, a label, a line or a comment, or a
    /// keyword of one of the two languages. Two of them differ only in `\n` versus a line break.
    static let hostileStates = [
        "idle", #"say "hi""#, #"back\slash\"#, #"a\nb"#, "a\nb", "<b>&amp;</b>", "{curly}|pipe[*]",
        "a --> b; c: d # e %% f", "café ☕️ 状態", "default", "note", "__start", "direction LR",
        "[[fork]] <<join>>", "tab\there",
    ]
    static let hostileGuard = ##"x < 1 && y > "}" || z["{"] != #"\"# ; a: b # c %% d --> e"##
    static let hostileExpression = "\"a; b: c # d %% e --> f\" + \"\\n\" + `raw` + {1}\ndirection TB"
    static let hostileEffect = #"load "page" <1> & {2}"#
    static let hostileEvent = "on:\"tap\"; #1 %%"
    static let hostileDelay = #"back"off" <1> %%"#

    /// The effects of `say "hi"`: the hostile effect, a set of streams over the hostile guard
    /// that fails with `tap`, and a child machine whose input is the hostile guard and which
    /// gets the hostile event forwarded.
    static let hostileEffects = [
        EffectSpec(
            name: located(hostileEffect), states: [located(#"say "hi""#)],
            request: RequestSpec(type: located("Int"), value: located("1")), emits: []
        ),
        EffectSpec(
            name: located("\(hostileEffect) ∀"), states: [located(#"say "hi""#)],
            request: RequestSpec(type: located("URL"), value: located(hostileGuard)), emits: [located("tap")],
            isSet: true, isStream: true, onError: located("tap")
        ),
        EffectSpec(
            name: located("pay: <a>"), states: [located(#"say "hi""#)], request: nil, emits: [],
            child: ChildMachine(
                machine: located(#"Child "<x>" %%"#),
                input: [Assignment(field: located("a:b"), expression: located(hostileGuard))],
                forward: [NameMapping(from: located(hostileEvent), to: located("c; d"))]
            )
        ),
    ]

    /// idle goes to every other state on the hostile event with the hostile guard; `café…` has
    /// an internal transition on `tap`, an effect's failure; `say "hi"` runs the hostile effects;
    /// `note` has a timer and a timer of the hostile named delay.
    static func hostileSpec() -> CheckedMachineSpec {
        var states = hostileStates.map { StateSpec(name: located($0)) }
        states[0].on = [EventHandler(event: located(hostileEvent), branches: hostileStates.dropFirst().map {
            transition(to: $0, guard: hostileGuard, set: [("label", hostileExpression)])
        })]
        states[8].on = [EventHandler(event: located("tap"), branches: [transition(to: nil, set: [("count", "count + 1")])])]
        states[10].after = [
            TimerSpec(delay: located("5s"), milliseconds: 5000, branches: [transition(to: "idle")]),
            TimerSpec(delay: located(hostileDelay), milliseconds: nil, branches: [transition(to: "idle")]),
        ]
        return handBuiltSpec(
            name: #"Hostile "Machine" <x> \"#, file: "dir/evil\nname %% \".machine.yml",
            states: states,
            events: [EventSpec(name: located(hostileEvent)), EventSpec(name: located("tap"))],
            effects: hostileEffects,
            delays: [(hostileDelay, hostileGuard)]
        )
    }

    // MARK: DOT

    @Test(.enabled(if: dotIsInstalled, "Graphviz `dot` is not installed (apt-get install graphviz / brew install graphviz)"),
          arguments: DiagramDetail.allCases)
    func dotAcceptsHostileTextAndShowsItVerbatim(detail: DiagramDetail) throws {
        let dot = DOTRenderer(detail: detail).render(Self.hostileSpec())
        let bytes = try Graphviz().render(dot, format: .svg)
        let svg = svgText(bytes)

        // One box per state (plus the start dot and the text block of café's loop): escaping
        // neither merged two names into one node nor split one name into two.
        #expect(svg.components(separatedBy: "class=\"node\"").count - 1 == Self.hostileStates.count + 2)
        // One arrow per transition (two timers), plus the start arrow and the two legs of café's loop.
        #expect(svg.components(separatedBy: "class=\"edge\"").count - 1 == (Self.hostileStates.count - 1) + 2 + 1 + 2)

        let texts = svgTextLines(bytes)
        for state in Self.hostileStates {
            for line in state.replacingOccurrences(of: "\t", with: "\u{2409}").split(separator: "\n") {
                #expect(texts.contains(String(line)), "state name line \(line) is not drawn as written")
            }
        }
        #expect(texts.contains(#"Hostile "Machine" <x> \"#))
        for line in Self.hostileEffects.flatMap({ DiagramModel.Effect($0, detail: detail).lines }) {
            #expect(texts.contains(line), "effect line \(line) is not drawn as written")
        }
        #expect(texts.contains(Self.hostileEvent))
        #expect(texts.contains("! tap"))
        #expect(texts.contains("after \(Self.hostileDelay)" + (detail == .full ? " = \(Self.hostileGuard)" : "")))
        let labelText = texts.joined(separator: " ")
        #expect(labelText.contains(Self.hostileGuard.split(separator: " ").prefix(4).joined(separator: " ")))
        if detail != .compact {
            #expect(texts.contains("/ label = \"a; b: c # d %% e --> f\" + \"\\n\" + `raw` + {1}"))
            #expect(texts.contains("direction TB"))
        }
    }

    @Test func dotIDsKeepDistinctNamesDistinct() {
        let names = [#"a\nb"#, "a\nb", #"q""#, #"q\""#, #"x\"#, "x\\\\", "ctl\u{1}"]
        let ids = names.map(DOTText.quotedID)
        #expect(Set(ids).count == names.count)
        for id in ids {
            #expect(!id.contains("\n"))
            #expect(!id.unicodeScalars.contains { $0.value < 0x20 })
            // Inside the quotes every `"` is escaped by an odd run of backslashes.
            let inner = id.dropFirst().dropLast()
            for index in inner.indices where inner[index] == "\"" {
                let backslashes = inner[..<index].reversed().prefix { $0 == "\\" }.count
                #expect(backslashes % 2 == 1, "unescaped quote in \(id)")
            }
        }
    }

    @Test func htmlLabelsEscapeMarkupAndControlCharacters() {
        #expect(DOTText.html(#"<a href="x">&amp;</a>"#) == "&lt;a href=&quot;x&quot;&gt;&amp;amp;&lt;/a&gt;")
        #expect(DOTText.html("one\ntwo") == #"one<br align="left"/>two"#)
        #expect(DOTText.html("bell\u{7}") == "bell\u{2407}")
        #expect(DOTText.html("café ☕️") == "café ☕️")
    }

    // MARK: Mermaid

    @Test(arguments: DiagramDetail.allCases)
    func mermaidHasNoRawBreakingCharacters(detail: DiagramDetail) throws {
        let mermaid = MermaidRenderer(detail: detail).render(Self.hostileSpec())
        let lines = mermaid.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "stateDiagram-v2")
        #expect(lines.last == "")

        let id = #"(?:[A-Za-z_][A-Za-z0-9_]*)"#
        let grammar = [
            #"^    %% Generated by stateloop from [^\n]*\. Do not edit\.$"#,
            #"^    direction LR$"#,
            #"^    state "(?<name>[^"]*)" as \#(id)$"#,
            #"^    (?:\[\*\]|\#(id)) --> (?:\[\*\]|\#(id))(?: : (?<label>.*))?$"#,
            #"^    \#(id) : (?<label>.*)$"#,
            #"^$"#,
        ].map { try! Regex($0) }
        for line in lines.dropFirst() {
            let match = grammar.lazy.compactMap { line.wholeMatch(of: $0) }.first
            #expect(match != nil, "line is not a Mermaid statement we write: \(line)")
            // A comment may say anything but must not end early; only the comment has `%%`.
            if line.hasPrefix("    %%") { continue }
            #expect(!line.contains("%%"))
            // Mermaid's lexer reads any line with `direction <dir>` as a direction statement.
            if line != "    direction LR" {
                #expect(line.firstMatch(of: #/(?i)direction\s+(tb|bt|rl|lr)/#) == nil, "\(line)")
            }
            for text in [match?.output["label"]?.substring, match?.output["name"]?.substring].compactMap({ $0 }) {
                // What is left once Mermaid has taken out its entity codes must not end the
                // label, open a comment, or be read as markup.
                let bare = String(text).replacing(#/#\w+;/#, with: "")
                #expect(!bare.contains { ":;#%\"<>{}`\n".contains($0) }, "raw breaking character in \(text)")
            }
            if let name = match?.output["name"]?.substring {
                #expect(!name.contains("[") && !name.contains("]"), "`[[fork]]` would make a fork of \(name)")
            }
        }
    }

    @Test func mermaidLabelsDecodeToTheSpecText() {
        let mermaid = MermaidRenderer(detail: .standard).render(Self.hostileSpec())
        let decoded = decodeMermaidEntities(mermaid)
        for state in Self.hostileStates where !MermaidText.isPlainID(state) {
            let shown = state.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\t", with: " ")
            #expect(decoded.contains("state \"\(shown)\" as "), "state \(state) lost its name")
        }
        for detail in DiagramDetail.allCases {
            let decoded = decodeMermaidEntities(MermaidRenderer(detail: detail).render(Self.hostileSpec()))
            for line in Self.hostileEffects.flatMap({ DiagramModel.Effect($0, detail: detail).lines }) {
                #expect(decoded.contains(" : \(line)\n"), "effect line \(line) is not shown as written")
            }
            #expect(decoded.contains(" : after \(Self.hostileDelay)" + (detail == .full ? " = \(Self.hostileGuard)" : "") + "\n"))
        }
        #expect(decoded.contains(" : ⟳ \(Self.hostileEffect)\n"))
        let expression = Self.hostileExpression.replacingOccurrences(of: "\n", with: " ")
        #expect(decoded.contains(" : \(Self.hostileEvent) [\(Self.hostileGuard)] / label = \(expression)\n"))
    }

    @Test func mermaidAliasesOnlyNamesItCannotTakeAsIDs() {
        let mermaid = MermaidRenderer().render(Self.hostileSpec())
        #expect(mermaid.contains("\n    [*] --> idle\n"))
        #expect(mermaid.contains("\n    state \"default\" as s"))
        #expect(mermaid.contains("\n    state \"note\" as s"))
        #expect(mermaid.contains("\n    idle --> __start : "))
        let aliases = mermaid.matches(of: #/state "[^"]*" as (\w+)/#).map { String($0.output.1) }
        #expect(Set(aliases).count == aliases.count)
        #expect(aliases.count == Self.hostileStates.filter { !MermaidText.isPlainID($0) }.count)
        #expect(!MermaidText.isPlainID("defaultMode"))
        #expect(!MermaidText.isPlainID("accTitle"))
        #expect(MermaidText.isPlainID("loading"))
        #expect(MermaidText.isPlainID("__start"))
    }

    // MARK: Statecharts

    /// The hostile names as a statechart: a composite with a deep history state, entry and exit
    /// actions and a run of the hostile effect, a parallel state whose regions are named like
    /// Mermaid keywords, `always:` and `onDone:` arrows, and the machine's own handler.
    static func hostileStatechart() -> CheckedMachineSpec {
        let s = hostileStates
        var inner = StateSpec(name: located(s[1]))
        inner.on = [EventHandler(event: located(hostileEvent), branches: [transition(to: s[14], guard: hostileGuard)])]
        var composite = StateSpec(
            name: located(s[7]), initial: located(s[1]),
            states: [inner, StateSpec(name: located(s[5]), kind: .history(deep: true), historyTarget: located(s[1]))],
            entry: [.set([Assignment(field: located("label"), expression: located(hostileExpression))], at: here)],
            exit: [.run(effect: located(hostileEffect), request: located(hostileExpression), at: here)])
        composite.always = [transition(to: s[12], guard: hostileGuard)]
        composite.on = [EventHandler(event: located("tap"), branches: [transition(to: s[1], guard: "x"), transition(to: nil)])]
        let regions = [(s[9], s[13]), (s[10], s[8])].map { region, leaf in
            StateSpec(name: located(region), initial: located(leaf), states: [StateSpec(name: located(leaf))])
        }
        var parallel = StateSpec(name: located(s[6]), kind: .parallel, states: regions)
        parallel.onDone = [transition(to: s[0])]
        var idle = StateSpec(name: located(s[0]))
        idle.on = [EventHandler(event: located(hostileEvent), branches: [transition(to: s[6], guard: hostileGuard), transition(to: s[7])])]
        return CheckedMachineSpec(MachineSpec(
            file: "dir/evil\nname %% \".machine.yml", name: located(#"Hostile "Machine" <x> \"#),
            events: [EventSpec(name: located(hostileEvent)), EventSpec(name: located("tap"))],
            on: [EventHandler(event: located("tap"), branches: [transition(to: s[11])])],
            ignore: [located(hostileEvent)],
            initial: located(s[7]),
            states: [idle, composite, parallel, StateSpec(name: located(s[11]), kind: .final), StateSpec(name: located(s[12])), StateSpec(name: located(s[14]))],
            effects: [EffectSpec(name: located(hostileEffect), states: nil, request: RequestSpec(type: located("Int"), value: nil), emits: [])]
        ))
    }

    @Test(.enabled(if: dotIsInstalled, "Graphviz `dot` is not installed (apt-get install graphviz / brew install graphviz)"),
          arguments: DiagramDetail.allCases)
    func dotAcceptsAHostileStatechartWithoutWarnings(detail: DiagramDetail) throws {
        let dot = DOTRenderer(detail: detail).render(Self.hostileStatechart())
        let result = try dotDiagnostics(dot)
        #expect(result.status == 0)
        #expect(result.standardError == "")
        let texts = svgTextLines(try Graphviz().render(dot, format: .svg))
        for index in [0, 1, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14] {
            for line in Self.hostileStates[index].replacingOccurrences(of: "\t", with: "\u{2409}").split(separator: "\n") {
                #expect(texts.contains(String(line)), "state name line \(line) is not drawn as written")
            }
        }
        #expect(texts.contains("H*"))
        #expect(texts.contains("any state"))
    }

    @Test(arguments: DiagramDetail.allCases)
    func mermaidStatechartHasNoRawBreakingCharacters(detail: DiagramDetail) throws {
        let mermaid = MermaidRenderer(detail: detail).render(Self.hostileStatechart())
        let lines = mermaid.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "stateDiagram-v2")
        let id = #"(?:[A-Za-z_][A-Za-z0-9_]*)"#
        let grammar = [
            #"^    %% Generated by stateloop from [^\n]*\. Do not edit\.$"#,
            #"^    direction LR$"#,
            #"^(?:    )+state "(?<name>[^"]*)" as \#(id)(?: \{)?$"#,
            #"^(?:    )+state \#(id) \{$"#,
            #"^(?:    )+\}$"#,
            #"^(?:    )+--$"#,
            #"^(?:    )+\#(id)$"#,
            #"^(?:    )+(?:\[\*\]|\#(id)) --> (?:\[\*\]|\#(id))(?: : (?<label>.*))?$"#,
            #"^(?:    )+\#(id) : (?<label>.*)$"#,
            #"^    classDef machine fill:#ffffff,stroke-dasharray:4 4$"#,
            #"^    class \#(id) machine$"#,
            #"^$"#,
        ].map { try! Regex($0) }
        var depth = 0
        for line in lines.dropFirst() {
            let match = grammar.lazy.compactMap { line.wholeMatch(of: $0) }.first
            #expect(match != nil, "line is not a Mermaid statement we write: \(line)")
            if line.hasSuffix(" {") { depth += 1 }
            if line.hasSuffix("}") { depth -= 1 }
            #expect(depth >= 0)
            if line.hasPrefix("    %%") || line.hasPrefix("    classDef") { continue }
            #expect(!line.contains("%%"))
            if line != "    direction LR" {
                #expect(line.firstMatch(of: #/(?i)direction\s+(tb|bt|rl|lr)/#) == nil, "\(line)")
            }
            for text in [match?.output["label"]?.substring, match?.output["name"]?.substring].compactMap({ $0 }) {
                // `<br/>` is the one markup we write: between the lines of a state's loops.
                let bare = String(text).replacing(#/#\w+;/#, with: "").replacingOccurrences(of: "<br/>", with: "")
                #expect(!bare.contains { ":;#%\"<>{}`\n".contains($0) }, "raw breaking character in \(text)")
            }
            if let name = match?.output["name"]?.substring {
                #expect(!name.contains("[") && !name.contains("]"), "`[[fork]]` would make a fork of \(name)")
            }
        }
        #expect(depth == 0)
    }

    /// Mermaid's own decoding: `#quot;` and `#123;` back to characters.
    private func decodeMermaidEntities(_ text: String) -> String {
        text.replacing(#/#(quot|\d+);/#) { match in
            if match.output.1 == "quot" { return "\"" }
            return String(Character(Unicode.Scalar(UInt32(match.output.1)!)!))
        }
    }
}
