/// The checks on a decoded spec, each reported at the YAML line and column it is about:
///
/// - names are usable in Swift and do not clash with generated members (`SpecChecker+Names`);
/// - embedded Swift cannot leave the place it is generated into (`SpecChecker+EmbeddedSwift`);
/// - every name refers to something: targets, the initial state, events, fields, effect states
///   (`SpecChecker+References`);
/// - effects fit their shape: failure events, child machines with their input, forwarding and
///   outcomes, input and output, named delays (`SpecChecker+Effects`);
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
    /// The most states a machine may have: each becomes an enum case and a reducer section, and
    /// name lookups and suggestions scale with the count.
    public var maximumStates: Int
    /// The most events a machine may have: each becomes an enum case (with its payload) and a
    /// case in every state's part of the reducer.
    public var maximumEvents: Int
    /// The machines a `machine:` effect may name (E23).
    public var library: MachineLibrary

    /// A checker with the given bounds on states × events, states and events.
    public init(
        library: MachineLibrary = MachineLibrary(),
        maximumStateEventPairs: Int = 1_000_000, maximumStates: Int = 10_000, maximumEvents: Int = 10_000
    ) {
        self.library = library
        self.maximumStateEventPairs = maximumStateEventPairs
        self.maximumStates = maximumStates
        self.maximumEvents = maximumEvents
    }

    /// Every problem of `spec`, in the order the checks find them (the loader sorts).
    public func check(_ spec: MachineSpec) -> [Diagnostic] {
        checkDeciding(spec).diagnostics
    }

    /// `check`, and the semantics the checks followed: the loader hands them on with the checked
    /// spec, so that they are decided once.
    func checkDeciding(_ spec: MachineSpec) -> (diagnostics: [Diagnostic], semantics: MachineSemantics) {
        var findings = Findings(spec: spec)
        checkNames(spec, into: &findings)
        checkReferences(spec, into: &findings)
        checkRaises(spec, into: &findings)
        checkSends(spec, into: &findings)
        checkSendsToParent(spec, into: &findings)
        checkEmbeddedSwift(spec, into: &findings)
        checkEventScope(spec, into: &findings)
        checkInvariants(spec, into: &findings)
        checkHierarchy(spec, into: &findings)
        checkEffects(spec, into: &findings)
        let stateCount = findings.tree.nodes.count
        let leafCount = findings.tree.leaves.count
        let pairs = leafCount.multipliedReportingOverflow(by: spec.events.count)
        if stateCount > maximumStates {
            findings.error(
                "the machine has \(stateCount) states, more than the \(maximumStates) a machine may have",
                at: spec.name.location, fixIt: "split the machine into smaller machines")
        }
        if spec.events.count > maximumEvents {
            findings.error(
                "the machine has \(spec.events.count) events, more than the \(maximumEvents) a machine may have",
                at: spec.name.location, fixIt: "split the machine into smaller machines, or carry the difference in an event's payload")
        }
        // Coverage also visits, per effect, every `in:` state with every result (`emits:`,
        // `onError:`, `onDone:`) and forwarded event; many effects over many states could cost far
        // more than states × events, so bound that too.
        var effectPairs = 0
        for effect in spec.effects {
            let product = effect.runningStates.count.multipliedReportingOverflow(by: effect.results.count + (effect.child?.forward.count ?? 0))
            let sum = effectPairs.addingReportingOverflow(product.partialValue)
            effectPairs = product.overflow || sum.overflow ? Int.max : sum.partialValue
        }
        if effectPairs > maximumStateEventPairs, let first = spec.effects.first {
            findings.error(
                "the effects' 'in:' and 'emits:' lists make \(effectPairs) state-result pairs, more than the \(maximumStateEventPairs) the checks can follow",
                at: first.name.location, fixIt: "split the machine into smaller machines, or merge effects that run in the same states")
        }
        if stateCount > maximumStates || spec.events.count > maximumEvents || effectPairs > maximumStateEventPairs {
            // Already reported; the pairs would only repeat it, and coverage would do the work the
            // limits are there to avoid.
        } else if pairs.overflow || pairs.partialValue > maximumStateEventPairs {
            findings.error(
                "the machine has \(leafCount)\(leafCount == stateCount ? "" : " leaf") states and \(spec.events.count) events, more than the \(maximumStateEventPairs) state-event pairs a generated reducer can hold",
                at: spec.name.location, fixIt: "split the machine into smaller machines")
        } else {
            checkCoverage(spec, into: &findings)
        }
        checkBranches(spec, into: &findings)
        checkReachability(spec, into: &findings)
        return (findings.diagnostics.finished(), findings.semantics)
    }
}

/// The diagnostics found so far, and the name tables every check looks things up in.
struct Findings {
    /// Bounded: a hostile spec can have a problem per line, each quoting a long name.
    var diagnostics = DiagnosticList()
    let stateNames: [String]
    let eventNames: [String]
    let fieldNames: [String]
    /// The same names as sets, for lookups that stay fast on large specs.
    let stateSet: Set<String>
    let eventSet: Set<String>
    let fieldSet: Set<String>
    /// How many more candidates "did you mean" searches may compare. Each search compares a name
    /// with every candidate, so a hostile spec with thousands of unknown names among thousands of
    /// states could otherwise take minutes; an ordinary spec never gets near this.
    private var suggestionBudget = 200_000

    /// The statechart rules of the spec as read (names may not resolve yet): the reachability and
    /// loop checks follow them.
    let semantics: MachineSemantics
    /// Every state, nested ones included, in document order.
    var tree: StateTree { semantics.tree }
    /// Every Swift type and expression of the spec (`SpecChecker.embeddedSwift`), which two
    /// checks read.
    let embeddedSwift: (types: [Located<String>], expressions: [Located<String>])

    init(spec: MachineSpec) {
        semantics = MachineSemantics(spec: spec)
        let tree = semantics.tree
        embeddedSwift = SpecChecker.embeddedSwift(spec, tree: tree)
        stateNames = tree.nodes.map(\.name)
        eventNames = spec.events.map(\.name.value)
        fieldNames = spec.context.map(\.name.value)
        stateSet = Set(stateNames)
        eventSet = Set(eventNames)
        fieldSet = Set(fieldNames)
    }

    /// Earlier answers of `closest`, so each unknown name is searched once per list of names.
    private var suggestions: [SuggestionKey: String?] = [:]

    /// A name searched for among a list: lists of different lengths or ends are different lists
    /// (states, events, a child machine's events), so one name can have an answer in each.
    private struct SuggestionKey: Hashable {
        var name: String
        var count: Int
        var first: String?
        var last: String?
    }

    /// The declared name closest to the unknown `name` ("did you mean"), within the search budget.
    mutating func closest(to name: String, among candidates: [String]) -> String? {
        let key = SuggestionKey(name: name, count: candidates.count, first: candidates.first, last: candidates.last)
        if let known = suggestions[key] { return known }
        guard suggestionBudget >= candidates.count else { return nil }
        suggestionBudget -= max(1, candidates.count)
        let suggestion = SpellingSuggestion.closest(to: name, among: candidates)
        suggestions[key] = suggestion
        return suggestion
    }

    /// `name` when it is declared, else the declared name it is most likely a typo of. Coverage
    /// and reachability read typos this way, so one typo gives one error ("did you mean"), not
    /// also "event not handled" or "state unreachable".
    mutating func intended(_ name: String, known: Set<String>, among candidates: [String]) -> String? {
        known.contains(name) ? name : closest(to: name, among: candidates)
    }

    mutating func error(
        _ message: @autoclosure () -> String, at location: SourceLocation,
        notes: @autoclosure () -> [Diagnostic.Note] = [], fixIt: @autoclosure () -> String? = nil
    ) {
        diagnostics.append(.error, message(), at: location, notes: notes(), fixIt: fixIt())
    }

    mutating func warning(
        _ message: @autoclosure () -> String, at location: SourceLocation,
        notes: @autoclosure () -> [Diagnostic.Note] = [], fixIt: @autoclosure () -> String? = nil
    ) {
        diagnostics.append(.warning, message(), at: location, notes: notes(), fixIt: fixIt())
    }
}
