// The value dump and the line diff behind the harness's messages (T3) and the inspector's dumps.

import Foundation
import StateLoop
import Testing

@Suite struct ValueDumpTests {
    struct Repository: Equatable {
        var name: String
        var stars: Int
        var url: URL?
    }

    enum Event {
        case idle
        case one(Int)
        case labelled(search: String)
        case pair(Int, Int)
        case loaded(repositories: [Repository], nextURL: URL?)
    }

    final class Node {
        var name: String
        var next: Node?
        init(name: String) { self.name = name }
    }

    @Test func enumsPrintLikeTheirCase() {
        #expect(ValueDump.line(of: Event.idle) == ".idle")
        #expect(ValueDump.line(of: Event.one(1)) == ".one(1)")
        #expect(ValueDump.line(of: Event.labelled(search: "a \"b\"")) == #".labelled(search: "a \"b\"")"#)
        #expect(ValueDump.line(of: Event.pair(1, 2)) == ".pair(1, 2)")
    }

    @Test func structsTakeOneLinePerField() {
        let repository = Repository(name: "swift", stars: 1, url: URL(string: "https://github.com/swiftlang/swift"))
        #expect(ValueDump.lines(of: Event.loaded(repositories: [repository], nextURL: nil)) == [
            ".loaded(",
            "  repositories: [",
            "    ValueDumpTests.Repository(",
            #"      name: "swift","#,
            "      stars: 1,",
            "      url: https://github.com/swiftlang/swift",
            "    )",
            "  ],",
            "  nextURL: nil",
            ")",
        ])
        #expect(ValueDump.line(of: repository) == #"ValueDumpTests.Repository(name: "swift", stars: 1, url: https://github.com/swiftlang/swift)"#)
    }

    @Test func collectionsPrintSortedAndBreakWhenLong() {
        #expect(ValueDump.lines(of: Set([3, 1, 2])) == ["[1, 2, 3]"])
        #expect(ValueDump.lines(of: ["b": 2, "a": 1]) == [#"["a": 1, "b": 2]"#])
        #expect(ValueDump.lines(of: [String: Int]()) == ["[:]"])
        #expect(ValueDump.lines(of: (1, label: "x")) == [#"(1, label: "x")"#])
        #expect(ValueDump.lines(of: Duration.seconds(5)) == ["5.0 seconds"])
        let long = (1...3).map { String(repeating: "\($0)", count: 30) }
        #expect(ValueDump.lines(of: long) == ["[", #"  "\#(long[0])","#, #"  "\#(long[1])","#, #"  "\#(long[2])""#, "]"])
    }

    @Test func classesPrintTheirFieldsAndCutCycles() {
        let node = Node(name: "a")
        node.next = node
        #expect(ValueDump.line(of: node) == #"ValueDumpTests.Node(name: "a", next: ValueDumpTests.Node(↩︎))"#)
    }

    @Test func theLineDiffMarksRemovedThenAddedLines() {
        #expect(LineDiff.diff(["a", "b"], ["a", "b"]) == nil)
        #expect(LineDiff.diff(["(", "x: 1,", "y: 2", ")"], ["(", "x: 3,", "y: 2", "z: 4", ")"]) == [
            "  (",
            "− x: 1,",
            "+ x: 3,",
            "  y: 2",
            "+ z: 4",
            "  )",
        ])
        #expect(LineDiff.diff(["a", "b", "c"], ["c"]) == ["− a", "− b", "  c"])
    }
}
