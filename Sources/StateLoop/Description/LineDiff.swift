// LineDiff: two dumps of a state, line by line: the test harness's expected and actual states (T3
// in Docs/Testing.md), the inspector's timeline of steps.

/// A line diff by longest common subsequence, printed as TCA prints its diffs: unchanged lines
/// after two spaces, lines only in the old text after `−`, lines only in the new one after `+`.
public enum LineDiff {
    /// Every line of `old` and `new` in order, marked; in a changed block the old lines come
    /// first. `nil` when the two are equal.
    public static func diff(_ old: [String], _ new: [String]) -> [String]? {
        if old == new { return nil }
        // common[i][j]: the length of the longest common subsequence of old[i...] and new[j...].
        var common = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in old.indices.reversed() {
            for j in new.indices.reversed() {
                common[i][j] = old[i] == new[j]
                    ? common[i + 1][j + 1] + 1
                    : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var lines = [String]()
        var (i, j) = (0, 0)
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                lines.append("  " + old[i])
                (i, j) = (i + 1, j + 1)
            } else if j == new.count || i < old.count && common[i + 1][j] >= common[i][j + 1] {
                lines.append("− " + old[i])
                i += 1
            } else {
                lines.append("+ " + new[j])
                j += 1
            }
        }
        return lines
    }
}
