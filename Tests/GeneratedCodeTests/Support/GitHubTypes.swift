import Foundation

// The types GitHubSearch.machine.yml names (`Repository`, `GitHubError`, `GitHub.searchURL`):
// in an app they come from the app; here they are just enough to compile and test the machine.
// Public, because the golden files are generated with the default `public` access.

/// A search result.
public struct Repository: Equatable, Sendable {
    public var name: String

    /// A repository called `name`.
    public init(name: String) { self.name = name }
}

/// Why a page failed to load.
public enum GitHubError: Error, Equatable, Sendable {
    case offline
    case rateLimited
}

/// The GitHub API as the spec's expressions use it.
public enum GitHub {
    /// The first page of a search.
    public static func searchURL(_ search: String) -> URL? {
        var components = URLComponents(string: "https://api.github.com/search/repositories")
        components?.queryItems = [URLQueryItem(name: "q", value: search)]
        return components?.url
    }
}
