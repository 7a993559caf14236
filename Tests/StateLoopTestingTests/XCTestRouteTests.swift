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
