// DurableChild: a child machine (`machine:` effect) of a durable parent, journaled in the parent's
// store and restored with it (Docs/Durability.md D100-D109). The runtime's side: the feedback that
// asks the parent's journal for the child's, and the tokens that tell the journal where an event
// came from. StateLoopDurable's `MachineJournal` is the other side (`ChildJournals`).
//
// Invariants:
// - Outside a durable instance (no `ChildJournals` in the launcher's resumption) the feedback is
//   exactly `child(request:start:forwarded:output:)`: a plain system pays nothing for it.
// - A durable child's output reaches its parent tagged with a `ChildOutputToken`, which the
//   parent journals as the child's (the parent then never starts that child again, D104); an
//   event the parent forwards reaches the child tagged with its `ForwardedFrom`, which the child
//   journals, so a restart sends it again only when the child had not journaled it (D105).

/// Where a journaled event came from, besides its payload: what a durable system records of it.
@usableFromInline
package enum EventOrigin: Sendable, Equatable {
    /// From outside, a query effect or a timer (`run: nil`), or from the one-shot run `run`.
    case local(run: Int?)
    /// The output of the child machine that the parent's effect `effect` runs (its `onDone:`).
    case childOutput(effect: String)
    /// Forwarded by the parent (`forward:`).
    case forwarded(ForwardedFrom)
}

/// Which event of which parent step a forwarded event is: the sequence number of the parent's
/// record whose state forwarded it, and its place among that step's forwarded events (D105).
public struct ForwardedFrom: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The sequence number of the parent's event record.
    public var parentStep: Int64
    /// Its place among the events that step forwarded to this child, from 0.
    public var index: Int

    public init(parentStep: Int64, index: Int) {
        self.parentStep = parentStep
        self.index = index
    }

    public static func < (lhs: ForwardedFrom, rhs: ForwardedFrom) -> Bool {
        (lhs.parentStep, lhs.index) < (rhs.parentStep, rhs.index)
    }

    public var description: String { "\(parentStep).\(index)" }
}

/// The journals of a durable instance's children: what a durable parent gives its child loops
/// (StateLoopDurable's `MachineJournal`).
@usableFromInline
package protocol ChildJournals: AnyObject, Sendable {
    /// Opens the journal of the child that the parent's effect `effect` runs in the state the loops
    /// are shown now: restored from the store, or new (in `initial`); `nil` when no child is to
    /// run (its output is already journaled by the parent, D104) or when it could not be opened
    /// (the parent then stops with the error, D107).
    func openChild<Child: DurableMachine>(_ machine: Child.Type, effect: String, initial: Child.State) -> OpenedChild<Child>?

    /// The sequence number of the parent's last event record: the step whose state the loops are
    /// shown now.
    var step: Int64 { get }
}

/// A child's journal, opened: the state to start in and the journal to run with.
@usableFromInline
package struct OpenedChild<Child: DurableMachine>: Sendable {
    /// The restored state (or the initial one, for a new child).
    @usableFromInline package var state: Child.State
    @usableFromInline package var journal: SystemJournal<Child.State, Child.Event>
    /// The last forwarded event the child's journal holds, if any (D105).
    @usableFromInline package var forwarded: ForwardedFrom?
    /// Called once the child has ended: closes its journal (a snapshot, D34).
    @usableFromInline package var onStop: @Sendable () -> Void

    @usableFromInline
    package init(
        state: Child.State, journal: SystemJournal<Child.State, Child.Event>, forwarded: ForwardedFrom?,
        onStop: @escaping @Sendable () -> Void
    ) {
        self.state = state
        self.journal = journal
        self.forwarded = forwarded
        self.onStop = onStop
    }
}

/// The token of a durable child's output: stale once the child is stopped (E32), and naming the
/// effect that ran it, which the parent journals with the event (D104).
@usableFromInline
final class ChildOutputToken: EffectRun, @unchecked Sendable {
    @usableFromInline let effect: String

    @inlinable
    init(effect: String) {
        self.effect = effect
        super.init()
    }
}

/// The token of an event a parent forwarded to its durable child: never stale (the child runs
/// while the parent forwards to it), and naming the parent's step, which the child journals.
@usableFromInline
final class ForwardedToken: EffectRun, @unchecked Sendable {
    @usableFromInline let from: ForwardedFrom

    @inlinable
    init(from: ForwardedFrom) {
        self.from = from
        super.init()
    }
}

extension EventOrigin {
    /// The origin of an event delivered with `run`'s token.
    @inlinable
    package init(_ run: EffectRun?) {
        switch run {
        case let token as OneShotToken: self = .local(run: token.key)
        case let token as ChildOutputToken: self = .childOutput(effect: token.effect)
        case let token as ForwardedToken: self = .forwarded(token.from)
        default: self = .local(run: nil)
        }
    }
}

extension Feedback {
    /// Runs a child machine while the state requests it, as ``child(request:start:forwarded:output:sent:)``
    /// does; in a durable system (StateLoopDurable's `durable(id:store:...)`) the child is durable
    /// too: it journals in its parent's store under `"<parent id>/<effect>@<step>"` and is restored
    /// with its parent (Docs/Durability.md D100-D109). Generated for a spec that persists.
    ///
    /// - Parameters:
    ///   - effect: The name of the parent's effect that runs the child (the `effects:` key).
    ///   - machine: The child machine, whose journal coding the child's journal uses.
    @inlinable
    public static func child<Request: Equatable & Sendable, Child: DurableMachine & SendableMetatype>(
        effect: String,
        machine: Child.Type,
        request: @escaping @Sendable (State) -> Request?,
        start: @escaping @Sendable (Request) -> System<Child.State, Child.Event>,
        forwarded: @escaping @Sendable (State) -> [Child.Event],
        output: @escaping @Sendable (Child.State) -> Event?
    ) -> Feedback {
        let plain = child(machine: machine, request: request, start: start, forwarded: forwarded, output: output)
        return Feedback { launcher in
            guard let journals = launcher.resume?.children else { return plain.makeLoop(launcher) }
            let deliver = launcher.deliver
            let immediately = launcher.immediately
            let loop = RequestLoop<State, Request, ChildRun<Child.State, Child.Event>>(
                request: request,
                start: { request in
                    let token = ChildOutputToken(effect: effect)
                    let system = start(request)
                    guard let opened = journals.openChild(Child.self, effect: effect, initial: system.initial) else {
                        return ChildRun(token: token, run: nil, journals: journals)
                    }
                    let restored = System(
                        initial: opened.state, reduce: system.reduce, feedbacks: system.feedbacks,
                        isFinished: system.isFinished, eventHook: system.eventHook)
                    let run = restored.start(
                        observer: { _ in },
                        onStop: opened.onStop,
                        onFinished: { last in
                            if let event = output(last) { deliver(event, token) }
                        },
                        immediately: immediately,
                        journal: opened.journal)
                    return ChildRun(token: token, run: run, journals: journals, forwardedUpTo: opened.forwarded)
                })
            return FeedbackLoop(
                observe: { state in
                    loop.observe(state)
                    if let child = loop.currentRun { child.send(forwarded(state)) }
                },
                stop: loop.stop)
        }
    }
}
