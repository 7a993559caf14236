/// The checks on a decoded spec, each reported at the YAML line and column it is about:
///
/// - names are usable in Swift and do not clash with generated members (`SpecChecker+Names`);
/// - every name refers to something: targets, the initial state, events, fields, effect states
///   (`SpecChecker+References`);
/// - every event is handled or ignored in every state, effect results wherever their effect can
///   run (`SpecChecker+Coverage`);
/// - every branch can be taken (`SpecChecker+Branches`), every state can be reached
///   (`SpecChecker+Reachability`).
///
/// The checks read the spec only; they never stop early, so one run reports everything.
public struct SpecChecker: Sendable {
    public init() {}

    /// Every problem of `spec`, in the order the checks find them (the loader sorts).
    public func check(_ spec: MachineSpec) -> [Diagnostic] {
        var findings = Findings(spec: spec)
        checkNames(spec, into: &findings)
        checkReferences(spec, into: &findings)
        checkCoverage(spec, into: &findings)
        checkBranches(spec, into: &findings)
        checkReachability(spec, into: &findings)
        return findings.diagnostics
    }
}

/// The diagnostics found so far, and the name tables every check looks things up in.
struct Findings {
    var diagnostics: [Diagnostic] = []
    let stateNames: [String]
    let eventNames: [String]
    let fieldNames: [String]
    let events: [String: EventSpec]

    init(spec: MachineSpec) {
        stateNames = spec.states.map(\.name.value)
        eventNames = spec.events.map(\.name.value)
        fieldNames = spec.context.map(\.name.value)
        events = Dictionary(spec.events.map { ($0.name.value, $0) }, uniquingKeysWith: { first, _ in first })
    }

    mutating func error(_ message: String, at location: SourceLocation, notes: [Diagnostic.Note] = [], fixIt: String? = nil) {
        diagnostics.append(.error(message, at: location, notes: notes, fixIt: fixIt))
    }

    mutating func warning(_ message: String, at location: SourceLocation, notes: [Diagnostic.Note] = [], fixIt: String? = nil) {
        diagnostics.append(.warning(message, at: location, notes: notes, fixIt: fixIt))
    }
}
