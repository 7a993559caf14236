// The StateLoop runtime: System, Feedback, react(...), Store. See Docs/Runtime.md.
