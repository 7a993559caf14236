import StateLoopTesting
import Testing
@testable import DoorApp

@Test func theDoorChimesWhenOpenedAndUnlocksOnlyWithItsCode() {
    let test = MachineTest(Door.self, state: .initial)
    test.send(.open) {
        $0.mode = .opened
        $0.openings = 1
    }
    test.answer(.chime(1), with: .chimed(message: "ding #1"))   // the effect, played by the test
    test.receive(.chimed(message: "ding #1")) { $0.chimes = ["ding #1"] }
    test.send(.close) { $0.mode = .closed }
    test.send(.lock(code: 42)) {
        $0.mode = .locked
        $0.code = 42
    }
    test.send(.unlock(code: 7))                                  // the wrong code changes nothing
    test.send(.unlock(code: 42)) {
        $0.mode = .closed
        $0.code = nil
    }
    test.finish()
}
