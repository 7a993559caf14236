// The types GitHubSearch.machine.yml names, and an in-process GitHub search API: the machine runs
// against it exactly as against the real one (paginated results, next-page URLs, failures).
import Foundation
import Synchronization

/// A search result.
public struct Repository: Equatable, Sendable, CustomStringConvertible {
    public var name: String
    public init(name: String) { self.name = name }
    public var description: String { name }
}

/// Why a page did not load.
public enum GitHubError: Error, Equatable, Sendable {
    case offline
    case rateLimited
}

/// URLs of the search API.
public enum GitHub {
    /// The first page of the search for `query`.
    public static func searchURL(_ query: String) -> URL? {
        pageURL(query: query, page: 1)
    }

    static func pageURL(query: String, page: Int) -> URL? {
        var components = URLComponents(string: "https://api.github.com/search/repositories")!
        components.queryItems = [URLQueryItem(name: "q", value: query), URLQueryItem(name: "page", value: String(page))]
        return components.url
    }
}

/// An in-memory GitHub: answers search pages from a fixed catalog, `pageSize` results a page,
/// and fails the requests listed in `failOnce` the first time they are made.
public final class InMemoryGitHub: GitHubSearch.Effects {
    private let catalog: [String]
    private let pageSize: Int
    private let failOnce: Mutex<Set<URL>>

    public init(catalog: [String], pageSize: Int = 3, failOnce: Set<URL> = []) {
        self.catalog = catalog
        self.pageSize = pageSize
        self.failOnce = Mutex(failOnce)
    }

    public func loadNextPage(_ request: URL) async -> GitHubSearch.LoadNextPageResult {
        if failOnce.withLock({ $0.remove(request) }) != nil {
            return .failed(error: .offline)
        }
        let items = URLComponents(url: request, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let query = items.first { $0.name == "q" }?.value ?? ""
        let page = items.first { $0.name == "page" }.flatMap { $0.value }.flatMap(Int.init) ?? 1
        let matches = catalog.filter { $0.localizedCaseInsensitiveContains(query) }
        let start = min((page - 1) * pageSize, matches.count)
        let end = min(start + pageSize, matches.count)
        return .loaded(
            repositories: matches[start..<end].map(Repository.init(name:)),
            nextURL: end < matches.count ? GitHub.pageURL(query: query, page: page + 1) : nil
        )
    }
}
