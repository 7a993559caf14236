// The type Ledger.machine.yml names (`Money`): a user's `Codable` struct, which a persisted
// machine journals through the `Codable` fallback (Docs/Durability.md D23). Public, because the
// golden files are generated with the default `public` access.

/// An amount in a currency.
public struct Money: Codable, Equatable, Sendable {
    public var cents: Int
    public var currency: String

    public init(cents: Int, currency: String) {
        self.cents = cents
        self.currency = currency
    }

    /// The sum, in the currency of `lhs`.
    public static func + (lhs: Money, rhs: Money) -> Money {
        Money(cents: lhs.cents + rhs.cents, currency: lhs.currency)
    }
}
