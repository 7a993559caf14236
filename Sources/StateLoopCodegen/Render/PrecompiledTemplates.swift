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
        var out = """

            /// The reducer: the transition the current state takes on `event`. Pure; switches on the
            /// mode, then on the event, without `default:`, so a missing case does not compile.
            // One function per state: swiftc's mandatory passes take more than linear time in the size
            // of a function, so one switch over every (state, event) pair compiles slowly on large machines.

        """
        out += "    \(context.access)static func reduce(_ state: inout State, _ event: Event) {\n        switch state.mode {\n"
        for mode in context.reducerModes {
            out += "        case .\(mode.mode): \(mode.function)(&state, event)\n"
        }
        out += "        }\n    }\n"
        for mode in context.reducerModes {
            out += "\n    /// `reduce` in state `\(mode.mode)`.\n"
            out += "    private static func \(mode.function)(_ state: inout State, _ event: Event) {\n        switch event {\n"
            for reducerCase in mode.cases {
                out += "        "
                out += reducerCase.pattern
                out += "\n"
                for line in reducerCase.body {
                    out += "            "
                    out += line
                    out += "\n"
                }
            }
            out += "        }\n    }\n"
        }
        return out
    }
}
