/// "Did you mean 'ready'?": the closest known name to a misspelt one, by edit distance.
///
/// Shared by the decoder (unknown keys), the checks (unknown states, events, fields) and any tool
/// that wants to suggest a name.
public enum SpellingSuggestion {
    /// The candidate closest to `name`, or `nil` when none is close enough to be a likely typo.
    ///
    /// Close enough: at most one edit for names up to four characters, two up to eight, three
    /// beyond, where swapping two neighbouring letters counts as one edit. A candidate that differs
    /// only in case always qualifies. Ties go to the earlier candidate, so callers pass names in
    /// declaration order and the suggestion is stable. Names longer than `maximumLength` get no
    /// suggestion, which bounds the work on hostile input.
    public static func closest(to name: String, among candidates: some Sequence<String>) -> String? {
        let length = name.unicodeScalars.count
        guard length <= maximumLength else { return nil }
        let limit = length <= 4 ? 1 : length <= 8 ? 2 : 3
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != name {
            let candidateLength = candidate.unicodeScalars.count
            guard candidateLength <= maximumLength else { continue }
            if candidateLength == length, candidate.lowercased() == name.lowercased() { return candidate }
            guard abs(candidateLength - length) <= limit else { continue }
            let distance = editDistance(name, candidate)
            if distance <= limit, distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// The longest name that gets suggestions.
    public static let maximumLength = 64

    /// The optimal string alignment distance (Levenshtein plus adjacent transpositions), in
    /// Unicode scalars.
    public static func editDistance(_ a: String, _ b: String) -> Int {
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
