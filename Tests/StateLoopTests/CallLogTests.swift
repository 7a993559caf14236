// The call log of generated test doubles (Docs/Runtime.md E55).

import Dispatch
import StateLoop
import Testing

@Suite struct CallLogTests {
    @Test("E55: a call log keeps every call, in order, across threads")
    func callLogKeepsEveryCallInOrderAcrossThreads() {
        let log = CallLog<[Int]>()
        #expect(log.values == [])

        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for call in 0..<1000 { log.append([thread, call]) }
        }

        let values = log.values
        #expect(values.count == 4000)
        for thread in 0..<4 {
            #expect(values.filter { $0[0] == thread }.map { $0[1] } == Array(0..<1000))
        }
    }
}
