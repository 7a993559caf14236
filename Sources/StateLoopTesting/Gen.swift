// Gen: the payloads of an exploration (Docs/Testing.md V10), made from a walk's draws.
//
// A value is a function of the numbers it draws, each below a bound, and draw 0 is the simplest
// value. So shrinking a walk's draws toward 0 simplifies its payloads through every `map`, and
// enumerating the draws enumerates a step's choices (`exploreAll`, V17), with no shrinker to
// write per type: the approach of Hypothesis's choice sequences, in a few lines. (Considered:
// x-sheep/swift-property-based 2.0.1, whose `Generator` draws from a seeded random number
// generator and shrinks each value by a shrink sequence of its intermediate input; a walk made
// from it could not be replayed from a list of numbers, which shrinking a walk's steps together
// and enumerating a step's choices both need.)

/// A generator of values for an exploration: events to send, results to answer with, payloads.
///
/// ```swift
/// let sending: [Gen<GitHubSearch.Event>] = [.of(GitHubSearch.Event.searchChanged), .just(.scrolledNearBottom)]
/// ```
public struct Gen<Value> {
    let make: (inout Draws) -> Value

    /// A generator that makes its value from `draws`: draw 0 should give the simplest value.
    public init(_ make: @escaping (inout Draws) -> Value) {
        self.make = make
    }

    /// Always `value`.
    public static func just(_ value: Value) -> Gen {
        Gen { _ in value }
    }

    /// One of `values`, the first the simplest. `values` must not be empty.
    public static func element(of values: [Value]) -> Gen {
        precondition(!values.isEmpty, "Gen.element(of:) needs at least one value")
        return Gen { draws in values[Int(draws.next(below: UInt64(values.count)))] }
    }

    /// A value of one of `generators`, the first the simplest. `generators` must not be empty.
    public static func one(of generators: [Gen]) -> Gen {
        precondition(!generators.isEmpty, "Gen.one(of:) needs at least one generator")
        return Gen { draws in generators[Int(draws.next(below: UInt64(generators.count)))].make(&draws) }
    }

    /// The values of `make` applied to values of every argument's `Arbitrary` generator:
    /// `Gen.of(Event.searchChanged)` sends `searchChanged` with generated strings.
    public static func of<each Argument: Arbitrary>(_ make: @escaping (repeat each Argument) -> Value) -> Gen {
        Gen { draws in make(repeat (each Argument).arbitrary.make(&draws)) }
    }

    /// This generator's values, transformed: simpler values stay simpler.
    public func map<T>(_ transform: @escaping (Value) -> T) -> Gen<T> {
        Gen<T> { draws in transform(make(&draws)) }
    }
}

extension Gen where Value == Int {
    /// A number in `range`: the one nearest 0 first, then alternately above and below it.
    public static func int(in range: ClosedRange<Int>) -> Gen {
        let origin = min(max(0, range.lowerBound), range.upperBound)
        let width = UInt64(bitPattern: Int64(range.upperBound &- range.lowerBound)) &+ 1
        // 0, +1, -1, +2, -2, ... from the origin while both sides have room; then the side left.
        let above = UInt64(range.upperBound - origin), below = UInt64(origin - range.lowerBound)
        let both = min(above, below)
        return Gen { draws in
            let draw = draws.next(below: width == 0 ? .max : width)
            if draw <= 2 * both {
                return draw % 2 == 1 ? origin + Int((draw + 1) / 2) : origin - Int(draw / 2)
            }
            let beyond = Int(both + (draw - 2 * both))
            return above > below ? origin + beyond : origin - beyond
        }
    }
}

extension Gen where Value == Bool {
    /// `false`, then `true`.
    public static var bool: Gen { .element(of: [false, true]) }
}

extension Gen where Value == String {
    /// Strings of up to 3 of the letters `a`, `b` and a space: the empty string first.
    public static var string: Gen {
        let letters: [Character] = ["a", "b", " "]
        return Gen { draws in
            let count = Int(draws.next(below: 4))
            return String((0..<count).map { _ in letters[Int(draws.next(below: UInt64(letters.count)))] })
        }
    }
}

extension Gen where Value: CaseIterable {
    /// Every case, in `allCases` order.
    public static var cases: Gen { .element(of: Array(Value.allCases)) }
}

extension Gen {
    /// `nil` (one draw in four), or a value of `wrapped`.
    public static func optional<Wrapped>(_ wrapped: Gen<Wrapped>) -> Gen where Value == Wrapped? {
        Gen { draws in draws.next(below: 4) == 0 ? nil : wrapped.make(&draws) }
    }
}

/// A type with a built-in generator (V10): `Gen.of` draws its arguments from these.
public protocol Arbitrary {
    /// The values an exploration tries, the simplest first.
    static var arbitrary: Gen<Self> { get }
}

extension Int: Arbitrary {
    /// -100...100, from 0.
    public static var arbitrary: Gen<Int> { .int(in: -100...100) }
}

extension Bool: Arbitrary {
    public static var arbitrary: Gen<Bool> { .bool }
}

extension String: Arbitrary {
    public static var arbitrary: Gen<String> { .string }
}

extension Optional: Arbitrary where Wrapped: Arbitrary {
    public static var arbitrary: Gen<Wrapped?> { .optional(Wrapped.arbitrary) }
}

extension Arbitrary where Self: CaseIterable {
    /// Every case: declare `extension Mode: Arbitrary {}` for a `CaseIterable` type.
    public static var arbitrary: Gen<Self> { .cases }
}

/// The choices of one step of a walk, each a number below a bound: drawn from the seed while
/// exploring, read back while shrinking (a draw past the recorded ones reads 0, V13).
public struct Draws {
    private var random: SplitMix64?
    private let replayed: [UInt64]
    /// Read before the generator: the draws a guided step chose (V16).
    private var forced: [UInt64] = []
    /// The draws made so far, and the bound each was drawn below.
    private(set) var made: [UInt64] = []
    private(set) var bounds: [UInt64] = []

    /// Draws from `random`.
    init(random: SplitMix64) {
        self.random = random
        replayed = []
    }

    /// Reads `replayed` back, then zeros.
    init(replaying replayed: [UInt64]) {
        random = nil
        self.replayed = replayed
    }

    /// The generator state after the draws, for the next step's draws.
    var generator: SplitMix64? { random }

    /// Makes the next draws `values`, then goes on as before.
    mutating func force(_ values: [UInt64]) {
        forced = values
    }

    /// Runs `body` with every sequence of draws it can make, in order (all zeros first), at most
    /// `limit` times: an odometer over the draws, each below the bound it was drawn with (V17).
    static func enumerate(limit: Int, _ body: (inout Draws) -> Void) {
        var prefix: [UInt64] = []
        for _ in 0..<limit {
            var draws = Draws(replaying: prefix)
            body(&draws)
            // The last draw that can still grow grows; the draws after it start again from 0.
            guard let last = draws.made.indices.last(where: { draws.made[$0] + 1 < draws.bounds[$0] }) else { return }
            prefix = Array(draws.made[..<last]) + [draws.made[last] + 1]
        }
    }

    /// The next choice, a number below `bound` (at least 1).
    public mutating func next(below bound: UInt64) -> UInt64 {
        let bound = max(bound, 1)
        let value: UInt64
        if !forced.isEmpty {
            value = min(forced.removeFirst(), bound - 1)
        } else if random != nil {
            value = random!.next() % bound
        } else {
            value = made.count < replayed.count ? min(replayed[made.count], bound - 1) : 0
        }
        made.append(value)
        bounds.append(bound)
        return value
    }
}

/// SplitMix64 (Steele, Lea and Flood, 2014): a small, fast generator whose whole state is one
/// number, so a seed reproduces every walk on every platform (V12).
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
