// The StateLoop runtime: a feedback-loop system in the style of RxFeedback.
//
// Public surface (see Docs/Runtime.md for the semantics, one sentence per test):
//   System        - initial state, reducer, feedback loops, optionally `isFinished`; `start`
//                   makes a fresh instance.
//   SystemRun     - the handle of one instance: `send(_:)`, `stop()`; released -> stopped.
//   Feedback      - `react(request:effect:)` (one answer), `react(request:run:)` (any number of
//                   events) and `react(request:run:onError:)` (and a failure), each also for a set
//                   (`requests:`); `child(...)` (a child system per request), `timer(...)`,
//                   `runs(pending:effect:)`.
//   Store         - a main-actor, observable view of one instance for UI.
//   CallLog       - the thread-safe call list of generated test doubles.
//   StateMachine  - what a generated machine gives tests and tools (Docs/Testing.md): the traced
//                   reducer (`TransitionTrace`), the runs and timers a state asks for, its
//                   branches (`TransitionInfo`) and its paths (`MachinePaths`).
//
// Internals: `SystemCore` (the floodgate: a queue drained by one thread at a time, under a
// `PlatformLock`), the running loops (`RequestLoop`, `RequestSetLoop`, `RunsLoop`, reached
// through `FeedbackLoop`; `ChildRun` for child systems), `EffectRun` (the token that makes late
// events of a cancelled effect recognisable), `EffectStart` (how a run's task starts) and
// `OneShotRuns` (the runs no state change cancels, waited for on finishing).
// The per-event path is `@inlinable` so that clients get it specialised.
