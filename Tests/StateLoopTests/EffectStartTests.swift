// Starting effects without a hop (Docs/Runtime.md E54): where `Task.immediate` exists, a run
// starts on the draining thread and runs there until its first suspension; what it sends there
// is queued, never reduced inside it.

import Foundation
@testable import StateLoop
import StateLoopTestSupport
import Testing

/// The calling thread, printable (a synchronous function: async code may not ask for it).
private func thisThread() -> String { "\(Thread.current)" }

@Suite struct EffectStartTests {
    private func system(_ log: Recorder<String>) -> System<Model, Action> {
        System(
            initial: Model(),
            reduce: { state, action in
                log.append("reduce \(action) on \(thisThread())")
                reduceModel(&state, action)
            },
            feedbacks: [
                .react(request: { $0.query }, run: { query, send in
                    log.append("run \(query) on \(thisThread())")
                    send(.loaded(query))
                    log.append("run \(query) sent on \(thisThread())")
                })
            ])
    }

    @Test("E54: an effect that answers at once never leaves the draining thread")
    func effectThatAnswersAtOnceNeverLeavesTheDrainingThread() async {
        let log = Recorder<String>()
        let run = system(log).start { _ in }
        let expected = Box<[String]>([])

        await onOwnThread {
            run.send(.query(1))  // drains here: the run starts and answers before this returns
            let here = thisThread()
            expected.value = [
                "reduce query(Optional(1)) on \(here)",
                "run 1 on \(here)",
                "run 1 sent on \(here)",  // `send` only queued: nothing was reduced inside the run
                "reduce loaded(1) on \(here)",
            ]
        }

        #if compiler(>=6.2)
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            #expect(log.all == expected.value)
        }
        #endif
        withExtendedLifetime(run) {}
    }

    @Test("E54: with tasks forced, a run starts in a task of its own")
    func forcedTasksStartEveryRunOffTheDrainingThread() async {
        let log = Recorder<String>()
        let (run, states) = EffectStart.$forcesTasks.withValue(true) { system(log).start() }
        let drainer = Box("")

        await onOwnThread {
            run.send(.query(1))
            drainer.value = thisThread()
        }
        _ = await states.firstMatch { $0.loaded == [1] }

        let runs = log.all.filter { $0.hasPrefix("run 1 on") }
        #expect(runs.count == 1)
        #expect(runs.first != "run 1 on \(drainer.value)")
        withExtendedLifetime(run) {}
    }
}
