// The StateLoop runtime: a feedback-loop system in the style of RxFeedback.
//
// Public surface (see Docs/Runtime.md for the semantics, one sentence per test):
//   System        - initial state, reducer, feedback loops; `start` makes a fresh instance.
//   SystemRun     - the handle of one instance: `send(_:)`, `stop()`; released -> stopped.
//   Feedback      - `react(request:effect:)`, `react(requests:effect:)`, `timer(...)`.
//   Store         - a main-actor, observable view of one instance for UI.
//
// Internals: `SystemCore` (the floodgate: a queue drained by one thread at a time, under a
// `PlatformLock`), the running loops (`RequestLoop`, `RequestSetLoop`, reached through
// `FeedbackLoop`) and `EffectRun` (the token that makes late events of a cancelled effect
// recognisable). The per-event path is `@inlinable` so that clients get it specialised.
