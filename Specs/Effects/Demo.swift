// Runs a machine from a short script and records its trace: every event and the state after it.
// The demo executable prints traces; ExamplesTests asserts them.
import Synchronization
import StateLoop

/// Drives one running instance of a system from a script: send events, wait for states.
public final class ScriptDriver<State: Sendable, Event: Sendable> {
    private let run: SystemRun<State, Event>
    private var states: AsyncStream<State>.Iterator

    init(run: SystemRun<State, Event>, states: AsyncStream<State>) {
        self.run = run
        self.states = states.makeAsyncIterator()
    }

    /// Sends an event from outside, as a user interface would.
    public func send(_ event: Event) {
        run.send(event)
    }

    /// Waits until the machine reaches a state for which `condition` holds (effects and timers
    /// run meanwhile). Returns false when the machine stopped first.
    @discardableResult
    public func waitUntil(_ condition: (State) -> Bool) async -> Bool {
        while let state = await states.next() {
            if condition(state) { return true }
        }
        return false
    }

    /// The next state the machine delivers (the initial state, first).
    func next() async -> State? {
        await states.next()
    }
}

/// A machine run from a script, with its trace.
public enum Demo {
    /// Starts `system`, runs `script` against it, stops it, and returns the trace lines:
    /// `event -> state` for every reduced event, the state described by `describe`.
    public static func trace<State: Sendable, Event: Sendable>(
        _ system: System<State, Event>,
        describe: @escaping @Sendable (State) -> String,
        script: (ScriptDriver<State, Event>) async -> Void
    ) async -> [String] {
        let lines = Mutex<[String]>([])
        let observed = system.observingEvents { event, state in
            lines.withLock { $0.append("\(event) -> \(describe(state))") }
        }
        let (run, states) = observed.start()
        let driver = ScriptDriver(run: run, states: states)
        let initial = await driver.next().map { "start -> \(describe($0))" } ?? "start -> (stopped)"
        await script(driver)
        run.stop()
        return [initial] + lines.withLock { $0 }
    }
}
