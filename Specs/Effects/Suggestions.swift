// The in-process search SearchBox.machine.yml runs: the words of a list that start with the
// query, and how many searches ran, so that a script can show that a debounced box searches once.
import Synchronization

/// Finds the words of `words` that start with the query, ignoring case; counts its searches.
public final class Suggestions: SearchBox.Effects {
    private let words: [String]
    private let count = Mutex(0)

    public init(words: [String]) {
        self.words = words
    }

    /// How many searches ran.
    public var searches: Int { count.withLock { $0 } }

    public func search(_ query: String) async -> SearchBox.SearchResult {
        count.withLock { $0 += 1 }
        return .found(results: words.filter { $0.lowercased().hasPrefix(query.lowercased()) })
    }
}
