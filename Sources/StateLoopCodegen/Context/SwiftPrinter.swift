import StateLoopSpec

// Owns the layout of every generated statement: the one way the builder writes Swift lines. The
// printer keeps the indentation (four spaces a level), so no caller counts spaces, and it keeps
// track of `#sourceLocation` blocks: spec text is laid out by `SourcePlacement` at its YAML line
// and column, consecutive spec texts share one block (a directive sets the line of what follows
// until the next), and the first generated line after spec text closes the block.

/// Prints generated Swift line by line, indented by level, with spec text at its YAML position.
struct SwiftPrinter {
    let placement: SourcePlacement
    private(set) var lines: [String] = []
    /// The indentation level of the next line: 0 is the file's, 1 the machine's members.
    private(set) var level: Int
    /// True while the last lines are spec text in an open `#sourceLocation` block.
    private var inBlock = false

    /// A printer whose first line stands at `level`.
    init(placement: SourcePlacement, level: Int) {
        self.placement = placement
        self.level = level
    }

    /// The spaces of the current level.
    var indentation: String { SourcePlacement.spaces(4 * level) }

    /// A line of the generated code's own, after the closing directive when spec text precedes it.
    /// An empty line stays empty.
    mutating func line(_ text: String) {
        closeBlock()
        lines.append(text.isEmpty ? "" : indentation + text)
    }

    /// What another printer printed, at the levels it printed it.
    mutating func append(_ other: SwiftPrinter) {
        append(lines: other.finished())
    }

    /// Lines another printer printed, at the levels it printed them.
    mutating func append(lines more: [String]) {
        closeBlock()
        lines += more
    }

    /// The next lines one level deeper.
    mutating func indent() { level += 1 }

    /// The next lines one level shallower.
    mutating func outdent() { level -= 1 }

    /// `opening`, then what `body` prints one level deeper, then `closing` (none after a `case`).
    mutating func block(_ opening: String, closing: String? = "}", _ body: (inout SwiftPrinter) -> Void) {
        line(opening)
        indent()
        body(&self)
        outdent()
        if let closing { line(closing) }
    }

    /// `switch subject {`, then the cases `body` prints at the level of the `switch`, then `}`.
    mutating func switchBlock(_ subject: String, _ body: (inout SwiftPrinter) -> Void) {
        line("switch \(subject) {")
        body(&self)
        line("}")
    }

    /// `prefix` and `text` at its YAML line and column, then `suffix` on a line of its own, in
    /// the open `#sourceLocation` block (`prefix` goes on the line before when it does not fit).
    mutating func spec(_ text: Located<String>, after prefix: String = "", then suffix: String? = nil) {
        lines += placement.lines(text, after: prefix, indent: indentation)
        if let suffix { lines.append(indentation + suffix) }
        inBlock = true
    }

    /// The lines, the last `#sourceLocation` block closed.
    func finished() -> [String] {
        inBlock ? lines + [SourcePlacement.end] : lines
    }

    /// The lines as one text, a line break between lines: what a template prints with one tag.
    var text: String {
        finished().joined(separator: "\n")
    }

    private mutating func closeBlock() {
        if inBlock {
            lines.append(SourcePlacement.end)
            inBlock = false
        }
    }
}
