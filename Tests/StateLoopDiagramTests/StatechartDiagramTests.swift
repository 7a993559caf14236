import Foundation
@testable import StateLoopSpec
import Testing
@testable import StateLoopDiagram

/// Statecharts in both formats (Docs/Statecharts.md): nested states as frames, parallel regions,
/// history, final states, `always:` and `onDone:`, entry and exit actions, one-shot runs,
/// inherited and machine-wide handlers drawn once. The fixtures are `Fixtures/Player` (the
/// running example of Docs/Statecharts.md) and `Fixtures/Editor` (parallel regions, deep
/// history, `always:`, `onDone:`).
@Suite struct StatechartDiagramTests {
    @Test("S119: a re-entering transition's label says (reenter) after its trigger, in both formats")
    func reenteringTransitionsAreLabelled() throws {
        let yaml = """
            machine: M
            events: {go: {}, stay: {}}
            initial: p
            states:
              p:
                initial: a
                on:
                  go: {target: b, reenter: true}
                  stay: b
                states:
                  a: {}
                  b: {}
            """
        let spec = try #require(SpecLoader.load(contents: Array(yaml.utf8), path: "M.machine.yml").spec)
        let dot = DOTRenderer().render(spec)
        #expect(dot.contains("<b>go</b> (reenter)") && dot.contains("<b>stay</b>") && !dot.contains("stay</b> (reenter)"), "\(dot)")
        let mermaid = MermaidRenderer().render(spec)
        #expect(mermaid.contains("go (reenter)") && !mermaid.contains("stay (reenter)"), "\(mermaid)")
    }

    @Test("S143: a list initial: is one arrow from the initial dot to each listed state, in both formats")
    func initialListsAreDrawnAsOneArrowPerState() throws {
        let yaml = """
            machine: M
            events: {go: {}}
            ignore: [go]
            initial: [a2, b2]
            states:
              off:
                on: {go: p}
              c:
                initial: [a1, b2]
                states:
                  p:
                    type: parallel
                    states:
                      ra:
                        initial: a1
                        states: {a1: {}, a2: {on: {go: off}}}
                      rb:
                        initial: b1
                        states: {b1: {}, b2: {}}
            """
        let spec = try #require(SpecLoader.load(contents: Array(yaml.utf8), path: "M.machine.yml").spec)
        // With single names instead, each initial dot has one arrow: the lists draw two more.
        let single = yaml.replacingOccurrences(of: "initial: [a2, b2]", with: "initial: a2").replacingOccurrences(of: "initial: [a1, b2]", with: "initial: p")
        let singleSpec = try #require(SpecLoader.load(contents: Array(single.utf8), path: "M.machine.yml").spec)
        func arrows(_ dot: String) -> [Substring] { dot.split(separator: "\n").filter { $0.contains(" -> ") } }
        let dot = DOTRenderer().render(spec)
        let singleDot = DOTRenderer().render(singleSpec)
        #expect(arrows(dot).count == arrows(singleDot).count + 2, "\(dot)")
        #expect(Set(arrows(dot)).subtracting(arrows(singleDot)).count == 3, "\(dot)")  // to b2 twice (machine, c), to a1 from c
        let mermaid = MermaidRenderer().render(spec)
        #expect(mermaid.contains("[*] --> a2\n") && mermaid.contains("[*] --> b2\n") && mermaid.contains("[*] --> a1\n"), "\(mermaid)")
    }

    @Test("S149: the initial arrow of a composite carries its initial: actions, a history's default arrow its default: actions, in both formats")
    func defaultEntryActionsAreDrawnOnTheirArrows() throws {
        let yaml = """
            machine: M
            events: {go: {}, e2: {}, e3: {}}
            ignore: [go, e2, e3]
            initial: s0
            states:
              s0:
                initial: {target: sh, do: [{raise: e2}]}
                states:
                  sh: {type: history, default: {target: a, do: [{raise: e3}]}}
                  a: {}
            """
        let spec = try #require(SpecLoader.load(contents: Array(yaml.utf8), path: "M.machine.yml").spec)
        let dot = DOTRenderer().render(spec)
        let arrows = dot.split(separator: "\n").filter { $0.contains(" -> ") }
        #expect(arrows.contains { $0.contains("\"sh\"") && $0.contains("label=</ ↺ e2") }, "\(dot)")
        #expect(arrows.contains { $0.contains("<i>default</i>") && $0.contains("/ ↺ e3") }, "\(dot)")
        let mermaid = MermaidRenderer().render(spec)
        #expect(mermaid.contains("[*] --> sh : / ↺ e2\n") && mermaid.contains("default / ↺ e3"), "\(mermaid)")
        // Without actions the arrows are bare, as before.
        let bare = yaml.replacingOccurrences(of: "{target: sh, do: [{raise: e2}]}", with: "sh")
        let bareSpec = try #require(SpecLoader.load(contents: Array(bare.utf8), path: "M.machine.yml").spec)
        #expect(MermaidRenderer().render(bareSpec).contains("[*] --> sh\n"))
    }

    @Test("S110: a conditional action is drawn as one line, its sides in brackets, in both formats")
    func conditionalActionsAreDrawnAsOneLine() throws {
        let yaml = """
            machine: M
            context: {n: {type: Int, default: "0"}}
            events: {go: {}}
            initial: a
            states:
              a:
                entry: [{if: "n > 0", then: [{set: {n: "0"}}], else: [{if: "n < 0", then: [{set: {n: n + 1}}]}]}]
                on: {go: {target: a, do: [{if: "n > 1", then: [{set: {n: n - 1}}]}]}}
            """
        let spec = try #require(SpecLoader.load(contents: Array(yaml.utf8), path: "M.machine.yml").spec)
        let dot = DOTRenderer().render(spec)
        #expect(dot.contains("entry / if n &gt; 0 [n = 0] else [if n &lt; 0 [n = n + 1]]"), "\(dot)")
        #expect(dot.contains("/ if n &gt; 1 [n = n - 1]"), "\(dot)")
        let mermaid = MermaidRenderer().render(spec)
        #expect(mermaid.contains("go / if n #62; 1 [n = n - 1]"), "\(mermaid)")
        #expect(DOTRenderer(detail: .compact).render(spec).contains("entry / if n &gt; 0 [] else [if n &lt; 0 []]"))
    }

    @Test("S174: a loop is drawn as one line, its actions in brackets, in both formats")
    func s174LoopsAreDrawnAsOneLine() throws {
        let yaml = """
            machine: M
            context: {words: {type: "[String]", default: "[]"}, word: {type: String, default: '""'}, at: {type: Int, default: "0"}}
            events: {go: {}}
            initial: a
            states:
              a:
                entry: [{foreach: {in: words, item: word, index: at, do: [{set: {at: at + 1}}, {raise: go}]}}]
                on: {go: {target: a, do: [{foreach: {in: "words.reversed()", item: word}}]}}
            """
        let spec = try #require(SpecLoader.load(contents: Array(yaml.utf8), path: "M.machine.yml").spec)
        let dot = DOTRenderer().render(spec)
        #expect(dot.contains("entry / for word, at in words [at = at + 1; ↺ go]"), "\(dot)")
        #expect(dot.contains("/ for word in words.reversed() []"), "\(dot)")
        let mermaid = MermaidRenderer().render(spec)
        #expect(mermaid.contains("go / for word in words.reversed() []"), "\(mermaid)")
        #expect(DOTRenderer(detail: .compact).render(spec).contains("entry / for word, at in words [↺ go]"))
    }

    @Test("S125: a raise is drawn where the action goes, its payload left out at compact detail")
    func raisedEventsAreDrawn() throws {
        let yaml = """
            machine: M
            context: {n: {type: Int, default: "0"}}
            events: {go: {}, found: {k: Int}}
            initial: a
            states:
              a:
                entry: [{raise: go}]
                on: {go: {target: a, do: [{raise: {event: found, k: n + 1}}]}}
                ignore: [found]
            """
        let spec = try #require(SpecLoader.load(contents: Array(yaml.utf8), path: "M.machine.yml").spec)
        let dot = DOTRenderer().render(spec)
        #expect(dot.contains("entry / ↺ go"), "\(dot)")
        #expect(dot.contains("/ ↺ found(k: n + 1)"), "\(dot)")
        #expect(MermaidRenderer().render(spec).contains("go / ↺ found(k#58; n + 1)"))  // Mermaid's escape of ':'
        #expect(DOTRenderer(detail: .compact).render(spec).contains("/ ↺ found"))
        #expect(!DOTRenderer(detail: .compact).render(spec).contains("↺ found("))
    }

    @Test("S136: a send is drawn with its delay and id, a cancel with its id; the payload left out at compact detail")
    func sendsAreDrawn() throws {
        let yaml = """
            machine: M
            context: {n: {type: Int, default: "0"}}
            events: {go: {}, nag: {k: Int}, stop: {}}
            initial: a
            states:
              a:
                entry: [{send: go}]
                on:
                  go: {target: a, do: [{send: {event: nag, delay: 5s, id: reminder, k: n + 1}}]}
                  stop: {do: [{cancel: reminder}]}
                ignore: [nag]
            """
        let spec = try #require(SpecLoader.load(contents: Array(yaml.utf8), path: "M.machine.yml").spec)
        let dot = DOTRenderer().render(spec)
        #expect(dot.contains("entry / send go"), "\(dot)")
        #expect(dot.contains("/ send nag(k: n + 1) after 5s as reminder"), "\(dot)")
        #expect(dot.contains("/ cancel reminder"), "\(dot)")
        #expect(MermaidRenderer().render(spec).contains("go / send nag(k#58; n + 1) after 5s as reminder"))
        #expect(DOTRenderer(detail: .compact).render(spec).contains("/ send nag after 5s as reminder"))
    }

    @Test(arguments: statechartFixtures, [DiagramDetail.compact, .standard, .full])
    func dotMatchesGoldenFile(machine: String, detail: DiagramDetail) throws {
        try expectGolden(DOTRenderer(detail: detail).render(try fixtureSpec(machine)), named: "\(machine).\(detail).dot")
    }

    @Test(arguments: statechartFixtures, [DiagramDetail.compact, .standard, .full])
    func mermaidMatchesGoldenFile(machine: String, detail: DiagramDetail) throws {
        try expectGolden(MermaidRenderer(detail: detail).render(try fixtureSpec(machine)), named: "\(machine).\(detail).mmd")
    }

    /// Real Graphviz, in both picture formats, without a single warning: a warning such as
    /// "tail not inside tail cluster" means an arrow was not clipped at its frame.
    @Test(.enabled(if: dotIsInstalled, "Graphviz `dot` is not installed (apt-get install graphviz / brew install graphviz)"),
          arguments: statechartFixtures, DiagramDetail.allCases)
    func everyFixtureRendersWithoutWarningsShowingEveryState(machine: String, detail: DiagramDetail) throws {
        let dot = DOTRenderer(detail: detail).render(try fixtureSpec(machine))
        try expectDotRendersWithoutWarnings(dot)
        let lines = svgTextLines(try Graphviz().render(dot, format: .svg))
        let spec = try fixtureSpec(machine)
        for node in StateTree(spec.states).nodes {
            #expect(lines.contains(node.name), "state \(node.name) is not drawn")
        }
    }

    // MARK: What the pictures say

    @Test func aCompositeIsAFrameWithItsNameAndItsOwnInitialDot() throws {
        let spec = try fixtureSpec("Player")
        let dot = DOTRenderer().render(spec)
        #expect(dot.contains("compound=true"))
        #expect(dot.contains(#"    subgraph "cluster_active" {"# + "\n" + #"        graph [label=<<b>active</b><br align="left"/>"#))
        #expect(dot.contains("\n" + #"        "active start" [shape=point"#))
        #expect(dot.contains("\n" + #"        "active start" -> "playing";"# + "\n"))
        // The children are declared inside the frame; the top-level states outside it.
        let frame = try #require(dot.firstRange(of: #"subgraph "cluster_active" {"#)).lowerBound
        let frameEnd = try #require(dot[frame...].firstRange(of: "\n    }\n")).lowerBound
        for child in ["playing", "paused", "resume"] {
            #expect(dot[frame..<frameEnd].contains("\n        \"\(child)\" ["))
        }
        #expect(dot.contains("\n    \"stopped\" [label=<<b>stopped</b>>];"))

        let mermaid = MermaidRenderer().render(spec)
        #expect(mermaid.contains("\n    state \"active · entry / sessions = sessions + 1 · exit / ▶ saveSession(sessions)\" as active {\n        [*] --> playing\n        playing\n        paused\n        state \"H\" as resume\n    }\n"))
    }

    @Test func anInheritedHandlerIsOneArrowFromTheCompositesFrame() throws {
        let spec = try fixtureSpec("Player")
        let dot = DOTRenderer().render(spec)
        let stops = dot.split(separator: "\n").filter { $0.contains("<b>stop</b>") }
        #expect(stops == [#"    "active start" -> "stopped" [label=<<b>stop</b><br align="left"/>>, ltail="cluster_active"];"#])
        let mermaid = MermaidRenderer().render(spec)
        #expect(mermaid.split(separator: "\n").filter { $0.hasSuffix(": stop") } == ["    active --> stopped : stop"])
    }

    @Test func theMachinesOwnHandlersAreDrawnOnceFromAnyState() throws {
        let spec = try fixtureSpec("Player")
        let dot = DOTRenderer().render(spec)
        #expect(dot.contains(##"    "any state" [shape=note, style="filled", fillcolor="#ffffff", label=<<i>any state</i>>];"##))
        #expect(dot.split(separator: "\n").filter { $0.contains("powerOff") } == [#"    "any state" -> "off" [label=<<b>powerOff</b><br align="left"/>>];"#])
        let mermaid = MermaidRenderer().render(spec)
        #expect(mermaid.contains("\n    state \"any state\" as any_state\n"))
        #expect(mermaid.contains("\n    any_state --> off : powerOff\n"))
        // A machine with frames lists its `ignore:` there, once, at full detail.
        let full = try fixtureSpec("Editor")
        #expect(DOTRenderer(detail: .full).render(full).contains(##"label=<<i>any state</i><br/><font point-size="9" color="#8c959f">ignores: back</font>>"##))
        #expect(MermaidRenderer(detail: .full).render(full).contains("\n    any_state : ignores back\n"))
        #expect(!MermaidRenderer(detail: .full).render(full).contains("ignores back, "))
    }

    @Test func anArrowToACompositeEndsAtItsFrame() throws {
        let dot = DOTRenderer().render(try fixtureSpec("Routing"))
        #expect(dot.contains(#"    "__start" -> "outer start" [lhead="cluster_outer"];"#))
        #expect(dot.contains(#"        "outer start" -> "inner start" [lhead="cluster_inner"];"#))
        #expect(dot.contains(#"    "b" -> "split start" [label=<<b>next</b><br align="left"/>>, ltail="cluster_outer", lhead="cluster_split"];"#))
        #expect(dot.contains(#"    "back" -> "inner start" [label=<<i>default</i><br align="left"/>>, style=dashed, lhead="cluster_inner"];"#))
    }

    @Test func arrowsBetweenAFrameAndAStateInsideItStayDrawable() throws {
        let spec = try fixtureSpec("Routing")
        let dot = DOTRenderer().render(spec)
        // Into its own frame: out through a text block beside the frame, and back in.
        #expect(dot.contains(#"    "outer start" -> "outer to b" [arrowhead=none, ltail="cluster_outer"];"#))
        #expect(dot.contains(#"    "outer to b" -> "b";"#))
        // To a state around the source: to its initial dot, without moving the dot.
        #expect(dot.contains(#"    "a" -> "outer start" [label=<<b>restart</b><br align="left"/>>, constraint=false];"#))
        // A parallel state's dot is hidden, unless such an arrow ends at it.
        #expect(dot.contains(#"        "split start" [shape=point, width=0.12"#))
        #expect(DOTRenderer().render(try fixtureSpec("Editor")).contains(#"        "editing start" [shape=point, style=invis"#))
        // A composite's loops: one text block beside the frame.
        #expect(dot.contains(#"    "outer start" -> "outer loops" [arrowhead=none, ltail="cluster_outer"];"#))
        #expect(dot.contains(#"    "outer loops" -> "outer start" [constraint=false, lhead="cluster_outer"];"#))

        // Mermaid draws such arrows as a label without a line: they are text on their source.
        let mermaid = MermaidRenderer().render(spec)
        #expect(mermaid.contains("state \"outer · reset → b\" as outer {"))
        #expect(mermaid.contains("\n            a : restart → outer\n"))
        #expect(mermaid.contains("\n            l1 : sync → split\n"))
        #expect(!mermaid.contains("outer --> b"))
        #expect(mermaid.contains("\n    outer --> outer : tick / n = n + 1<br/>again\n"))
    }

    @Test func parallelRegionsAreDashedFramesAndMermaidSeparatesThemWithDashes() throws {
        let spec = try fixtureSpec("Editor")
        let dot = DOTRenderer().render(spec)
        #expect(dot.contains(#"    subgraph "cluster_editing" {"# + "\n" + #"        graph [label=<<b>editing</b><br align="left"/><font point-size="10">exit / revision = revision + 1</font><br align="left"/>>, style="rounded,filled""#))
        for region in ["format", "document"] {
            #expect(dot.contains(#"        subgraph "cluster_\#(region)" {"# + "\n" + #"            graph [label=<<b>\#(region)</b><br align="left"/>>, style="dashed,rounded,filled""#))
        }
        let mermaid = MermaidRenderer().render(spec)
        #expect(mermaid.contains("""
                    state "H*" as restore
                    state format {
                        [*] --> plain
                        plain
                        emphasized
                    }
                    --
                    state document {
            """))
    }

    @Test func historyIsAnHCircleAndDeepHistoryAnHStar() throws {
        let player = DOTRenderer().render(try fixtureSpec("Player"))
        #expect(player.contains(##"        "resume" [label=<<b>H</b><br/><font point-size="8" color="#57606a">resume</font>>, shape=circle"##))
        #expect(player.contains(#"    "stopped" -> "resume" [label=<<b>play</b><br align="left"/>>];"#))
        let editor = DOTRenderer().render(try fixtureSpec("Editor"))
        #expect(editor.contains(#"        "restore" [label=<<b>H*</b>"#))
        #expect(editor.contains(#"    "restore" -> "dirty" [label=<<i>default</i><br align="left"/>>, style=dashed];"#))
        #expect(MermaidRenderer().render(try fixtureSpec("Editor")).contains("\n    restore --> dirty : default\n"))
    }

    @Test func finalStatesAreDoubleCirclesAndEndTheirBlockInMermaid() throws {
        let spec = try fixtureSpec("Editor")
        let dot = DOTRenderer().render(spec)
        #expect(dot.contains(#"        "approved" [label=<<b>approved</b>>, shape=doublecircle, style=filled];"#))
        #expect(dot.contains(#"    "closed" [label=<<b>closed</b>>, shape=doublecircle, style=filled];"#))
        let mermaid = MermaidRenderer().render(spec)
        #expect(mermaid.contains("\n        approved\n        approved --> [*]\n    }\n"))
        #expect(mermaid.contains("\n    closed --> [*]\n"))
    }

    @Test func alwaysIsADashedArrowAndOnDoneAnArrowLabelledDone() throws {
        let spec = try fixtureSpec("Editor")
        let dot = DOTRenderer().render(spec)
        #expect(dot.contains(#"    "reading" -> "approved" [label=<<b><i>always</i></b><br align="left"/>[edits == 0]<br align="left"/>>, style=dashed];"#))
        #expect(dot.contains(#"    "approved" -> "closed" [label=<<b><i>done</i></b><br align="left"/>>, ltail="cluster_reviewing"];"#))
        let mermaid = MermaidRenderer().render(spec)
        #expect(mermaid.contains("\n    reading --> approved : always [edits == 0]\n"))
        #expect(mermaid.contains("\n    reviewing --> closed : done\n"))
    }

    @Test func entryExitAndOneShotRunsAreListed() throws {
        let spec = try fixtureSpec("Editor")
        let dot = DOTRenderer().render(spec)
        #expect(dot.contains(##"<b>reviewing</b><br align="left"/><font point-size="10" color="#0969da">entry / ▶ publish</font>"##))
        #expect(dot.contains(##"    "saving" -> "clean" [label=<<b>stored</b><br align="left"/>/ ▶ notify(edits)<br align="left"/>>, color="#0969da", fontcolor="#0969da"];"##))
        let mermaid = MermaidRenderer().render(spec)
        #expect(mermaid.contains("\n    saving --> clean : stored / ▶ notify(edits)\n"))
        // A run on a grey arrow is blue; at compact detail the request is left out, as `set:` is.
        let player = try fixtureSpec("Player")
        #expect(DOTRenderer().render(player).contains(##"<font point-size="10" color="#0969da">exit / ▶ saveSession(sessions)</font>"##))
        let compact = DOTRenderer(detail: .compact).render(player)
        #expect(compact.contains(##"<font point-size="10" color="#0969da">exit / ▶ saveSession</font>"##))
        #expect(!compact.contains("entry / sessions"))
    }

    @Test func aFlatMachineHasNoFramesAndNoCompound() throws {
        for file in try exampleSpecFiles() {
            let spec = try loadSpec(at: file)
            guard StateTree(spec.states).isFlat, spec.on.isEmpty else { continue }
            let dot = DOTRenderer(detail: .full).render(spec)
            #expect(!dot.contains("compound"))
            #expect(!dot.contains("subgraph"))
            #expect(!dot.contains("any state"))
        }
    }

    /// Specs the checks reject still give valid pictures: the renderers are also run on specs
    /// with errors, and do not rely on the checks for their own syntax.
    @Test(.enabled(if: dotIsInstalled, "Graphviz `dot` is not installed"))
    func specsTheChecksRejectStillRender() throws {
        let leaf = { (name: String) in StateSpec(name: located(name)) }
        var noInitial = StateSpec(name: located("noInitial"), states: [leaf("a"), leaf("b")])
        noInitial.on = [EventHandler(event: located("go"), branches: [transition(to: "nowhere"), transition(to: "a")])]
        let leafRegions = StateSpec(name: located("leafRegions"), kind: .parallel, states: [leaf("r1"), leaf("r2")])
        let finalWithChildren = StateSpec(name: located("finalWithChildren"), kind: .final, initial: located("c"), states: [leaf("c")])
        var duplicate = StateSpec(name: located("a"), initial: located("d"), states: [leaf("d")])
        duplicate.always = [transition(to: "a")]
        let topHistory = StateSpec(name: located("topHistory"), kind: .history(deep: false), historyTarget: located("missing"))
        let spec = CheckedMachineSpec(MachineSpec(
            file: "Specs/Broken.machine.yml", name: located("Broken"),
            on: [EventHandler(event: located("go"), branches: [transition(to: "leafRegions")])],
            initial: located("noInitial"),
            states: [noInitial, leafRegions, finalWithChildren, duplicate, topHistory]
        ))
        for detail in DiagramDetail.allCases {
            let result = try dotDiagnostics(DOTRenderer(detail: detail).render(spec))
            #expect(result.status == 0)
            #expect(result.standardError == "")
            let mermaid = MermaidRenderer(detail: detail).render(spec)
            #expect(mermaid.components(separatedBy: "{\n").count == mermaid.components(separatedBy: "}\n").count)
        }
    }
}
