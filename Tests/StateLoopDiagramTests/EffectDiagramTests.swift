import Foundation
import StateLoopSpec
import Testing
@testable import StateLoopDiagram

/// Each effect shape of Docs/Effects.md ("Diagrams") has its own line in the states where it
/// runs, with the same text in DOT and Mermaid. The machines are the examples `Specs/Checkout`
/// (every shape) and `Specs/Movies` (a v1 query effect); their goldens are in `GoldenTests`.
@Suite struct EffectDiagramTests {
    /// The DOT label text of the line `text` in a state, in `color`.
    private func dotLine(_ text: String, color: String = "#0969da") -> String {
        ##"<font point-size="10" color="\##(color)">\##(DOTText.html(text))</font>"##
    }

    /// A query effect (v1), a stream and a fire-and-forget effect (grey: it sends nothing) show
    /// their request only at full detail. Mermaid cannot color one description line, so there a
    /// fire-and-forget effect reads like a query effect.
    @Test(arguments: [
        ("Movies", "loading", "⟳ loadPage", "nextPage", "#0969da"),
        ("Checkout", "shipped", "⇶ trackDelivery", "receipt", "#0969da"),
        ("Checkout", "paying", "⟳ holdStock", "total", "#6e7781"),
    ])
    func aSingleRequestEffectShowsItsRequestOnlyAtFullDetail(machine: String, state: String, line: String, request: String, color: String) throws {
        let spec = try exampleSpec(machine)
        #expect(DOTRenderer().render(spec).contains(dotLine(line, color: color)))
        #expect(DOTRenderer(detail: .full).render(spec).contains(dotLine("\(line)(\(request))", color: color)))
        #expect(MermaidRenderer().render(spec).contains("\n    \(state) : \(line)\n"))
        #expect(MermaidRenderer(detail: .full).render(spec).contains("\n    \(state) : \(line)(\(request))\n"))
    }

    @Test func aSetNamesItsRequestsAtEveryDetailLevel() throws {
        let spec = try exampleSpec("Checkout")
        for detail in DiagramDetail.allCases {
            #expect(DOTRenderer(detail: detail).render(spec).contains(dotLine("⟳ loadImage ∀ images")))
            #expect(MermaidRenderer(detail: detail).render(spec).contains("\n    browsing : ⟳ loadImage ∀ images\n"))
        }
    }

    @Test func aChildMachineShowsItsMachineThenItsInputAndForwardsAtFullDetail() throws {
        let spec = try exampleSpec("Checkout")
        let standard = DOTRenderer().render(spec)
        #expect(standard.contains(dotLine("❐ pay: Payment")))
        #expect(!standard.contains("cancel → abort"))
        let full = DOTRenderer(detail: .full).render(spec)
        #expect(full.contains(dotLine("❐ pay: Payment(amount: total)") + "<br/>" + dotLine("cancel → abort")))
        #expect(MermaidRenderer().render(spec).contains("\n    paying : ❐ pay#58; Payment\n"))
        #expect(MermaidRenderer(detail: .full).render(spec).contains(
            "\n    paying : ❐ pay#58; Payment(amount#58; total)\n    paying : cancel → abort\n"))
    }

    @Test func anOnErrorEventsArrowStartsWithAnExclamationMark() throws {
        let spec = try exampleSpec("Checkout")
        let dot = DOTRenderer().render(spec)
        #expect(dot.contains(##""shipped" -> "reconnecting" [label=<<b>! trackingLost</b><br align="left"/>/ problem = event.error<br align="left"/>>, color="#0969da", fontcolor="#0969da"];"##))
        #expect(dot.contains("<b>! imageFailed</b>"))
        // Other results of effects read as before.
        #expect(dot.contains("<b>delivery</b>"))
        let mermaid = MermaidRenderer().render(spec)
        #expect(mermaid.contains("\n    shipped --> reconnecting : ! trackingLost / problem = event.error\n"))
        #expect(mermaid.contains("<br/>! imageFailed / "))
    }

    @Test func aNamedDelayShowsItsExpressionAtFullDetail() throws {
        let spec = try exampleSpec("Checkout")
        #expect(DOTRenderer().render(spec).contains(##""reconnecting" -> "shipped" [label=<<b>after backoff</b><br align="left"/>>, color="#9a6700", fontcolor="#9a6700"];"##))
        #expect(DOTRenderer(detail: .full).render(spec).contains("<b>after backoff = .seconds(1 &lt;&lt; min(attempt, 6))</b>"))
        #expect(MermaidRenderer().render(spec).contains("\n    reconnecting --> shipped : after backoff\n"))
        #expect(MermaidRenderer(detail: .full).render(spec).contains(
            "\n    reconnecting --> shipped : after backoff = .seconds(1 #60;#60; min(attempt, 6))\n"))
        // A literal delay stays as written at every level.
        #expect(MermaidRenderer(detail: .full).render(try exampleSpec("TrafficLight")).contains(" : after 5s\n"))
    }

    /// The shapes no example has: a set of streams, a child without input or `onDone:` (it sends
    /// nothing, so it is grey), an effect whose only result is its failure (it sends, so blue).
    @Test func rarerShapesFollowTheSameRules() {
        let set = EffectSpec(
            name: located("follow"), states: [located("a")], request: RequestSpec(type: located("URL"), value: located("feeds")),
            emits: [located("post")], isSet: true, isStream: true)
        let child = EffectSpec(
            name: located("timer"), states: [located("a")], request: nil, emits: [],
            child: ChildMachine(machine: located("Countdown"), forward: [NameMapping(from: located("stop"), to: located("halt"))]))
        let failing = EffectSpec(
            name: located("save"), states: [located("a")], request: RequestSpec(type: located("Int"), value: located("n")),
            emits: [], onError: located("saveFailed"))
        for detail in DiagramDetail.allCases {
            #expect(DiagramModel.Effect(set, detail: detail).lines == ["⇶ follow ∀ feeds"])
        }
        #expect(DiagramModel.Effect(child, detail: .standard).lines == ["❐ timer: Countdown"])
        #expect(DiagramModel.Effect(child, detail: .full).lines == ["❐ timer: Countdown", "stop → halt"])
        #expect(!DiagramModel.Effect(child, detail: .full).sendsEvents)
        #expect(DiagramModel.Effect(failing, detail: .full).lines == ["⟳ save(n)"])
        #expect(DiagramModel.Effect(failing, detail: .full).sendsEvents)
    }

    /// Every line of every effect reads the same in both formats, at every level.
    @Test(arguments: DiagramDetail.allCases)
    func effectLinesAreTheSameTextInDOTAndMermaid(detail: DiagramDetail) throws {
        for name in ["Checkout", "Payment"] {
            let spec = try exampleSpec(name)
            let dot = DOTRenderer(detail: detail).render(spec)
            let mermaid = MermaidRenderer(detail: detail).render(spec)
            for effect in spec.effects {
                for line in DiagramModel.Effect(effect, detail: detail).lines {
                    #expect(dot.contains(">\(DOTText.html(line))</font>"), "\(line) is not in the DOT")
                    #expect(mermaid.contains(" : \(MermaidText.label(line))\n"), "\(line) is not in the Mermaid")
                }
            }
        }
    }

    /// Real Graphviz, in both picture formats, without a single warning, showing each shape.
    @Test(.enabled(if: dotIsInstalled, "Graphviz `dot` is not installed (apt-get install graphviz / brew install graphviz)"),
          arguments: DiagramDetail.allCases)
    func checkoutRendersWithoutWarningsShowingEveryShape(detail: DiagramDetail) throws {
        let dot = DOTRenderer(detail: detail).render(try exampleSpec("Checkout"))
        try expectDotRendersWithoutWarnings(dot)
        let lines = svgTextLines(try Graphviz().render(dot, format: .svg))
        let full = detail == .full
        for line in [
            "⟳ loadImage ∀ images", full ? "⟳ holdStock(total)" : "⟳ holdStock",
            full ? "❐ pay: Payment(amount: total)" : "❐ pay: Payment", full ? "⇶ trackDelivery(receipt)" : "⇶ trackDelivery",
            "! trackingLost", "! imageFailed", full ? "after backoff = .seconds(1 << min(attempt, 6))" : "after backoff",
        ] {
            #expect(lines.contains(line), "\(line) is not drawn")
        }
        #expect(lines.contains("cancel → abort") == full)
    }
}

/// A child's events to its parent (Docs/Effects.md E70, E71): the child's action, and the parent's
/// `events:` under its child machine at full detail.
@Suite struct ChildEventDiagramTests {
    static let child = """
        machine: Upload
        events: {chunk: {}, progress: {percent: Int}}
        ignore: [progress]
        initial: sending
        states:
          sending:
            on: {chunk: {do: [{send: {event: progress, to: parent, percent: "1"}}]}}
        """
    static let parent = """
        machine: Editor
        events: {start: {}, progressed: {from: effects, percent: Int}}
        initial: idle
        states:
          idle: {on: {start: uploading}}
          uploading: {on: {progressed: idle}, ignore: [start]}
        effects:
          transfer: {in: [uploading], machine: Upload, events: {progress: progressed}}
        """

    @Test("E70: a send to the parent is drawn as one, its payload at standard detail")
    func aSendToTheParentIsDrawn() throws {
        let spec = try #require(SpecLoader.load(contents: Array(Self.child.utf8), path: "Upload.machine.yml").spec)
        #expect(DOTRenderer().render(spec).contains("<b>chunk</b><br align=\"left\"/>/ send progress(percent: 1) to parent"))
        #expect(DOTRenderer(detail: .compact).render(spec).contains("<b>chunk</b><br align=\"left\"/>/ send progress to parent"))
        #expect(MermaidRenderer().render(spec).contains("chunk / send progress(percent#58; 1) to parent"))
    }

    @Test("E71: the child events a parent takes are listed under its child machine at full detail")
    func theEventsAParentTakesAreListedAtFullDetail() throws {
        let library = MachineLibrary([try #require(SpecLoader.decode(contents: Array(Self.child.utf8), path: "Upload.machine.yml"))])
        let spec = try #require(SpecLoader.load(contents: Array(Self.parent.utf8), path: "Editor.machine.yml", library: library).spec)
        #expect(!MermaidRenderer().render(spec).contains("progress ↑ progressed"))
        #expect(MermaidRenderer(detail: .full).render(spec).contains("\n    uploading : ❐ transfer#58; Upload\n    uploading : progress ↑ progressed\n"))
    }
}
