import Foundation
import StateLoopSpec
import Testing
@testable import StateLoopDiagram

/// What the pictures say about a machine, in both formats: which branches are arrows, how
/// labels read, what each detail level adds.
@Suite struct DiagramContentTests {
    static let counter = """
        machine: Counter
        context:
          count: {type: Int, default: "0"}
        events:
          increment: {}
          decrement: {}
          reset: {}
        ignore: [reset]
        initial: counting
        states:
          counting:
            on:
              increment: {set: {count: count + 1}}
              decrement:
                - {guard: "count > 0", set: {count: count - 1}}
                - ignore
        """

    @Test func initialStateIsMarkedByAnArrowFromAPoint() throws {
        let spec = try loadSpec(yaml: Self.counter)
        let dot = DOTRenderer().render(spec)
        #expect(dot.contains(#"    "__start" [shape=point"#))
        #expect(dot.contains(#"    "__start" -> "counting";"#))
        #expect(MermaidRenderer().render(spec).contains("\n    [*] --> counting\n"))
    }

    @Test func startMarkerAvoidsAStateNamedLikeIt() {
        let spec = handBuiltSpec(states: [StateSpec(name: located("__start"))])
        let dot = DOTRenderer().render(spec)
        #expect(dot.contains(#"    "__start_" -> "__start";"#))
    }

    @Test func layoutRunsLeftToRight() throws {
        let spec = try loadSpec(yaml: Self.counter)
        #expect(DOTRenderer().render(spec).contains("rankdir=LR"))
        #expect(MermaidRenderer().render(spec).contains("\n    direction LR\n"))
    }

    @Test func internalTransitionsAreSelfLoopsAndAnElseIgnoreIsNoArrow() throws {
        let spec = try loadSpec(yaml: Self.counter)
        let mermaid = MermaidRenderer().render(spec)
        let transitions = mermaid.split(separator: "\n").filter { $0.contains(" --> ") && !$0.contains("[*]") }
        // Mermaid draws one loop per state, labelled by the last arrow only: one arrow carries
        // both labels, a line each.
        #expect(transitions == [
            "    counting --> counting : increment / count = count + 1<br/>decrement [count #62; 0] / count = count - 1",
        ])
        // DOT draws both loops as one loop through a text block beside the state.
        let dot = DOTRenderer().render(spec)
        #expect(dot.contains(#"    { rank=same; "counting"; "counting loops"; }"#))
        #expect(dot.contains(#"    "counting" -> "counting loops" [arrowhead=none];"#))
        #expect(dot.contains(#"    "counting loops" -> "counting";"#))
        #expect(dot.contains("<b>increment</b>"))
        #expect(dot.contains("[count &gt; 0]"))
        #expect(dot.contains("/ count = count - 1"))
    }

    @Test func unguardedBranchAfterGuardedOnesReadsElse() throws {
        let spec = try exampleSpec("SignIn")
        let mermaid = MermaidRenderer().render(spec)
        #expect(mermaid.contains("    editing --> submitting : submitted [else] / error = nil\n"))
        #expect(mermaid.contains(#"submitted [!email.contains(#quot;@#quot;)] / error = #quot;Enter a valid email address.#quot;"#))
        #expect(DOTRenderer().render(spec).contains("<b>submitted</b><br align=\"left\"/>[else]<br align=\"left\"/>/ error = nil"))
    }

    @Test func branchesAfterAnUnconditionalOneAreNotDrawn() {
        var idle = StateSpec(name: located("idle"))
        idle.on = [EventHandler(event: located("go"), branches: [
            transition(to: "a"), transition(to: "b", guard: "never"), .ignore(here),
        ])]
        let spec = handBuiltSpec(states: [idle, StateSpec(name: located("a")), StateSpec(name: located("b"))])
        let mermaid = MermaidRenderer().render(spec)
        #expect(mermaid.contains("    idle --> a : go\n"))
        #expect(!mermaid.contains("idle --> b"))
        #expect(!DOTRenderer().render(spec).contains(#""idle" -> "b""#))
    }

    @Test func effectsAppearOnTheStatesWhereTheyRunAndTheirResultsInBlue() throws {
        let spec = try exampleSpec("GitHubSearch")
        let dot = DOTRenderer().render(spec)
        #expect(dot.contains(##"    "loading" [label=<<b>loading</b><br/><font point-size="10" color="#0969da">⟳ loadNextPage</font>>];"##))
        #expect(dot.contains(#"    "idle" [label=<<b>idle</b>>];"#))
        // `loaded` and `failed` are sent only by the effect: blue like it. `searchChanged` is not.
        let arrows = dot.split(separator: "\n").filter { $0.contains(" -> ") }
        #expect(arrows.filter { $0.contains("color=\"#0969da\"") }.count == 2)
        #expect(arrows.contains { $0.hasPrefix(#"    "loading" -> "ready" [label=<<b>loaded</b>"#) && $0.contains("#0969da") })
        #expect(MermaidRenderer().render(spec).contains("\n        loading : ⟳ loadNextPage\n"))  // inside searching
    }

    @Test func timersAreArrowsLabelledAfterTheirDelay() throws {
        let spec = try exampleSpec("TrafficLight")
        let mermaid = MermaidRenderer().render(spec)
        #expect(mermaid.contains("    red --> green : after 4s / cycles = cycles + 1\n"))
        #expect(mermaid.contains("    yellow --> red : after 1s\n"))
        #expect(DOTRenderer().render(spec).contains(##"    "green" -> "yellow" [label=<<b>after 5s</b><br align="left"/>>, color="#9a6700", fontcolor="#9a6700"];"##))
    }

    @Test func detailLevelsDecideAssignmentsAndIgnoredEvents() throws {
        let spec = try loadSpec(yaml: Self.counter)
        let compact = MermaidRenderer(detail: .compact).render(spec)
        let standard = MermaidRenderer(detail: .standard).render(spec)
        let full = MermaidRenderer(detail: .full).render(spec)
        #expect(compact.contains("    counting --> counting : increment<br/>decrement [count #62; 0]\n"))
        #expect(!compact.contains(" / "))
        #expect(standard.contains(" / count = count - 1"))
        #expect(!standard.contains("ignores"))
        // The machine-wide ignore of `reset` and the else branch of `decrement` both count.
        #expect(full.contains("\n    counting : ignores decrement [else], reset\n"))
        #expect(DOTRenderer(detail: .full).render(spec).contains(">ignores: decrement [else],<br/>reset</font>"))
        #expect(!DOTRenderer(detail: .standard).render(spec).contains("ignores"))
    }

    @Test func fullDetailListsAStatesOwnIgnoresBeforeMachineWideOnes() throws {
        let spec = try loadSpec(yaml: """
            machine: Light
            events:
              pedestrianWaiting: {}
              powerFailed: {}
              powerRestored: {}
            ignore: [powerRestored]
            initial: red
            states:
              red:
                on:
                  powerFailed: {target: flashing}
                ignore: [pedestrianWaiting]
              flashing:
                on:
                  powerRestored: {target: red}
                ignore: [pedestrianWaiting, powerFailed]
            """)
        let mermaid = MermaidRenderer(detail: .full).render(spec)
        #expect(mermaid.contains("\n    red : ignores pedestrianWaiting, powerRestored\n"))
        // `flashing` handles powerRestored, so the machine-wide ignore does not apply there.
        #expect(mermaid.contains("\n    flashing : ignores pedestrianWaiting, powerFailed\n"))
    }

    @Test func withAMachineWideOnTheAnyStateNoteListsTheMachineWideIgnores() throws {
        let spec = try exampleSpec("TrafficLight")
        let mermaid = MermaidRenderer(detail: .full).render(spec)
        #expect(mermaid.contains("\n    any_state : ignores powerRestored\n"))
        #expect(mermaid.contains("\n    red : ignores pedestrianWaiting\n"))
        #expect(mermaid.contains("\n    flashing : ignores pedestrianWaiting, powerFailed\n"))
        #expect(mermaid.contains("\n    any_state --> flashing : powerFailed\n"))
    }

    @Test func finalStatesAreDoubleCirclesAndEndInTheFinalPseudostate() {
        let done = StateSpec(name: located("done"), kind: .final)
        var running = StateSpec(name: located("running"))
        running.on = [EventHandler(event: located("finish"), branches: [transition(to: "done")])]
        let spec = handBuiltSpec(states: [running, done])
        #expect(DOTRenderer().render(spec).contains(#"    "done" [label=<<b>done</b>>, shape=doublecircle, style=filled];"#))
        #expect(MermaidRenderer().render(spec).contains("\n    done --> [*]\n"))
    }

    @Test func outputStartsWithAGeneratedHeaderNamingTheSpecFileOnly() throws {
        let spec = try exampleSpec("Counter")
        #expect(DOTRenderer().render(spec).hasPrefix("// Generated by stateloop from Counter.machine.yml. Do not edit.\ndigraph \"Counter\" {\n"))
        #expect(MermaidRenderer().render(spec).hasPrefix("stateDiagram-v2\n    %% Generated by stateloop from Counter.machine.yml. Do not edit.\n"))
    }

    @Test(arguments: DiagramDetail.allCases)
    func outputIsByteStable(detail: DiagramDetail) throws {
        for file in try exampleSpecFiles() {
            let first = try loadSpec(at: file)
            let second = try loadSpec(at: file)
            #expect(DOTRenderer(detail: detail).render(first) == DOTRenderer(detail: detail).render(second))
            #expect(MermaidRenderer(detail: detail).render(first) == MermaidRenderer(detail: detail).render(second))
        }
    }

    @Test func longGuardsWrapOntoSeveralLines() {
        #expect(DOTText.wrap("[results.count > 10 && nextPageURL != nil && !isLoading]", width: 32) == [
            "[results.count > 10 &&", "nextPageURL != nil &&", "!isLoading]",
        ])
        #expect(DOTText.wrap("short", width: 32) == ["short"])
        #expect(DOTText.wrap("averyveryveryveryveryverylongwordthatcannotbreak x", width: 10) == ["averyveryveryveryveryverylongwordthatcannotbreak", "x"])
    }
}
