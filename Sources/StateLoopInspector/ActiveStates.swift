// ActiveStates: a state's active configuration as the spec names it, for the `configuration` of
// a step (I4): read from the text every generated `Mode` prints (Statecharts.md S90, S91).

/// The active states of a generated machine's state, outermost first.
package enum ActiveStates {
    /// Every active state of `state` (leaves and their ancestors, parallel regions included) by
    /// its spec name, outermost first: `working(transfer: sending, checksum: hashing)` gives
    /// `working, transfer, sending, checksum, hashing`. Empty for a state without a `mode`.
    static func names(of state: Any) -> [String] {
        guard let mode = Mirror(reflecting: state).children.first(where: { $0.label == "mode" }) else { return [] }
        return names(in: String(describing: mode.value))
    }

    /// The names in the text of a `Mode`: `name`, `name(child)`, `name(region: child, ...)`.
    package static func names(in text: String) -> [String] {
        var parser = Parser(text: Array(text.unicodeScalars))
        var names: [String] = []
        parser.configuration(into: &names)
        return names
    }

    private struct Parser {
        let text: [Unicode.Scalar]
        var index = 0

        /// `name` and, in parentheses, its active child or its regions.
        mutating func configuration(into names: inout [String]) {
            let name = identifier()
            if !name.isEmpty { names.append(name) }
            guard take("(") else { return }
            repeat {
                skipSpaces()
                let start = index
                let first = identifier()
                if take(":") {
                    // A region and its active state.
                    names.append(first)
                    skipSpaces()
                    configuration(into: &names)
                } else {
                    index = start
                    configuration(into: &names)
                }
            } while take(",")
            _ = take(")")
        }

        private mutating func identifier() -> String {
            var name = ""
            while index < text.count, text[index] != "(", text[index] != ")", text[index] != ",", text[index] != ":", text[index] != " " {
                name.unicodeScalars.append(text[index])
                index += 1
            }
            return name
        }

        private mutating func take(_ scalar: Unicode.Scalar) -> Bool {
            guard index < text.count, text[index] == scalar else { return false }
            index += 1
            return true
        }

        private mutating func skipSpaces() {
            while index < text.count, text[index] == " " { index += 1 }
        }
    }
}
