/// The checks on a decoded spec, each reported at the YAML line and column it is about:
///
/// - names are usable in Swift and do not clash with generated members (`SpecChecker+Names`);
/// - embedded Swift cannot leave the place it is generated into (`SpecChecker+EmbeddedSwift`);
/// - every name refers to something: targets, the initial state, events, fields, effect states
///   (`SpecChecker+References`);
/// - every event is handled or ignored in every state, effect results wherever their effect can
///   run (`SpecChecker+Coverage`);
/// - every branch can be taken (`SpecChecker+Branches`), every state can be reached
///   (`SpecChecker+Reachability`).
///
/// The checks read the spec only; they never stop early, so one run reports everything.
public struct SpecChecker: Sendable {
    /// The largest number of states × events accepted. The generated reducer has a case per pair
    /// (10,000 pairs take the compiler about 6 s), and the coverage check visits every pair, so
    /// this bounds both.
    public var maximumStateEventPairs: Int

    /// A checker with the given bound on states × events.
    public init(maximumStateEventPairs: Int = 1_000_000) {
        self.maximumStateEventPairs = maximumStateEventPairs
    }

    /// Every problem of `spec`, in the order the checks find them (the loader sorts).
    public func check(_ spec: MachineSpec) -> [Diagnostic] {
        var findings = Findings(spec: spec)
        checkNames(spec, into: &findings)
        checkReferences(spec, into: &findings)
        checkEmbeddedSwift(spec, into: &findings)
        let pairs = spec.states.count.multipliedReportingOverflow(by: spec.events.count)
        if pairs.overflow || pairs.partialValue > maximumStateEventPairs {
            findings.error(
                "the machine has \(spec.states.count) states and \(spec.events.count) events, more than the \(maximumStateEventPairs) state-event pairs a generated reducer can hold",
                at: spec.name.location, fixIt: "split the machine into smaller machines")
        } else {
            checkCoverage(spec, into: &findings)
        }
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
    /// The same names as sets, for lookups that stay fast on large specs.
    let stateSet: Set<String>
    let eventSet: Set<String>
    let fieldSet: Set<String>
    /// How many more "did you mean" searches may run. Each search compares a name with every
    /// candidate, so a hostile spec with thousands of unknown names could otherwise take very long.
    private var suggestionBudget = 100

    init(spec: MachineSpec) {
        stateNames = spec.states.map(\.name.value)
        eventNames = spec.events.map(\.name.value)
        fieldNames = spec.context.map(\.name.value)
        stateSet = Set(stateNames)
        eventSet = Set(eventNames)
        fieldSet = Set(fieldNames)
    }

    /// Earlier answers of `closest`, so each unknown name is searched once.
    private var suggestions: [String: String?] = [:]

    /// The declared name closest to the unknown `name` ("did you mean"), within the search budget.
    mutating func closest(to name: String, among candidates: [String]) -> String? {
        if let known = suggestions[name] { return known }
        guard suggestionBudget > 0 else { return nil }
        suggestionBudget -= 1
        let suggestion = SpellingSuggestion.closest(to: name, among: candidates)
        suggestions[name] = suggestion
        return suggestion
    }

    /// `name` when it is declared, else the declared name it is most likely a typo of. Coverage
    /// and reachability read typos this way, so one typo gives one error ("did you mean"), not
    /// also "event not handled" or "state unreachable".
    mutating func intended(_ name: String, known: Set<String>, among candidates: [String]) -> String? {
        known.contains(name) ? name : closest(to: name, among: candidates)
    }

    mutating func error(_ message: String, at location: SourceLocation, notes: [Diagnostic.Note] = [], fixIt: String? = nil) {
        diagnostics.append(.error(message, at: location, notes: notes, fixIt: fixIt))
    }

    mutating func warning(_ message: String, at location: SourceLocation, notes: [Diagnostic.Note] = [], fixIt: String? = nil) {
        diagnostics.append(.warning(message, at: location, notes: notes, fixIt: fixIt))
    }
}
