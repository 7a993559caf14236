// The event queue holds only the events that are waiting: an event is released once it has been
// reduced, also in a system whose queue never runs empty (an observer or effect that answers
// every state at once, a steady producer).

import StateLoop
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
    @Test func reducedEventsAreReleasedWhileTheQueueNeverRunsEmpty() {
        let events = 100_000
        let live = Box(0)
        let liveAtEnd = Box<Int?>(nil)
        let handle = Box<SystemRun<Int, Payload>?>(nil)
        let system = System<Int, Payload>(initial: 0, reduce: { count, _ in count += 1 }, feedbacks: [])
        // Every state answers with the next event at once: one event always waits while the
        // current one is reduced, so the queue never runs empty until the last one.
        let run = system.start { count in
            guard count > 0 else { return }
            if count < events {
                handle.value?.send(Payload(live: live))
            } else {
                liveAtEnd.value = live.value
            }
        }
        handle.value = run

        run.send(Payload(live: live))  // drains all `events` on this thread before returning

        // Alive: the event being reduced, not the 99,999 before it.
        #expect(liveAtEnd.value.map { $0 <= 2 } == true, "live payloads after \(events) events: \(String(describing: liveAtEnd.value))")
        handle.value = nil
        withExtendedLifetime(run) {}
        #expect(live.value == 0)
    }
}
