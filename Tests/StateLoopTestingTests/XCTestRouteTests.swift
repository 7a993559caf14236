// T10 from XCTest's side: without a Swift Testing test running, failures go to `XCTFail`.

@_spi(Internals) import StateLoopTesting
import XCTest

final class XCTestRouteTests: XCTestCase {
    func testT10FailuresGoToXCTestOutsideSwiftTesting() {
        XCTAssertEqual(FailureRoute.current, .xcTest)
        // The harness works the same under XCTest.
        let test = MachineTest(Radio.self, state: Radio.State())
        test.send(.tune("jazz")) {
            $0.mode = .tuning
            $0.station = "jazz"
        }
        test.answer(.load("jazz"), with: .loaded([]))
        test.receive(.loaded([])) { $0.mode = .ready }
        test.finish()
    }
}

/// V6 from XCTest's side: an invariant a step breaks is an `XCTFail` at the step's line.
final class InvariantXCTestRouteTests: XCTestCase {
    /// The failures XCTest was told of while `capturing`, which then fail nothing.
    private var failures: [(description: String, line: Int)] = []
    private var capturing = false

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        guard capturing else { return super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected) }
        failures.append((description, lineNumber))
    }

    func testV6InvariantFailuresGoToXCTest() {
        XCTAssertEqual(FailureRoute.current, .xcTest)
        capturing = true
        let test = MachineTest(Tally.self, state: Tally.State())
        let line = #line + 1
        test.send(.add(-1)) { $0.count = -1 }
        test.finish()
        capturing = false
        XCTAssertEqual(failures.map(\.line), [line])
        XCTAssertEqual(failures.first?.description.contains("send(.add(-1)): invariant 'neverNegative' (Tally.machine.yml:3:3): count >= 0 is broken"), true)
    }
}
