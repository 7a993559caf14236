// The event queue holds only the events that are waiting: an event is released once it has been
// reduced, also in a system whose queue never runs empty (an observer or effect that answers
// every state at once, a steady producer).

import StateLoop
import StateLoopTestSupport
import Testing

/// An event whose live instances are counted: made alive when sent, dead once released.
private final class Payload: Sendable {
    let live: Box<Int>

    init(live: Box<Int>) {
        self.live = live
        live.update { $0 += 1 }
    }

    deinit { live.update { $0 -= 1 } }
}

@Suite(.bothStartModes) struct QueueMemoryTests {
    @Test func reducedEventsAreReleasedWhileTheQueueNeverRunsEmpty() async {
        let events = 100_000
        let live = Box(0)
        let liveAtEnd = Box<Int?>(nil)
        let (ended, end) = AsyncStream.makeStream(of: Void.self)
        let system = System<Int, Payload>(initial: 0, reduce: { count, _ in count += 1 }, feedbacks: [])
        // Every state answers with the next event at once: one event always waits while the
        // current one is reduced, so the queue never runs empty until the last one.
        let run = system.start { count, run in
            guard count > 0 else { return }
            if count < events {
                run.send(Payload(live: live))
            } else {
                liveAtEnd.value = live.value
                end.yield()
            }
        }

        // Drains one budget on this thread, and the rest in tasks (E60).
        run.send(Payload(live: live))
        for await _ in ended { break }

        // Alive: the event being reduced, not the 99,999 before it.
        #expect(liveAtEnd.value.map { $0 <= 2 } == true, "live payloads after \(events) events: \(String(describing: liveAtEnd.value))")
        run.stop()
        #expect(live.value == 0)
    }
}
