// InspectorDump: the text of states and events as they leave the process: `ValueDump`, with the
// fields the spec marks `redact: true` replaced by `<redacted>` (I21, I22).

import StateLoop

enum InspectorDump {
    /// `state` over several lines, its redacted fields hidden.
    static func state(_ state: Any, redacting fields: Set<String>) -> String {
        ValueDump.lines(of: state, redacting: fields).joined(separator: "\n")
    }

    /// `event` on one line; an event field named like a redacted context field is hidden too.
    static func event(_ event: Any, redacting fields: Set<String>) -> String {
        ValueDump.line(of: event, redacting: fields)
    }

    /// The effect's name and the run's key of a call: `.load(url)` gives `load` and the dump.
    static func call(_ call: Any, redacting fields: Set<String>) -> (effect: String, key: String) {
        let key = ValueDump.line(of: call, redacting: fields)
        let effect = key.dropFirst(key.hasPrefix(".") ? 1 : 0).prefix { $0 != "(" }
        return (String(effect), key)
    }
}
