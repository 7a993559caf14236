import Testing

/// How the active states (Docs/Statecharts.md S90, S91), events, calls and runs (Docs/Effects.md E64)
/// print: as the spec names them, with no module or type names, through `print`, interpolation
/// and `debugPrint` alike.
@Suite struct DescriptionTests {
    @Test("S90: a leaf prints its name, a composite its name and its active child")
    func modePrintsTheActiveStatesByTheirSpecNames() {
        #expect("\(Counter.Mode.counting)" == "counting")
        #expect("\(Player.Mode.stopped)" == "stopped")
        #expect("\(Player.Mode.active(.paused))" == "active(paused)")
        #expect(String(reflecting: Player.Mode.active(.paused)) == "active(paused)")
        #expect(Player.Mode.allCases.map(\.description) == ["stopped", "active(playing)", "active(paused)", "done", "off"])
    }

    @Test("S91: a parallel state prints its regions, each with its active state")
    func aParallelStatePrintsItsRegions() {
        #expect("\(Upload.Mode.working(.init(transfer: .sending, checksum: .hashing)))" == "working(transfer: sending, checksum: hashing)")
        #expect("\(DeepParallel.Mode.par(.init(a: .a2, b: .b1)))" == "par(a: a2, b: b1)")
    }

    @Test("S90: a state prints its mode briefly inside its own description")
    func aStatePrintsItsModeBriefly() {
        let text = String(describing: Upload.State.initial)
        #expect(text.contains("mode: working(transfer: sending, checksum: hashing)"), "\(text)")
    }

    @Test("E64: a call or a run prints as the spec names the effect, its request as debugPrint shows it, a child's input by its fields")
    func callsAndRunsPrintByTheirEffectNames() {
        #expect("\(Checkout.Call.holdStock(42))" == "holdStock(42)")
        #expect("\(Checkout.Call.trackDelivery("R42"))" == "trackDelivery(\"R42\")")
        #expect("\(Checkout.Call.pay(Payment.Input(amount: 42)))" == "pay(amount: 42)")
        #expect("\([Player.Run.saveSession(1)])" == "[saveSession(1)]")
        #expect("\([Player.Call.saveSession(1)])" == "[saveSession(1)]")
    }

    @Test("E64: an event prints as the spec names it, its payload as debugPrint shows it, in an array and forwarded too")
    func eventsPrintByTheirSpecNames() {
        #expect("\([Payment.Event.abort, .authorized(receipt: "R1")])" == "[abort, authorized(receipt: \"R1\")]")
        #expect("\([Checkout.Forwarded.pay(.abort)])" == "[pay(abort)]")
    }
}
