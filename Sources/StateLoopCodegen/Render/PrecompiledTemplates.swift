// The built-in templates of the large, repeated parts of the output, compiled by hand into Swift.
// Through Mustache, a 500-state machine's reducer took about half a second to print (a dynamic
// lookup and cast per tag, 25,000 cases); here it is string appends. Each function prints exactly
// what its template prints (PrecompiledTemplatesTests renders every golden spec both ways and
// compares bytes), and is used only while that template is not overridden: a user's own
// `Reducer.mustache` is rendered by Mustache like any other template.

/// Swift twins of built-in templates, by template name.
enum PrecompiledTemplates {
    /// Template name -> a function printing that template's output for a context.
    static let all: [String: @Sendable (MachineContext) -> String] = [
        "StateMembers": stateMembers,
        "Reducer": reducer,
    ]

    /// `Templates/StateMembers.mustache`.
    @Sendable static func stateMembers(_ context: MachineContext) -> String {
        var out = ""
        for member in context.members {
            out += "\n        /// "
            out += member.doc
            out += "\n        "
            out += member.declaration
            out += "\n"
            for line in member.body {
                out += line
                out += "\n"
            }
        }
        return out
    }

    /// `Templates/Reducer.mustache`.
    @Sendable static func reducer(_ context: MachineContext) -> String {
        // About 120 bytes a case: reserved once, the appends below never copy what they wrote.
        var out = ""
        out.reserveCapacity(128 * context.reducerModes.reduce(0) { $0 + $1.cases.count })
        out += """

                    /// One step of `reduce`: `self` is the state before `event`, `_next` the state after it, so
                    /// the spec's expressions, which name fields bare, read the old state. `_trace` is told each
                    /// branch taken; untraced, it is `_NoTrace` and the specialised code does not mention it.
                    // One method per state: swiftc's mandatory passes take more than linear time in the size
                    // of a function, so one switch over every (state, event) pair compiles slowly on large machines.
                    fileprivate func _reduce<_R: StateLoop._TransitionRecorder>(_ _event: Event, _ _next: inout State, _ _trace: inout _R)
            """
        out += context.reducerReturn
        out += " {\n            switch mode {\n"
        for line in context.dispatch {
            out += line
            out += "\n"
        }
        out += "            }\n        }\n"
        for mode in context.reducerModes {
            out += "\n        /// `reduce` in state `\(mode.mode)`.\n"
            out += "        private func \(mode.function)<_R: StateLoop._TransitionRecorder>(_ _event: Event, _ _next: inout State, _ _trace: inout _R)\(context.reducerReturn) {\n            switch _event {\n"
            for reducerCase in mode.cases {
                out += "            "
                out += reducerCase.pattern
                out += "\n"
                for line in reducerCase.body {
                    out += line
                    out += "\n"
                }
            }
            out += "            }\n        }\n"
        }
        return out
    }
}
