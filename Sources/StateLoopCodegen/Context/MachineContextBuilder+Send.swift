import StateLoopSpec

// `send:` and `cancel:` (S126–S135): `State.pendingSends` (each an `Event.Send` with its number,
// id, event and delay), the `_send` member the actions call, `Event._send(n)` that delivers the
// send numbered `n`, its handling at the top of `reduce`, the `timers` feedback that feeds the
// deliveries back through the clock, and `sends(in:)` for the harness and the durable system.
// Nothing here is printed for a spec without `send:`.

extension MachineContextBuilder {
    /// `case _send(Swift.Int)` and `struct Send`, inside `Event`.
    func sendLines() -> [String] {
        guard flags.sends else { return [] }
        let p = access.prefix
        return """
                    /// The pending send numbered so is due: its event comes back (S133). Sent by the machine's own feedback, not by you.
                    case \(GeneratedNames.sendCase)(Swift.Int)

                    /// A `send:` not yet delivered nor cancelled (S127): its delay counts from the step that sent it.
                    \(p)struct Send: StateLoop.PendingSend {
                        /// How many sends ran before it since the start.
                        \(p)var number: Swift.Int
                        /// Its `id:`, which `cancel:` names.
                        \(p)var id: Swift.String?
                        /// The event it carries.
                        \(p)var event: Event
                        /// How long after the step that sent it the event comes back.
                        \(p)var delay: Swift.Duration

                        \(p)init(number: Swift.Int, id: Swift.String?, event: Event, delay: Swift.Duration) {
                            self.number = number
                            self.id = id
                            self.event = event
                            self.delay = delay
                        }
                    }
            """.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The feedback that arms a timer per pending send and feeds `_send(n)` back when it is due (S133).
    func sendFeedbackLines() -> [String] {
        guard flags.sends else { return [] }
        return """
                        .timers(
                            requests: { state in Swift.Set(state.pendingSends.map { StateLoop.SendTimer(number: $0.number, delay: $0.delay) }) },
                            clock: clock,
                            delay: { $0.delay },
                            event: { .\(GeneratedNames.sendCase)($0.number) }
                        ),
            """.split(separator: "\n").map(String.init)
    }

    /// `_send(_:id:after:)`: queues a send, replacing a pending one with the same id (S127, S129).
    mutating func makeSendMember() {
        var body = memberPrinter()
        body.line("if let id { pendingSends.removeAll { $0.id == id } }")
        body.line("pendingSends.append(.init(number: _sends, id: id, event: event, delay: delay))")
        body.line("_sends &+= 1")
        addMember(
            doc: "Queues `event` to come back after `delay`; a pending send with the same id is dropped (S127, S129).",
            declaration: "fileprivate mutating func _send(_ event: Event, id: Swift.String?, after delay: Swift.Duration)",
            body: body)
    }

    /// The rest of `reduce` in a machine that sends (S133, S134): an event from outside is one
    /// step; `_send(n)` of a send no longer pending changes nothing; else every send sent before it
    /// with a delay no longer, which is due no later, takes its step first, in the order sent, each
    /// leaving `pendingSends` before its step; then the send itself. A loop, not a recursion: the
    /// steps of one call all report into the same `runs`, `forwarded` and `toParent`, and a
    /// thousand sends due together take no thousand frames; `PendingSends.removeDue(through:)`
    /// takes each off the front of the queue, so they take time linear in their number too.
    func deliveryLines(into out: inout SwiftPrinter) {
        out.line("guard case .\(GeneratedNames.sendCase)(let _number) = event else { return state._step(event, &trace) }")
        out.block("while let _first = state.pendingSends.removeDue(through: _number) {") { out in
            out.line("state._step(_first.event, &trace)")
            out.line("if _first.number == _number { return }")
        }
    }

    /// `sends(in:)` of the `StateMachine` conformance: every pending send with its delivery.
    func printSends(into out: inout SwiftPrinter) {
        guard flags.sends else { return }
        out.line("/// Every `send:` pending in `state`, in the order they were sent, with the event that delivers it (S127).")
        out.block("\(access.prefix)static func sends(in state: State) -> [StateLoop.ArmedSend<Event>] {") { out in
            out.line("state.pendingSends.map { .init(number: $0.number, id: $0.id, delay: $0.delay, event: $0.event, delivery: .\(GeneratedNames.sendCase)($0.number)) }")
        }
        out.line("")
    }
}
