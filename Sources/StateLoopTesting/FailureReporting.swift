// FailureReporting: where the harness's failures go (T10).
//
// Both test libraries are imported by this library target, each under `#if canImport`. The
// Linux toolchain (Swift 6.3) keeps `Testing.swiftmodule` and `XCTest.swiftmodule`, and their
// `.so`s, in its default module and library paths, so a plain `import` compiles and links in a
// non-test target too; on Darwin, test helper libraries such as swift-snapshot-testing import
// them the same way. The guards keep the library building where one of them is missing (a
// toolchain without Swift Testing, a platform without XCTest); then failures go to the other
// one, or to standard error as the last resort.

import Foundation
#if canImport(Testing)
import Testing
#endif
#if canImport(XCTest)
import XCTest
#endif

/// Where a harness method was called: the test's `#fileID`, `#filePath`, `#line`, `#column`.
struct CallSite {
    var fileID: StaticString
    var filePath: StaticString
    var line: UInt
    var column: UInt
}

/// A failure the harness reported while `withRecordedFailures` was collecting them.
@_spi(Internals)
public struct RecordedFailure: Equatable, Sendable {
    /// The message, as a test library would show it.
    public var message: String
    /// The line of the test the failure points at.
    public var line: UInt

    public init(message: String, line: UInt) {
        self.message = message
        self.line = line
    }
}

/// The library a failure goes to.
@_spi(Internals)
public enum FailureRoute: Equatable, Sendable {
    /// Collected by `withRecordedFailures`, for the harness's own tests.
    case recorded
    /// `Issue.record`: a Swift Testing test is running.
    case swiftTesting
    /// `XCTFail`: otherwise.
    case xcTest

    /// Where a failure reported now goes.
    public static var current: FailureRoute {
        if FailureRecorder.current != nil { return .recorded }
        #if canImport(Testing)
        if Test.current != nil { return .swiftTesting }
        #endif
        return .xcTest
    }
}

/// Runs `body` and returns the failures the harness reported in it (in the calling task,
/// including those of a `MachineTest` released in `body`) instead of failing the test: how the
/// harness's own tests check that a wrong expectation fails, and with which message.
@_spi(Internals)
public func withRecordedFailures(_ body: () throws -> Void) rethrows -> [RecordedFailure] {
    let recorder = FailureRecorder()
    try FailureRecorder.$current.withValue(recorder) { try body() }
    return recorder.failures
}

/// Reports a failure of the test at `site`, to the library `FailureRoute.current` names.
func reportFailure(_ message: String, at site: CallSite) {
    switch FailureRoute.current {
    case .recorded:
        FailureRecorder.current?.append(RecordedFailure(message: message, line: site.line))
    case .swiftTesting:
        #if canImport(Testing)
        Issue.record(
            Comment(rawValue: message),
            sourceLocation: SourceLocation(
                fileID: "\(site.fileID)", filePath: "\(site.filePath)",
                line: Int(site.line), column: Int(site.column)
            )
        )
        #endif
    case .xcTest:
        #if canImport(XCTest)
        XCTFail(message, file: site.filePath, line: site.line)
        #else
        FileHandle.standardError.write(Data("\(site.filePath):\(site.line): error: \(message)\n".utf8))
        #endif
    }
}

/// The failures collected for `withRecordedFailures`.
///
/// `@unchecked Sendable` because a task-local value must be `Sendable`, and `failures` is only
/// touched under `lock`.
final class FailureRecorder: @unchecked Sendable {
    @TaskLocal static var current: FailureRecorder?

    private let lock = NSLock()
    private var _failures: [RecordedFailure] = []

    var failures: [RecordedFailure] { lock.withLock { _failures } }

    func append(_ failure: RecordedFailure) {
        lock.withLock { _failures.append(failure) }
    }
}
