/// `send:` and `cancel:` actions (S126–S132): a send names an event anyone may send with exactly
/// its payload, as a raise does, waits for a duration or a delay of `delays:`, and `cancel:` names
/// the id of some `send:`.
extension SpecChecker {
    func checkSends(_ spec: MachineSpec, into findings: inout Findings) {
        let events = Dictionary(spec.events.map { ($0.name.value, $0) }, uniquingKeysWith: { first, _ in first })
        let actions = spec.actions(tree: findings.tree)
        let delays = spec.delays.map(\.field.value)
        var ids: [String] = []
        for case .send(let send) in actions {
            checkEventToSelf("send", send.event, send.payload, at: send.location, events: events, reserved: ["event", "delay", "id", "to"], into: &findings)
            if let delay = send.delay, send.milliseconds == nil {
                checkKnown(delay, among: delays, known: Set(delays), "'send: \(send.event.value)' waits for '\(delay.value)', which is neither a duration nor a delay", declare: "'delays:'", into: &findings)
            }
            if let id = send.id, !ids.contains(id.value) { ids.append(id.value) }
        }
        for case .cancel(let id, _) in actions {
            guard !ids.contains(id.value) else { continue }
            let closest = findings.closest(to: id.value, among: ids)
            findings.error(
                "'cancel: \(id.value)' names no send: no 'send:' has 'id: \(id.value)'", at: id.location,
                fixIt: closest.map { "did you mean '\($0)'?" } ?? (ids.isEmpty ? "give the 'send:' to cancel an 'id: \(id.value)'" : "cancel one of \(ids.joined(separator: ", "))"))
        }
    }
}
