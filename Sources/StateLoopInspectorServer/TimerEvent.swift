// TimerEvent: a timer's event as the test harness spells it (Docs/Testing.md T7), for the page
// and the export (Docs/Inspector.md I74). The generated machine's timer event dumps as
// `._timer(Lamp.Event.Timer(state: .red, index: 0, entry: 3))`, whose `entry` is the reducer's
// bookkeeping that no test states; `receive(timer: .red)` is what a test writes.

enum TimerEvent {
    /// `timer: .red` (`, index: 1` when not the state's first timer) for the dump of a timer's
    /// event, nil for any other event.
    static func arguments(of event: String) -> String? {
        // Most events are not a timer's: a prefix test spares them the regex, at each step the store keeps (I62).
        guard event.hasPrefix("._timer("), let match = event.wholeMatch(of: /\._timer\([A-Za-z_][A-Za-z_0-9.]*\.Event\.Timer\(state: (\.[^,()]+), index: ([0-9]+), entry: [0-9]+\)\)/) else {
            return nil
        }
        return "timer: \(match.1)" + (match.2 == "0" ? "" : ", index: \(match.2)")
    }
}
