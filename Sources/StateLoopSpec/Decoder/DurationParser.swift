/// Parses the delays of `after:` timers: a decimal number and a unit, `250ms`, `5s`, `1.5s`, `2m`,
/// `1h`. Whole milliseconds only; at most a year (a longer timer is certainly a typo).
enum DurationParser {
    /// The accepted forms, for messages.
    static let acceptedForms = "a number followed by ms, s, m or h, such as 250ms, 5s, 1.5s or 2m"

    /// The delay in milliseconds, or `nil` when `text` is not a duration in the accepted forms.
    static func milliseconds(_ text: String) -> Int64? {
        let units: [(suffix: String, factor: Int64)] = [("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000)]
        guard let unit = units.first(where: { text.hasSuffix($0.suffix) }) else { return nil }
        let number = text.dropLast(unit.suffix.count)
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count > 1 ? parts[1] : ""
        func isDigits(_ s: Substring) -> Bool { s.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }
        guard !whole.isEmpty, isDigits(whole), isDigits(fraction), parts.count == 1 || !fraction.isEmpty,
            whole.count <= 12, fraction.count <= 12
        else { return nil }
        // Exact arithmetic: scale the decimal digits to an integer numerator over 10^fraction.count.
        guard let digits = Int64(whole + fraction) else { return nil }
        var denominator: Int64 = 1
        for _ in 0..<fraction.count { denominator *= 10 }
        let (product, overflow) = digits.multipliedReportingOverflow(by: unit.factor)
        guard !overflow, product % denominator == 0 else { return nil }
        let milliseconds = product / denominator
        return milliseconds <= 366 * 24 * 3_600_000 ? milliseconds : nil
    }
}
