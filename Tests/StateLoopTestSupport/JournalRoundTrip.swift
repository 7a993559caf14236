// JournalRoundTrip: the one check of the tests that a durable machine's journal coding reads back
// what it wrote (Docs/Durability.md D22, D27), and the seeded generator of the tests' random inputs.

import StateLoop
import Testing

/// SplitMix64: a small, fast generator whose sequence is fixed by its seed, so a failing case is
/// reproduced from the seed the failure prints. Shared by every test target that draws random
/// cases (random statecharts, hostile specs, journal round trips).
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Round trips of journal-coded values and of the states along walks of a durable machine.
public enum JournalRoundTrip {
    /// `value`'s bytes read back: equal, every byte read, and written again to the same bytes.
    public static func expect<T: JournalCodable & Equatable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        var writer = JournalWriter()
        writer.write(value)
        var reader = JournalReader(writer.bytes)
        let read = try T(from: &reader)
        #expect(read == value, sourceLocation: sourceLocation)
        // Every stored property too, as reflection sees it: a property that `==` leaves out (and
        // the journal with it) is caught once it is not at its default.
        for (mine, theirs) in zip(Mirror(reflecting: value).children, Mirror(reflecting: read).children) {
            #expect(equal(mine.value, theirs.value) != false, "\(T.self).\(mine.label ?? "?") differs after the round trip", sourceLocation: sourceLocation)
        }
        #expect(reader.isAtEnd, "\(reader.bytes.count - reader.offset) bytes left over", sourceLocation: sourceLocation)
        var again = JournalWriter()
        again.write(read)
        #expect(again.bytes == writer.bytes, sourceLocation: sourceLocation)
    }

    /// Whether `a` and `b` are equal, when `a` is `Equatable`; `nil` otherwise.
    private static func equal(_ a: Any, _ b: Any) -> Bool? {
        func equal<T: Equatable>(_ a: T) -> Bool { (b as? T) == a }
        return (a as? any Equatable).map { equal($0) }
    }

    /// Walks `steps` random events from `initial` (drawn from `events` and the timers each state
    /// arms), checking every state, event and pending run; returns the states walked through.
    public static func walk<M: DurableMachine>(
        _: M.Type, from initial: M.State, events: [M.Event], seed: UInt64, steps: Int = 400,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [M.State] {
        var generator = SeededGenerator(seed: seed)
        var state = initial
        var states = [state]
        for _ in 0..<steps {
            try expect(state, sourceLocation: sourceLocation)
            let candidates = events + M.timers(in: state).map(\.event)
            let event = candidates[Int(generator.next() % UInt64(candidates.count))]
            try expect(event, sourceLocation: sourceLocation)
            M.reduce(&state, event)
            for run in M.pendingRuns(in: state).runs { try expect(run, sourceLocation: sourceLocation) }
            states.append(state)
        }
        return states
    }
}
