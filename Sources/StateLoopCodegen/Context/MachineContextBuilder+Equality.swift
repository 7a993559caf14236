import StateLoopSpec

// `==` written out for the types that hold the spec's types: `State` (its context fields), `Input`,
// `Event` and the effects' result enums (payload fields). A type swiftc cannot find (`type: Innt`)
// is reported once, at its YAML line, by its alias (MachineContextBuilder+Types.swift); the alias
// is then an error type, which a synthesized `Equatable` would report again in the generated file
// ("type 'State' does not conform to protocol 'Equatable'"), while swiftc stays silent about an
// expression that compares values of an error type (issue 20, item 15). Types without a spec type
// keep the synthesized `==`, which cannot fail.

extension MachineContextBuilder {
    /// `static func ==` of a struct: equal when every stored property in `properties` is. The list
    /// must name every stored property of the struct. Printed as a member of a type at `level`.
    func structEquality(_ type: String, properties: [String], level: Int = 2) -> [String] {
        guard let last = properties.last else { return [] }
        var out = SwiftPrinter(placement: placement, level: level)
        out.line("")
        out.line("/// Equal when every field is (`Equatable`).")
        out.block("\(access.prefix)static func == (lhs: \(type), rhs: \(type)) -> Swift.Bool {") { out in
            for property in properties.dropLast() { out.line("guard lhs.\(property) == rhs.\(property) else { return false }") }
            out.line("return lhs.\(last) == rhs.\(last)")
        }
        return out.finished()
    }

    /// `static func ==` of an enum whose cases are `events` (then `extra`, escaped name and payload
    /// arity): equal when both are the same case with equal payloads. None when no case has a
    /// payload. Printed as a member of a type at `level`.
    func enumEquality(_ type: String, events: [EventSpec], extra: [(name: String, arity: Int)] = [], level: Int = 2) -> [String] {
        guard events.contains(where: { !$0.payload.isEmpty }) else { return [] }
        return enumEquality(type, cases: events.map { (name: SwiftName.escaped($0.name.value), arity: $0.payload.count) } + extra, level: level)
    }

    /// `static func ==` of an enum of `cases` (escaped name and payload arity), at `level`; none
    /// when no case has a payload.
    func enumEquality(_ type: String, cases: [(name: String, arity: Int)], level: Int) -> [String] {
        guard cases.contains(where: { $0.arity > 0 }) else { return [] }
        var out = SwiftPrinter(placement: placement, level: level)
        out.line("")
        out.line("/// Equal when both are the same case with equal payloads (`Equatable`).")
        out.block("\(access.prefix)static func == (lhs: \(type), rhs: \(type)) -> Swift.Bool {") { out in
            out.switchBlock("lhs") { out in
                for (name, arity) in cases {
                    func pattern(_ side: String) -> String {
                        arity == 0 ? ".\(name)" : ".\(name)(\((0..<arity).map { "let _\(side)\($0)" }.joined(separator: ", ")))"
                    }
                    out.block("case \(pattern("l")):", closing: nil) { out in
                        out.line("guard case \(pattern("r")) = rhs else { return false }")
                        for index in 0..<max(arity - 1, 0) { out.line("guard _l\(index) == _r\(index) else { return false }") }
                        out.line("return " + (arity == 0 ? "true" : "_l\(arity - 1) == _r\(arity - 1)"))
                    }
                }
            }
        }
        return out.finished()
    }
}
