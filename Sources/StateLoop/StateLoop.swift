// The StateLoop runtime: a feedback-loop system in the style of RxFeedback.
//
// Invariants (Docs/Runtime.md has the semantics, one sentence per test):
// - A `System` is an immutable description; every `start` makes an independent instance.
// - An instance reduces one event at a time on the thread that holds its drain role, and shows
//   every state to every feedback before the next event (no reentrancy, no hop on that path).
// - Its phase is one value, `SystemLifecycle`, changed in one place (E65-E69).
// - An effect run's late events are dropped once its request changed or went (stale).
//
// Public surface:
//   System        - initial state, reducer, feedback loops, optionally `isFinished`; `start`
//                   makes a fresh instance.
//   SystemRun     - the handle of one instance: `send(_:)`, `stop()`; released -> stopped.
//   Feedback      - `react(request:effect:)` (one answer), `react(request:run:)` (any number of
//                   events) and `react(request:run:onError:)` (and a failure), each also for a set
//                   (`requests:`); `child(...)` (a child system per request), `timer(...)`,
//                   `timers(...)` (one per element of a set: a machine's pending sends),
//                   `runs(pending:effect:)`.
//   Store         - a main-actor, observable view of one instance for UI.
//   CallLog       - the thread-safe call list of generated test doubles.
//   OneShotRun    - `key`, the number of the one-shot run a task performs (its idempotency key).
//   Description/  - what a generated machine gives tests and tools (Docs/Testing.md):
//                   `StateMachine`, the traced reducer (`TransitionTrace`), the runs and timers a
//                   state asks for (`EffectRequest`, `ArmedTimer`, `ArmedSend`), its branches
//                   (`TransitionInfo`) and its paths (`PathTable`).
//
// Internals: `SystemCore` (the floodgate: a queue drained by one thread at a time, under a
// `PlatformLock`) and its `SystemLifecycle`, the running loops (`RequestLoop`, `RequestSetLoop`,
// `RunsLoop`, reached through `FeedbackLoop`; `ChildRun` for child systems), `EffectRun` (the
// token that makes late events of a cancelled effect recognisable), `EffectStart` (how a run's
// task starts) and `OneShotRuns` (the runs no state change cancels, waited for on finishing).
// `SystemJournal` (Journal/) is the write-ahead hook of a durable instance and what its loops
// resume with, built only by StateLoopDurable (`package` access).
// The per-event path is `@inlinable` so that clients get it specialised.
