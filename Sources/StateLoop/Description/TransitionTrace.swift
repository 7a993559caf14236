// TransitionTrace: how a reducer tells which branches of its spec a step takes.
//
// Invariants:
// - A generated reducer is generic over its recorder: untraced (`_NoTrace`) it specialises to the
//   code it was without tracing; traced, it reports every branch id in the order taken.
// - An id is an index into `StateMachine.transitions`.

/// The ids of the branches a step took, in the order taken, or handed on one by one.
public struct TransitionTrace: Sendable {
    /// The ids taken so far (empty when the trace hands them on).
    public private(set) var taken: [Int] = []
    private let handOn: (@Sendable (Int) -> Void)?

    /// A trace that collects the ids in `taken`.
    public init() { handOn = nil }

    /// A trace that calls `handOn` with each id as it is taken and keeps none: a running
    /// system's hook, which then allocates nothing per step.
    public init(handingOn handOn: @escaping @Sendable (Int) -> Void) { self.handOn = handOn }

    /// Records branch `id` as taken (what a hand-written `reduce(_:_:trace:)` calls).
    public mutating func take(_ id: Int) {
        if let handOn { handOn(id) } else { taken.append(id) }
    }
}

/// What a generated reducer tells, as it takes each branch, the id of the branch: every method of
/// the reducer is generic over it. `reduce(_:_:)` passes `_NoTrace`, whose `take` is empty, so
/// that once specialised the reducer is the code it was without tracing; `reduce(_:_:trace:)`
/// passes a `TransitionTrace`.
public protocol _TransitionRecorder {
    mutating func take(_ id: Int)
}

extension TransitionTrace: _TransitionRecorder {}

/// The recorder of an untraced `reduce`: records nothing, costs nothing.
///
/// It stores one byte it never reads. A zero-sized value has no address of its own, and
/// ThreadSanitizer instruments the `inout` access of a generic reducer to one at whatever address
/// it is given: two reducers on two threads then "race" on that address, or TSan dies reading it
/// (swiftlang/swift#35579 skips only types known to be empty where the access is compiled). A
/// stored byte gives every `_NoTrace` its own stack slot; once specialised it costs nothing.
@frozen public struct _NoTrace: _TransitionRecorder {
    @usableFromInline var _slot: Swift.UInt8 = 0
    @inlinable public init() {}
    @inlinable @inline(__always) public mutating func take(_ id: Int) {}
}
