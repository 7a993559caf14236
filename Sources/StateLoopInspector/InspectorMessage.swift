// InspectorMessage: the wire's messages (Docs/Inspector.md I1-I22, I78), one JSON object per text frame.
//
// Written by hand, without Foundation: the objects are flat and few, and the inspector library
// must link nothing but the runtime.

/// One message of the wire, ready to be written as a JSON object.
enum InspectorMessage: Sendable {
    case hello(instance: String, machine: String, spec: String, fingerprint: String, parent: String?, journalVersion: Int?)
    case step(instance: String, seq: Int, time: Double, event: String?, branches: [(id: Int, line: Int)], state: String, configuration: [String])
    case run(instance: String, seq: Int, phase: String, effect: String, key: String)
    case timer(instance: String, seq: Int, phase: String, name: String, deadline: Double)
    case child(instance: String, seq: Int, phase: String, child: String)
    case dropped(instance: String, count: Int)
    case mismatch(instance: String, seq: Int, recorded: String, replayed: String)
    case invariant(instance: String, seq: Int, name: String, expression: String, state: String?, line: Int, column: Int)
    case bye(instance: String)

    /// The version of the wire a `hello` announces.
    static let protocolVersion = 1

    /// The message as one line of JSON, keys in the contract's order.
    var json: String {
        var object = JSONObject()
        switch self {
        case .hello(let instance, let machine, let spec, let fingerprint, let parent, let journalVersion):
            object.add("type", string: "hello")
            object.add("protocol", raw: String(Self.protocolVersion))
            object.add("instance", string: instance)
            object.add("machine", string: machine)
            object.add("spec", string: spec)
            object.add("fingerprint", string: fingerprint)
            object.add("parent", string: parent)
            object.add("journalVersion", raw: journalVersion.map(String.init) ?? "null")
        case .step(let instance, let seq, let time, let event, let branches, let state, let configuration):
            object.add("type", string: "step")
            object.add("instance", string: instance)
            object.add("seq", raw: String(seq))
            object.add("time", raw: milliseconds(time))
            object.add("event", string: event)
            object.add("branches", raw: "[" + branches.map { #"{"id":\#($0.id),"line":\#($0.line)}"# }.joined(separator: ",") + "]")
            object.add("state", string: state)
            object.add("configuration", raw: JSONText.array(configuration))
        case .run(let instance, let seq, let phase, let effect, let key):
            object.add("type", string: "run")
            object.add("instance", string: instance)
            object.add("seq", raw: String(seq))
            object.add("phase", string: phase)
            object.add("effect", string: effect)
            object.add("key", string: key)
        case .timer(let instance, let seq, let phase, let name, let deadline):
            object.add("type", string: "timer")
            object.add("instance", string: instance)
            object.add("seq", raw: String(seq))
            object.add("phase", string: phase)
            object.add("name", string: name)
            object.add("deadline", raw: milliseconds(deadline))
        case .child(let instance, let seq, let phase, let child):
            object.add("type", string: "child")
            object.add("instance", string: instance)
            object.add("seq", raw: String(seq))
            object.add("phase", string: phase)
            object.add("child", string: child)
        case .dropped(let instance, let count):
            object.add("type", string: "dropped")
            object.add("instance", string: instance)
            object.add("count", raw: String(count))
        case .mismatch(let instance, let seq, let recorded, let replayed):
            object.add("type", string: "mismatch")
            object.add("instance", string: instance)
            object.add("seq", raw: String(seq))
            object.add("recorded", string: recorded)
            object.add("replayed", string: replayed)
        case .invariant(let instance, let seq, let name, let expression, let state, let line, let column):
            object.add("type", string: "invariant")
            object.add("instance", string: instance)
            object.add("seq", raw: String(seq))
            object.add("name", string: name)
            object.add("expression", string: expression)
            object.add("state", string: state)
            object.add("line", raw: String(line))
            object.add("column", raw: String(column))
        case .bye(let instance):
            object.add("type", string: "bye")
            object.add("instance", string: instance)
        }
        return object.text + "}"
    }

    /// Milliseconds with three decimals (a microsecond), always a valid JSON number.
    private func milliseconds(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let micros = (value * 1000).rounded()
        let whole = Int(micros) / 1000
        let fraction = abs(Int(micros) % 1000)
        let padded = String(fraction)
        return (micros < 0 && whole == 0 ? "-" : "") + "\(whole)." + String(repeating: "0", count: 3 - padded.count) + padded
    }
}

/// A JSON object written key by key.
private struct JSONObject {
    var text = "{"
    var isEmpty = true

    mutating func add(_ key: String, raw value: String) {
        if !isEmpty { text += "," }
        isEmpty = false
        text += JSONText.quoted(key) + ":" + value
    }

    mutating func add(_ key: String, string value: String?) {
        add(key, raw: value.map(JSONText.quoted) ?? "null")
    }
}

/// JSON text written by hand, for the app's messages and the server's additions to them: what
/// Foundation's `JSONSerialization` writes, without its casts of every value (at 10,000 messages
/// a second, a third of the server's time went to writing each step's diff through it).
package enum JSONText {
    /// `value` as a JSON string: quotes, backslashes and control characters escaped (RFC 8259 §7).
    package static func quoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `strings` as a JSON array of strings.
    package static func array(_ strings: [String]) -> String {
        "[" + strings.map(quoted).joined(separator: ",") + "]"
    }
}
