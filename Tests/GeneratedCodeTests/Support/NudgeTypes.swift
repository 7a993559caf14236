// What the Nudge fixture's guard names: a helper of the app's own that reads the pending sends,
// where no expression of the spec names `pendingSends` (Docs/Statecharts.md S36, issue 30, 1.3).

extension Nudge.State {
    /// True while the nudge is pending.
    var hasPendingNudge: Bool { !pendingSends.isEmpty }
}
