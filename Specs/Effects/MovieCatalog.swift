// The types Movies.machine.yml names, and an in-process movie catalog that serves pages and can
// fail a page once, so the retry path runs.
import Synchronization

/// A movie in the list.
public struct Movie: Equatable, Sendable, CustomStringConvertible {
    public var title: String
    public init(title: String) { self.title = title }
    public var description: String { title }
}

/// Serves `titles` in pages of `pageSize`; the pages in `failOnce` fail on their first request.
public final class MovieCatalog: Movies.Effects {
    private let titles: [String]
    private let pageSize: Int
    private let failOnce: Mutex<Set<Int>>

    public init(titles: [String], pageSize: Int = 2, failOnce: Set<Int> = []) {
        self.titles = titles
        self.pageSize = pageSize
        self.failOnce = Mutex(failOnce)
    }

    public func loadPage(_ page: Int) async -> Movies.LoadPageResult {
        if failOnce.withLock({ $0.remove(page) }) != nil {
            return .pageFailed(message: "page \(page) timed out")
        }
        let start = min((page - 1) * pageSize, titles.count)
        let end = min(start + pageSize, titles.count)
        return .pageLoaded(
            movies: titles[start..<end].map(Movie.init(title:)),
            nextPage: end < titles.count ? page + 1 : nil
        )
    }
}
