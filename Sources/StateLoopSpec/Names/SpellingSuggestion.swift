/// "Did you mean 'ready'?": the closest known name to a misspelt one, by edit distance.
///
/// Shared by the decoder (unknown keys), the checks (unknown states, events, fields) and any tool
/// that wants to suggest a name.
enum SpellingSuggestion {
    /// The candidate closest to `name`, or `nil` when none is close enough to be a likely typo.
    ///
    /// Close enough: at most one edit for names up to four characters, two up to eight, three
    /// beyond, where swapping two neighbouring letters counts as one edit. A candidate that differs
    /// only in case always qualifies. Ties go to the earlier candidate, so callers pass names in
    /// declaration order and the suggestion is stable. Names longer than `maximumLength` get no
    /// suggestion, which bounds the work on hostile input.
    static func closest(to name: String, among candidates: some Sequence<String>) -> String? {
        let length = name.unicodeScalars.count
        guard length <= maximumLength else { return nil }
        let limit = length <= 4 ? 1 : length <= 8 ? 2 : 3
        let scalars = Array(name.unicodeScalars)
        let lowercased = name.lowercased()
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != name {
            let candidateLength = candidate.unicodeScalars.count
            guard candidateLength <= maximumLength, abs(candidateLength - length) <= limit else { continue }
            if candidateLength == length, candidate.lowercased() == lowercased { return candidate }
            // Only distances up to `limit` matter, so each comparison costs length × (2 × limit + 1)
            // cells rather than length²: thousands of long names stay cheap to search.
            if let distance = editDistance(scalars, Array(candidate.unicodeScalars), atMost: min(limit, (best?.distance ?? Int.max) - 1)) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// The optimal string alignment distance of `a` and `b` when it is at most `bound`, else `nil`.
    /// Computes only the diagonal band of width `2 × bound + 1`, which holds every alignment of
    /// cost `bound` or less, and stops as soon as a whole row exceeds `bound`.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], atMost bound: Int) -> Int? {
        guard bound >= 0, abs(a.count - b.count) <= bound else { return nil }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        let outside = bound + 1  // stands for "more than bound" in cells outside the band
        var previousPrevious = [Int](repeating: outside, count: b.count + 1)
        var previous = (0...b.count).map { min($0, outside) }
        var current = [Int](repeating: outside, count: b.count + 1)
        for i in 1...a.count {
            let low = max(1, i - bound)
            let high = min(b.count, i + bound)
            current[low - 1] = low == 1 ? min(i, outside) : outside
            var rowMinimum = current[low - 1]
            for j in low...high {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                current[j] = min(value, outside)
                rowMinimum = min(rowMinimum, current[j])
            }
            if high < b.count { current[high + 1] = outside }
            guard rowMinimum <= bound else { return nil }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count] <= bound ? previous[b.count] : nil
    }

    /// The longest name that gets suggestions.
    static let maximumLength = 64

    /// The optimal string alignment distance (Levenshtein plus adjacent transpositions), in
    /// Unicode scalars.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                current[j] = value
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
